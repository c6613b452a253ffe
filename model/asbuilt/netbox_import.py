"""A NetBox site back as a design: the CSV files NetBox's lists export ("Export -> All data").

Reads the sites, racks, devices and cables exports (the column titles NetBox 4.x writes: racks
``Name, Site, Height, Outer Width, Outer Depth, Description``; devices ``Name, Site, Rack, Role,
Manufacturer, Type, Position, Description``; cables ``Device A, Termination A, Device B,
Termination B, Site A, Site B, Label, Length``, and ``Type, Description`` when present) of one
site into a design.

- Device types are matched to the catalog by manufacturer and model; a model Hallwright's
  export wrote as a variant (``SN5600 (p 2x400G)``) gives its breakout back. A device of a type
  the catalog does not know is left out, with a note, and so are its cables.
- Ids come back from the ``Hallwright <id>`` descriptions the export writes, else from names.
- NetBox has no floor positions: racks are laid out in rows by the letters their names start
  with (``A01``, ``A02`` -> row A), front to the aisle, rows 1.2 m apart, in a hall drawn around
  them with one tray over each row; the notes say so.
- Cables become links with NetBox's label; a recorded length becomes the as-built length, and
  a recorded medium that differs from the policy's choice is pinned
  (:mod:`model.asbuilt.netbox_media`).
  NetBox's cable list names a device that has an asset tag ``name (asset tag)`` (every device
  Hallwright exports has one): that is read as the device ``name``.
- Patch panels of the catalog's panel types come back as panel devices; each patch cord -
  trunk(s) - patch cord through them becomes one link routed via those panels (``Link.via``,
  :mod:`model.asbuilt.netbox_panels_import`) and the design's cabling style becomes
  ``cross-connect`` (``zones`` when a channel passes a third panel). Each such link keeps its
  cords' and trunks' recorded lengths (``Link.as_built_pieces_m``), which the layout orders
  instead of estimating them again. A panel of a type the catalog does not know is a
  pass-through: its links are joined and take the style's own panels.
"""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from model.asbuilt.netbox_custom_types import unknown_types
from model.asbuilt.netbox_facility_import import pdu_entry, rack_facility, without_pdus
from model.asbuilt.netbox_media import pin_recorded_media, recorded_medium
from model.asbuilt.netbox_panels_import import (
    check_virtual_panels,
    idle_legs,
    join_through_panels,
    virtual_panel_part,
)
from model.asbuilt.netbox_types import TypeMatcher
from model.asbuilt.report_csv import ReportError, read_table
from model.catalog.components import DEVICE_ROLES, CatalogFile, builtin_catalog
from model.common.name_key import name_key
from model.design import limits
from model.design.design import Design, DesignError
from model.design.entities import Device, Hall, Link, PortRef, Rack, Rotation, Tray
from model.outputs.netbox.floor_record import (
    parse_hall_comment,
    parse_rack_comment,
    recorded_hall,
)
from model.structured.layout import set_cabling

PANEL_ROLE = "patch-panel"

FILES = {
    "sites": "netbox_sites.csv",
    "racks": "netbox_racks.csv",
    "devices": "netbox_devices.csv",
    "cables": "netbox_cables.csv",
}
SITE_COLUMNS = {"name": ("Name",)}
SITE_OPTIONAL_COLUMNS = {"comments": ("Comments",)}
RACK_COLUMNS = {
    "name": ("Name",),
    "site": ("Site",),
    "height": ("Height", "Height (U)"),
    "outer_width": ("Outer Width",),
    "outer_depth": ("Outer Depth",),
    "description": ("Description",),
}
# What Hallwright's export keeps of the floor plan (model.outputs.netbox.floor_record)
RACK_OPTIONAL_COLUMNS = {"facility_id": ("Facility ID",), "comments": ("Comments",)}
DEVICE_COLUMNS = {
    "name": ("Name",),
    "site": ("Site",),
    "rack": ("Rack",),
    "role": ("Role",),
    "manufacturer": ("Manufacturer",),
    "type": ("Type", "Device Type"),
    "position": ("Position",),
    "description": ("Description",),
}
DEVICE_OPTIONAL_COLUMNS = {"u_height": ("U Height",)}
CABLE_COLUMNS = {
    "device_a": ("Device A", "Side A"),
    "port_a": ("Termination A",),
    "device_b": ("Device B", "Side B"),
    "port_b": ("Termination B",),
    "site_a": ("Site A",),
    "site_b": ("Site B",),
    "label": ("Label",),
    "length": ("Length",),
}
# Read when the list export has them: what the cable is (:mod:`model.asbuilt.netbox_media`).
CABLE_OPTIONAL_COLUMNS = {"type": ("Type",), "description": ("Description",)}
AISLE_M = 1.2
MARGIN_M = 1.8
_ID = re.compile(r"^Hallwright (\S+)$")
_VARIANT = re.compile(r"^(?P<group>\w+) (?P<fanout>\d+)x")
_NUMBER = r"([0-9]{1,9}(?:\.[0-9]*)?|\.[0-9]+)"  # no exponent, no 5,000 digits
_LENGTH = re.compile(rf"^\s*{_NUMBER}\s*(m|cm|km|ft|in)?\s*$")
_MM = re.compile(rf"^\s*{_NUMBER}\s*mm\s*$")
_HEIGHT_U = re.compile(r"^\s*([0-9]{1,4})\s*U?\s*$")
_POSITION_U = re.compile(r"^\s*([0-9]{1,4})(?:\.[0-9]*)?\s*$")
MAX_CABLE_M = 100_000.0  # the loader's longest length
_UNIT_M = {"m": 1.0, "cm": 0.01, "km": 1000.0, "ft": 0.3048, "in": 0.0254, None: 1.0}


