"""The facility as orderable parts: rack PDUs, power shelves, busway taps, CDUs, CRAHs, manifolds.

Counted from the design's records (the BOM adds them through its part-count path):

* every ``Rack.pdus`` entry is a cord into a busway or panel: one **busway tap-off** each;
* in a rack whose type has built-in power shelves the entries are those **power shelves**
  (priced in the rack), else **rack PDUs**, less the PDU devices the design already places in
  that rack (they are in the BOM as devices);
* every CDU and CRAH of the hall is one unit, grouped by kind and capacity;
* every rack with liquid heat on a CDU needs a **rack manifold**: priced at 0 where the rack
  type comes with its manifold (an NVL72).

A kind the catalog has no part for is left out (a design's own catalog may lack them).
"""

from __future__ import annotations

from collections import Counter

from model.catalog.parts import FacilityPart
from model.design.design import Design
from model.facility.cooling import cooling_paths, rack_liquid_w
from model.plant.parts_count import PartCount

CATEGORY = "facility"


def facility_items(design: Design) -> list[PartCount]:
    """The facility's parts of ``design`` with their quantities (empty without records)."""
    part_of: dict[str, FacilityPart] = {}
    for part in design.catalog.facility_parts.values():
        part_of.setdefault(part.kind, part)
    counts: Counter[tuple[str, float, bool]] = Counter()  # (kind, capacity kW, priced) -> n
    rack_types = design.catalog.rack_types
    types = design.catalog.device_types
    placed_pdus = Counter(
        d.rack
        for d in design.devices.values()
        if types[d.type].category == "other" and "pdu" in d.type
    )
    for rack in design.racks.values():
        if not rack.pdus:
            continue
        counts["busway-tap", 0.0, True] += len(rack.pdus)
        rtype = rack_types.get(rack.type)
        if rtype is not None and rtype.power_shelves:
            counts["power-shelf", 0.0, True] += len(rack.pdus)
        else:
            counts["rack-pdu", 0.0, True] += max(0, len(rack.pdus) - placed_pdus[rack.id])
    for cdu in design.hall.cooling.cdus:
        counts["cdu", cdu.capacity_kw, True] += 1
    for crah in design.hall.cooling.crahs:
        counts["crah", crah.capacity_kw, True] += 1
    paths = cooling_paths(design)
    liquid = rack_liquid_w(design) if paths.rack_cdus else {}
    for rack_id in paths.rack_cdus:
        if liquid.get(rack_id, 0.0) > 0:
            rtype = rack_types.get(design.racks[rack_id].type)
            counts["rack-manifold", 0.0, not (rtype and rtype.liquid_manifold)] += 1
    out = []
    for (kind, kw, priced), qty in sorted(counts.items()):
        found = part_of.get(kind)
        if found is None or qty == 0:
            continue
        part = found
        price = part.price_usd + part.price_per_kw_usd * kw if priced else 0.0
        description = part.description + (f", {kw:,.0f} kW" if kw else "")
        if not priced:
            description += " (comes with the rack)"
        out.append(
            PartCount(
                category=CATEGORY,
                part_id=part.id,
                part_number=part.part_number + (f"-{kw:g}KW" if kw else ""),
                vendor=part.vendor,
                description=description,
                length_m=None,
                quantity=qty,
                kind=kind,
                unit_power_w=0.0,
                unit_power_w_max=0.0,
                unit_price_usd=price,
                source=part.source,
            )
        )
    return out


def facility_cost(design: Design) -> dict[str, float]:
    """``{"facility": USD}`` of the facility's parts for the analysis' cost, or ``{}`` when the
    design has none (so the cost of a design without a facility keeps its keys)."""
    items = facility_items(design)
    return {"facility": sum(p.quantity * p.unit_price_usd for p in items)} if items else {}
