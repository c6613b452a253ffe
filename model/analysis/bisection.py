"""The capacity of the compute fabric between two given halves of its GPU servers.

:mod:`model.analysis.min_cut` builds the bisection (the minimum over balanced cuts) on the two
evaluations here. ``split_servers`` is one candidate pair of halves: the GPU servers sorted by
hall position (rack centre x, then y, then U, then id), the first half ``n // 2`` of them.
Capacities are Gb/s per direction over the compute fabric (scale-up links excluded: NVLink is
not part of the scale-out bisection).

Two exact methods:

* ``max_flow``: networkx maximum flow from one half to the other (every link an undirected edge
  of its capacity, parallel links summed). Exact for any graph; used up to
  ``MAX_FLOW_LINK_LIMIT`` compute links.
* ``tier_bisection``: the tier-capacity computation for Clos fabrics. Switch groups are the
  connected components of the fabric up to each level (a leaf; a pod of leaves and spines; ...).
  Bottom-up, each group first matches what its two halves can exchange inside it, and passes the
  rest, capped by the group's uplink capacity, to the group above. This is the max flow when every
  switch spreads its uplinks evenly over the switches of the level above in its group (leaf-spine,
  fat tree, rail-optimised); ``regular`` reports whether that holds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.analysis.topology import LINK_COMPUTE, Topology, components
from model.common.arrays import unique_inverse, unique_sorted
from model.design.design import Design

MAX_FLOW_LINK_LIMIT = 20_000
# An irregular fabric is worth a slow exact max flow up to this size; beyond, the tier figure is
# reported with regular=False (the report says it is an estimate).
IRREGULAR_MAX_FLOW_LIMIT = 100_000


@dataclass
class Bisection:
    gbps: float
    method: str  # "max-flow" | "tier" | "none"
    regular: bool  # the fabric satisfies the tier computation's condition
    half_a: np.ndarray  # device indices of the first half
    half_b: np.ndarray
    # Filled by model.analysis.min_cut (the minimum over balanced cuts): the candidate that gave
    # the minimum, the topology link indices crossing its cut, every candidate's figure.
    cut: str = ""
    cut_links: np.ndarray | None = None
    candidates: tuple[tuple[str, float, str], ...] = ()


def split_servers(design: Design, topo: Topology) -> tuple[np.ndarray, np.ndarray]:
    """Device indices of the GPU servers in the first and second half of the hall.

    Sorted by rack centre x, then y, then U, then device id; each half is returned sorted by
    device index (its order carries no meaning).
    """
    servers = np.flatnonzero(topo.is_gpu_server)
    if not len(servers):
        return servers, servers
    # The keys are not kept here: MinCut, which the analyzer holds per topology, keeps them.
    rack_ids, rack_of, u, id_rank = server_keys(design, topo)
    racks = design.racks
    x = np.fromiter((racks[r].x for r in rack_ids), dtype=float, count=len(rack_ids))[rack_of]
    y = np.fromiter((racks[r].y for r in rack_ids), dtype=float, count=len(rack_ids))[rack_of]
    ordered = servers[np.lexsort((id_rank, u, y, x))]
    half = len(ordered) // 2
    return np.sort(ordered[:half]), np.sort(ordered[half:])


def server_keys(design: Design, topo: Topology) -> tuple:
    """What of the servers' order a rack move leaves alone: their racks (once each: 4.5k racks
    for 16k servers at XL, so a move reads the racks' centres, not one per server), each
    server's rack, U and id rank."""
    servers = np.flatnonzero(topo.is_gpu_server)
    devices = [design.devices[topo.device_ids[i]] for i in servers.tolist()]
    rack_no: dict[str, int] = {}
    rack_of = np.fromiter(
        (rack_no.setdefault(d.rack, len(rack_no)) for d in devices),
        dtype=np.int64,
        count=len(devices),
    )
    u = np.fromiter((d.u for d in devices), dtype=float, count=len(devices))
    id_rank = np.argsort(np.argsort(np.array([d.id for d in devices], dtype=object)))
    return list(rack_no), rack_of, u, id_rank


