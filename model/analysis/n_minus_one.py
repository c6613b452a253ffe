"""``--n-1``: the worst single failure per tier (switch tiers, racks, link classes).

Failing every element one by one would rerun the bisection tens of thousands of times on a
131k-GPU hall. Elements that look alike to the fabric fail alike, so the candidates of a tier
are grouped into classes by a structural signature and one member per class (the first by id)
is evaluated exactly with :class:`WhatIf`:

* a switch: level, downlink and uplink capacity, distinct upper neighbours, and the capacity of
  its links to servers of each side of the minimum balanced cut (so the bisection effect is
  alike too);
* an NVLink switch tray: its type and the GPUs of the servers it joins (every tray of an NVL72
  rack fails alike);
* a rack: the sorted signatures of its devices and its GPU count;
* a link: its class (``server-leaf`` ...), capacity and the signatures of its two ends.

On generated Clos fabrics a tier is one or a few classes; an irregular design has more, and at
most ``MAX_CLASSES`` per tier are evaluated (those with the most capacity below them first; the
result says how many were). Ranking, on the figures of :mod:`model.analysis.islands`: most
GPUs lost from the largest job that still runs (a partition), then most islands, then most GPUs
with no scale-out path, then most GPUs without a NIC of their own, then the slowest all-reduce
of the largest job that still runs (:mod:`model.analysis.failure_collective`), then the lowest
bisection after, then the lowest NVLink and mean scale-out bandwidth per GPU after.
"""

from __future__ import annotations

import numpy as np

from model.analysis.failure_elements import POWER_ASSUMPTION
from model.analysis.topology import LINK_COMPUTE, LINK_SCALE_UP, tier_name
from model.analysis.whatif import WhatIf
from model.common.arrays import FirstSeen, unique_inverse, unique_sorted

MAX_CLASSES = 64


def _link_classes(topo, sig: list[tuple], compute: np.ndarray) -> list[tuple[str, dict, dict]]:
    """Per link tier (in order of first link): its compute links in classes of the same
    capacity (to 0.001 Gb/s) between the same two device signatures (either way round), the
    class's links in link order, its weight the capacity of its last link. Grouped by numpy
    over integer codes (a device's signature, a tier's name): at XL a tuple per link took
    ~1 s."""
    rows = np.flatnonzero(compute & (np.minimum(topo.level[topo.a], topo.level[topo.b]) >= 0))
    if not len(rows):
        return []
    dev_sig = np.fromiter(map(FirstSeen().__getitem__, sig), np.int64, len(sig))
    sa, sb = dev_sig[topo.a[rows]], dev_sig[topo.b[rows]]
    tier_code = FirstSeen()
    tiers = np.fromiter(
        map(tier_code.__getitem__, map(topo.link_tier.__getitem__, rows.tolist())),
        np.int64,
        len(rows),
    )
    capacity = topo.capacity[rows]
    _, cap = np.unique(np.round(capacity, 3), return_inverse=True)
    # One integer per (tier, capacity, lower signature, higher signature) where it fits in 63
    # bits: np.unique(axis=1) over four rows took ~2.6 s at XL.
    keys = np.stack([tiers, cap.reshape(-1), np.minimum(sa, sb), np.maximum(sa, sb)])
    width = int(keys.max()) + 1
    if width**4 < 2**62:
        _, group = unique_inverse(((keys[0] * width + keys[1]) * width + keys[2]) * width + keys[3])
    else:
        _, group = np.unique(keys, axis=1, return_inverse=True)
    group = group.reshape(-1)
    order = np.argsort(group, kind="stable")  # each class's links in link order
    bounds = np.flatnonzero(np.diff(group[order])) + 1
    ids = topo.link_ids
    out: list[tuple[str, dict, dict]] = [(name, {}, {}) for name in tier_code]
    for members in np.split(order, bounds):
        _, classes, weight = out[int(tiers[members[0]])]
        key = int(group[members[0]])
        classes[key] = [ids[i] for i in rows[members].tolist()]
        weight[key] = float(capacity[members[-1]])
    return out


