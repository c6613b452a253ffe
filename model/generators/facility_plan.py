"""Generated facility: feeds, busways, rack PDUs / power shelves, CDUs and CRAHs per row.

What a reference hall does, stated as rules (the ratings are standard sizes, estimates):

* **Power, 2N per row.** Each row gets a busway on side A and one on side B over the racks, each
  on its own feed (a UPS output), each sized to carry the whole row alone: the smallest
  standard busway (415 V 3-phase) of at least 125 % of the row's maximum draw (continuous load,
  as electrical codes size feeders). A row too heavy for the largest busway is split into runs.
  Racks whose type takes DC (a Kyber rack: 800 V DC, ``RackType.feed_current``) get their own
  pair of DC busways at that voltage beside the row's AC pair.
  Every rack's PDUs sit half on A, half on B (an odd one on A): its type's built-in power
  shelves (an NVL72's 8, INTROL-GB300), else as many rack PDUs as the reference architecture
  gives a rack of its servers (``DeviceType.rack_pdus``: a DGX H100 rack 3, NV-SP-H100-T7),
  else two (the same table's 12 PDUs for its 6 racks without DGX systems).
* **Liquid, N+1 per row.** A row with liquid heat gets two in-row CDUs at its ends, each able
  to carry the row alone (the smallest standard unit at least the row's liquid heat; its pump
  sized for that heat at its 10 K rise). Every liquid-cooled rack is on both.
* **Air, N+1 per row.** A row with air heat gets two CRAHs (fan walls) at its ends, each able to
  carry the row's air heat alone.
* **Floor.** The hall is rated 25 kN/m2 (2,549 kg/m2), the industry's standard floor loading,
  or 50 kN/m2, an AI-dedicated hall's (SIPOCH-FLOOR), where a rack it holds is heavier than the
  standard floor carries (a Kyber rack: 2,500 kg on 0.72 m2; a Vera Rubin NVL72 with its patch
  panels: 1,844 kg). Rated again once the cabling's panels stand in the racks.

A rack's maximum draw here is its devices' maximum plus every data port's optics at the most
power-hungry medium that fits it (:func:`model.generators.placement.switch_power_max_w`): an
upper bound of what the checks later find, since the plugs are chosen after generation.
"""

from __future__ import annotations

import math
from typing import Literal

import msgspec

from model.design.design import Design
from model.design.entities import (
    Cdu,
    Cooling,
    Crah,
    Power,
    PowerFeed,
    PowerPanel,
    Rack,
)
from model.design.rack_rows import rack_rows
from model.facility.cooling import WATER_J_PER_KG_K
from model.facility.floor_load import footprint_area_m2, rack_weights_kg
from model.generators.placement import switch_power_max_w

BUSWAY_V = 415.0
# Standard busway ratings (A), estimate (common IEC busbar trunking sizes).
BUSWAY_A = (250, 400, 630, 800, 1000, 1250, 1600, 2000, 2500, 3200, 4000, 5000)
CONTINUOUS_LOAD = 1.25
# In-row CDU and CRAH capacities (kW), estimates of the classes sold.
CDU_KW = (300, 600, 800, 1350, 2000, 2300)
CRAH_KW = (100, 150, 200, 300, 450, 600)
CDU_RISE_K = 10.0
FLOOR_RATING_KG_M2 = round(25_000 / 9.80665, 1)  # 25 kN/m2 (SIPOCH-FLOOR)
AI_FLOOR_RATING_KG_M2 = round(50_000 / 9.80665, 1)  # 50 kN/m2, AI-dedicated (SIPOCH-FLOOR)
FLOOR_NOTE = "floor rated"  # how the generation note on a raised floor rating begins


FACILITY_CHOICES = ("auto", "yes", "no")


def reference_racked(design: Design) -> bool:
    """Whether the design's GPU servers stand in racks a reference architecture specifies
    (NVL72 racks, or a server type the catalog racks per its RA, such as the DGX B300): the
    halls whose power and cooling the generators lay out without being asked."""
    types = design.catalog.device_types
    rack_types = design.catalog.rack_types
    if any(
        r.type in rack_types and rack_types[r.type].power_shelves for r in design.racks.values()
    ):
        return True
    return any(
        types[d.type].gpus is not None and types[d.type].rack_type is not None
        for d in design.devices.values()
    )


