"""The topology after a failure, made from the design's by masking the few rows a failure kills.

A failure of a few switches or links kills a few hundred of a 131k-GPU hall's 393k link rows.
``whatif --n-1`` makes one survivor per case, so what does not depend on the failure is read
once from the design's topology (:class:`SurvivorBase`): the compute links that climb (lower end,
upper end, capacity, in link order) and the distinct (lower, upper) device pairs they join with
their link counts. Per case the kept rows are masks over those, the per-device sums are
``bincount`` over the kept rows in the same order as a fresh computation (so the floating sums
are bit for bit the same), a pair survives while one of its links does (integer counts), and
the lists of link ids and tiers are copied as slices between the dead rows (``compress`` over
393k ids was ~0.14 s a case). The result equals :func:`model.analysis.whatif.surviving`'s
fresh computation field for field (``tests/model/test_survivor.py``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from model.analysis.topology import LINK_COMPUTE, Topology
from model.common.arrays import unique_inverse


def kept_list(values: list, dead_rows: np.ndarray) -> list:
    """``values`` without the positions ``dead_rows`` (sorted, distinct): slices in between."""
    if not len(dead_rows):
        return list(values)
    out = values[: int(dead_rows[0])]
    for lo, hi in zip((dead_rows[:-1] + 1).tolist(), dead_rows[1:].tolist(), strict=True):
        out += values[lo:hi]
    out += values[int(dead_rows[-1]) + 1 :]
    return out


class SurvivorBase:
    """What every survivor of one topology shares (module docstring)."""

    def __init__(self, topo: Topology) -> None:
        self.topo = topo
        n = len(topo.device_ids)
        self.n = n
        la, lb = topo.level[topo.a], topo.level[topo.b]
        reached = (topo.kind == LINK_COMPUTE) & (np.minimum(la, lb) >= 0)
        # The climbing links in the order a fresh computation sums them: a-lower, then b-lower.
        self.up_rows = np.concatenate(
            [np.flatnonzero(reached & (la < lb)), np.flatnonzero(reached & (lb < la))]
        )
        a_lower = la[self.up_rows] < lb[self.up_rows]
        self.lower = np.where(a_lower, topo.a[self.up_rows], topo.b[self.up_rows])
        self.upper = np.where(a_lower, topo.b[self.up_rows], topo.a[self.up_rows])
        codes, self.pair_of = unique_inverse(self.lower * max(n, 1) + self.upper)
        self.pair_lower = codes // max(n, 1)
        self.pair_links = np.bincount(self.pair_of, minlength=len(codes))
        self.compute_rows = np.flatnonzero(topo.kind == LINK_COMPUTE)

    def survivor(self, dead_devices: np.ndarray, dead_links: np.ndarray) -> Topology:
        """The topology without the devices and links of these masks (tiers kept)."""
        topo, n = self.topo, self.n
        keep = ~dead_links & ~dead_devices[topo.a] & ~dead_devices[topo.b]
        dead_rows = np.flatnonzero(~keep)
        live_up = keep[self.up_rows]
        lower, upper = self.lower[live_up], self.upper[live_up]
        up_cap = topo.capacity[self.up_rows[live_up]]
        up = np.bincount(lower, weights=up_cap, minlength=n)
        down = np.bincount(upper, weights=up_cap, minlength=n)
        up_links = np.bincount(lower, minlength=n)
        dead_pairs = np.bincount(self.pair_of[~live_up], minlength=len(self.pair_links))
        live_pairs = self.pair_links > dead_pairs
        up_neighbours = np.bincount(self.pair_lower[live_pairs], minlength=n)
        if not live_pairs.any():
            up_neighbours = up_links * 0
        compute = self.compute_rows[keep[self.compute_rows]]
        used = np.bincount(topo.a[compute], minlength=n) + np.bincount(topo.b[compute], minlength=n)
        rows = np.flatnonzero(keep)
        return replace(
            topo,
            is_gpu_server=topo.is_gpu_server & ~dead_devices,
            gpus=np.where(dead_devices, 0, topo.gpus),
            link_ids=kept_list(topo.link_ids, dead_rows),
            a=topo.a[rows],
            b=topo.b[rows],
            speed_a=topo.speed_a[rows],
            speed_b=topo.speed_b[rows],
            capacity=topo.capacity[rows],
            kind=topo.kind[rows],
            link_tier=kept_list(topo.link_tier, dead_rows),
            down_gbps=down,
            up_gbps=up,
            up_links=up_links,
            up_neighbours=up_neighbours,
            compute_ports_used=used,
            cage_a=topo.cage_a[rows],
            cage_b=topo.cage_b[rows],
            ppc_a=topo.ppc_a[rows],
            ppc_b=topo.ppc_b[rows],
        )


def spread_per_switch(topo: Topology, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The test of :func:`model.analysis.bisection.is_regular`'s even spread, per switch: over
    the compute links ``rows`` (topology rows, in order), each lower switch with an upper
    neighbour and whether it sends equal capacity (``np.isclose``) to each of them. The
    capacities of a pair add up in the same order as over all links, so the sums are equal."""
    a, b, cap = topo.a[rows], topo.b[rows], topo.capacity[rows]
    la, lb = topo.level[a], topo.level[b]
    up = (la >= 1) & (lb == la + 1)
    dn = (lb >= 1) & (la == lb + 1)
    lower = np.concatenate([a[up], b[dn]])
    upper = np.concatenate([b[up], a[dn]])
    c = np.concatenate([cap[up], cap[dn]])
    if not len(lower):
        return lower, np.zeros(0, dtype=bool)
    n = len(topo.device_ids)
    pair, inv = unique_inverse(lower * n + upper)
    per_pair = np.bincount(inv, weights=c)
    owner = pair // n  # ascending: each owner's pairs are one run
    starts = np.flatnonzero(np.concatenate([[True], owner[1:] != owner[:-1]]))
    lo = np.minimum.reduceat(per_pair, starts)
    hi = np.maximum.reduceat(per_pair, starts)
    return owner[starts], np.isclose(lo, hi)


def regular_after(base: tuple[np.ndarray, np.ndarray], topo: Topology, touched: np.ndarray) -> bool:
    """:func:`model.analysis.bisection.is_regular` of ``topo``, a survivor of the topology whose
    :func:`spread_per_switch` over every compute link is ``base``: a switch none of whose
    links failed (not ``touched``) spreads as it did, so only the touched switches are
    re-tested; the levels test is cheap and made afresh."""
    compute = topo.kind == LINK_COMPUTE
    a, b = topo.a[compute], topo.b[compute]
    la, lb = topo.level[a], topo.level[b]
    if not bool(np.all((np.abs(la - lb) == 1) | (la < 0) | (lb < 0))):
        return False
    hit = np.zeros(len(topo.device_ids), dtype=bool)
    hit[touched] = True
    owners, even = base
    if not bool(np.all(even[~hit[owners]])):
        return False
    rows = np.flatnonzero(compute & (hit[topo.a] | hit[topo.b]))
    owners, even = spread_per_switch(topo, rows)
    return bool(np.all(even[hit[owners]]))