@dataclass
class ImportResult:
    design: Design
    notes: list[str] = field(default_factory=list)
    # One line per object of the site NetBox holds that the design did not take (what, where,
    # why): the command lists them all and exits 1 when there is any.
    left_out: list[str] = field(default_factory=list)


class Notes(list):
    """The import's notes, and each object it did not bring back (``left_out``)."""

    def __init__(self) -> None:
        super().__init__()
        self.left_out: list[str] = []


def _mm(text: str, default_m: float, where: str) -> float:
    """Metres of a NetBox outer width or depth ("600 mm"); empty: ``default_m``."""
    if not (text or "").strip():
        return default_m
    match = _MM.match(text)
    if not match or not 0 < float(match.group(1)) <= 100_000:
        raise ReportError(f"{where}: {text!r} is not a length in mm (such as '600 mm')")
    return float(match.group(1)) / 1000


def _whole(pattern: re.Pattern, text: str, default: int | None, where: str, what: str) -> int:
    """The whole number ``pattern`` reads from ``text`` (a rack height "48U", a position);
    empty: ``default``; anything else is refused with ``where`` (file and line)."""
    if not (text or "").strip() and default is not None:
        return default
    match = pattern.match(text or "")
    if not match or not 0 < int(match.group(1)) <= limits.MAX_U_HEIGHT:
        raise ReportError(f"{where}: {what} {text[:40]!r} is not a number of U (1-100)")
    return int(match.group(1))


def _ident(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.\-]+", "-", text).strip("-") or "x"


def _read(folder: Path, key: str, columns, optional=None) -> list[tuple[int, dict[str, str]]]:
    path = folder / FILES[key]
    if not path.is_file():
        raise ReportError(f"{folder}: no {FILES[key]} (NetBox's list export of {key})")
    # NetBox writes its list exports as excel CSV; sniffing is misled by a comments cell of
    # quoted JSON (the hall a Hallwright export keeps there)
    return read_table(path, columns, optional, csv.excel)


def _chosen_site(folder: Path, sites: list[str], site: str | None) -> str:
    if site is None:
        if len(sites) != 1:
            raise ReportError(
                f"{folder}: {len(sites)} sites in {FILES['sites']}; name one with --site "
                f"({', '.join(sites[:10])})"
            )
        return sites[0]
    if site not in sites:
        raise ReportError(f"{folder}: no site {site!r} in {FILES['sites']}")
    return site


