"""Switch hops between GPU servers over the compute fabric (scale-out path only).

Two servers that share a leaf are 1 switch hop apart; sharing a level-2 group (a pod of leaves
and spines) but no leaf, 3; sharing only a level-3 group, 5; in general 2k - 1 for the lowest
level k of a group that contains both. GPUs inside one server talk over NVLink (0 switch hops)
and are not counted. ``typical`` is the median over all server pairs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from model.analysis.topology import LINK_COMPUTE, Topology, components
from model.arrays import unique_sorted


@dataclass
class Hops:
    max: int | None  # None: fewer than 2 servers, or some pair is not connected
    typical: int | None
    disconnected_pairs: int
    histogram: dict[int, int]  # switch hops -> number of server pairs


def server_hops(topo: Topology) -> Hops:
    n = len(topo.device_ids)
    compute = topo.kind == LINK_COMPUTE
    a, b = topo.a[compute], topo.b[compute]
    la, lb = topo.level[a], topo.level[b]
    top = topo.top_level()
    labels = []  # per level k >= 2: component labels of switches up to level k
    for level in range(2, top + 1):
        members = (topo.level >= 1) & (topo.level <= level)
        labels.append(components(n, a, b, members))
    up_a, up_b = (la == 0) & (lb == 1), (lb == 0) & (la == 1)
    srv = np.concatenate([a[up_a], b[up_b]])
    leaf = np.concatenate([b[up_a], a[up_b]])
    # The set of leaves of each server, grouped in numpy (a Python loop per link is slow at XL).
    leaves_of: dict[int, frozenset[int]] = {}
    if len(srv):
        pairs = unique_sorted(srv * max(n, 1) + leaf)
        srv_u, leaf_u = pairs // max(n, 1), (pairs % max(n, 1)).tolist()
        starts = np.flatnonzero(np.concatenate([[True], srv_u[1:] != srv_u[:-1]]))
        ends = np.append(starts[1:], len(pairs)).tolist()
        for s, lo, hi in zip(srv_u[starts].tolist(), starts.tolist(), ends, strict=True):
            leaves_of[s] = frozenset(leaf_u[lo:hi])
    servers = np.flatnonzero(topo.is_gpu_server).tolist()
    signatures = Counter(frozenset(leaves_of.get(s, ())) for s in servers)
    sigs = list(signatures.items())
    sig_groups = []
    for sig, _count in sigs:
        idx = np.fromiter(sig, dtype=np.int64, count=len(sig))
        sig_groups.append([frozenset(lab[idx].tolist()) for lab in labels])
    hist: Counter[int] = Counter()
    disconnected = 0
    for i, (sig_i, count_i) in enumerate(sigs):
        if count_i > 1:
            if sig_i:
                hist[1] += count_i * (count_i - 1) // 2
            else:
                disconnected += count_i * (count_i - 1) // 2
        for j in range(i + 1, len(sigs)):
            sig_j, count_j = sigs[j]
            pairs = count_i * count_j
            hops = _pair_hops(sig_i, sig_j, sig_groups[i], sig_groups[j])
            if hops is None:
                disconnected += pairs
            else:
                hist[hops] += pairs
    if not hist and not disconnected:
        return Hops(None, None, 0, {})
    typical = _median(hist) if hist else None
    worst = None if disconnected or not hist else max(hist)
    return Hops(worst, typical, disconnected, dict(sorted(hist.items())))


def _pair_hops(sig_i, sig_j, groups_i, groups_j) -> int | None:
    if not sig_i or not sig_j:
        return None
    if sig_i & sig_j:
        return 1
    for k, (gi, gj) in enumerate(zip(groups_i, groups_j, strict=True)):
        if gi & gj:
            return 2 * (k + 2) - 1
    return None


def _median(hist: Counter[int]) -> int:
    total = sum(hist.values())
    seen = 0
    for hops in sorted(hist):
        seen += hist[hops]
        if 2 * seen >= total:
            return hops
    return max(hist)
