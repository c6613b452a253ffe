"""Warnings the analysis raises (codes are a stable contract; see ``model.common.findings``).

Choices where a code could mean several things:

* ``RACK_OVER_POWER``: error when the maximum draw of the rack's devices plus the plugs in
  their cages exceeds the budget (a rack is provisioned for its maximum; the message also gives
  the typical draw).
* ``SWITCH_OUT_OF_PORTS``: a switch below the top tier whose free compute ports cannot carry the
  uplinks its downlinks need to meet the design's oversubscription target
  (needed uplink capacity = down / target - up > free ports x port speed). A full switch that
  meets the target is fine.
* ``SINGLE_UPLINK``: a switch below the top tier whose uplinks all go to one upper switch
  (one link or several to the same switch: either is a single point of failure).
* ``TRAY_OVERFILLED``: cable cross-section (pi d^2 / 4 per cable) above ``TRAY_FILL_WARNING``
  (40 %) of the tray's width x depth is a warning, above ``TRAY_FILL_LIMIT`` (50 %) an error
  (domain-facts §8b). ``TRAY_OVERLOADED`` and ``TRAY_BEND_RADIUS`` come from the same tray
  figures (:mod:`model.analysis.tray_fill`).
* ``SCALE_UP_SPLIT``: a scale-up domain (devices joined by scale-up links) spread over racks
  where one of its links is longer than every medium that fits the link
  (``model.engine.media.media_that_fit``) reaches.
* ``RACK_OVERLAP`` / ``RACK_ON_OBSTACLE`` / ``RACK_OUTSIDE_HALL``: the rule of
  ``model.design.rack_clashes`` (overlap above ``OVERLAP_EPS_M2``; touching racks in a row are fine).
* ``NIC_MODE_UNSUPPORTED`` (:mod:`model.analysis.nic_modes`) and ``OPTICS_STRATEGY_UNMET``
  (:func:`model.analysis.optics.strategy_findings`) are raised beside these, in their modules.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np

from model.analysis.topology import LINK_SCALE_UP, Topology, components, tier_name
from model.analysis.tray_fill import TrayFill
from model.common.findings import Finding, Severity
from model.design.design import Design
from model.design.rack_clashes import Clash, rack_clashes
from model.engine.media import media_that_fit

TRAY_FILL_WARNING = 0.4  # domain-facts §8b: plan <= 40 % (warning above) ...
TRAY_FILL_LIMIT = 0.5  # ... 50 % maximum (error above)
MAX_LISTED = 5


def tray_fill_severity(ratio: float) -> Severity | None:
    """``TRAY_OVERFILLED`` severity of a tray at this fill ratio: None (fine), warning, error."""
    if ratio > TRAY_FILL_LIMIT:
        return "error"
    return "warning" if ratio > TRAY_FILL_WARNING else None


def _names(ids, limit: int = MAX_LISTED) -> str:
    ids = list(ids)
    text = ", ".join(ids[:limit])
    return text + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def placement_findings(design: Design, clashes: list[Clash] | None = None) -> list[Finding]:
    """RACK_OVERLAP, RACK_OUTSIDE_HALL, RACK_ON_OBSTACLE: the clashes of ``model.design.rack_clashes``
    (the rule the canvas also shows while a rack is dragged or placed); ``clashes`` are the
    design's, when the caller has them already (see :func:`moved_clashes`)."""
    racks = design.racks
    obstacles = {o.id: o for o in design.hall.obstacles}
    out: list[Finding] = []
    for clash in rack_clashes(design) if clashes is None else clashes:
        rack = racks[clash.rack]
        if clash.code == "RACK_OVERLAP":
            other = cast(str, clash.other)  # an overlap names both racks
            message = f"Racks {rack.name} and {racks[other].name} overlap."
        elif clash.code == "RACK_OUTSIDE_HALL":
            message = f"Rack {rack.name} is not inside the hall outline."
        else:
            obstacle = obstacles[cast(str, clash.other)]  # the obstacle a rack stands on
            message = f"Rack {rack.name} stands on {obstacle.kind} {obstacle.name or obstacle.id}."
        objects = (clash.rack,) if clash.other is None else (clash.rack, clash.other)
        out.append(Finding(code=clash.code, severity="error", message=message, objects=objects))
    return out


def moved_clashes(design: Design, before: list[Clash], moved: set[str]) -> list[Clash]:
    """The design's clashes after only the racks ``moved`` moved, from the clashes ``before``:
    those that involve no moved rack stand (a clash between two racks that stayed cannot
    change), and the moved racks are checked again against everything. The same clashes as
    ``rack_clashes(design)``; those of a moved rack come last."""
    kept = [
        c
        for c in before
        if c.rack not in moved and not (c.code == "RACK_OVERLAP" and c.other in moved)
    ]
    return kept + rack_clashes(design, only=moved)