def import_netbox(folder: str | Path, site: str | None = None) -> ImportResult:
    """The site's racks, devices and cables as a design (see the module docstring)."""
    folder = Path(folder)
    site_rows = {
        r["name"]: r for _, r in _read(folder, "sites", SITE_COLUMNS, SITE_OPTIONAL_COLUMNS)
    }
    site = _chosen_site(folder, list(site_rows), site)
    catalog = builtin_catalog()
    notes = Notes()
    racks_in = [
        (n, r)
        for n, r in _read(folder, "racks", RACK_COLUMNS, RACK_OPTIONAL_COLUMNS)
        if r["site"] == site
    ]
    if len(racks_in) > limits.MAX_RACKS:  # before any work: the design could not be opened
        raise ReportError(
            f"{folder}: site {site!r} has {len(racks_in):,} racks; a design holds at most "
            f"{limits.MAX_RACKS:,}"
        )
    rack_types = {t.model: t for t in catalog.rack_types.values()}
    rows: dict[str, list] = defaultdict(list)
    for n, r in sorted(racks_in, key=lambda nr: nr[1]["name"]):
        r["line"] = f"{FILES['racks']} line {n}"
        rows[re.split(r"\d", r["name"], maxsplit=1)[0] or "-"].append(r)  # its letters
    device_rows = [
        (n, d)
        for n, d in _read(folder, "devices", DEVICE_COLUMNS, DEVICE_OPTIONAL_COLUMNS)
        if d["site"] == site
    ]
    custom, by_layout = unknown_types(folder, catalog, device_rows, notes)
    design = Design(
        Hall(outline=[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]),
        name=site,
        custom_types=CatalogFile(device_types=custom),
    )
    # The floor plan Hallwright's export wrote into the site's and racks' comments, when every
    # rack has its line: then racks stand where they stood, with their ids and trays.
    try:
        hall_record = parse_hall_comment(site_rows[site]["comments"])
    except ValueError as exc:
        raise ReportError(f"{folder / FILES['sites']}: site {site!r}: {exc}") from None
    placed = {r["name"]: parse_rack_comment(r["comments"]) for _, r in racks_in}
    recorded = hall_record is not None and bool(racks_in) and all(placed.values())
    # The PDU and shelf devices NetBox holds: a rack's recorded entries come back with them
    # (None without a floor record: the hall's power panels are not known, no rack has PDUs)
    present = {e for _, d in device_rows if (e := pdu_entry(d)) is not None} if recorded else None
    rack_ids: dict[str, str] = {}
    taken: set[str] = set()
    names_seen: set[str] = set()
    repeated: list[str] = []
    racks: list[Rack] = []
    trays: list[Tray] = []
    y = MARGIN_M
    width = 0.0
    for row_index, (_, members) in enumerate(sorted(rows.items())):
        x = MARGIN_M
        depth = 0.0
        for r in members:
            # A design's rack names are unique ignoring case (the plan and the schedule name
            # racks by them); a second row of the same name is left out, the first one kept.
            if name_key(r["name"]) in names_seen:
                repeated.append(r["line"])
                notes.left_out.append(
                    f"rack {r['name']} ({r['line']}): a rack of the same name came first"
                )
                continue
            names_seen.add(name_key(r["name"]))
            rtype = rack_types.get(r["description"]) or catalog.rack_types["rack-48u-600x1200"]
            w = _mm(r["outer_width"], rtype.width_m, r["line"] + ", outer width")
            d = _mm(r["outer_depth"], rtype.depth_m, r["line"] + ", outer depth")
            height = _whole(_HEIGHT_U, r["height"], rtype.height_u, r["line"], "height")
            rack_id = f"r-{_ident(r['name'])}"
            at = placed[r["name"]] if recorded else None
            if at is not None and at[0] not in taken:
                rack_id = at[0]
            if rack_id in taken:  # "A 01" and "A-01" make the same id: both racks are kept
                rack_id = f"{rack_id}-{r['line'].rsplit(' ', 1)[-1]}"
            taken.add(rack_id)
            rack_ids.update(dict.fromkeys(_shown_names(r), rack_id))
            pdus, cooling = rack_facility(r, rack_id, present, notes.left_out)
            racks.append(
                Rack(
                    id=rack_id,
                    name=r["name"],
                    type=rtype.id,
                    x=at[1] if at else x + w / 2,
                    y=at[2] if at else y + d / 2,
                    width_m=w,
                    depth_m=d,
                    height_u=height,
                    power_budget_kw=rtype.power_budget_kw,
                    # The record's pattern reads only 0, 90, 180 or 270.
                    rotation=cast(Rotation, at[3]) if at else 0,
                    pdus=pdus,
                    cooling=cooling,
                )
            )
            x += w
            depth = max(depth, d)
        trays.append(
            Tray(id=f"t-row{row_index + 1}", points=[(MARGIN_M, y + depth / 2), (x, y + depth / 2)])
        )
        width = max(width, x)
        y += depth + AISLE_M
    if repeated:
        notes.append(
            f"{len(repeated):,} racks left out: a rack of the same name (as displayed) came"
            f" first ({', '.join(repeated[:3])}{' ...' if len(repeated) > 3 else ''})"
        )
    if recorded and hall_record is not None:
        trays = list(hall_record.trays)
        try:
            design.set_hall(recorded_hall(hall_record))
        except DesignError as exc:  # an outline edited into something the design refuses
            raise ReportError(f"{folder / FILES['sites']}: site {site!r}: {exc}") from None
        notes.append(
            f"{len(racks)} racks at their floor positions and rotations, with their ids, and "
            f"the hall's outline and {len(trays)} trays, read from the site's and racks' comments"
        )
    else:
        if racks:
            notes.append(
                f"{len(racks)} racks had no floor position in NetBox: laid out in {len(rows)} "
                f"rows by name, {AISLE_M} m apart, one tray over each row; move them to the "
                "real plan"
            )
        outline_w, outline_d = width + MARGIN_M, max(y - AISLE_M + MARGIN_M, 2 * MARGIN_M)
        design.set_hall(
            Hall(outline=[(0.0, 0.0), (outline_w, 0.0), (outline_w, outline_d), (0.0, outline_d)])
        )
    try:
        design.add_racks(racks)
    except DesignError as exc:  # a rack the design cannot hold (a name too long, ...)
        raise ReportError(f"{folder / FILES['racks']}: {exc}") from None
    try:
        design.add_trays(trays)
    except DesignError as exc:  # a recorded tray edited into one the design refuses
        raise ReportError(f"{folder / FILES['sites']}: site {site!r}: {exc}") from None
    virtual: dict[tuple[str, str], list[str]] = defaultdict(list)
    device_rows = without_pdus(device_rows, present, racks, notes)
    aliases = _add_devices(design, device_rows, rack_ids, notes, by_layout, virtual)
    _add_cables(design, folder, site, notes, aliases)
    check_virtual_panels(design, virtual, notes, notes.left_out)
    design.revision = 0
    return ImportResult(design, list(notes), notes.left_out)


