"""The facility as orderable parts: rack PDUs, power shelves, busway taps, CDUs, CRAHs, manifolds.

Counted from the design's records (the BOM adds them through its part-count path):

* every ``Rack.pdus`` entry is a cord into a busway or panel: one **busway tap-off** each;
* in a rack whose type has built-in power shelves the entries are those **power shelves**
  (priced in the rack), else **rack PDUs**, less the PDU devices the design already places in
  that rack (they are in the BOM as devices); a rack type names its own shelf, feed or tap-off
  part where it has one (``RackType.power_part``, ``tap_part``): a Vera Rubin NVL72 rack's
  110 kW shelves, a Kyber rack's 800 V DC feed and DC tap-off, not the GB200 shelf;
* every CDU and CRAH of the hall is one unit, grouped by kind and capacity;
* every rack with liquid heat on a CDU needs a **rack manifold**: priced at 0 where the rack
  type comes with its manifold (an NVL72).

A kind the catalog has no part for is left out (a design's own catalog may lack them).
"""

from __future__ import annotations

from collections import Counter

from model.catalog.components import RackType
from model.design.design import Design
from model.facility.cooling import cooling_paths, rack_liquid_w
from model.plant.parts_count import PartCount

CATEGORY = "facility"


def facility_items(design: Design) -> list[PartCount]:
    """The facility's parts of ``design`` with their quantities (empty without records)."""
    parts = design.catalog.facility_parts
    first: dict[str, str] = {}  # kind -> the first part of that kind, in catalog order
    for part in parts.values():
        first.setdefault(part.kind, part.id)
    counts: Counter[tuple[str | None, float, bool]] = Counter()  # (part, kW, priced) -> n
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
        rtype = rack_types.get(rack.type)
        counts[_rack_part(parts, rtype, "tap_part", first.get("busway-tap")), 0.0, True] += len(
            rack.pdus
        )
        kind = "power-shelf" if rtype is not None and rtype.power_shelves else "rack-pdu"
        power = _rack_part(parts, rtype, "power_part", first.get(kind))
        if power is not None and parts[power].kind == "rack-pdu":
            counts[power, 0.0, True] += max(0, len(rack.pdus) - placed_pdus[rack.id])
        else:
            counts[power, 0.0, True] += len(rack.pdus)
    for cdu in design.hall.cooling.cdus:
        counts[first.get("cdu"), cdu.capacity_kw, True] += 1
    for crah in design.hall.cooling.crahs:
        counts[first.get("crah"), crah.capacity_kw, True] += 1
    paths = cooling_paths(design)
    liquid = rack_liquid_w(design) if paths.rack_cdus else {}
    for rack_id in paths.rack_cdus:
        if liquid.get(rack_id, 0.0) > 0:
            rtype = rack_types.get(design.racks[rack_id].type)
            priced = not (rtype and rtype.liquid_manifold)
            counts[first.get("rack-manifold"), 0.0, priced] += 1
    out = []
    for (part_id, kw, priced), qty in sorted(counts.items(), key=lambda item: _order(parts, item)):
        if part_id is None or qty == 0:
            continue
        part = parts[part_id]
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
                kind=part.kind,
                unit_power_w=0.0,
                unit_power_w_max=0.0,
                unit_price_usd=price,
                source=part.source,
            )
        )
    return out


def _rack_part(parts: dict, rtype: RackType | None, field: str, default: str | None) -> str | None:
    """The rack type's own facility part for ``field`` ("power_part", "tap_part"), else the
    first of the kind (None where the catalog has none: the line is left out)."""
    own = getattr(rtype, field, "") if rtype is not None else ""
    return own if own in parts else default


def _order(parts: dict, item: tuple[tuple[str | None, float, bool], int]) -> tuple:
    """Lines by kind, then part, capacity and pricing (the order the BOM lists them in)."""
    (part_id, kw, priced), _ = item
    return (parts[part_id].kind if part_id else "", part_id or "", kw, priced)


def facility_cost(design: Design) -> dict[str, float]:
    """``{"facility": USD}`` of the facility's parts for the analysis' cost, or ``{}`` when the
    design has none (so the cost of a design without a facility keeps its keys)."""
    items = facility_items(design)
    return {"facility": sum(p.quantity * p.unit_price_usd for p in items)} if items else {}