def rack_u_findings(design: Design) -> list[Finding]:
    out = []
    types = design.catalog.device_types
    for device in design.devices.values():
        rack = design.racks[device.rack]
        top = device.u + types[device.type].u_height - 1
        if top > rack.height_u:
            out.append(
                Finding(
                    code="RACK_OVER_U",
                    severity="error",
                    message=f"Device {device.name} reaches U{top} of rack {rack.name}, "
                    f"which has {rack.height_u} U.",
                    objects=(device.id, rack.id),
                )
            )
    return out


def rack_power_findings(
    design: Design, typical_w: dict[str, float], max_w: dict[str, float]
) -> list[Finding]:
    out = []
    for rack_id, rack in design.racks.items():
        budget = rack.power_budget_kw * 1000
        typ, mx = typical_w.get(rack_id, 0.0), max_w.get(rack_id, 0.0)
        if typ > budget:
            out.append(
                Finding(
                    code="RACK_OVER_POWER",
                    severity="error",
                    message=f"Rack {rack.name} draws {typ / 1000:.1f} kW typical, over "
                    f"its {rack.power_budget_kw:g} kW budget.",
                    objects=(rack_id,),
                )
            )
        elif mx > budget:
            out.append(
                Finding(
                    code="RACK_OVER_POWER",
                    severity="error",
                    message=f"Rack {rack.name} can draw {mx / 1000:.1f} kW at maximum, "
                    f"over its {rack.power_budget_kw:g} kW budget "
                    f"({typ / 1000:.1f} kW typical).",
                    objects=(rack_id,),
                )
            )
    return out


def topology_findings(design: Design, topo: Topology, ratio: np.ndarray) -> list[Finding]:
    """OVERSUBSCRIBED, SPEED_MISMATCH, UNCABLED_GPU_NIC, SWITCH_OUT_OF_PORTS, SINGLE_UPLINK."""
    out: list[Finding] = []
    ids = topo.device_ids
    target = design.settings.oversubscription_target
    top = topo.top_level()
    for level in range(1, top):
        over = np.flatnonzero((topo.level == level) & (ratio > target * (1 + 1e-9)))
        if len(over):
            worst = float(np.nanmax(ratio[over]))
            shown = "no uplinks" if math.isinf(worst) else f"{worst:.2f}:1"
            out.append(
                Finding(
                    code="OVERSUBSCRIBED",
                    severity="warning",
                    message=f"{len(over)} {tier_name(level)} switch{'es' if len(over) != 1 else ''} "
                    f"above the {target:g}:1 target (worst {shown}): "
                    f"{_names(ids[i] for i in over)}.",
                    objects=tuple(ids[i] for i in over),
                )
            )
    mismatch = np.flatnonzero(topo.speed_a != topo.speed_b)
    groups: dict[tuple[float, float], list[str]] = {}
    for k in mismatch.tolist():
        ends_gbps = float(topo.speed_a[k]), float(topo.speed_b[k])
        key = (min(ends_gbps), max(ends_gbps))
        groups.setdefault(key, []).append(topo.link_ids[k])
    for (lo, hi), links in sorted(groups.items()):
        out.append(
            Finding(
                code="SPEED_MISMATCH",
                severity="warning",
                message=f"{len(links)} link{'s' if len(links) != 1 else ''} run at {lo:g}G because one "
                f"end is {lo:g}G and the other {hi:g}G: {_names(links)}.",
                objects=tuple(links),
            )
        )
    maybe_free = topo.is_gpu_server & (topo.compute_ports_used < topo.compute_ports)
    for i in np.flatnonzero(maybe_free).tolist():
        device = design.devices[ids[i]]
        free = design.free_ports(device.id, role="compute")
        if free:
            out.append(
                Finding(
                    code="UNCABLED_GPU_NIC",
                    severity="warning",
                    message=f"Server {device.name}: {len(free)} compute NIC"
                    f"{'s' if len(free) != 1 else ''} not cabled ({_names(free)}).",
                    objects=(device.id,),
                )
            )
    below = np.flatnonzero((topo.level >= 1) & (topo.level < top) & (topo.down_gbps > 0))
    for i in below.tolist():
        device = design.devices[ids[i]]
        if topo.up_neighbours[i] == 1:
            out.append(
                Finding(
                    code="SINGLE_UPLINK",
                    severity="warning",
                    message=f"Switch {device.name} has all its uplinks to one switch: a "
                    "single point of failure.",
                    objects=(device.id,),
                )
            )
        free = topo.compute_ports[i] - topo.compute_ports_used[i]
        needed = topo.down_gbps[i] / target - topo.up_gbps[i]
        if needed > 1e-9:
            speeds = [p.speed_gbps for p in design.ports(device).values() if p.role == "compute"]
            if free * max(speeds) + 1e-9 < needed:
                out.append(
                    Finding(
                        code="SWITCH_OUT_OF_PORTS",
                        severity="warning",
                        message=f"Switch {device.name} needs {needed:,.0f} Gb/s more uplink to meet "
                        f"the {target:g}:1 target but has only {free} free compute port"
                        f"{'s' if free != 1 else ''}.",
                        objects=(device.id,),
                    )
                )
    return out


