"""Cooling at maximum draw: each rack's heat split to liquid and air, CDUs and CRAHs checked.

Records: ``Hall.cooling`` (CDUs, CRAHs, the redundancy asked) and ``Rack.cooling`` (the units
serving a rack), in :mod:`model.design.entities`.

Rules (choices, written down):

* A rack's heat at maximum is its maximum draw (:func:`model.plant.power.rack_power`, devices
  plus plugs): every watt drawn ends as heat. Its liquid share is each device's maximum draw
  times the catalog's ``liquid_fraction``; the rest (plugs included) goes to the air.
* A rack's liquid heat is shared equally by its live CDUs, its air heat by its live CRAHs (as a
  rack's draw is shared by its live PDUs in :mod:`model.facility.power_paths`).
* The flow a CDU must pump is its liquid heat over water's heat capacity (4,186 J/(kg K),
  1 kg/L) times the unit's supply-to-return ``delta_t_k``; a glycol mix needs ~10 % more.
* Scenarios: normal operation; with ``N+1`` also each unit failed alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from model.common.findings import Finding
from model.design.design import Design
from model.design.entities import Cdu, Crah

WATER_J_PER_KG_K = 4186.0


def rack_liquid_w(design: Design, rack_ids: list[str] | None = None) -> dict[str, float]:
    """Heat (W) each rack's (or ``rack_ids``') devices give to liquid at maximum draw (the
    catalog's liquid shares)."""
    types = design.catalog.device_types
    out = dict.fromkeys(design.racks if rack_ids is None else rack_ids, 0.0)
    devices = (
        design.devices.values()
        if rack_ids is None
        else [d for r in rack_ids for d in design.devices_in_rack(r)]
    )
    for device in devices:
        dtype = types[device.type]
        if dtype.liquid_fraction:
            out[device.rack] += dtype.power_max_w * dtype.liquid_fraction
    return out


def flow_needed_lpm(liquid_w: float, delta_t_k: float) -> float:
    """Water flow (L/min) that carries ``liquid_w`` at a ``delta_t_k`` rise."""
    return liquid_w / (WATER_J_PER_KG_K * delta_t_k) * 60.0


@dataclass(frozen=True)
class CoolingPaths:
    """The design's cooling records indexed: rack -> its CDUs and its CRAHs."""

    redundancy: str
    cdus: dict[str, Cdu]
    crahs: dict[str, Crah]
    rack_cdus: dict[str, tuple[str, ...]]
    rack_crahs: dict[str, tuple[str, ...]]
    unknown: dict[str, tuple[str, ...]]  # rack -> unit ids the hall lacks

    @property
    def modelled(self) -> bool:
        """The design has a cooling model (at least one unit)."""
        return bool(self.cdus or self.crahs)

    def loads_w(
        self, liquid_w: dict[str, float], air_w: dict[str, float], failed: Iterable[str] = ()
    ) -> dict[str, float]:
        """Heat (W) on every unit when the units ``failed`` fail (failed units carry none)."""
        failed = set(failed)
        load = dict.fromkeys([*self.cdus, *self.crahs], 0.0)
        for units, heat in ((self.rack_cdus, liquid_w), (self.rack_crahs, air_w)):
            for rack, ids in units.items():
                live = [u for u in ids if u not in failed]
                for unit in live:
                    load[unit] += heat.get(rack, 0.0) / len(live)
        return load

    def uncooled_racks(self, failed: Iterable[str], liquid_w: dict[str, float]) -> list[str]:
        """Racks with liquid heat whose every CDU is in ``failed`` (they must shut down)."""
        failed = set(failed)
        return sorted(
            r
            for r, ids in self.rack_cdus.items()
            if liquid_w.get(r, 0.0) > 0 and all(u in failed for u in ids)
        )

    def scenario_loads(
        self, liquid_w: dict[str, float], air_w: dict[str, float], singles: bool | None = None
    ):
        """(label, failed unit ids, racks it served, W on the units whose load it changed) for
        normal operation (with every unit's load) and, with ``N+1`` (or ``singles``), each unit
        failed alone.

        A single unit's failure moves only the heat of the racks it serves to their other
        units: each case is that change (O(its racks)), not a pass over the hall (an N+1 hall
        of 4,500 racks has ~500 units: 500 passes over every rack and unit were ~1 s)."""
        normal = self.loads_w(liquid_w, air_w)
        yield "in normal operation", (), [], normal
        if not (self.redundancy == "N+1" if singles is None else singles):
            return
        served: dict[str, list[str]] = {}
        for table in (self.rack_cdus, self.rack_crahs):
            for rack, ids in table.items():
                for uid in dict.fromkeys(ids):
                    served.setdefault(uid, []).append(rack)
        for uid in [*self.cdus, *self.crahs]:
            table, heat = (
                (self.rack_cdus, liquid_w) if uid in self.cdus else (self.rack_crahs, air_w)
            )
            racks = served.get(uid, [])
            changed: dict[str, float] = {uid: 0.0}
            for rack in racks:
                ids = table[rack]
                live = [u for u in ids if u != uid]
                watts = heat.get(rack, 0.0)
                for u in live:
                    if u not in changed:
                        changed[u] = normal[u]
                    changed[u] += watts / len(live) - watts / len(ids)
            yield f"with {uid} failed", (uid,), racks, changed


def uncooled_racks(design: Design, failed: Iterable[str]) -> list[str]:
    """Racks that must shut down when the cooling units ``failed`` fail: every CDU of a rack
    with liquid heat, or every CRAH of a rack that has CRAHs and air heat (what-if's rule; the
    remaining units' capacity is the checks' question, not this one's)."""
    paths = cooling_paths(design)
    failed = set(failed)
    if not failed or not paths.modelled:
        return []
    liquid = rack_liquid_w(design)
    types = design.catalog.device_types
    air = dict.fromkeys(design.racks, False)
    for device in design.devices.values():
        dtype = types[device.type]
        air[device.rack] = air[device.rack] or dtype.liquid_fraction < 1
    down = set(paths.uncooled_racks(failed, liquid))
    down |= {r for r, ids in paths.rack_crahs.items() if air[r] and all(u in failed for u in ids)}
    return sorted(down)


def cooling_paths(design: Design) -> CoolingPaths:
    """The cooling records of ``design`` indexed (a pass over the racks)."""
    cooling = design.hall.cooling
    cdus = {c.id: c for c in cooling.cdus}
    crahs = {c.id: c for c in cooling.crahs}
    rack_cdus, rack_crahs, unknown = {}, {}, {}
    for rack in design.racks.values() if cdus or crahs else ():
        if not rack.cooling:
            continue
        if ids := tuple(u for u in rack.cooling if u in cdus):
            rack_cdus[rack.id] = ids
        if ids := tuple(u for u in rack.cooling if u in crahs):
            rack_crahs[rack.id] = ids
        if lost := tuple(u for u in rack.cooling if u not in cdus and u not in crahs):
            unknown[rack.id] = lost
    return CoolingPaths(cooling.redundancy, cdus, crahs, rack_cdus, rack_crahs, unknown)


def _heat(design: Design, rack_max_w: dict[str, float]) -> tuple[dict, dict]:
    liquid = rack_liquid_w(design)
    air = {r: max(rack_max_w.get(r, 0.0) - liquid.get(r, 0.0), 0.0) for r in design.racks}
    return liquid, air


def cooling_findings(design: Design, rack_max_w: dict[str, float]) -> list[Finding]:
    """Errors and warnings of the design's cooling at maximum draw (none without units)."""
    paths = cooling_paths(design)
    if not paths.modelled:
        return []
    liquid, air = _heat(design, rack_max_w)
    out = [
        Finding(
            code="RACK_COOLING_UNKNOWN",
            severity="error",
            message=f"Rack {design.racks[r].name} is served by cooling unit {', '.join(ids)}, "
            "which the hall does not have.",
            objects=(r,),
        )
        for r, ids in sorted(paths.unknown.items())
    ]
    over: dict[str, tuple[str, float]] = {}
    short: dict[str, tuple[str, float]] = {}
    uncooled: dict[str, str] = {}
    for label, failed, racks, loads in paths.scenario_loads(liquid, air):
        for uid, load in loads.items():
            if uid in failed:
                continue
            unit: Cdu | Crah = paths.cdus.get(uid) or paths.crahs[uid]
            if load > unit.capacity_kw * 1000 + 1e-6 and load > over.get(uid, ("", 0.0))[1]:
                over[uid] = (label, load)
            if isinstance(unit, Cdu):
                need = flow_needed_lpm(load, unit.delta_t_k)
                if need > unit.flow_lpm + 1e-9 and need > short.get(uid, ("", 0.0))[1]:
                    short[uid] = (label, need)
        for rack in racks:  # those the failed unit served: did it leave them no CDU?
            ids = paths.rack_cdus.get(rack, ())
            if ids and liquid.get(rack, 0.0) > 0 and all(u in failed for u in ids):
                uncooled.setdefault(rack, label)
    for uid, (label, load) in sorted(over.items()):
        unit = paths.cdus.get(uid) or paths.crahs[uid]
        what = "CDU" if isinstance(unit, Cdu) else "CRAH"
        out.append(
            Finding(
                code="COOLING_OVER_CAPACITY",
                severity="error",
                message=f"{what} {unit.name or uid} takes {load / 1000:.1f} kW at maximum draw "
                f"{label}, over its {unit.capacity_kw:.1f} kW capacity.",
                objects=(uid,),
            )
        )
    for uid, (label, need) in sorted(short.items()):
        cdu = paths.cdus[uid]
        out.append(
            Finding(
                code="COOLANT_FLOW_SHORT",
                severity="error",
                message=f"CDU {cdu.name or uid} must pump {need:,.0f} L/min {label} "
                f"(a {cdu.delta_t_k:g} K rise), over its {cdu.flow_lpm:,.0f} L/min.",
                objects=(uid,),
            )
        )
    for rack in sorted(r for r, w in liquid.items() if w > 0 and r not in paths.rack_cdus):
        out.append(
            Finding(
                code="RACK_NO_COOLANT",
                severity="error",
                message=f"Rack {design.racks[rack].name} gives {liquid[rack] / 1000:.1f} kW to "
                "liquid at maximum draw and no CDU of the hall serves it.",
                objects=(rack,),
            )
        )
    for rack, label in sorted(uncooled.items()):
        out.append(
            Finding(
                code="RACK_COOLING_NOT_REDUNDANT",
                severity="warning",
                message=f"Rack {design.racks[rack].name} loses its coolant {label}: the design "
                "asks for N+1 cooling.",
                objects=(rack,),
            )
        )
    return out


def cooling_use(design: Design, rack_max_w: dict[str, float]) -> dict:
    """The hall's liquid and air heat at maximum draw and, per unit, capacity, load and its
    share of the capacity, the worst load over the failures the redundancy must survive, and the
    worst load with any one other unit failed (``analyze --json`` "cooling"; empty when the
    design has no cooling units).

    ``one_failed_kw`` is asked of every hall, whatever redundancy it states (the cooling
    counterpart of a feed's ``one_side_failed_kw``): the most the unit carries when another
    unit fails alone and its racks' heat moves to the units left."""
    paths = cooling_paths(design)
    if not paths.modelled:
        return {}
    liquid, air = _heat(design, rack_max_w)
    normal: dict[str, float] = {}
    worst: dict[str, float] = {}
    one_failed: dict[str, float] = {}
    for _label, failed, _racks, loads in paths.scenario_loads(liquid, air, singles=True):
        if not failed:
            normal, worst, one_failed = loads, dict(loads), dict(loads)
        for uid, load in loads.items():
            if uid not in failed:
                one_failed[uid] = max(one_failed[uid], load)
                if paths.redundancy == "N+1":
                    worst[uid] = max(worst[uid], load)
    units = []
    every: list[Cdu | Crah] = [*paths.cdus.values(), *paths.crahs.values()]
    for unit in every:
        capacity_w = unit.capacity_kw * 1000
        entry = {
            "id": unit.id,
            "kind": f"cdu-{unit.kind}" if isinstance(unit, Cdu) else "crah",
            "capacity_kw": unit.capacity_kw,
            "max_draw_kw": round(normal[unit.id] / 1000, 3),
            "max_draw_pct": round(100 * normal[unit.id] / capacity_w, 1),
            "worst_failure_kw": round(worst[unit.id] / 1000, 3),
            "utilisation_pct": round(100 * worst[unit.id] / capacity_w, 1),
            "one_failed_kw": round(one_failed[unit.id] / 1000, 3),
            "one_failed_pct": round(100 * one_failed[unit.id] / capacity_w, 1),
        }
        if isinstance(unit, Cdu):
            entry["flow_needed_lpm"] = round(flow_needed_lpm(worst[unit.id], unit.delta_t_k), 1)
            entry["flow_lpm"] = unit.flow_lpm
        units.append(entry)
    return {
        "redundancy": paths.redundancy,
        "liquid_kw": round(sum(liquid.values()) / 1000, 3),
        "air_kw": round(sum(air.values()) / 1000, 3),
        "units": units,
    }
