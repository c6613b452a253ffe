"""Cabling schedule (cut sheet): a pure function of a design and its cable plant.

Counting conventions are the bill of materials' (:mod:`model.bom`): backplane links come with
the rack and are not listed; a link with no orderable part is listed with its ordered length empty.

The cabling schedule has one row per link. ``link_id`` is the link id (stable across edits, the
same id as in the design file and the NetBox export); ``cable_id`` the physical assembly it runs
on (the two links of a straight twin-port cable share it); ``label`` is the link's own label when
the user gave one, else ``{rack}-U{u}-{port} to {rack}-U{u}-{port}`` (A end first), made unique
with `` #{link_id}`` when two rows would share a label. The A end is the end that sorts first by
(rack name, U, port) in natural order, and rows are sorted by A rack, A U, A port, so installers
work rack by rack.
"""

from __future__ import annotations

from collections import Counter

from msgspec import Struct

from model.bom import _link_medium, _num, _round, natural_key
from model.cabling import NO_MEDIUM, NO_TRAY_PATH, SAME_RACK, CablePlant
from model.design import Design
from model.plant import PhysicalPlant, build_plant

SCHEDULE_COLUMNS = (
    "cable_id",
    "link_id",
    "label",
    "a_rack",
    "a_u",
    "a_device",
    "a_port",
    "b_rack",
    "b_u",
    "b_device",
    "b_port",
    "speed_gbps",
    "medium",
    "medium_kind",
    "length_m",
    "ordered_length_m",
    "a_cage",
    "b_cage",
    "a_module",
    "b_module",
    "part",
    "route",
)


class ScheduleRow(Struct, frozen=True, kw_only=True):
    """One cable of the cut sheet (lengths in metres; ``ordered_length_m`` None = not orderable)."""

    cable_id: str
    link_id: str
    label: str
    a_rack: str
    a_u: int
    a_device: str
    a_port: str
    b_rack: str
    b_u: int
    b_device: str
    b_port: str
    speed_gbps: float
    medium: str
    medium_kind: str
    length_m: float | None
    ordered_length_m: float | None
    a_cage: str
    b_cage: str
    a_module: str
    b_module: str
    part: str
    route: str

    def as_row(self) -> tuple:
        return tuple(getattr(self, name) for name in SCHEDULE_COLUMNS)


def schedule_rows(
    design: Design, plant: CablePlant, phys: PhysicalPlant | None = None, segments: bool = True
) -> list[ScheduleRow]:
    """One row per link (backplane links excluded), sorted for installers rack by rack.

    ``cable_id`` names the physical assembly (the two links of a straight twin-port cable share
    one: the smaller link id + "+"; a fibre or a single-link cable has its link's id);
    ``a_cage``/``b_cage`` the cages, ``a_module``/``b_module`` the module part numbers (empty
    for an integrated cable's end), ``part`` the cable's or fibre's part number at its length.
    """
    racks, devices, trays = design.racks, design.devices, design.trays
    if phys is None or not phys.link_parts:
        phys = build_plant(plant, with_links=True)
    parts = phys.link_parts
    types = design.catalog.device_types
    # Cables leaving the same rack face for the same rack face follow the same trays (the
    # engine routes between per-face drop points), so ask the engine once per pair of faces.
    route_cache: dict[tuple[str, str, str, str], list[str] | None] = {}
    rows: list[tuple[tuple, ScheduleRow]] = []
    for link_id, link in design.links.items():
        i = plant.index.get(link_id)
        medium = _link_medium(plant, i) if i is not None else None
        if medium is not None and medium.kind == "backplane":
            continue
        ends = []
        for end in (link.a, link.b):
            device = devices[end.device]
            rack_name = racks[device.rack].name
            ends.append(
                (
                    natural_key(rack_name),
                    device.u,
                    natural_key(end.port),
                    rack_name,
                    device.name,
                    end.port,
                )
            )
        swapped = ends[1][:3] < ends[0][:3]
        a, b = (ends[1], ends[0]) if swapped else (ends[0], ends[1])
        status = int(plant.status[i]) if i is not None else NO_MEDIUM
        dev_a, dev_b = devices[link.a.device], devices[link.b.device]
        key = (dev_a.rack, types[dev_a.type].ports_face, dev_b.rack, types[dev_b.type].ports_face)
        if status & (SAME_RACK | NO_TRAY_PATH):
            tray_ids = None
        elif key in route_cache:
            tray_ids = route_cache[key]
        else:
            tray_ids = route_cache[key] = _route_trays(plant, link_id)
        route = _route_text(tray_ids, status, trays, swapped)
        length = _num(plant.length_m[i]) if i is not None else None
        ordered = _num(plant.ordered_m[i]) if i is not None and medium is not None else None
        speed = float(plant.speed_gbps[i]) if i is not None else 0.0
        label = link.label or f"{a[3]}-U{a[1]}-{a[5]} to {b[3]}-U{b[1]}-{b[5]}"
        cable_id, a_cage, b_cage, a_module, b_module, part = parts.get(
            link_id, (link_id, "", "", "", "", "")
        )
        if swapped:
            a_cage, b_cage, a_module, b_module = b_cage, a_cage, b_module, a_module
        row = ScheduleRow(
            cable_id=cable_id,
            link_id=link_id,
            label=label,
            a_rack=a[3],
            a_u=a[1],
            a_device=a[4],
            a_port=a[5],
            b_rack=b[3],
            b_u=b[1],
            b_device=b[4],
            b_port=b[5],
            speed_gbps=speed if speed % 1 else int(speed),
            medium=medium.id if medium else "",
            medium_kind=medium.kind if medium else "",
            length_m=_round(length),
            ordered_length_m=_round(ordered, 3),
            a_cage=a_cage,
            b_cage=b_cage,
            a_module=a_module,
            b_module=b_module,
            part=part,
            route=route,
        )
        rows.append(((a[0], a[1], a[2], b[0], b[1], b[2], link_id), row))
    rows.sort(key=lambda kr: kr[0])
    out = [row for _, row in rows]
    seen = Counter(row.label for row in out)
    if any(n > 1 for n in seen.values()):
        from msgspec.structs import replace

        out = [
            replace(row, label=f"{row.label} #{row.link_id}") if seen[row.label] > 1 else row
            for row in out
        ]
    # Structured designs: each paneled link as its segments (direct designs: rows unchanged);
    # ``segments=False``: one row per link (the NetBox export builds its own cords and trunks).
    if not segments:
        return out
    from model.schedule_segments import segment_rows

    return segment_rows(design, plant, out)


def _route_trays(plant: CablePlant, link_id: str) -> list[str] | None:
    try:
        return list(plant.route(link_id).tray_ids)
    except (AttributeError, KeyError, IndexError):
        return None


def _route_text(tray_ids: list[str] | None, status: int, trays: dict, swapped: bool) -> str:
    if status & SAME_RACK:
        return "(in rack)"
    if status & NO_TRAY_PATH:
        return "(no tray path: floor run)"
    if tray_ids is None:
        return ""
    ordered = reversed(tray_ids) if swapped else tray_ids
    names: list[str] = []
    for tray_id in ordered:
        name = (trays[tray_id].name or tray_id) if tray_id in trays else tray_id
        if not names or names[-1] != name:
            names.append(name)
    return " > ".join(names)
