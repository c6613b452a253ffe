"""Bill of materials: a pure function of a design and its cable plant (the cabling schedule, which
shares its counting conventions, is :mod:`model.outputs.schedule`).

The BOM lists what a purchaser orders, one line per orderable part number: racks by rack type,
servers and switches by device type, transceiver modules by part (finned or flat, per the cage),
integrated cables and fibres by part and ordered length, trays by product (3 m sections). Every
line carries its vendor, unit and total power at typical and at maximum draw (W), indicative unit
and total price (USD), a spares quantity (the design's spares % of the category, its own column)
and the catalog ``source`` of its figures (``EST-`` part numbers are estimates to confirm).
Switches, modules, cables and fibres are grouped per fabric too (``fabric`` column: compute,
storage, inband, oob, scale-up; :mod:`model.design.fabrics`), so each network's parts can be ordered and
checked on their own; racks, servers, appliances and trays, which serve several fabrics, have an
empty fabric.

Counting conventions (shared with the analysis, because both read :mod:`model.plant.physical_plant`):

- One plug per used cage: a module (with a fibre per link) or one end of an integrated cable
  (a straight cable joins two cages, a splitter one hub cage to single-port cages), so module and
  cable quantities are the plant's and equal ``analyze --json`` ``plant``.
- Power of modules is on the module lines, power of active cable ends on the cable lines.
- Links on the rack backplane (kind ``backplane``, e.g. the NVL72 NVLink spine) come with the
  rack: they are neither ordered nor installed, so they are in neither the BOM nor the schedule.
- A link with no medium, or whose (pinned) medium cannot reach, has no part: it is left out of
  the BOM and reported (the schedule still lists it, ordered length empty).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import get_args

import numpy as np
from msgspec import Struct

from model.analysis import analyze
from model.catalog.components import MediaType
from model.common.findings import Finding, sort_findings
from model.common.natural_sort import natural_key
from model.design.design import Design
from model.design.entities import BomCategory
from model.design.fabrics import FABRICS, device_fabric, plant_fabric_rows
from model.engine.routed_links import RoutedLinks
from model.facility.parts import facility_items
from model.plant.physical_plant import PhysicalPlant, build_plant
from model.plant.tray_products import tray_items

BOM_COLUMNS = (
    "category",
    "part",
    "vendor",
    "description",
    "length_m",
    "quantity",
    "spares",
    "unit",
    "unit_power_w",
    "total_power_w",
    "unit_power_w_max",
    "total_power_w_max",
    "unit_price_usd",
    "total_price_usd",
    "spares_price_usd",
    "source",
    "fabric",
)
CATEGORY_ORDER = get_args(BomCategory)  # the order the entities' Literal lists them in
_CATEGORY_OF_DEVICE = {
    "server": "Servers",
    "storage": "Servers",
    "switch": "Switches",
    "nvlink-switch": "Switches",
    "patch-panel": "Patch panels",  # placed panel devices, beside the structured parts
}


class BomLine(Struct, frozen=True, kw_only=True):
    """One orderable part. ``quantity`` is a count (``unit`` "ea") or metres (``unit`` "m")."""

    category: str
    part: str
    vendor: str
    description: str
    length_m: float | None
    quantity: float | None
    spares: int | None
    unit: str
    unit_power_w: float | None
    total_power_w: float | None
    unit_power_w_max: float | None
    total_power_w_max: float | None
    unit_price_usd: float | None
    total_price_usd: float | None
    spares_price_usd: float | None
    source: str
    fabric: str = ""  # the network of a switch, module, cable or fibre line; "" = several / none

    def as_row(self) -> tuple:
        return tuple(getattr(self, name) for name in BOM_COLUMNS)


class BomTotals(Struct, frozen=True, kw_only=True):
    power_w: float
    power_w_max: float
    price_usd: float
    spares_price_usd: float
    by_category: dict[str, tuple[float, float, float]]  # category -> (quantity, power W, price USD)


# ------------------------------------------------------------------------------------ helpers


def _num(value: float) -> float | None:
    value = float(value)
    return None if math.isnan(value) else value


def _round(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def _link_medium(plant: RoutedLinks, i: int) -> MediaType | None:
    m = int(plant.medium_index[i])
    return plant.media[m] if m >= 0 else None


# ------------------------------------------------------------------------------------ counts


def _on_backplane(plant: RoutedLinks) -> np.ndarray:
    """Per plant row: is the link on the rack backplane (cabled with the rack, never ordered)?"""
    backplane = np.array([m.kind == "backplane" for m in plant.media] + [False], dtype=bool)
    return backplane[np.asarray(plant.medium_index)]  # medium -1 (none) reads the last: False


def unorderable_links(plant: RoutedLinks) -> list[str]:
    """Link ids with no medium or no orderable length (pinned medium out of reach), in plant
    row order; links on the rack backplane are never ordered, so never listed."""
    unordered = (np.asarray(plant.medium_index) < 0) | np.isnan(np.asarray(plant.ordered_m))
    ids = plant.link_ids
    return [ids[i] for i in np.flatnonzero(unordered & ~_on_backplane(plant)).tolist()]


def tray_metres(design: Design) -> dict[tuple[bool, float, float], float]:
    """Tray length (m) by (under floor, width m, depth m): the sum of the tray polylines."""
    out: defaultdict[tuple[bool, float, float], float] = defaultdict(float)
    for tray in design.trays.values():
        length = sum(math.dist(p, q) for p, q in zip(tray.points, tray.points[1:], strict=False))
        out[(tray.under_floor, tray.width_m, tray.depth_m)] += length
    return dict(out)


# ------------------------------------------------------------------------------------ BOM

_CATEGORY_OF_PART = {
    "module": "Transceivers",
    "cable": "Cables",
    "fibre": "Fibres",
    "trunk": "Trunks",
    "panel": "Patch panels",
    "tray": "Trays",
    "facility": "Power and cooling",  # model.facility.parts
}


def bom_lines(
    design: Design, plant: RoutedLinks, phys: PhysicalPlant | None = None
) -> list[BomLine]:
    """The bill of materials, in category order then by part number (and length).

    One line per orderable part number: racks by rack type, servers and switches by device
    type, modules by part, cables and fibres by part and length, trays by product. Quantities
    are the physical plant's (:func:`model.plant.physical_plant.build_plant`), so they equal ``analyze --json``
    ``plant``, and the totals equal the analysis cost. ``spares`` is the design's spares % of
    the category, rounded up per line; spares are ordered on top and priced in ``spares_price_usd``,
    not in the totals that match the analysis.
    """
    catalog = design.catalog
    phys = (
        phys
        if phys is not None
        else build_plant(plant, fabric_rows=plant_fabric_rows(design, plant))
    )
    spares_pct = design.settings.spares_pct
    lines: list[BomLine] = []

    for type_id, qty in sorted(Counter(r.type for r in design.racks.values()).items()):
        rtype = catalog.rack_types[type_id]
        lines.append(
            _line(
                "Racks",
                type_id,
                rtype.vendor,
                rtype.model,
                None,
                qty,
                None,
                None,
                rtype.price_usd,
                rtype.source,
                spares_pct,
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
                dtype.vendor,
                dtype.model,
                None,
                qty,
                dtype.power_typical_w,
                dtype.power_max_w,
                dtype.price_usd,
                dtype.source,
                spares_pct,
                fabric,
            )
        )

    for item in [*phys.items, *tray_items(design), *facility_items(design)]:
        category = _CATEGORY_OF_PART[item.category]
        description = item.description
        if item.length_m is not None and item.category in ("cable", "fibre", "trunk"):
            description += f", {item.length_m:g} m"
        lines.append(
            _line(
                category,
                item.part_number,
                item.vendor,
                description,
                item.length_m,
                item.quantity,
                item.unit_power_w,
                item.unit_power_w_max,
                item.unit_price_usd,
                item.source,
                spares_pct,
                item.fabric,
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
    vendor: str,
    description: str,
    length_m: float | None,
    qty: int,
    unit_power_w: float | None,
    unit_power_w_max: float | None,
    unit_price_usd: float | None,
    source: str,
    spares_pct: dict[str, float],
    fabric: str = "",
) -> BomLine:
    spares = math.ceil(qty * spares_pct.get(category, 0.0) / 100 - 1e-9)
    return BomLine(
        category=category,
        part=part,
        vendor=vendor,
        description=description,
        length_m=length_m,
        quantity=qty,
        spares=spares,
        unit="ea",
        unit_power_w=_round(unit_power_w),
        total_power_w=None if unit_power_w is None else round(unit_power_w * qty, 2),
        unit_power_w_max=_round(unit_power_w_max),
        total_power_w_max=None if unit_power_w_max is None else round(unit_power_w_max * qty, 2),
        unit_price_usd=_round(unit_price_usd),
        total_price_usd=None if unit_price_usd is None else round(unit_price_usd * qty, 2),
        spares_price_usd=None if unit_price_usd is None else round(unit_price_usd * spares, 2),
        source=source,
        fabric=fabric,
    )


def bom_totals(lines: Iterable[BomLine]) -> BomTotals:
    by_category: dict[str, tuple[float, float, float]] = {}
    power = power_max = price = spares = 0.0
    for ln in lines:
        q, p, c = by_category.get(ln.category, (0.0, 0.0, 0.0))
        by_category[ln.category] = (
            q + (ln.quantity or 0),
            p + (ln.total_power_w or 0.0),
            c + (ln.total_price_usd or 0.0),
        )
        power += ln.total_power_w or 0.0
        power_max += ln.total_power_w_max or 0.0
        price += ln.total_price_usd or 0.0
        spares += ln.spares_price_usd or 0.0
    return BomTotals(
        power_w=round(power, 2),
        power_w_max=round(power_max, 2),
        price_usd=round(price, 2),
        spares_price_usd=round(spares, 2),
        by_category=by_category,
    )


def bom_total_line(totals: BomTotals) -> BomLine:
    """A closing "Total" line for flat files (CSV)."""
    return BomLine(
        category="Total",
        part="",
        vendor="",
        description="All lines above",
        length_m=None,
        quantity=None,
        spares=None,
        unit="",
        unit_power_w=None,
        total_power_w=totals.power_w,
        unit_power_w_max=None,
        total_power_w_max=totals.power_w_max,
        unit_price_usd=None,
        total_price_usd=totals.price_usd,
        spares_price_usd=totals.spares_price_usd,
        source="indicative prices; see each line",
    )


def summary_rows(
    design: Design, plant: RoutedLinks, lines: list[BomLine], findings: list[Finding]
) -> list[tuple[str, float | int | str, str]]:
    """(item, value, unit) rows for the Summary sheet."""
    totals = bom_totals(lines)
    qty = {c: t[0] for c, t in totals.by_category.items()}
    backplane = int(_on_backplane(plant).sum())
    rows: list[tuple[str, float | int | str, str]] = [
        ("Design", design.name, ""),
        ("Racks", int(qty.get("Racks", 0)), "ea"),
        ("GPUs", design.gpu_count(), "ea"),
        ("Servers", int(qty.get("Servers", 0)), "ea"),
        ("Switches (scale-out and management)", _devices_of(design, "switch"), "ea"),
        ("NVLink switch trays", _devices_of(design, "nvlink-switch"), "ea"),
        ("Links", len(design.links), "ea"),
        ("Transceiver modules", int(qty.get("Transceivers", 0)), "ea"),
        ("Integrated cables to order", int(qty.get("Cables", 0)), "ea"),
        ("Fibres to order", int(qty.get("Fibres", 0)), "ea"),
        ("Scale-up links on the rack backplane (come with the rack)", backplane, "ea"),
        ("Links without an orderable medium", len(unorderable_links(plant)), "ea"),
        ("Cable tray sections", int(qty.get("Trays", 0)), "ea"),
        ("Lines to quote (EST- part number: none published)", len(quote_lines(lines)), "ea"),
    ]
    for category in CATEGORY_ORDER:
        if category in totals.by_category:
            _, power, price = totals.by_category[category]
            if category not in ("Racks", "Trays", "Fibres"):
                rows.append((f"{category}: power (typical)", round(power / 1000, 3), "kW"))
            rows.append((f"{category}: indicative price", round(price, 2), "USD"))
    rows += [
        ("Total power (typical)", round(totals.power_w / 1000, 3), "kW"),
        ("Total power (maximum)", round(totals.power_w_max / 1000, 3), "kW"),
        ("Total indicative price", totals.price_usd, "USD"),
        ("Spares (design setting), indicative price", totals.spares_price_usd, "USD"),
        ("Errors", sum(1 for f in findings if f.severity == "error"), "ea"),
        ("Warnings", sum(1 for f in findings if f.severity == "warning"), "ea"),
        ("Prices", "indicative only; every figure names its source (see domain-facts.md)", ""),
        ("Part numbers", "EST-... = no published part number: quote these lines", ""),
    ]
    return rows


def quote_lines(lines: Iterable[BomLine]) -> list[BomLine]:
    """The lines a purchaser must have quoted: parts whose vendor publishes no part number
    (``EST-`` in the catalog), so the number and price are estimates to confirm."""
    return [line for line in lines if line.part.startswith("EST-")]


def _devices_of(design: Design, category: str) -> int:
    types = design.catalog.device_types
    return sum(1 for d in design.devices.values() if types[d.type].category == category)


def export_findings(
    design: Design, plant: RoutedLinks, phys: PhysicalPlant | None = None, topology=None
) -> list[Finding]:
    """Every finding of the analysis (which includes the engine's), in the shared stable order.

    ``phys``: the physical plant already built for the BOM (split by fabric), which the
    analysis then takes instead of building its own; ``topology`` likewise its
    ``infer_topology(design)``."""
    return sort_findings(list(analyze(design, plant, phys, topology).warnings))


__all__ = [
    "BOM_COLUMNS",
    "BomLine",
    "BomTotals",
    "CATEGORY_ORDER",
    "bom_lines",
    "bom_total_line",
    "bom_totals",
    "export_findings",
    "natural_key",
    "quote_lines",
    "summary_rows",
    "tray_metres",
    "unorderable_links",
]