def _add_each(add, items: list, what: str, where: dict[str, str], notes: list[str]) -> None:
    """``add(items)`` in one edit; if the design refuses it, each item alone, those it refuses
    left out with a note (the first three named with their file line and the design's reason):
    a corrupt or merged export (a device listed twice, two on one unit, an over-long label)
    costs the rows that are wrong, not the import."""
    try:
        add(items)
        return
    except DesignError:
        pass
    refused = []
    for item in items:
        try:
            add([item])
        except DesignError as exc:
            refused.append(f"{where.get(item.id, item.id)}: {exc}")
            if isinstance(notes, Notes):
                notes.left_out.append(f"{what} {item.id} ({refused[-1]})")
    if refused:
        shown = "; ".join(refused[:3]) + (
            f"; and {len(refused) - 3:,} more" if len(refused) > 3 else ""
        )
        notes.append(f"{len(refused):,} {what} left out, refused by the design: {shown}")


def _shown_names(rack_row: dict) -> tuple[str, ...]:
    """The names the device list's Rack column may give the rack: NetBox shows a rack with a
    facility id as "name (facility id)" (Rack.__str__), Hallwright's export writes its id there."""
    name, facility_id = rack_row["name"], rack_row.get("facility_id")
    return (name, f"{name} ({facility_id})") if facility_id else (name,)


