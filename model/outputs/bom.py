"""Bill of materials: a pure function of a design and its cable plant (the cabling schedule, which
shares its counting conventions, is :mod:`model.outputs.schedule`).

The BOM lists what a purchaser orders, one line per orderable product and length: racks by rack
type, servers, appliances, switches and PDUs by device type, transceiver modules by part (finned
or flat, per the cage), integrated cables, fibres (point-to-point and patch cords alike) and
trunks by part and stock length, panels and cassettes by product (placed as devices or counted by
the structured layout: one line), trays by product (3 m sections). The quantity of each network
(compute, storage, in-band, out-of-band, scale-up; :mod:`model.design.fabrics`) is a column of
the line, not a line of its own. Every line carries its purchase category
(:mod:`model.outputs.bom_parts`), the vendor's part number or ``quote``, unit and total power at
typical and at maximum draw (W), indicative unit and total price (USD), a spares quantity (the
design's spares % of the category, its own column), for cut-free stock lengths the metres
ordered beyond the routed lengths (``spare_m``), and the documents behind its figures by title
and URL.

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
from dataclasses import dataclass, field
from typing import cast

import numpy as np
from msgspec import Struct

from model.analysis import analysis_findings
from model.catalog.components import scale_up_name
from model.catalog.structured import structured_catalog
from model.common.findings import Finding, sort_findings
from model.common.natural_sort import natural_key
from model.design.design import Design
from model.design.entities import FABRICS, BomCategory
from model.design.fabrics import device_fabric, plant_fabric_rows
from model.engine.routed_links import RoutedLinks
from model.facility.parts import facility_items
from model.outputs.bom_parts import (
    PURCHASE_CATEGORIES,
    QUOTE,
    SPARES_CLASS,
    cited_sources,
    device_category,
    orderable_number,
    purchase_category,
)
from model.plant.physical_plant import PhysicalPlant, build_plant
from model.plant.tray_products import tray_items

# The quantity of each network is a column: qty_compute, qty_storage, ... (FABRICS order)
FABRIC_COLUMNS = tuple("qty_" + f.replace("-", "_") for f in FABRICS)
BOM_COLUMNS = (
    "category",
    "part_number",
    "vendor",
    "description",
    "length_m",
    "spare_m",
    "quantity",
    *FABRIC_COLUMNS,
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
)
CATEGORY_ORDER = PURCHASE_CATEGORIES


class BomLine(Struct, frozen=True, kw_only=True):
    """One orderable product at one length. ``quantity`` is a count (``unit`` "ea");
    ``by_fabric`` splits it by network (FABRICS order; None where the line serves no network,
    as racks, servers and trays). ``part`` is the catalog product the line orders (its identity,
    never shown as a part number); ``part_number`` the vendor's orderable number or ``quote``."""

    category: str
    part_number: str
    vendor: str
    description: str
    length_m: float | None
    spare_m: float | None
    quantity: float | None
    by_fabric: tuple[int | None, ...] = (None,) * len(FABRICS)
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
    part: str = ""

    def as_row(self) -> tuple:
        head = (
            self.category,
            self.part_number,
            self.vendor,
            self.description,
            self.length_m,
            self.spare_m,
            self.quantity,
        )
        tail = tuple(getattr(self, name) for name in BOM_COLUMNS[7 + len(FABRICS) :])
        return head + self.by_fabric + tail

    def fabric_quantity(self, fabric: str) -> int:
        """The quantity of this line that serves ``fabric`` (0 when none)."""
        return self.by_fabric[FABRICS.index(fabric)] or 0


class BomTotals(Struct, frozen=True, kw_only=True):
    power_w: float
    power_w_max: float
    price_usd: float
    spares_price_usd: float
    by_category: dict[str, tuple[float, float, float]]  # category -> (quantity, power W, price USD)


# ------------------------------------------------------------------------------------ helpers


