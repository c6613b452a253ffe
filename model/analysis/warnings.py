"""Warnings the analysis raises (codes are a stable contract; see ``model.findings``).

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
* ``TRAY_OVERFILLED``: cable cross-section (pi d^2 / 4 per cable) above ``TRAY_FILL_LIMIT`` of
  the tray's width x depth is a warning (the 40-50 % planning rule), above 100 % an error.
* ``SCALE_UP_SPLIT``: a scale-up domain (devices joined by scale-up links) spread over racks
  where one of its links is longer than every medium for that port's speed and form factor
  reaches.
* ``RACK_OVERLAP`` / ``RACK_ON_OBSTACLE``: footprints sharing more than ``OVERLAP_EPS_M2``
  (touching racks in a row are fine); ``RACK_OUTSIDE_HALL``: footprint not inside the outline.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from model.analysis.topology import LINK_SCALE_UP, Topology, components, tier_name
from model.design import Design
from model.entities import plan_size
from model.findings import Finding

TRAY_FILL_LIMIT = 0.5
OVERLAP_EPS_M2 = 1e-4
MAX_LISTED = 5


def _names(ids, limit: int = MAX_LISTED) -> str:
    ids = list(ids)
    text = ", ".join(ids[:limit])
    return text + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def rack_boxes(design: Design) -> tuple[list[str], np.ndarray]:
    ids = list(design.racks)
    boxes = np.empty((len(ids), 4))
    for i, r in enumerate(design.racks.values()):
        w, d = plan_size(r.width_m, r.depth_m, r.rotation)
        boxes[i] = (r.x - w / 2, r.y - d / 2, r.x + w / 2, r.y + d / 2)
    return ids, boxes


def placement_findings(design: Design) -> list[Finding]:
    """RACK_OVERLAP, RACK_OUTSIDE_HALL, RACK_ON_OBSTACLE (vectorised with an STRtree)."""
    out: list[Finding] = []
    ids, boxes = rack_boxes(design)
    if not ids:
        return out
    polys = shapely.box(boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3])
    tree = shapely.STRtree(polys)
    i, j = tree.query(polys, predicate="intersects")
    keep = i < j
    i, j = i[keep], j[keep]
    w = np.minimum(boxes[i, 2], boxes[j, 2]) - np.maximum(boxes[i, 0], boxes[j, 0])
    h = np.minimum(boxes[i, 3], boxes[j, 3]) - np.maximum(boxes[i, 1], boxes[j, 1])
    hit = (w > 0) & (h > 0) & (w * h > OVERLAP_EPS_M2)
    racks = design.racks
    for p, q in zip(i[hit].tolist(), j[hit].tolist(), strict=True):
        out.append(
            Finding(
                code="RACK_OVERLAP",
                severity="error",
                message=f"Racks {racks[ids[p]].name} and {racks[ids[q]].name} overlap.",
                objects=(ids[p], ids[q]),
            )
        )
    outline = shapely.Polygon(design.hall.outline)
    inside = shapely.covers(outline.buffer(1e-6), polys)
    for p in np.flatnonzero(~inside).tolist():
        out.append(
            Finding(
                code="RACK_OUTSIDE_HALL",
                severity="error",
                message=f"Rack {racks[ids[p]].name} is not inside the hall outline.",
                objects=(ids[p],),
            )
        )
    for obstacle in design.hall.obstacles:
        shape = shapely.Polygon(obstacle.polygon)
        for p in tree.query(shape, predicate="intersects").tolist():
            if shapely.area(shapely.intersection(polys[p], shape)) > OVERLAP_EPS_M2:
                out.append(
                    Finding(
                        code="RACK_ON_OBSTACLE",
                        severity="error",
                        message=f"Rack {racks[ids[p]].name} stands on {obstacle.kind} "
                        f"{obstacle.name or obstacle.id}.",
                        objects=(ids[p], obstacle.id),
                    )
                )
    return out


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
        key = tuple(sorted((float(topo.speed_a[k]), float(topo.speed_b[k]))))
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
        info = design.ports(link.a.device)[link.a.port]
        reach = max(
            (
                m.reach_m
                for m in media
                if info.speed_gbps in m.speeds_gbps and info.form_factor in m.form_factors
            ),
            default=0.0,
        )
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
