"""Bill of materials and cabling schedule: pure functions of a design and its cable plant.

The BOM groups parts the way a purchasing team orders them: racks by rack type, servers and
switches by device type, transceivers by media type, cables by media type *and* ordered length,
tray metres by cross-section. Switches, transceivers and cables are grouped per fabric too
(``fabric`` column: compute, storage, inband, oob, scale-up; :mod:`model.fabrics`), so each
network's parts can be ordered and checked on their own; racks, servers, appliances and trays,
which serve several fabrics, have an empty fabric. Every line carries unit and total power (W),
indicative unit and total price (USD) and the catalog ``source`` of its figures.

Counting conventions (shared with the analysis):

- A link of a medium with ``modules_per_link`` > 0 needs one module per end. Where a port group
  has ``ports_per_cage`` = 2 (NVIDIA twin-port OSFP) one module serves the two ports of a cage,
  so modules = distinct (device, cage, medium) triples; a broken-out port (``p1/1``, ``p1/2``)
  shares its physical port's module. Such a module's unit price is the catalog's per-end price
  times the ports it serves (it is bought whole); its power is the per-end power times the ports
  in use (the analysis's convention), so modules with a port unused get a line of their own.
- Power of modules is on the transceiver lines; passive cables (``modules_per_link`` = 0) carry
  their own ``2 x power_per_end_w`` on the cable line, so nothing is counted twice.
- Links on the rack backplane (kind ``backplane``, e.g. the NVL72 NVLink spine) come with the
  rack: they are neither ordered nor installed, so they are in neither the BOM nor the schedule.
- A link with no medium, or whose (pinned) medium cannot reach, has no ordered length: it is
  left out of the BOM cable lines and reported (the schedule still lists it, ordered length empty).

The cabling schedule has one row per cable. ``cable_id`` is the link id (stable across edits, the
same id as in the design file and the NetBox export); ``label`` is the link's own label when the
user gave one, else ``{rack}-U{u}-{port} to {rack}-U{u}-{port}`` (A end first), made unique with
`` #{cable_id}`` when two cables would share a label. The A end is the end that sorts first by
(rack name, U, port) in natural order, and rows are sorted by A rack, A U, A port, so installers
work rack by rack.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import lru_cache

from msgspec import Struct

from model.analysis import analyze
from model.cabling import NO_MEDIUM, NO_TRAY_PATH, SAME_RACK, CablePlant
from model.catalog import DeviceType, MediaType
from model.design import Design
from model.entities import FABRICS
from model.fabrics import device_fabric, link_fabric_map
from model.findings import Finding, sort_findings
from model.ports import port_table

BOM_COLUMNS = (
    "category",
    "part",
    "description",
    "length_m",
    "quantity",
    "unit",
    "unit_power_w",
    "total_power_w",
    "unit_price_usd",
    "total_price_usd",
    "source",
    "fabric",
)
SCHEDULE_COLUMNS = (
    "cable_id",
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
    "route",
)
CATEGORY_ORDER = (
    "Racks",
    "Servers",
    "Switches",
    "Other equipment",
    "Transceivers",
    "Cables",
    "Trays",
)
_CATEGORY_OF_DEVICE = {
    "server": "Servers",
    "storage": "Servers",
    "switch": "Switches",
    "nvlink-switch": "Switches",
}


class BomLine(Struct, frozen=True, kw_only=True):
    """One orderable part. ``quantity`` is a count (``unit`` "ea") or metres (``unit`` "m")."""

    category: str
    part: str
    description: str
    length_m: float | None
    quantity: float | None
    unit: str
    unit_power_w: float | None
    total_power_w: float | None
    unit_price_usd: float | None
    total_price_usd: float | None
    source: str
    fabric: str = ""  # the network of a switch, transceiver or cable line; "" = several / none

    def as_row(self) -> tuple:
        return tuple(getattr(self, name) for name in BOM_COLUMNS)


class ScheduleRow(Struct, frozen=True, kw_only=True):
    """One cable of the cut sheet (lengths in metres; ``ordered_length_m`` None = not orderable)."""

    cable_id: str
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
    route: str

    def as_row(self) -> tuple:
        return tuple(getattr(self, name) for name in SCHEDULE_COLUMNS)


class BomTotals(Struct, frozen=True, kw_only=True):
    power_w: float
    price_usd: float
    by_category: dict[str, tuple[float, float, float]]  # category -> (quantity, power W, price USD)


# ------------------------------------------------------------------------------------ helpers

_DIGITS = re.compile(r"(\d+)")


@lru_cache(maxsize=1 << 16)
def natural_key(text: str) -> tuple:
    """Sort key that orders ``A2`` before ``A10`` and ``p9`` before ``p10``."""
    return tuple(int(part) if part.isdigit() else part.lower() for part in _DIGITS.split(text))


def _num(value: float) -> float | None:
    value = float(value)
    return None if math.isnan(value) else value


def _round(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def _port_cages(dtype: DeviceType, breakout: dict[str, int]) -> dict[str, tuple[str, int, int]]:
    """Port name -> (group name, cage number, ports one module serves) for a device."""
    return _port_cages_cached(dtype, tuple(sorted(breakout.items())))


@lru_cache(maxsize=512)
def _port_cages_cached(
    dtype: DeviceType, breakout_key: tuple[tuple[str, int], ...]
) -> dict[str, tuple[str, int, int]]:
    breakout = dict(breakout_key)
    out: dict[str, tuple[str, int, int]] = {}
    starts: dict[str, int] = {}
    for name, info in port_table(dtype, breakout).items():
        start = starts.setdefault(info.group, info.index)
        fanout = breakout.get(info.group, 1)
        physical = (info.index - start) // fanout
        out[name] = (info.group, physical // info.ports_per_cage, info.ports_per_cage * fanout)
    return out


def _link_medium(plant: CablePlant, i: int) -> MediaType | None:
    m = int(plant.medium_index[i])
    return plant.media[m] if m >= 0 else None


# ------------------------------------------------------------------------------------ counts


def module_groups(
    design: Design, plant: CablePlant, fabric_of: dict[str, str] | None = None
) -> dict[tuple, int]:
    """Modules needed: (media id, ports a module serves, ports of it in use) -> count.

    With ``fabric_of`` (link id -> fabric) the key gains the fabric as a fourth item: a module is
    in the fabric of the links it carries (the links of one cage share their switch's fabric).
    """
    used: Counter[tuple[str, str, int, str]] = Counter()
    capacity: dict[tuple[str, str, int, str], int] = {}
    fabric_of_key: dict[tuple[str, str, int, str], str] = {}
    devices = design.devices
    types = design.catalog.device_types
    for link_id, link in design.links.items():
        i = plant.index.get(link_id)
        if i is None:
            continue
        medium = _link_medium(plant, i)
        if medium is None or medium.modules_per_link <= 0 or medium.kind == "backplane":
            continue
        for end in (link.a, link.b):
            device = devices[end.device]
            group, cage, per_module = _port_cages(types[device.type], device.breakout)[end.port]
            key = (end.device, group, cage, medium.id)
            used[key] += 1
            capacity[key] = per_module
            if fabric_of is not None:
                fabric_of_key.setdefault(key, fabric_of[link_id])
    out: Counter[tuple] = Counter()
    for key, n in used.items():
        if fabric_of is None:
            out[(key[3], capacity[key], n)] += 1
        else:
            out[(key[3], capacity[key], n, fabric_of_key[key])] += 1
    return dict(out)


def transceiver_modules(design: Design, plant: CablePlant) -> dict[tuple[str, int], int]:
    """Modules needed: (media id, ports served per module) -> count. See the module docstring."""
    out: Counter[tuple[str, int]] = Counter()
    for (media_id, per_module, _), qty in module_groups(design, plant).items():
        out[(media_id, per_module)] += qty
    return dict(out)


def cable_counts(plant: CablePlant, fabric_of: dict[str, str] | None = None) -> dict[tuple, int]:
    """Orderable cables: (media id, ordered length m) -> count (backplane links excluded).

    With ``fabric_of`` (link id -> fabric) the key gains the link's fabric as a third item.
    """
    out: Counter[tuple] = Counter()
    for i in range(len(plant.link_ids)):
        medium = _link_medium(plant, i)
        if medium is None or medium.kind == "backplane":
            continue
        ordered = _num(plant.ordered_m[i])
        if ordered is None:
            continue
        if fabric_of is None:
            out[(medium.id, round(ordered, 3))] += 1
        else:
            out[(medium.id, round(ordered, 3), fabric_of[plant.link_ids[i]])] += 1
    return dict(out)


def unorderable_links(plant: CablePlant) -> list[str]:
    """Link ids with no medium or no orderable length (pinned medium out of reach)."""
    out = []
    for i, link_id in enumerate(plant.link_ids):
        medium = _link_medium(plant, i)
        if medium is not None and medium.kind == "backplane":
            continue
        if medium is None or _num(plant.ordered_m[i]) is None:
            out.append(link_id)
    return out


def tray_metres(design: Design) -> dict[tuple[bool, float, float], float]:
    """Tray length (m) by (under floor, width m, depth m): the sum of the tray polylines."""
    out: defaultdict[tuple[bool, float, float], float] = defaultdict(float)
    for tray in design.trays.values():
        length = sum(math.dist(p, q) for p, q in zip(tray.points, tray.points[1:], strict=False))
        out[(tray.under_floor, tray.width_m, tray.depth_m)] += length
    return dict(out)


# ------------------------------------------------------------------------------------ BOM


def bom_lines(design: Design, plant: CablePlant) -> list[BomLine]:
    """The bill of materials, in category order then by part (and length for cables)."""
    catalog = design.catalog
    lines: list[BomLine] = []

    for type_id, qty in sorted(Counter(r.type for r in design.racks.values()).items()):
        rtype = catalog.rack_types[type_id]
        lines.append(
            _line(
                "Racks",
                type_id,
                f"{rtype.vendor} {rtype.model}".strip(),
                None,
                qty,
                "ea",
                None,
                rtype.price_usd,
                rtype.source,
            )
        )

    device_types = Counter(
        (d.type, device_fabric(design, d) or "") for d in design.devices.values()
    )
    for (type_id, fabric), qty in sorted(device_types.items()):
        dtype = catalog.device_types[type_id]
        category = _CATEGORY_OF_DEVICE.get(dtype.category, "Other equipment")
        lines.append(
            _line(
                category,
                type_id,
                f"{dtype.vendor} {dtype.model}",
                None,
                qty,
                "ea",
                dtype.power_typical_w,
                dtype.price_usd,
                dtype.source,
                fabric,
            )
        )

    media = catalog.media_types
    fabric_of = link_fabric_map(design)
    modules = module_groups(design, plant, fabric_of)
    for (media_id, per_module, in_use, fabric), qty in sorted(modules.items()):
        medium = media[media_id]
        integrated = medium.price_per_end_usd == 0 and medium.kind in ("acc", "aec", "aoc")
        what = "cable end (integrated, priced with the cable)" if integrated else "module"
        if per_module > 1:
            what += (
                f" serving {per_module} ports"
                if in_use == per_module
                else f" serving {per_module} ports, {in_use} in use"
            )
        lines.append(
            _line(
                "Transceivers",
                media_id,
                f"{medium.name}: {what}",
                None,
                qty,
                "ea",
                medium.power_per_end_w * in_use,
                medium.price_per_end_usd * per_module,
                medium.source,
                fabric,
            )
        )

    for (media_id, length, fabric), qty in sorted(cable_counts(plant, fabric_of).items()):
        medium = media[media_id]
        unit_price = medium.cable_price_usd + medium.cable_price_per_m_usd * length
        unit_power = 2 * medium.power_per_end_w if medium.modules_per_link == 0 else 0.0
        lines.append(
            _line(
                "Cables",
                media_id,
                f"{medium.name}, {length:g} m",
                length,
                qty,
                "ea",
                unit_power,
                unit_price,
                medium.source,
                fabric,
            )
        )

    for (under_floor, width, depth), metres in sorted(tray_metres(design).items()):
        where = "Under-floor" if under_floor else "Overhead"
        part = f"tray-{round(width * 1000)}x{round(depth * 1000)}" + ("-uf" if under_floor else "")
        lines.append(
            BomLine(
                category="Trays",
                part=part,
                description=f"{where} cable tray {width * 1000:.0f} x {depth * 1000:.0f} mm",
                length_m=None,
                quantity=round(metres, 1),
                unit="m",
                unit_power_w=None,
                total_power_w=None,
                unit_price_usd=None,
                total_price_usd=None,
                source="design (tray polylines); no catalog price",
            )
        )
    order = {c: n for n, c in enumerate(CATEGORY_ORDER)}
    fabric_order = {f: n for n, f in enumerate(("", *FABRICS))}
    lines.sort(
        key=lambda ln: (
            order.get(ln.category, 99),
            fabric_order.get(ln.fabric, 99),
            ln.part,
            ln.length_m or 0.0,
        )
    )
    return lines


def _line(
    category: str,
    part: str,
    description: str,
    length_m: float | None,
    qty: int,
    unit: str,
    unit_power_w: float | None,
    unit_price_usd: float | None,
    source: str,
    fabric: str = "",
) -> BomLine:
    return BomLine(
        category=category,
        fabric=fabric,
        part=part,
        description=description,
        length_m=length_m,
        quantity=qty,
        unit=unit,
        unit_power_w=_round(unit_power_w),
        total_power_w=None if unit_power_w is None else round(unit_power_w * qty, 2),
        unit_price_usd=_round(unit_price_usd),
        total_price_usd=None if unit_price_usd is None else round(unit_price_usd * qty, 2),
        source=source,
    )


def bom_totals(lines: Iterable[BomLine]) -> BomTotals:
    by_category: dict[str, tuple[float, float, float]] = {}
    power = price = 0.0
    for ln in lines:
        q, p, c = by_category.get(ln.category, (0.0, 0.0, 0.0))
        by_category[ln.category] = (
            q + (ln.quantity or 0),
            p + (ln.total_power_w or 0.0),
            c + (ln.total_price_usd or 0.0),
        )
        power += ln.total_power_w or 0.0
        price += ln.total_price_usd or 0.0
    return BomTotals(power_w=round(power, 2), price_usd=round(price, 2), by_category=by_category)


def bom_total_line(totals: BomTotals) -> BomLine:
    """A closing "Total" line for flat files (CSV)."""
    return BomLine(
        category="Total",
        part="",
        description="All lines above",
        length_m=None,
        quantity=None,
        unit="",
        unit_power_w=None,
        total_power_w=totals.power_w,
        unit_price_usd=None,
        total_price_usd=totals.price_usd,
        source="indicative prices; see each line",
    )


def summary_rows(
    design: Design, plant: CablePlant, lines: list[BomLine], findings: list[Finding]
) -> list[tuple[str, float | int | str, str]]:
    """(item, value, unit) rows for the Summary sheet."""
    totals = bom_totals(lines)
    qty = {c: t[0] for c, t in totals.by_category.items()}
    backplane = sum(
        1
        for i in range(len(plant.link_ids))
        if (m := _link_medium(plant, i)) is not None and m.kind == "backplane"
    )
    rows: list[tuple[str, float | int | str, str]] = [
        ("Design", design.name, ""),
        ("Racks", int(qty.get("Racks", 0)), "ea"),
        ("GPUs", design.gpu_count(), "ea"),
        ("Servers", int(qty.get("Servers", 0)), "ea"),
        ("Switches (scale-out and management)", _devices_of(design, "switch"), "ea"),
        ("NVLink switch trays", _devices_of(design, "nvlink-switch"), "ea"),
        ("Links", len(design.links), "ea"),
        ("Cables to order", int(qty.get("Cables", 0)), "ea"),
        ("Scale-up links on the rack backplane (come with the rack)", backplane, "ea"),
        ("Links without an orderable medium", len(unorderable_links(plant)), "ea"),
        ("Transceiver modules", int(qty.get("Transceivers", 0)), "ea"),
        ("Cable tray", round(qty.get("Trays", 0.0), 1), "m"),
    ]
    for category in CATEGORY_ORDER:
        if category in totals.by_category and category != "Trays":
            _, power, price = totals.by_category[category]
            if category != "Racks":
                rows.append((f"{category}: power", round(power / 1000, 3), "kW"))
            rows.append((f"{category}: indicative price", round(price, 2), "USD"))
    rows += [
        ("Total power (typical)", round(totals.power_w / 1000, 3), "kW"),
        ("Total indicative price", totals.price_usd, "USD"),
        ("Errors", sum(1 for f in findings if f.severity == "error"), "ea"),
        ("Warnings", sum(1 for f in findings if f.severity == "warning"), "ea"),
        ("Prices", "indicative only; every figure names its source (see domain-facts.md)", ""),
    ]
    return rows


def _devices_of(design: Design, category: str) -> int:
    types = design.catalog.device_types
    return sum(1 for d in design.devices.values() if types[d.type].category == category)


# ------------------------------------------------------------------------------------ schedule


def schedule_rows(design: Design, plant: CablePlant) -> list[ScheduleRow]:
    """One row per cable (backplane links excluded), sorted for installers rack by rack."""
    racks, devices, trays = design.racks, design.devices, design.trays
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
        row = ScheduleRow(
            cable_id=link_id,
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
            route=route,
        )
        rows.append(((a[0], a[1], a[2], b[0], b[1], b[2], link_id), row))
    rows.sort(key=lambda kr: kr[0])
    out = [row for _, row in rows]
    seen = Counter(row.label for row in out)
    if any(n > 1 for n in seen.values()):
        from msgspec.structs import replace

        out = [
            replace(row, label=f"{row.label} #{row.cable_id}") if seen[row.label] > 1 else row
            for row in out
        ]
    return out


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


def export_findings(design: Design, plant: CablePlant) -> list[Finding]:
    """Every finding of the analysis (which includes the engine's), in the shared stable order."""
    return sort_findings(list(analyze(design, plant).warnings))


__all__ = [
    "BOM_COLUMNS",
    "BomLine",
    "BomTotals",
    "CATEGORY_ORDER",
    "SCHEDULE_COLUMNS",
    "ScheduleRow",
    "bom_lines",
    "bom_total_line",
    "module_groups",
    "bom_totals",
    "cable_counts",
    "export_findings",
    "natural_key",
    "schedule_rows",
    "summary_rows",
    "transceiver_modules",
    "tray_metres",
    "unorderable_links",
]
