"""All-reduce after NCCL's bus-bandwidth model, with the job's placement deciding the tiers crossed.

nccl-tests (doc/PERFORMANCE.md, domain-facts NCCL-PERF): an all-reduce of S bytes over n ranks
moves 2(n-1)/n x S per rank, so t = S/B x 2(n-1)/n and busBW = algBW x 2(n-1)/n, algBW = S/t.
NCCL runs one ring (channel) per NIC of a multi-NIC server and pipelines it: the NVLink and the
network hops of a ring run at once, so the slowest *per-rank* bandwidth sets the time, the phases
do not add. Bandwidth only (no latency term), per direction; G GPUs, d = GPUs per scale-up domain
in the job (min(G, domain)), n = G/d domains, B_up = NVLink per GPU, B_out = scale-out per GPU
along the job's rings.

* ``ring``: each ring enters and leaves every domain once, so of every d ring hops d-1 run over
  NVLink and one over a NIC, and a domain's ring traffic leaves through its d GPUs' NICs:
  t_up = 2(G-1)/G x S x (d-1)/d / B_up, t_out = 2(G-1)/G x S / (d x B_out), t = max. Inside one
  domain, t = 2(G-1)/G x S / B_up.
* ``hierarchical``: reduce-scatter in the domain, all-reduce of the S/d shard across domains,
  all-gather in the domain, pipelined: t_up = 2(d-1)/d x S / B_up,
  t_out = 2(n-1)/n x S/d / B_out, t = max.
* ``tree``: NCCL's double binary tree between domains and a chain inside: every domain sends S up
  and S down (t_out = 2S / (d x B_out)) and every GPU of the chain forwards S each way
  (t_up = 2S / B_up). Without a latency term a tree never beats the ring; NCCL picks it for
  latency-bound messages.

Placement: a job of G GPUs takes the first ceil(G / GPUs per server) GPU servers in the order of
its placement (``first``: the design's server order; ``by-su``: servers grouped by the set of
leaves they attach to, i.e. their scalable unit; ``by-rack``: by rack, in the design's rack
order; or an explicit list of server ids). Ring r runs through every job server's r-th compute
port; it crosses switch level k's uplinks (the tier named after level k) when its ports of the
job's servers reach more than one level-k group (k = 1: more than one leaf). B_out = the NIC
bandwidth per GPU divided by the oversubscription of every tier the rings cross, so an
oversubscribed tier slows only the jobs whose rings cross it: when rings do cross, every rank's
hop may go over the tier (NCCL orders rings by rank, not by leaf, and ECMP spreads the flows), so
the crossing traffic gets the tier's fair share (a choice, the conservative one).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from model.analysis.bandwidth import Bandwidth
from model.analysis.topology import LINK_COMPUTE, Topology, components, tier_name

PLACEMENTS = ("first", "by-su", "by-rack")
ALGORITHMS = ("ring", "hierarchical", "tree")


@dataclass
class Phases:
    """Times of the NVLink and network phases of one all-reduce (s) and its bandwidths."""

    time_s: float
    t_up_s: float
    t_out_s: float
    algbw_gbps: float  # S / t, Gb/s
    busbw_gbps: float  # algbw x 2(G-1)/G


def nccl_allreduce(
    message_bytes: float, gpus: int, domain: int, up_gbps: float, out_gbps: float, algorithm: str
) -> Phases:
    """Time of an all-reduce (module docstring for each algorithm's formulas)."""
    g = max(int(gpus), 1)
    if g == 1:
        return Phases(0.0, 0.0, 0.0, math.inf, math.inf)
    bits = message_bytes * 8
    d = max(min(g, domain), 1)
    n = g / d
    ring = 2 * (g - 1) / g
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown all-reduce algorithm {algorithm!r}")
    if n <= 1:
        t_up = _secs((2 if algorithm == "tree" else ring) * bits, up_gbps)
        t_out = 0.0
    elif algorithm == "ring":
        t_up = _secs(ring * bits * (d - 1) / d, up_gbps)
        t_out = _secs(ring * bits / d, out_gbps)
    elif algorithm == "hierarchical":
        t_up = _secs(2 * (d - 1) / d * bits, up_gbps)
        t_out = _secs(2 * (n - 1) / n * bits / d, out_gbps)
    else:
        t_up = _secs(2 * bits, up_gbps) if d > 1 else 0.0
        t_out = _secs(2 * bits / d, out_gbps)
    t = max(t_up, t_out)
    algbw = bits / t / 1e9 if t > 0 else math.inf
    return Phases(t, t_up, t_out, algbw, algbw * ring)


def _secs(bits: float, gbps: float) -> float:
    if bits <= 0:
        return 0.0
    if gbps <= 0:
        return math.inf
    if gbps == math.inf:
        return 0.0
    return bits / (gbps * 1e9)


class RingPlacement:
    """Which tiers the rings of a job cross, for each placement order (module docstring)."""

    def __init__(self, design, topo: Topology, groups: dict[int, np.ndarray] | None = None) -> None:
        """``groups``: the component labels per switch level >= 2, when the caller has them."""
        self.topo = topo
        n = len(topo.device_ids)
        compute = topo.kind == LINK_COMPUTE
        la, lb = topo.level[topo.a], topo.level[topo.b]
        edge = compute & (((la == 0) & (lb == 1)) | ((lb == 0) & (la == 1)))
        srv = np.where(la == 0, topo.a, topo.b)[edge]
        leaf = np.where(la == 0, topo.b, topo.a)[edge]
        rows = np.flatnonzero(edge)
        self.servers = np.flatnonzero(topo.is_gpu_server)
        position = np.full(n, -1)
        position[self.servers] = np.arange(len(self.servers))
        # Ring r of a server = its r-th compute link in link-port order (port names sort as
        # the catalog numbers them: nic1 < nic2 ...); a server with fewer links joins fewer rings.
        order = np.lexsort((rows, srv))
        srv, leaf = srv[order], leaf[order]
        start = np.searchsorted(srv, srv, side="left")
        ring = np.arange(len(srv)) - start
        self.rings = int(ring.max()) + 1 if len(ring) else 0
        top = topo.top_level()
        self.levels = list(range(1, top))  # tiers with uplinks (below the top)
        labels = {1: np.arange(n)}
        for level in range(2, top):  # the top level has no uplinks to cross
            labels[level] = (
                groups[level]
                if groups is not None and level in groups
                else components(
                    n, topo.a[compute], topo.b[compute], (topo.level >= 1) & (topo.level <= level)
                )
            )
        s = len(self.servers)
        # attach[k][r, i] = level-k group of ring r's port of server i (-1: not in ring r)
        self.attach = {}
        for level in self.levels:
            grid = np.full((max(self.rings, 1), s), -1, dtype=np.int64)
            grid[ring, position[srv]] = labels[level][leaf]
            self.attach[level] = grid
        self.gpus = topo.gpus[self.servers]
        self._design = design
        self._srv, self._leaf = srv, leaf  # the edge links sorted by server

    @cached_property
    def _su_key(self) -> list[tuple[int, ...]]:
        """Each server's leaves (its scalable unit), for "by-su" (made when first asked: the
        analysis of the default placement, "first", never needs it)."""
        srv = self._srv
        bounds = np.searchsorted(srv, self.servers)
        ends = np.searchsorted(srv, self.servers, side="right")
        leaves = self._leaf.tolist()
        return [
            tuple(sorted(leaves[lo:hi]))
            for lo, hi in zip(bounds.tolist(), ends.tolist(), strict=True)
        ]

    @cached_property
    def _rack_key(self) -> list[tuple[int, int]]:
        """Each server's (rack's place in the design, U), for "by-rack" (made when first asked)."""
        design, ids = self._design, self.topo.device_ids
        rank = {r: k for k, r in enumerate(design.racks)}
        return [
            (rank.get(design.devices[ids[i]].rack, 0), design.devices[ids[i]].u)
            for i in self.servers.tolist()
        ]

    def order(self, placement: str | list[str]) -> np.ndarray:
        """Positions (into ``servers``) in the order a job takes them."""
        s = len(self.servers)
        if isinstance(placement, list):
            index = self.topo.device_index
            pos = {int(d): k for k, d in enumerate(self.servers.tolist())}
            out = []
            for sid in placement:
                i = index.get(sid)
                if i is None or i not in pos:
                    raise ValueError(f"{sid!r} is not a GPU server of the design")
                out.append(pos[i])
            return np.array(out, dtype=np.int64)
        if placement == "first":
            return np.arange(s)
        if placement == "by-su":
            first_of = {}
            for k, key in enumerate(self._su_key):
                first_of.setdefault(key, k)
            return np.array(sorted(range(s), key=lambda k: (first_of[self._su_key[k]], k)))
        if placement == "by-rack":
            return np.array(sorted(range(s), key=lambda k: (self._rack_key[k], k)))
        raise ValueError(f"unknown placement {placement!r}; choose one of " + ", ".join(PLACEMENTS))

    def job(self, gpus: int, placement: str | list[str]) -> np.ndarray:
        """Positions of the servers a job of ``gpus`` GPUs takes."""
        order = self.order(placement)
        need = np.cumsum(self.gpus[order])
        count = int(np.searchsorted(need, gpus, side="left")) + 1
        return order[: min(count, len(order))]

    def crossed(self, job: np.ndarray) -> list[int]:
        """Levels whose uplinks the job's rings cross."""
        out = []
        for level in self.levels:
            grid = self.attach[level][:, job]
            for row in grid:
                used = row[row >= 0]
                if len(used) and (used != used[0]).any():
                    out.append(level)
                    break
        return out


def job_scale_out(bw: Bandwidth, crossed: list[int]) -> tuple[str, float]:
    """Narrowest scale-out layer the job's rings see and its per-GPU bandwidth (Gb/s).

    Crossing level k's uplinks means crossing every level below too, so the ratios compound
    (as in :mod:`bandwidth`'s layers).
    """
    name, value = "nic", bw.scale_out
    for level in sorted(crossed):
        tier = bw.tiers.get(tier_name(level))
        if tier is not None and tier.max > 1.0:
            name, value = tier.name, value / tier.max
    return name, value