def place_facility(design: Design) -> None:
    """Give a generated design its power distribution, cooling units and floor rating (edits
    through the design's API, so the records are checked as a loader would check them)."""
    max_w, liquid_w = _rack_bounds(design)
    feeds: list[PowerFeed] = []
    panels: list[PowerPanel] = []
    cdus: list[Cdu] = []
    crahs: list[Crah] = []
    pdus: dict[str, list[str]] = {}
    cooling: dict[str, list[str]] = {}
    for label, racks in rack_rows(design):
        dc_v = {r.id: _dc_volts(design, r) for r in racks}
        for n, run in enumerate(_runs(racks, max_w, liquid_w, dc_v), 1):
            tag = label if n == 1 else f"{label}{n}"
            for volts in sorted({dc_v[r.id] for r in run}):
                part = [r for r in run if dc_v[r.id] == volts]
                _power_run(tag, part, max_w, feeds, panels, pdus, design, volts)
            _cooling_run(tag, run, max_w, liquid_w, cdus, crahs, cooling)
    design.set_power(Power(redundancy="2N", feeds=tuple(feeds), panels=tuple(panels)))
    design.set_cooling(Cooling(redundancy="N+1", cdus=tuple(cdus), crahs=tuple(crahs)))
    design.set_rack_pdus(pdus)
    design.set_rack_cooling(cooling)
    rate_floor(design)


def rate_floor(design: Design) -> None:
    """Rate the hall's floor for the racks it holds: the standard 25 kN/m2, or an AI-dedicated
    hall's 50 kN/m2 where a rack loads its footprint beyond the standard (a heavier rack still is
    left to the floor check's warning: no floor class of the source carries it)."""
    weights = rack_weights_kg(design)
    heaviest_kg_m2, heaviest = max(
        ((weights[r.id] / footprint_area_m2(r), r.id) for r in design.racks.values()),
        default=(0.0, ""),
    )
    rating = FLOOR_RATING_KG_M2 if heaviest_kg_m2 <= FLOOR_RATING_KG_M2 else AI_FLOOR_RATING_KG_M2
    design.set_hall(msgspec.structs.replace(design.hall, floor_rating_kg_m2=rating))
    # The raised rating is an assumption about the building, not a fact of the design: say which
    # rack asked for it, once (rating again after cabling replaces the earlier sentence).
    notes = [n for n in design.generation_notes if not n.startswith(FLOOR_NOTE)]
    if rating == AI_FLOOR_RATING_KG_M2:
        notes.append(
            f"{FLOOR_NOTE} 50 kN/m2, an AI-dedicated hall's (SIPOCH-FLOOR), not the standard 25: "
            f"rack {heaviest} loads its footprint with {heaviest_kg_m2:,.0f} kg/m2, over the "
            f"standard's {FLOOR_RATING_KG_M2:,.0f}; check the building's floor carries it"
        )
    design.generation_notes[:] = notes


def _rack_bounds(design: Design) -> tuple[dict[str, float], dict[str, float]]:
    """(maximum draw bound W, liquid heat W) per rack."""
    types = design.catalog.device_types
    max_w = dict.fromkeys(design.racks, 0.0)
    liquid = dict.fromkeys(design.racks, 0.0)
    bound: dict[str, float] = {}
    for device in design.devices.values():
        dtype = types[device.type]
        if device.type not in bound:
            bound[device.type] = switch_power_max_w(design.catalog, device.type)
        max_w[device.rack] += bound[device.type]
        liquid[device.rack] += dtype.power_max_w * dtype.liquid_fraction
    return max_w, liquid


def _busway_w(amps: float, dc_v: float = 0.0) -> float:
    """A busway's rating: 3-phase AC at BUSWAY_V, or DC at ``dc_v`` (V x I)."""
    return dc_v * amps if dc_v else math.sqrt(3) * BUSWAY_V * amps


def _dc_volts(design: Design, rack: Rack) -> float:
    """The DC voltage a rack's type takes straight from the busway (0: AC, its shelves or
    PDUs convert)."""
    rtype = design.catalog.rack_types.get(rack.type)
    return rtype.feed_voltage_v if rtype and rtype.feed_current == "dc" else 0.0


def _runs(
    racks: list[Rack], max_w: dict[str, float], liquid_w: dict[str, float], dc_v: dict[str, float]
):
    """The row cut into the fewest runs of consecutive racks that one busway per side and kind
    (AC, or DC at a rack type's voltage), one CDU and one CRAH (the largest sizes) each carry
    alone."""

    def fits(run: list[Rack]) -> bool:
        power = sum(max_w[r.id] for r in run)
        liquid = sum(liquid_w[r.id] for r in run)
        by_kind: dict[float, float] = {}
        for r in run:
            by_kind[dc_v[r.id]] = by_kind.get(dc_v[r.id], 0.0) + max_w[r.id]
        return (
            all(w * CONTINUOUS_LOAD <= _busway_w(BUSWAY_A[-1], v) for v, w in by_kind.items())
            and liquid <= CDU_KW[-1] * 1000
            and power - liquid <= CRAH_KW[-1] * 1000
        )

    for n in range(1, len(racks) + 1):
        size = math.ceil(len(racks) / n)
        runs = [racks[i : i + size] for i in range(0, len(racks), size)]
        if all(fits(run) for run in runs):
            return runs
    return [[r] for r in racks]  # a single rack beyond every size: the checks will say so