def max_flow(topo: Topology, half_a: np.ndarray, half_b: np.ndarray) -> float:
    """Exact minimum-cut capacity between the two halves (networkx preflow-push)."""
    return max_flow_cut(topo, half_a, half_b)[0]


def max_flow_cut(
    topo: Topology, half_a: np.ndarray, half_b: np.ndarray, *, want_cut: bool = False
) -> tuple[float, np.ndarray | None]:
    """Minimum-cut capacity between the halves and, with ``want_cut``, the devices on the first
    half's side of that cut (a bool per device; None without ``want_cut``).

    The servers of each half are merged into the source (first half) or the sink (second): they
    are tied to it at infinite capacity, so every finite cut has them on that side, and the
    merged network has the same minimum cut with a tenth of the nodes (a server link becomes an
    edge from the source to its switch, parallel links one edge)."""
    if not len(half_a) or not len(half_b):
        return 0.0, None
    compute = topo.kind == LINK_COMPUTE
    n = len(topo.device_ids)
    source, sink = n, n + 1
    node = np.arange(n)
    node[half_a] = source
    node[half_b] = sink
    u, v = node[topo.a[compute]], node[topo.b[compute]]
    c = topo.capacity[compute]
    keep = u != v
    lo, hi = np.minimum(u, v)[keep], np.maximum(u, v)[keep]
    width = n + 2
    pair, inverse = unique_inverse(lo * width + hi)
    cap = np.bincount(inverse, weights=c[keep], minlength=len(pair))
    # Imported here, not at the top: rendering and most CLI commands never cut the fabric,
    # and importing networkx costs them ~0.2 s of start-up.
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_node(source)
    graph.add_node(sink)
    for x, y, k in zip(
        (pair // width).tolist(), (pair % width).tolist(), cap.tolist(), strict=True
    ):
        # An edge into the source or out of the sink carries no flow; both ways otherwise.
        if y != source and x != sink:
            graph.add_edge(x, y, capacity=k)
        if x != source and y != sink:
            graph.add_edge(y, x, capacity=k)
    if not want_cut:
        return float(nx.maximum_flow_value(graph, source, sink)), None
    value, (reach, _rest) = nx.minimum_cut(graph, source, sink)
    side = np.zeros(n + 2, dtype=bool)
    side[np.fromiter(reach, dtype=np.int64)] = True
    side = side[:n]
    side[half_a] = True
    side[half_b] = False
    return float(value), side


def is_regular(topo: Topology) -> bool:
    """Whether the tier computation is exact: links join adjacent levels only, and every
    switch spreads its uplinks evenly over its upper neighbours."""
    compute = topo.kind == LINK_COMPUTE
    a, b, cap = topo.a[compute], topo.b[compute], topo.capacity[compute]
    la, lb = topo.level[a], topo.level[b]
    regular = bool(np.all((np.abs(la - lb) == 1) | (la < 0) | (lb < 0)))
    return regular and _evenly_spread(topo, a, b, cap, la, lb)


def halves_and_links(topo: Topology, half_a, half_b):
    """The side of each device (+1 in ``half_a``, -1 in ``half_b``, 0 neither) and the compute
    links' ends, capacities and the ends' levels: what every tier evaluation of a split reads."""
    n = len(topo.device_ids)
    side = np.zeros(n, dtype=np.int8)
    side[half_a] = 1
    side[half_b] = -1
    compute = topo.kind == LINK_COMPUTE
    a, b, cap = topo.a[compute], topo.b[compute], topo.capacity[compute]
    return n, side, (a, b, cap, topo.level[a], topo.level[b])


def tier_bisection(
    topo: Topology,
    half_a: np.ndarray,
    half_b: np.ndarray,
    *,
    groups: dict[int, np.ndarray] | None = None,
    regular: bool | None = None,
) -> tuple[float, bool]:
    """Tier-capacity bisection (see module docstring) and whether the fabric is regular.

    ``groups``: the switch groups of each level from 2 up (components of the switches of levels
    1..k), ``regular``: :func:`is_regular`, when the caller keeps them for many halves."""
    n, side, (a, b, cap, la, lb) = halves_and_links(topo, half_a, half_b)
    if regular is None:
        regular = is_regular(topo)

    # Level 1: each leaf's supply from the first half (sa) and demand from the second (sb).
    sa = np.zeros(n)
    sb = np.zeros(n)
    srv_a = (la == 0) & (lb == 1)
    srv_b = (lb == 0) & (la == 1)
    for srv, leaf, c in ((a[srv_a], b[srv_a], cap[srv_a]), (b[srv_b], a[srv_b], cap[srv_b])):
        s = side[srv]
        np.add.at(sa, leaf[s == 1], c[s == 1])
        np.add.at(sb, leaf[s == -1], c[s == -1])
    matched = float(np.minimum(sa, sb).sum())
    push = np.clip(sa - sb, -topo.up_gbps, topo.up_gbps)  # net per leaf, capped by uplinks
    top = topo.top_level()
    node_of = np.arange(n)  # group representative of each level-(k-1) unit
    for level in range(2, top + 1):
        members = (topo.level >= 1) & (topo.level <= level)
        if groups is not None and level in groups:
            label = groups[level]
        else:
            label = components(n, a, b, members)  # the compute links
        prev = np.flatnonzero((topo.level >= 1) & (topo.level <= level - 1))
        # Each previous unit (group of level-1 switches) is represented by its own push value.
        units = unique_sorted(node_of[prev])
        unit_group = label[units]
        pos = np.zeros(n)
        neg = np.zeros(n)
        np.add.at(pos, unit_group, np.maximum(push[units], 0))
        np.add.at(neg, unit_group, np.maximum(-push[units], 0))
        gids = unique_sorted(unit_group)
        matched += float(np.minimum(pos[gids], neg[gids]).sum())
        excess = pos - neg
        upper = np.flatnonzero(topo.level == level)
        group_up = np.zeros(n)
        np.add.at(group_up, label[upper], topo.up_gbps[upper])
        push = np.zeros(n)
        push[gids] = np.clip(excess[gids], -group_up[gids], group_up[gids])
        node_of = np.where(members, label, node_of)
    return matched, regular


def _evenly_spread(topo: Topology, a, b, cap, la, lb) -> bool:
    """True when every switch sends equal capacity to each of its upper-level neighbours."""
    up = (la >= 1) & (lb == la + 1)
    dn = (lb >= 1) & (la == lb + 1)
    lower = np.concatenate([a[up], b[dn]])
    upper = np.concatenate([b[up], a[dn]])
    c = np.concatenate([cap[up], cap[dn]])
    if not len(lower):
        return True
    n = len(topo.device_ids)
    pair, inv = unique_inverse(lower * n + upper)
    per_pair = np.bincount(inv, weights=c)
    owner = pair // n  # ascending: each owner's pairs are one run
    starts = np.flatnonzero(np.concatenate([[True], owner[1:] != owner[:-1]]))
    lo = np.minimum.reduceat(per_pair, starts)
    hi = np.maximum.reduceat(per_pair, starts)
    return bool(np.all(np.isclose(lo, hi)))


def bisection(
    design: Design,
    topo: Topology,
    *,
    force: str | None = None,
    halves: tuple[np.ndarray, np.ndarray] | None = None,
) -> Bisection:
    """Bisection bandwidth: max-flow when the fabric is small enough, else the tier computation.

    ``force`` = "max-flow" or "tier" picks the method (used by tests that compare the two);
    ``halves`` = the split when the caller already has it.
    """
    half_a, half_b = halves if halves is not None else split_servers(design, topo)
    if not len(half_a):
        return Bisection(0.0, "none", True, half_a, half_b)
    tier_value, regular = tier_bisection(topo, half_a, half_b)
    n_compute = int((topo.kind == LINK_COMPUTE).sum())
    small = n_compute <= MAX_FLOW_LINK_LIMIT
    affordable = n_compute <= IRREGULAR_MAX_FLOW_LIMIT
    use_flow = force == "max-flow" or (force is None and (small or (not regular and affordable)))
    if use_flow:
        return Bisection(max_flow(topo, half_a, half_b), "max-flow", regular, half_a, half_b)
    return Bisection(tier_value, "tier", regular, half_a, half_b)