def _add_devices(design: Design, device_rows, rack_ids, notes, by_layout, virtual):
    """Add the site's devices; returns device id -> NetBox interface name -> catalog port, for
    the types whose interface names differ from the catalog's. ``virtual`` gets (rack id,
    panel part) -> names of the export's virtual panels (no design device, no rack position)."""
    matcher = TypeMatcher(design.catalog, by_layout)
    devices = []
    unknown: dict[str, int] = defaultdict(int)
    used: set[str] = set()
    where: dict[str, str] = {}
    aliases: dict[str, dict[str, str]] = {}
    panels = 0
    for line, d in device_rows:
        part = virtual_panel_part(d) if d["role"] == PANEL_ROLE else ""
        if part and d["rack"] in rack_ids:
            virtual[(rack_ids[d["rack"]], part)].append(d["name"])
            continue
        if d["rack"] not in rack_ids or not d["position"]:
            notes.append(
                f"{FILES['devices']} line {line}: {d['name']} is in no rack position, left out"
            )
            notes.left_out.append(
                f"device {d['name']} ({FILES['devices']} line {line}): in no rack position"
            )
            continue
        match = matcher.match(d["manufacturer"], d["type"])
        if match is None and d["role"] == PANEL_ROLE:
            panels += 1  # a pass-through: its cords and trunks are joined into links
            continue
        if match is None:
            unknown[f"{d['manufacturer']} {d['type']}"] += 1
            notes.left_out.append(
                f"device {d['name']} ({FILES['devices']} line {line}): type "
                f"{d['manufacturer']} {d['type']!r} matches no catalog type"
            )
            continue
        dtype, breakout = match.dtype, match.breakout
        recorded_id = _ID.match(d["description"])
        device_id = recorded_id.group(1) if recorded_id else f"d-{_ident(d['name'])}"
        if device_id in used:
            device_id = f"{device_id}-{line}"
        used.add(device_id)
        where[device_id] = f"{FILES['devices']} line {line}"
        if match.ports:
            aliases[device_id] = match.ports
        role = d["role"] if d["role"] in DEVICE_ROLES else dtype.default_role
        devices.append(
            Device(
                id=device_id,
                name=d["name"],
                type=dtype.id,
                rack=rack_ids[d["rack"]],
                u=_whole(
                    _POSITION_U, d["position"], None, f"{FILES['devices']} line {line}", "position"
                ),
                role=role,
                breakout=breakout,
            )
        )
    if panels:
        notes.append(
            f"{panels} patch panels of types the catalog does not know read as pass-through: "
            "the links through them take the cabling style's own panels"
        )
    for name, count in sorted(unknown.items()):
        notes.append(f"{count} devices of type {name!r} left out: the catalog has no such type")
    library = sum(1 for d in devices if d.id in aliases)
    if library:
        notes.append(
            f"{library} devices of devicetype-library types: their interfaces read back to the "
            "catalog's port names"
        )
    _add_each(design.add_devices, devices, "devices", where, notes)
    return aliases


def _add_cables(design: Design, folder: Path, site: str, notes, aliases) -> None:
    by_name = {d.name: d.id for d in design.devices.values()}
    links = []
    left: list[tuple[int, dict[str, str]]] = []

    def device_of(cell: str) -> str | None:
        # NetBox writes a device with an asset tag as "name (asset tag)" in the cable list; the
        # tag may hold " (" itself, so every split is tried, the shortest name first.
        if cell in by_name:
            return by_name[cell]
        if cell.endswith(")"):
            at = cell.find(" (")
            while at > 0:
                if cell[:at] in by_name:
                    return by_name[cell[:at]]
                at = cell.find(" (", at + 1)
        return None

    def is_port(end: tuple[str, str]) -> bool:
        device = device_of(end[0])
        return device is not None and end[1] in design.ports(device)

    recorded: dict[str, tuple[str, str, str]] = {}
    for line, c in _read(folder, "cables", CABLE_COLUMNS, CABLE_OPTIONAL_COLUMNS):
        if c["site_a"] != site and c["site_b"] != site:
            continue
        a, b = device_of(c["device_a"]), device_of(c["device_b"])
        _catalog_ports(c, a, b, aliases)
        ports = is_port((c["device_a"], c["port_a"])) and is_port((c["device_b"], c["port_b"]))
        if a is None or b is None or not ports:
            left.append((line, c))
            continue
        length = _length_m(c["length"])
        recorded[f"nb-{line}"] = recorded_medium(c)
        links.append(
            Link(
                id=f"nb-{line}",
                a=PortRef(a, c["port_a"]),
                b=PortRef(b, c["port_b"]),
                as_built_m=length,
                label=c["label"],
            )
        )
    consumed: set[int] = set()
    joined, unjoined, trunk_rows = join_through_panels(left, is_port, _length_m, consumed)
    idle = idle_legs(left, consumed, is_port)
    consumed |= idle
    for line, c in left:  # every cable neither a link nor part of a joined channel
        if id(c) not in consumed:
            notes.left_out.append(_cable_left_out(line, c, is_port))
    for (end_a, end_b, label, length, panels, cord, pieces), n in zip(
        joined, range(1, len(joined) + 1), strict=True
    ):
        a, b = device_of(end_a[0]), device_of(end_b[0])
        if a is None or b is None:  # never: join_through_panels joins design ports only
            continue
        via = tuple(filter(None, map(device_of, panels)))
        recorded[f"nb-p{n}"] = recorded_medium(cord)
        links.append(
            Link(
                id=f"nb-p{n}",
                a=PortRef(a, end_a[1]),
                b=PortRef(b, end_b[1]),
                as_built_m=length,
                label=label,
                via=via if len(via) == len(panels) else (),  # a panel left out: the style chooses
                as_built_pieces_m=pieces,  # the layout checks they fit its channel
            )
        )
    skipped = len(left) - 2 * len(joined) - trunk_rows - len(idle)  # two cords each, trunks
    if idle:
        notes.append(
            f"{len(idle)} trunk legs carry no cord in NetBox (a port's second MPO leg: NetBox "
            "holds one cord per interface); they come back with their trunks"
        )
    _join_notes(design, notes, joined, unjoined, skipped)
    links = _one_cable_per_port(links, notes)
    where = {k.id: f"{FILES['cables']} line {k.id[3:]}" for k in links if k.id[3:].isdigit()}
    _add_each(design.add_links, links, "cables", where, notes)
    pin_recorded_media(design, recorded, notes)


