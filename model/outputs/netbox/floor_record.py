"""What NetBox has no field for, kept in the fields it has: each rack's floor position, rotation
and Hallwright id, and the hall's outline, obstacles and trays.

NetBox racks have no floor coordinates, and sites no floor plan. So that ``import-netbox`` gets
a design back as it was exported (not racks re-laid in rows by name), the export writes:

- on each rack, ``facility_id`` = the Hallwright rack id (NetBox's "locally-assigned
  identifier", at most 50 characters: a longer id is left out of it), and ``comments`` = one
  line a person reads and the import parses: ``Hallwright rack r-a01 at x 12.300 m, y 4.500 m,
  rotation 90``;
- on the site, ``comments`` = ``Hallwright hall:`` and the hall's geometry as JSON (outline,
  obstacles, tile size, tray elevation, raised floor; the trays with every field), and its
  facility records (power feeds, busways and panels with their routes and ratings, CDUs and
  CRAHs with their positions and capacities): NetBox's power panels and feeds have no route,
  rating or redundancy, and a CDU no NetBox object at all, so the BOM's power and cooling
  lines could not be counted again from them;
- on a rack with a power path or cooling units, a second comment line
  ``Hallwright rack facility: {"pdus": [...], "cooling": [...]}`` (``Rack.pdus``, the panel
  each PDU or shelf plugs into; ``Rack.cooling``). Its PDUs and shelves are NetBox devices in
  the rack without a U position (model.outputs.netbox.power); the import keeps an entry while
  its device is there.

Custom fields would hold these too, but a NetBox must be given them before any import (one more
file to import first, by an administrator); the rack's and site's own fields need nothing. The
comments are plain text in NetBox's list exports (column "Comments"; "Facility ID"), which is
what the import reads.
"""

from __future__ import annotations

import re

import msgspec

from model.design.entities import Cooling, Hall, Obstacle, Point, Power, Rack, Tray

FACILITY_ID_MAX = 50  # NetBox Rack.facility_id
HALL_MARK = "Hallwright hall: "
RACK_FACILITY_MARK = "Hallwright rack facility: "
_RACK = re.compile(
    r"^Hallwright rack (?P<id>\S+) at x (?P<x>-?[0-9]+(?:\.[0-9]+)?) m, "
    r"y (?P<y>-?[0-9]+(?:\.[0-9]+)?) m, rotation (?P<rotation>0|90|180|270)\b"
)


class HallRecord(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The hall geometry a site's comments carry (see the module docstring)."""

    outline: list[Point]
    obstacles: list[Obstacle] = []
    tile_m: float = 0.6
    tray_elevation_m: float = 2.9
    raised_floor: bool = False
    floor_void_m: float = 0.6
    trays: list[Tray] = []
    # None when the hall has none: a record without a facility reads as it did before it
    power: Power | None = None
    cooling: Cooling | None = None
    floor_rating_kg_m2: float | None = None


class RackFacility(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A rack's facility entries its comments carry (see the module docstring)."""

    pdus: list[str] = []
    cooling: list[str] = []


def rack_facility_id(rack: Rack) -> str:
    return rack.id if len(rack.id) <= FACILITY_ID_MAX else ""


def rack_comment(rack: Rack) -> str:
    line = (
        f"Hallwright rack {rack.id} at x {rack.x:.3f} m, y {rack.y:.3f} m, rotation {rack.rotation}"
    )
    if not (rack.pdus or rack.cooling):
        return line
    record = RackFacility(pdus=list(rack.pdus), cooling=list(rack.cooling))
    return f"{line}\n{RACK_FACILITY_MARK}{msgspec.json.encode(record).decode('utf-8')}"


def parse_rack_facility(text: str) -> RackFacility | None:
    """The facility line of a rack's comments; None when they hold none. A line that does not
    decode raises ``ValueError``."""
    for line in (text or "").splitlines():
        line = line.strip()
        if line.startswith(RACK_FACILITY_MARK):
            try:
                return msgspec.json.decode(
                    line[len(RACK_FACILITY_MARK) :].encode("utf-8"), type=RackFacility
                )
            except msgspec.DecodeError as exc:
                raise ValueError(f"its facility line is not valid: {exc}") from None
    return None


def parse_rack_comment(text: str) -> tuple[str, float, float, int] | None:
    """(rack id, x m, y m, rotation) from a rack's comments, or None when they hold no such
    line (a NetBox Hallwright did not write, or comments someone rewrote)."""
    match = _RACK.match((text or "").strip())
    if match is None:
        return None
    return match["id"], float(match["x"]), float(match["y"]), int(match["rotation"])


def hall_comment(hall: Hall, trays: list[Tray]) -> str:
    record = HallRecord(
        outline=list(hall.outline),
        obstacles=list(hall.obstacles),
        tile_m=hall.tile_m,
        tray_elevation_m=hall.tray_elevation_m,
        raised_floor=hall.raised_floor,
        floor_void_m=hall.floor_void_m,
        trays=trays,
        power=hall.power if hall.power != Power() else None,
        cooling=hall.cooling if hall.cooling != Cooling() else None,
        floor_rating_kg_m2=hall.floor_rating_kg_m2,
    )
    return HALL_MARK + msgspec.json.encode(record).decode("utf-8")


def parse_hall_comment(text: str) -> HallRecord | None:
    """The hall record of a site's comments; None when they hold none. A record that does not
    decode (edited by hand) raises ``ValueError`` with msgspec's path to the bad value."""
    text = (text or "").strip()
    if not text.startswith(HALL_MARK):
        return None
    try:
        return msgspec.json.decode(text[len(HALL_MARK) :].encode("utf-8"), type=HallRecord)
    except msgspec.DecodeError as exc:
        message = f"the site's comments hold a Hallwright hall that is not valid: {exc}"
        raise ValueError(message) from None


def recorded_hall(record: HallRecord) -> Hall:
    """The hall of a record (without its trays, which the design holds apart)."""
    return Hall(
        outline=list(record.outline),
        obstacles=list(record.obstacles),
        tile_m=record.tile_m,
        tray_elevation_m=record.tray_elevation_m,
        raised_floor=record.raised_floor,
        floor_void_m=record.floor_void_m,
        power=record.power or Power(),
        cooling=record.cooling or Cooling(),
        floor_rating_kg_m2=record.floor_rating_kg_m2,
    )
