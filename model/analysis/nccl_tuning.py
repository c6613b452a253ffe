"""NCCL's own tuning model: latency per algorithm and protocol, protocol efficiency, the choice.

Constants from NVIDIA/nccl ``src/graph/tuning.cc`` (commit 5067397c, 2026-06-11;
``ncclTunerConstantsDefaults``, ``ncclTopoTuneModel``, ``ncclTopoGetAlgoTime``), in µs and GB/s:

* base latency [algorithm][LL, LL128, Simple]: tree 6.8 / 14.0 / 8.4, ring 6.6 / 14.0 / 8.4,
  CollNet, NVLS and NVLS-tree 0.
* hardware latency per hop [NVLink | PCI | network][algorithm][protocol]: NVLink tree
  0.6 / 1.25 / 4.0, ring 0.6 / 1.9 / 3.4, CollNet-direct Simple 3.7, NVLS and NVLS-tree Simple
  25; PCI tree 1.0 / 1.9 / 4.0, ring 1.0 / 2.5 / 5.7; network tree 5.0 / 8.5 / 14, ring 2.7 /
  4.0 / 14.0, CollNet-direct Simple 31, NVLS Simple 18, NVLS-tree Simple 20.9.
* network post overhead 1 µs (x86 Intel and others; 2 on AMD), x3 for Simple; the graph's
  ``latencyInter`` is 0 for InfiniBand and RoCE (the net plugin's latency property).
* LL ceiling ``llMaxBws`` (GB/s bus bandwidth): one node by GPU generation (Volta 39, Ampere
  87.7, Hopper 141, Blackwell 282); several nodes by CPU (Intel/Arm row) 39 for 2 nodes, 20.4
  beyond. NVLS efficiency: Hopper 0.85, Blackwell 0.74.
* refinements on the bus bandwidth: ring LL x0.5 (capped at llMaxBw), ring LL128 x0.92; tree
  all-reduce x0.92, tree LL /3.8 (capped), tree LL128 x120/128 (x7/9 in one node); CollNet
  Simple x0.85 on Hopper and later; bus -> algorithm bandwidth: ring and NVLS x nRanks/nsteps,
  tree x0.5. The tree correction factor per message size (``treeCorrectionFactor``) and the ring
  plateau (Simple, several nodes, all-reduce, >= 64 B per channel and rank: latency x1.4 on
  Ampere and later).

Latencies: ring base + (nsteps - nInter) x max(intra hop, net overhead) + nInter x net hop
(nsteps 2(n-1) for all-reduce, n-1 for all-gather / reduce-scatter; nInter 2(nodes-1) or
nodes-1); broadcast on a ring base + one hop (NCCL's ``sameChannels`` case); tree base +
2((ppn-1) intra + log2(nodes) net); NVLS intra (+ net when several nodes); NVLS-tree intra +
2 log2(nodes) net; CollNet-direct 2(min(1, ppn-1) intra + 0.4 (ppn-1)) + net. With one GPU
per node the network hop is the tree's. All-to-all is not in tuning.cc (NCCL runs it as grouped
send/receive on the Simple protocol): we take the ring's Simple base and one network (or NVLink)
hop, plus one network post overhead per peer, and say so where it is shown.

NCCL runs every enabled (algorithm, protocol) pair through ``ncclTopoGetAlgoTime`` (latency +
bytes / algorithm bandwidth) and keeps the fastest; :func:`choose` does the same with the
bandwidth term taken from the link loads (``link_loads``) instead of NCCL's graph search. By
NCCL's defaults CollNet is off (``NCCL_COLLNET_ENABLE`` 0) and with it NVLS across nodes;
NVLS-tree needs several nodes; LL128 is on for Hopper and later (and on NVLink systems before).
"""

from __future__ import annotations

import math

COLLECTIVES = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast")
ALGORITHMS = ("ring", "tree", "nvls", "nvls-tree", "collnet")
PROTOCOLS = ("LL", "LL128", "Simple")
GENERATIONS = ("volta", "ampere", "hopper", "blackwell")

BASE_US = {
    "tree": (6.8, 14.0, 8.4),
    "ring": (6.6, 14.0, 8.4),
    "collnet": (0.0, 0.0, 0.0),
    "nvls": (0.0, 0.0, 0.0),
    "nvls-tree": (0.0, 0.0, 0.0),
}
HW_US = {
    "nvlink": {
        "tree": (0.6, 1.25, 4.0),
        "ring": (0.6, 1.9, 3.4),
        "collnet": (0.0, 0.0, 3.7),
        "nvls": (0.0, 0.0, 25.0),
        "nvls-tree": (0.0, 0.0, 25.0),
    },
    "pci": {
        "tree": (1.0, 1.9, 4.0),
        "ring": (1.0, 2.5, 5.7),
        "collnet": (0.0, 0.0, 3.7),
        "nvls": (0.0, 0.0, 0.0),
        "nvls-tree": (0.0, 0.0, 0.0),
    },
    "net": {
        "tree": (5.0, 8.5, 14.0),
        "ring": (2.7, 4.0, 14.0),
        "collnet": (0.0, 0.0, 31.0),
        "nvls": (0.0, 0.0, 18.0),
        "nvls-tree": (0.0, 0.0, 20.9),
    },
}
NET_OVERHEAD_US = 1.0
LL_MAX_BW_ONE_NODE = {"volta": 39.0, "ampere": 87.7, "hopper": 141.0, "blackwell": 282.0}
LL_MAX_BW_NODES = (39.0, 39.0, 20.4)  # 1, 2, more nodes (Intel / Arm row)
NVLS_EFFICIENCY = {"volta": 0.0, "ampere": 0.0, "hopper": 0.85, "blackwell": 0.74}
TREE_CORRECTION = (
    (1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0,
     1.0, 1.0, 1.0),
    (1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9,
     1.0, 1.0, 1.0),
    (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9,
     .9),
)  # fmt: skip