def _smallest(sizes, need: float) -> float:
    return next((s for s in sizes if s >= need), sizes[-1])


def _ends(run: list[Rack]) -> tuple[tuple[float, float], tuple[float, float]]:
    """Points just beyond the run's two ends, on the row's line."""
    first, last = run[0], run[-1]
    return (first.x - first.width_m, first.y), (last.x + last.width_m, last.y)


def _power_run(tag, run, max_w, feeds, panels, pdus, design: Design, dc_v: float = 0.0) -> None:
    """A busway per side over ``run``: 415 V 3-phase AC, or DC at ``dc_v`` (its own ids and
    names, offset from the AC pair on the plan)."""
    load_w = sum(max_w[r.id] for r in run) * CONTINUOUS_LOAD
    amps = _smallest(BUSWAY_A, load_w / _busway_w(1.0, dc_v))
    (x0, y), (x1, _y) = _ends(run)
    kind = f"-dc{dc_v:g}" if dc_v else ""
    offset = 0.1 if dc_v else 0.0
    sides: tuple[tuple[Literal["A", "B"], float], ...] = (("A", -0.2), ("B", 0.2))
    for side, dy in sides:
        dy += offset if dy > 0 else -offset
        feed = PowerFeed(id=f"feed-{tag}{kind}-{side.lower()}", side=side, current_a=float(amps))
        panel = PowerPanel(
            id=f"bus-{tag}{kind}-{side.lower()}",
            feed=feed.id,
            name=f"Row {tag} busway {side}" + (f" ({dc_v:g} V DC)" if dc_v else ""),
            points=[(round(x0, 6), round(y + dy, 6)), (round(x1, 6), round(y + dy, 6))],
            current_a=float(amps),
        )
        if dc_v:  # AC keeps the records' defaults (415 V 3-phase), written as before
            feed = msgspec.structs.replace(feed, current="dc", phases=1, voltage_v=dc_v)
            panel = msgspec.structs.replace(panel, current="dc", phases=1, voltage_v=dc_v)
        feeds.append(feed)
        panels.append(panel)
    for rack in run:
        n = rack_pdu_count(design, rack)
        a, b = f"bus-{tag}{kind}-a", f"bus-{tag}{kind}-b"
        pdus[rack.id] = [a] * math.ceil(n / 2) + [b] * (n // 2)


def rack_pdu_count(design: Design, rack: Rack) -> int:
    """PDUs or power shelves of a generated rack: its type's built-in shelves, else the most
    its servers' reference architecture asks (``rack_pdus``), else two (one per side)."""
    rtype = design.catalog.rack_types.get(rack.type)
    if rtype is not None and rtype.power_shelves:
        return rtype.power_shelves
    types = design.catalog.device_types
    asked = [types[d.type].rack_pdus or 0 for d in design.devices_in_rack(rack.id)]
    return max([2, *asked]) if any(asked) else 2


def _cooling_run(tag, run, max_w, liquid_w, cdus, crahs, cooling) -> None:
    liquid = sum(liquid_w[r.id] for r in run)
    air = sum(max(max_w[r.id] - liquid_w[r.id], 0.0) for r in run)
    ends = _ends(run)
    units: list[str] = []
    if liquid > 0:
        kw = _smallest(CDU_KW, liquid / 1000)
        flow = kw * 1000 / (WATER_J_PER_KG_K * CDU_RISE_K) * 60
        for i, point in enumerate(ends, 1):
            cdus.append(
                Cdu(
                    id=f"cdu-{tag}-{i}",
                    name=f"CDU {tag}{i}",
                    point=(round(point[0], 6), round(point[1] + 0.6, 6)),
                    capacity_kw=float(kw),
                    flow_lpm=round(flow, 1),
                    delta_t_k=CDU_RISE_K,
                )
            )
        units += [f"cdu-{tag}-1", f"cdu-{tag}-2"]
    if air > 0:
        kw = _smallest(CRAH_KW, air / 1000)
        for i, point in enumerate(ends, 1):
            crahs.append(
                Crah(
                    id=f"crah-{tag}-{i}",
                    name=f"CRAH {tag}{i}",
                    point=(round(point[0], 6), round(point[1] - 0.6, 6)),
                    capacity_kw=float(kw),
                )
            )
        units += [f"crah-{tag}-1", f"crah-{tag}-2"]
    for rack in run:
        ids = [u for u in units if u.startswith("crah")]
        if liquid_w[rack.id] > 0:
            ids = [u for u in units if u.startswith("cdu")] + ids
        cooling[rack.id] = ids
