"""Structured cabling in the physical plant: trunks, panels, cassettes and cords replace fibres.

For a design whose ``settings.cabling`` is not ``direct``, every link that runs through panels
(:func:`model.structured.layout.structured_layout`) orders no point-to-point fibre; it orders
two patch cords (the module's fibre part at the cords' lengths) and its share of a trunk, and
its racks order the panels, enclosures and cassettes. Applied inside
:func:`model.plant.physical_plant.build_plant`, so the analysis cost and the BOM total still agree by
construction. Trunks, panels and cassettes draw no power.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np

from model.catalog.parts import part_number_for
from model.catalog.structured import structured_catalog
from model.plant.parts_count import PartCount, PhysicalPlant
from model.structured.layout import StructuredLayout, structured_layout, uses_structured


def apply_structured(
    phys: PhysicalPlant, plant, fabric_of: dict[str, str] | None = None, needed: bool = False
) -> StructuredLayout | None:
    """Rewrite ``phys.items`` for the design's cabling style; returns the layout used (None:
    no link runs through panels, nothing changed). ``needed``: also fill each cord and trunk
    line's ``needed_m`` (the metres its units serve before rounding up), for the BOM."""
    if not uses_structured(plant.design):
        return None
    layout = phys.structured = structured_layout(plant)
    if not layout.channels.structured:
        return layout
    design = plant.design
    catalog, sc = design.catalog, structured_catalog()
    fabric = fabric_of or {}
    fibre_of, fpp_of = {}, {}
    for part in catalog.module_parts.values():
        fibre_of.setdefault(part.medium, part.fibre)
        fpp_of.setdefault(part.medium, part.fibres_per_port)
    # The direct fibres these links no longer order: (part id, length, fabric) -> quantity,
    # counted per (medium, ordered length, fabric) first, the counting in C (a tuple and a
    # Counter update per link were ~1 s of a zoned XL analysis).
    table = layout.channels
    link_ids = table.link_ids
    fibres, index = table.fibres, plant.index
    # The ordered lengths as one list (a numpy scalar read per link was ~0.5 s at XL).
    ordered = np.asarray(plant.ordered_m, dtype=np.float64).tolist()
    fabrics = [fabric.get(lid, "") for lid in link_ids] if fabric else [""] * len(link_ids)
    per_medium = Counter(
        zip(
            [fibres[lid].medium for lid in link_ids],
            [ordered[index[lid]] for lid in link_ids],
            fabrics,
            strict=True,
        )
    )
    removed: Counter[tuple[str, float, str]] = Counter()
    for (medium, length, fab), count in per_medium.items():
        removed[(fibre_of[medium], length, fab)] += count * fpp_of.get(medium, 1)
    items: list[PartCount] = []
    for item in phys.items:
        key = (item.part_id, item.length_m, item.fabric)
        if item.category == "fibre" and removed[key]:
            left = item.quantity - removed[key]
            removed[key] = 0
            if left > 0:
                # Which of its fibres stayed is not kept: the metres they serve are unknown
                items.append(replace(item, quantity=left, needed_m=None))
            continue
        items.append(item)
    # The cords' ordered lengths are the catalog's own objects (NaN: math.nan), so every
    # unorderable cord of a part counts under one key, as it did cord by cord.
    cord_table = layout.cords
    fabrics = (
        [fabric.get(lid, "") for lid in cord_table.link_ids]
        if fabric
        else [""] * len(cord_table.link_ids)
    )
    cords: Counter[tuple[str, float, str]] = Counter(
        zip(cord_table.parts, cord_table.a_ordered, fabrics, strict=True)
    )
    cords.update(zip(cord_table.parts, cord_table.b_ordered, fabrics, strict=True))
    cord_need = _cord_needed_m(cord_table, fabrics) if needed else dict.fromkeys(cords, None)
    for (part_id, length, fab), qty in sorted(cords.items()):
        if length != length:  # no orderable length: not bought (CORD_NOT_ORDERABLE says so)
            continue
        fpart = catalog.fibre_parts[part_id]
        items.append(
            PartCount(
                "fibre",
                fpart.id,
                part_number_for(fpart.part_number, length),
                fpart.vendor,
                fpart.description,
                length,
                qty,
                f"{fpart.mode}-fibre",
                0.0,
                0.0,
                fpart.price_at(length),
                fpart.source,
                fab,
                cord_need[(part_id, length, fab)],
            )
        )
    trunks: Counter[tuple[str, float, str]] = Counter()
    trunk_need: Counter[tuple[str, float, str]] = Counter()
    for trunk in layout.trunks:
        if trunk.part and trunk.ordered_m == trunk.ordered_m:
            key = (trunk.part, trunk.ordered_m, fabric.get(trunk.links[0], ""))
            trunks[key] += trunk.quantity
            trunk_need[key] += trunk.quantity * trunk.length_m
    for (part_id, length, fab), qty in sorted(trunks.items()):
        tpart = sc.trunks[part_id]
        items.append(
            PartCount(
                "trunk",
                tpart.id,
                part_number_for(tpart.part_number, length),
                "generic",
                tpart.description,
                length,
                qty,
                f"{tpart.mode}-trunk",
                0.0,
                0.0,
                tpart.price_usd + tpart.price_per_m_usd * length,
                tpart.source,
                fab,
                trunk_need[(part_id, length, fab)] if needed else None,
            )
        )
    for part_id, qty in sorted(layout.panel_counts(sc).items()):
        ppart = sc.panels[part_id]
        description = ppart.description + (f", {ppart.u}U" if ppart.u else "")
        items.append(
            PartCount(
                "panel",
                ppart.id,
                ppart.part_number,
                ppart.vendor,
                description,
                None,
                qty,
                ppart.kind,
                0.0,
                0.0,
                ppart.price_usd,
                ppart.source,
                "",
            )
        )
    phys.items = items
    phys.findings = [*phys.findings, *layout.findings]
    return layout


def _cord_needed_m(cords, fabrics: list[str]) -> dict[tuple[str, float, str], float]:
    """The cut length (before rounding up) the cords of each (part, ordered length, fabric)
    serve, in metres: one grouping of both ends' arrays, not a Python step per cord."""
    n = len(cords.parts)
    if not n:
        return {}
    part_names = sorted(set(cords.parts))
    fab_names = sorted(set(fabrics))
    part_code = np.fromiter(
        map({p: i for i, p in enumerate(part_names)}.get, cords.parts), np.int64, n
    )
    fab_code = np.fromiter(map({f: i for i, f in enumerate(fab_names)}.get, fabrics), np.int64, n)
    out: Counter[tuple[str, float, str]] = Counter()
    for ordered, cut in ((cords.a_ordered, cords.a_m), (cords.b_ordered, cords.b_m)):
        ordered_m = np.asarray(ordered, dtype=np.float64)
        good = np.isfinite(ordered_m)
        lengths, length_code = np.unique(ordered_m[good], return_inverse=True)
        key = (part_code[good] * len(fab_names) + fab_code[good]) * len(lengths) + length_code
        keys, inverse = np.unique(key, return_inverse=True)
        sums = np.bincount(inverse, weights=np.asarray(cut, dtype=np.float64)[good])
        for k, total in zip(keys.tolist(), sums.tolist(), strict=True):
            pf, li = divmod(k, len(lengths))
            p, f = divmod(pf, len(fab_names))
            out[(part_names[p], float(lengths[li]), fab_names[f])] += total
    return dict(out)