def scale_up_findings(design: Design, topo: Topology, plant) -> list[Finding]:
    """SCALE_UP_SPLIT: a scale-up domain whose cross-rack links exceed every medium's reach."""
    su = topo.kind == LINK_SCALE_UP
    if not su.any():
        return []
    n = len(topo.device_ids)
    members = np.zeros(n, dtype=bool)
    members[topo.a[su]] = members[topo.b[su]] = True
    label = components(n, topo.a[su], topo.b[su], members)
    rack_of = [design.devices[d].rack for d in topo.device_ids]
    media = list(design.catalog.media_types.values())
    out = []
    bad: dict[int, list[str]] = {}
    for k in np.flatnonzero(su).tolist():
        ia, ib = int(topo.a[k]), int(topo.b[k])
        if rack_of[ia] == rack_of[ib]:
            continue
        link = design.links[topo.link_ids[k]]
        port_a = design.ports(link.a.device)[link.a.port]
        port_b = design.ports(link.b.device)[link.b.port]
        fit = media_that_fit(media, port_a, port_b)
        reach = max((media[i].reach_m for i in fit), default=0.0)
        length = _length(design, plant, link.id, rack_of[ia], rack_of[ib])
        if length > reach:
            bad.setdefault(int(label[ia]), []).append(link.id)
    for root, links in bad.items():
        racks = sorted({rack_of[i] for i in np.flatnonzero(label == root).tolist()})
        out.append(
            Finding(
                code="SCALE_UP_SPLIT",
                severity="error",
                message=f"A scale-up domain spans racks {_names(racks)}; {len(links)} of its links are "
                f"longer than any scale-up medium reaches.",
                objects=tuple(racks) + tuple(links),
            )
        )
    return out


def _length(design: Design, plant, link_id: str, ra: str, rb: str) -> float:
    if plant is not None and link_id in plant.index:
        value = float(plant.length_m[plant.index[link_id]])
        if math.isfinite(value):
            return value
    a, b = design.racks[ra], design.racks[rb]
    return abs(a.x - b.x) + abs(a.y - b.y)


def tray_findings(design: Design, fill: dict[str, float], trays: TrayFill) -> list[Finding]:
    """TRAY_OVERFILLED, TRAY_OVERLOADED and TRAY_BEND_RADIUS, each naming its tray (``fill``:
    each tray's fill ratio; ``trays``: the analyzer's TrayFill, for where and what loads it)."""
    out: list[Finding] = []
    for tray_id, ratio in fill.items():
        severity = tray_fill_severity(ratio)
        tray = design.trays[tray_id]
        name = tray.name or tray_id
        if severity is not None:
            x, y = trays.peak_at.get(tray_id, tray.points[0])
            out.append(
                Finding(
                    code="TRAY_OVERFILLED",
                    severity=severity,
                    message=f"Tray {name} is {ratio:.0%} full at ({x:.1f}, {y:.1f}) m "
                    f"(plan at most {TRAY_FILL_WARNING:.0%}, "
                    f"{TRAY_FILL_LIMIT:.0%} maximum).",
                    objects=(tray_id,),
                )
            )
        load = trays.loads.get(tray_id)
        if load is not None and load.overloaded:
            x, y = load.load_at or tray.points[0]
            out.append(
                Finding(
                    code="TRAY_OVERLOADED",
                    severity="error",
                    message=f"Tray {name} carries {load.load_kg_per_m:.1f} kg/m at "
                    f"({x:.1f}, {y:.1f}) m, above its load class "
                    f"({load.load_limit_kg_per_m:g} kg/m).",
                    objects=(tray_id,),
                )
            )
        if load is not None and load.bend_too_tight:
            out.append(
                Finding(
                    code="TRAY_BEND_RADIUS",
                    severity="warning",
                    message=f"Tray {name}: a cable turning in it needs a "
                    f"{load.bend_radius_mm:.4g} mm bend radius; the tray's corners give "
                    f"{load.corner_radius_mm:g} mm.",
                    objects=(tray_id,),
                )
            )
    return out