def n_minus_one(whatif: WhatIf) -> dict:
    """``{"tiers": [{"tier", "candidates", "classes", "evaluated", "ranking": [...]}, ...]}``."""
    topo = whatif.topo
    design = whatif.design
    n = len(topo.device_ids)
    half = np.zeros(n, dtype=np.int8)
    half[whatif.halves[0]] = 1
    half[whatif.halves[1]] = 2
    compute = topo.kind == LINK_COMPUTE
    a, b, cap = topo.a[compute], topo.b[compute], topo.capacity[compute]
    to_half = np.zeros((n, 3))
    np.add.at(to_half, (a, half[b]), cap)
    np.add.at(to_half, (b, half[a]), cap)
    sig = [
        (
            int(topo.level[i]),
            round(float(topo.down_gbps[i]), 3),
            round(float(topo.up_gbps[i]), 3),
            int(topo.up_neighbours[i]),
            round(float(to_half[i, 1]), 3),
            round(float(to_half[i, 2]), 3),
            int(topo.gpus[i]),
        )
        for i in range(n)
    ]
    tiers: list[tuple[str, dict[tuple, list[str]], dict[tuple, float]]] = []
    for level in range(1, topo.top_level() + 1):
        classes: dict[tuple, list[str]] = {}
        weight: dict[tuple, float] = {}
        for i in np.flatnonzero(topo.level == level).tolist():
            classes.setdefault(sig[i], []).append(topo.device_ids[i])
            weight[sig[i]] = float(topo.down_gbps[i])
        tiers.append((tier_name(level), classes, weight))
    racks: dict[tuple, list[str]] = {}
    rack_weight: dict[tuple, float] = {}
    for rack_id in design.racks:
        members = [topo.device_index[d.id] for d in design.devices_in_rack(rack_id)]
        if not any(topo.level[i] >= 0 for i in members):
            continue  # nothing of the compute fabric in it
        key = (tuple(sorted(sig[i] for i in members)),)
        racks.setdefault(key, []).append(rack_id)
        rack_weight[key] = float(sum(topo.gpus[i] + topo.down_gbps[i] for i in members))
    tiers.append(("rack", racks, rack_weight))
    tiers.append(("nvlink-switch", *_nvlink_classes(design, topo)))
    for name, classes, weight in _link_classes(topo, sig, compute):
        tiers.append((f"link {name}", classes, weight))

    before = whatif.before()
    out = []
    for name, classes, weight in tiers:
        if not classes:
            continue
        keys = sorted(classes, key=lambda k: (-weight[k], sorted(classes[k])[0]))
        ranking = []
        for key in keys[:MAX_CLASSES]:
            names = sorted(classes[key])
            result = whatif.run([names[0]], brief=True)
            after = result["after"]
            ranking.append(
                {
                    "id": names[0],
                    "equivalent": len(names),
                    "largest_job_lost_gpus": result["largest_job_lost_gpus"],
                    "islands": after["islands"]["count"],
                    "gpus_without_scale_out": result["gpus_without_scale_out"],
                    "gpus_disconnected": result["gpus_disconnected"],
                    "bisection_gbps": after["bisection_gbps"],
                    "bisection_lost_gbps": before["bisection_gbps"] - after["bisection_gbps"],
                    "scale_out_per_gpu_gbps": after["scale_out_per_gpu_gbps"],
                    "scale_up_per_gpu_gbps": after["scale_up_per_gpu_gbps"],
                    "collective_time_s": result["collective"]["after"]["time_s"],
                    "collective_slowdown": result["collective"]["slowdown"],
                    "collective_limited_by": result["collective"]["after"]["limited_by"],
                }
            )
        ranking.sort(
            key=lambda r: (
                -r["largest_job_lost_gpus"],
                -r["islands"],
                -r["gpus_without_scale_out"],
                -r["gpus_disconnected"],
                -r["collective_time_s"],
                r["bisection_gbps"],
                r["scale_up_per_gpu_gbps"]["min"],
                r["scale_out_per_gpu_gbps"]["mean"],
                r["id"],
            )
        )
        out.append(
            {
                "tier": name,
                "candidates": sum(len(v) for v in classes.values()),
                "classes": len(classes),
                "evaluated": min(len(classes), MAX_CLASSES),
                "worst": ranking[0],
                "ranking": ranking,
            }
        )
    return {
        "before": before,
        "collective_before": whatif.collective.before.to_json(),
        "tiers": out,
        "assumptions": [POWER_ASSUMPTION],
    }


def _nvlink_classes(design, topo) -> tuple[dict, dict]:
    """NVLink switch trays (devices on scale-up links that hold no GPU) in classes of the same
    type and the same GPUs behind them."""
    up = topo.kind == LINK_SCALE_UP
    a, b = topo.a[up], topo.b[up]
    switch_end = np.where(topo.gpus[a] > 0, b, a)
    server_end = np.where(topo.gpus[a] > 0, a, b)
    behind = np.zeros(len(topo.device_ids), dtype=np.int64)
    np.add.at(behind, switch_end, topo.gpus[server_end])
    classes: dict[tuple, list[str]] = {}
    weight: dict[tuple, float] = {}
    for i in unique_sorted(switch_end).tolist() if len(switch_end) else []:
        if topo.gpus[i] > 0:
            continue
        key = (design.devices[topo.device_ids[i]].type, int(behind[i]))
        classes.setdefault(key, []).append(topo.device_ids[i])
        weight[key] = float(behind[i])
    return classes, weight