def generation(gpu_model: str) -> str:
    """GPU generation from the catalog's model name (B/GB -> Blackwell, H/GH -> Hopper, A ->
    Ampere, else Volta)."""
    name = gpu_model.upper().replace("GB", "B").replace("GH", "H")
    for prefix, gen in (("B", "blackwell"), ("H", "hopper"), ("A", "ampere")):
        if name.startswith(prefix):
            return gen
    return "volta"


def nsteps(collective: str, ranks: int) -> int:
    if collective == "all-reduce":
        return 2 * (ranks - 1)
    if collective in ("all-gather", "reduce-scatter"):
        return ranks - 1
    return ranks


def latency_us(
    collective: str, algorithm: str, protocol: str, ranks: int, nodes: int, intra: str = "nvlink"
) -> float:
    """NCCL's latency of one operation (µs), module docstring for the formulas."""
    p = PROTOCOLS.index(protocol)
    ppn = ranks / max(nodes, 1)
    hw = intra if nodes == 1 else "net"
    intra_lat = HW_US[intra][algorithm][p]
    net_alg = "tree" if ppn == 1 else algorithm
    inter_lat = HW_US["net"][net_alg][p]
    if collective == "all-to-all":
        hop = HW_US[hw]["ring"][2]
        return BASE_US["ring"][2] + hop + (ranks - 1) * NET_OVERHEAD_US * (nodes > 1)
    lat = BASE_US[algorithm][p]
    if algorithm == "ring":
        if collective == "broadcast":
            return lat + HW_US[hw]["ring"][p]
        steps = nsteps(collective, ranks)
        overhead = NET_OVERHEAD_US * (3 if protocol == "Simple" else 1) if nodes > 1 else 0.0
        intra_lat = max(intra_lat, overhead)
        inter = 0 if nodes == 1 else (2 if collective == "all-reduce" else 1) * (nodes - 1)
        return lat + (steps - inter) * intra_lat + inter * inter_lat
    log_nodes = int(math.log2(nodes)) if nodes >= 1 else 0
    if algorithm == "tree":
        return lat + 2 * ((ppn - 1) * intra_lat + log_nodes * inter_lat)
    if algorithm == "nvls":
        return intra_lat + (inter_lat if nodes > 1 else 0.0)
    if algorithm == "nvls-tree":
        return intra_lat + 2 * log_nodes * inter_lat
    return 2 * (min(1, ppn - 1) * intra_lat + (ppn - 1) * 0.4) + inter_lat  # collnet


def bus_ratio(collective: str, algorithm: str, ranks: int) -> float:
    """NCCL's algorithm bandwidth / bus bandwidth."""
    if algorithm in ("ring", "nvls", "nvls-tree"):
        return ranks / nsteps(collective, ranks)
    return 0.5


def protocol_time_s(
    collective: str,
    algorithm: str,
    protocol: str,
    wire_s: float,
    size_bytes: float,
    ranks: int,
    nodes: int,
    gen: str,
) -> float:
    """Bandwidth time (s) at ``protocol``: ``wire_s`` is the time the busiest link (or NVLink
    port) needs at line rate for the pattern; NCCL's protocol refinements scale the bus
    bandwidth that time implies (module docstring)."""
    if wire_s <= 0 or size_bytes <= 0:
        return 0.0
    if not math.isfinite(wire_s):
        return math.inf
    if collective == "all-to-all":
        return wire_s
    ratio = bus_ratio(collective, algorithm, ranks)
    bus = size_bytes / wire_s / ratio / 1e9  # GB/s
    ll_max = LL_MAX_BW_ONE_NODE[gen] if nodes == 1 else LL_MAX_BW_NODES[min(nodes, 3) - 1]
    if algorithm == "ring" and protocol == "LL":
        bus = min(ll_max, bus * 0.5)
    elif algorithm == "ring" and protocol == "LL128":
        bus *= 0.92
    if algorithm == "tree":
        if collective == "all-reduce":
            bus *= 0.92
        if protocol == "LL":
            bus = min(bus / 3.8, ll_max)
        elif protocol == "LL128":
            bus *= 7.0 / 9.0 if nodes == 1 else 120.0 / 128.0
        log_size = int(math.log2(size_bytes // 64)) if size_bytes >= 64 else -1
        if collective == "all-reduce" and 0 <= log_size < 23:
            bus *= TREE_CORRECTION[PROTOCOLS.index(protocol)][log_size]
    if algorithm == "collnet" and GENERATIONS.index(gen) >= 2:
        bus *= 0.85
    return size_bytes / (bus * ratio * 1e9)


def enabled(
    collective: str, algorithm: str, protocol: str, nodes: int, gen: str, nvls: bool, sharp: bool
) -> bool:
    """Whether NCCL, by default, may pick (algorithm, protocol) for this collective."""
    if collective == "all-to-all":
        return algorithm == "ring" and protocol == "Simple"
    if collective == "broadcast" and algorithm != "ring":
        return False
    if collective in ("all-gather", "reduce-scatter") and algorithm not in ("ring", "nvls"):
        return False
    if algorithm in ("nvls", "nvls-tree", "collnet") and protocol != "Simple":
        return False
    if algorithm == "nvls" and (not nvls or nodes > 1):
        return False  # across nodes NVLS needs CollNet, off by default
    if algorithm == "nvls-tree" and (not nvls or nodes == 1 or collective != "all-reduce"):
        return False
    if algorithm == "collnet" and (not sharp or collective != "all-reduce"):
        return False
    return not (protocol == "LL128" and GENERATIONS.index(gen) < 1)