def _join_notes(design: Design, notes, joined, unjoined: int, skipped: int) -> None:
    if joined:
        # A channel through a third (zone) panel is TIA-942 zones; the links keep their panels
        # either way (via), the style only chooses for links added later.
        style = "zones" if any(len(j[4]) > 2 for j in joined) else "cross-connect"
        set_cabling(design, style)
        notes.append(
            f"{len(joined)} links joined from patch cord - trunk - patch cord, routed via "
            f"their panels; cabling style set to {style}"
        )
    if unjoined:
        notes.append(f"{unjoined} patch cords left out: no trunk and far cord continue them")
    if skipped > unjoined:
        notes.append(
            f"{skipped - unjoined} cables left out: an end is a device or port the design "
            "does not have"
        )


def _catalog_ports(c: dict[str, str], a: str | None, b: str | None, aliases) -> None:
    """A library-named interface (``P0.0``) of either end as the catalog's port (``p1``)."""
    for side, device in (("a", a), ("b", b)):
        if device in aliases:
            c[f"port_{side}"] = aliases[device].get(c[f"port_{side}"], c[f"port_{side}"])


def _cable_left_out(line: int, c: dict[str, str], is_port) -> str:
    ends = []
    for side in ("a", "b"):
        end = (c[f"device_{side}"], c[f"port_{side}"])
        if not is_port(end):
            ends.append(f"{end[0]} {end[1]}")
    why = "no port of the design: " + ", ".join(ends) if ends else "not joined"
    return f"cable {c['label'] or '(no label)'} ({FILES['cables']} line {line}): {why}"


def _one_cable_per_port(links: list[Link], notes: list[str]) -> list[Link]:
    """The links whose ports no earlier link holds (NetBox allows one cable per termination,
    so a second one is a corrupt or merged export; the first row wins), with a note naming
    the first few left out."""
    used: set[tuple[str, str]] = set()
    kept, dropped = [], []
    for link in links:
        ends = {(link.a.device, link.a.port), (link.b.device, link.b.port)}
        if len(ends) < 2 or ends & used:
            dropped.append(link)
            continue
        used |= ends
        kept.append(link)
    if isinstance(notes, Notes):
        for k in dropped:
            notes.left_out.append(
                f"cable {k.label or k.id}: {k.a.device} {k.a.port} - {k.b.device} {k.b.port} "
                "uses a port an earlier cable uses, or runs from a port to itself"
            )
    if dropped:
        first = ", ".join(f"{k.a.port} of {k.a.device}" for k in dropped[:3])
        more = f" and {len(dropped) - 3:,} more" if len(dropped) > 3 else ""
        notes.append(
            f"{len(dropped):,} cables left out: a port an earlier cable already uses, or a "
            f"cable from a port to itself ({first}{more})"
        )
    return kept


def _length_m(text: str) -> float | None:
    if not (text or "").strip():
        return None
    match = _LENGTH.match(text)
    if not match:
        raise ReportError(
            f"{FILES['cables']}: cable length {text[:40]!r} is not a length "
            "(a number and m, cm, km, ft or in)"
        )
    length_m = round(float(match.group(1)) * _UNIT_M[match.group(2)], 3)
    if length_m > MAX_CABLE_M:
        raise ReportError(f"{FILES['cables']}: cable length {text!r} is over 100 km")
    return length_m or None