def _round(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


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


@dataclass
class _Group:
    """The items of one BOM line while they are summed: one product at one length."""

    category: str
    part_number: str
    vendor: str
    description: str
    length_m: float | None
    unit_power_w: float | None
    unit_power_w_max: float | None
    unit_price_usd: float | None
    source: str
    quantity: int = 0
    needed_m: float | None = 0.0  # the routed metres its units serve (None: unknown)
    by_fabric: Counter = field(default_factory=Counter)

    def add(self, qty: int, fabric: str, needed_m: float | None) -> None:
        self.quantity += qty
        self.by_fabric[fabric] += qty
        self.needed_m = (
            None if needed_m is None or self.needed_m is None else self.needed_m + needed_m
        )


def bom_lines(
    design: Design, plant: RoutedLinks, phys: PhysicalPlant | None = None
) -> list[BomLine]:
    """The bill of materials, in purchase-category order then by part number (and length).

    One line per orderable product and length, its quantity split by network in columns.
    Quantities are the physical plant's (:func:`model.plant.physical_plant.build_plant`), so
    they equal ``analyze --json`` ``plant``, and the totals equal the analysis cost.
    ``spares`` is the design's spares % of the line's spares category, rounded up per line;
    spares are ordered on top and priced in ``spares_price_usd``, not in the totals that match
    the analysis.
    """
    catalog = design.catalog
    phys = (
        phys
        if phys is not None
        else build_plant(plant, fabric_rows=plant_fabric_rows(design, plant))
    )
    groups: dict[tuple[str, str, float | None], _Group] = {}

    def group(key: tuple[str, str, float | None], **fields) -> _Group:
        found = groups.get(key)
        if found is None:
            found = groups[key] = _Group(category=key[0], length_m=key[2], **fields)
        return found

    frames = _ordered_frames(catalog.rack_types)
    for type_id, qty in Counter(frames.get(r.type, r.type) for r in design.racks.values()).items():
        rtype = catalog.rack_types[type_id]
        group(
            ("Racks", type_id, None),
            part_number=QUOTE,
            vendor=rtype.vendor,
            description=rtype.model,
            unit_power_w=None,
            unit_power_w_max=None,
            unit_price_usd=rtype.price_usd,
            source=rtype.source,
        ).add(qty, "", None)

    panels = structured_catalog().panels
    device_types = Counter(
        (d.type, device_fabric(design, d) or "") for d in design.devices.values()
    )
    for (type_id, fabric), qty in device_types.items():
        dtype = catalog.device_types[type_id]
        panel = panels.get(type_id) if dtype.category == "patch-panel" else None
        if panel is not None:
            # A placed panel is the structured part of its id: one line with the automatic ones
            _panel_group(group, panel).add(qty, "", None)
            continue
        group(
            (device_category(dtype), type_id, None),
            part_number=orderable_number(dtype.part_number),
            vendor=dtype.vendor,
            description=dtype.model,
            unit_power_w=dtype.power_typical_w,
            unit_power_w_max=dtype.power_max_w,
            unit_price_usd=dtype.price_usd,
            source=dtype.source,
        ).add(qty, fabric, None)

    for item in [*phys.items, *tray_items(design), *facility_items(design)]:
        if item.category == "panel" and item.part_id in panels:
            _panel_group(group, panels[item.part_id]).add(item.quantity, "", None)
            continue
        group(
            (purchase_category(catalog, item), item.part_id, item.length_m),
            part_number=orderable_number(item.part_number),
            vendor=item.vendor,
            description=item.description,
            unit_power_w=item.unit_power_w,
            unit_power_w_max=item.unit_power_w_max,
            unit_price_usd=item.unit_price_usd,
            source=item.source,
        ).add(item.quantity, item.fabric, item.needed_m)

    spares_pct = design.settings.spares_pct
    lines = [_line(g, part_id, spares_pct) for (_, part_id, _), g in groups.items()]
    order = {c: n for n, c in enumerate(CATEGORY_ORDER)}
    lines.sort(
        key=lambda ln: (
            order.get(ln.category, 99),
            ln.part_number == QUOTE,
            natural_key(ln.part_number if ln.part_number != QUOTE else ln.description),
            ln.length_m or 0.0,
            ln.part,
        )
    )
    return lines


def _frame(rtype) -> tuple:
    """What a purchaser orders of a rack type: its frame (vendor, footprint, height, price, mass,
    built-in shelves and manifold, the current it takes), not what stands in it."""
    return (
        rtype.vendor,
        rtype.width_m,
        rtype.depth_m,
        rtype.height_u,
        rtype.price_usd,
        rtype.empty_weight_kg,
        rtype.power_shelves,
        rtype.liquid_manifold,
        rtype.feed_current,
    )


def _ordered_frames(rack_types: dict) -> dict[str, str]:
    """Rack type id -> the rack type it is ordered as: a patch rack (a role, not a product) is the
    plain rack of the same frame where the catalog has one (its 48U 600 x 1200 mm frame), so the
    racks of one frame are one line."""
    plain: dict[tuple, str] = {}
    for rtype in rack_types.values():
        if not rtype.role:
            plain.setdefault(_frame(rtype), rtype.id)
    return {
        rtype.id: plain[_frame(rtype)]
        for rtype in rack_types.values()
        if rtype.role and _frame(rtype) in plain
    }


def _panel_group(group, panel) -> _Group:
    category = "Cassettes" if panel.kind == "cassette" else "Panels"
    return group(
        (category, panel.id, None),
        part_number=orderable_number(panel.part_number),
        vendor=panel.vendor,
        description=panel.description + (f", {panel.u}U" if panel.u else ""),
        unit_power_w=0.0,
        unit_power_w_max=0.0,
        unit_price_usd=panel.price_usd,
        source=panel.source,
    )


def _line(g: _Group, part_id: str, spares_pct: dict[BomCategory, float]) -> BomLine:
    qty = g.quantity
    # A category outside BomCategory (none the settings can name) finds no entry: 0 % spares.
    spares_class = cast(BomCategory, SPARES_CLASS.get(g.category, g.category))
    pct = spares_pct.get(spares_class, 0.0)
    spares = math.ceil(qty * pct / 100 - 1e-9)
    split = any(g.by_fabric.get(f) for f in FABRICS)
    by_fabric = tuple(g.by_fabric.get(f, 0) if split else None for f in FABRICS)
    spare_m = None
    if g.length_m is not None and g.needed_m is not None and g.category != "Trays":
        spare_m = round(max(qty * g.length_m - g.needed_m, 0.0), 1)
    description = g.description
    if g.length_m is not None and g.category in ("Cables", "Fibres", "Trunks"):
        description += f", {g.length_m:g} m"
    price, power, power_max = g.unit_price_usd, g.unit_power_w, g.unit_power_w_max
    return BomLine(
        category=g.category,
        part_number=g.part_number,
        vendor=g.vendor,
        description=description,
        length_m=g.length_m,
        spare_m=spare_m,
        quantity=qty,
        by_fabric=by_fabric,
        spares=spares,
        unit="ea",
        unit_power_w=_round(power),
        total_power_w=None if power is None else round(power * qty, 2),
        unit_power_w_max=_round(power_max),
        total_power_w_max=None if power_max is None else round(power_max * qty, 2),
        unit_price_usd=_round(price),
        total_price_usd=None if price is None else round(price * qty, 2),
        spares_price_usd=None if price is None else round(price * spares, 2),
        source=cited_sources(g.source),
        part=part_id,
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
        part_number="",
        vendor="",
        description="All lines above",
        length_m=None,
        spare_m=None,
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
        source="indicative prices; each line names the documents behind its figures",
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
        ("GPU servers", int(qty.get("GPU servers", 0)), "ea"),
        ("Storage appliances", int(qty.get("Storage appliances", 0)), "ea"),
        (
            "Management servers (head nodes, UFM appliances)",
            int(qty.get("Management servers", 0)),
            "ea",
        ),
        ("Switches (scale-out and management)", _devices_of(design, "switch"), "ea"),
        (f"{_scale_up(design)} switch trays", _devices_of(design, "nvlink-switch"), "ea"),
        ("Links", len(design.links), "ea"),
        ("Transceiver modules", int(qty.get("Modules", 0)), "ea"),
        ("Integrated cables to order", int(qty.get("Cables", 0)), "ea"),
        ("Fibres and patch cords to order", int(qty.get("Fibres", 0)), "ea"),
        ("Trunks to order", int(qty.get("Trunks", 0)), "ea"),
        ("Scale-up links on the rack backplane (come with the rack)", backplane, "ea"),
        ("Links without an orderable medium", len(unorderable_links(plant)), "ea"),
        ("Cable tray sections", int(qty.get("Trays", 0)), "ea"),
        ("Lines to quote (no published part number)", len(quote_lines(lines)), "ea"),
    ]
    for category in CATEGORY_ORDER:
        if category in totals.by_category:
            _, power, price = totals.by_category[category]
            if category not in ("Racks", "Trays", "Fibres", "Trunks", "Panels", "Cassettes"):
                rows.append((f"{category}: power (typical)", round(power / 1000, 3), "kW"))
            rows.append((f"{category}: indicative price", round(price, 2), "USD"))
    rows += [
        ("Total power (typical)", round(totals.power_w / 1000, 3), "kW"),
        ("Total power (maximum)", round(totals.power_w_max / 1000, 3), "kW"),
        ("Total indicative price", totals.price_usd, "USD"),
        ("Spares (design setting), indicative price", totals.spares_price_usd, "USD"),
        ("Errors", sum(1 for f in findings if f.severity == "error"), "ea"),
        ("Warnings", sum(1 for f in findings if f.severity == "warning"), "ea"),
        ("Prices", "indicative only; each line's Source names the documents behind it", ""),
        ("Part numbers", f"{QUOTE} = the vendor publishes no part number: quote these lines", ""),
    ]
    return rows


def quote_lines(lines: Iterable[BomLine]) -> list[BomLine]:
    """The lines a purchaser must have quoted: products whose vendor publishes no part number
    (part number ``quote``), so their price is an estimate to confirm."""
    return [line for line in lines if line.part_number == QUOTE]


def _devices_of(design: Design, category: str) -> int:
    types = design.catalog.device_types
    return sum(1 for d in design.devices.values() if types[d.type].category == category)


def _scale_up(design: Design) -> str:
    """What the design's scale-up switch trays are called: NVLink, UALink (Helios)."""
    types = design.catalog.device_types
    return scale_up_name(types[t] for t in {d.type for d in design.devices.values()})


def export_findings(
    design: Design, plant: RoutedLinks, phys: PhysicalPlant | None = None, topology=None
) -> list[Finding]:
    """Every finding of the analysis (which includes the engine's), in the shared stable order.

    ``phys``: the physical plant already built for the BOM (split by fabric), which the
    analysis then takes instead of building its own; ``topology`` likewise its
    ``infer_topology(design)``."""
    return sort_findings(analysis_findings(design, plant, phys, topology))


__all__ = [
    "BOM_COLUMNS",
    "BomLine",
    "BomTotals",
    "CATEGORY_ORDER",
    "FABRIC_COLUMNS",
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
