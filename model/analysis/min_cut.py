"""Bisection as the minimum over balanced cuts of the compute fabric, reported with its cut.

The bisection bandwidth is the least capacity (Gb/s per direction) of any cut of the compute
fabric that leaves exactly half of the GPU servers on each side (``n // 2`` on the first).
Finding that minimum exactly is NP-hard in general, so :func:`min_bisection` evaluates
candidate halves and keeps the smallest:

* **structural halves**: whole groups of the fabric on one side. A level-k group is a
  connected piece of the servers and the switches up to level k (level 1: a scalable unit of a
  rail-optimized fabric, the servers of a leaf in a leaf-spine; level 2: a pod; the top
  level: an island of a partitioned fabric); also whole rows of racks (racks sharing a y) and
  the hall cut at its middle along x and along y (groups of neighbouring racks). Groups go to
  the first half in floor order while they fit; the rest is topped up server by server;
* **refinement**: Kernighan-Lin (networkx) on the server graph (two servers are joined through
  every switch they share, weighted by their links' share of it), started from the best
  structural halves, on designs small enough for exact max flow.

Each candidate is evaluated by max flow (networkx) between its halves where the fabric is small
enough (``bisection.MAX_FLOW_LINK_LIMIT`` links, or irregular up to
``IRREGULAR_MAX_FLOW_LIMIT``), and the cut is read from the flow's residual graph. On larger
fabrics the tier computation of :mod:`model.analysis.bisection` (the max flow of a Clos fabric
whose switches spread their uplinks evenly, ``regular``) gives the figure, and the cut is the
cheapest of the group-aligned cuts of those halves (a real balanced cut, so its capacity is an
upper bound; when it equals the tier figure the two certify each other).

:func:`clos_bisection` is the exact figure of a regular Clos fabric: the least tier figure over
the group-aligned halves of every level (a Clos fabric's cheapest balanced cut keeps whole
groups together, and the tier computation is its max flow). The tests check on every generated
template that the max-flow minimum over all candidates equals it.

The minimum is a property of the graph, not of the floor: the analyzer recomputes it only when
the topology changes (a rack move leaves it as it was).
"""

from __future__ import annotations

import numpy as np

from model.analysis import cut_delta
from model.analysis.bisection import (
    IRREGULAR_MAX_FLOW_LIMIT,
    MAX_FLOW_LINK_LIMIT,
    Bisection,
    is_regular,
    max_flow_cut,
    server_keys,
    tier_bisection,
)
from model.analysis.survivor import regular_after, spread_per_switch
from model.analysis.topology import (
    LINK_COMPUTE,
    Topology,
    components,
    components_after,
    tier_name,
)
from model.design.design import Design

# Kernighan-Lin swaps pairs in pure Python: worth it on the designs max flow can take anyway,
# and on a server graph of at most this many pairs (a leaf of m servers joins m(m-1)/2).
KL_SERVER_LIMIT = 1024
KL_PAIR_LIMIT = 20_000


def server_order(
    design: Design, topo: Topology, keys: tuple | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The GPU servers (device indices), and each one's rack centre x and y, in floor order
    (x, then y, then U, then id). ``keys``: :func:`server_keys` of this topology, if kept."""
    servers = np.flatnonzero(topo.is_gpu_server)
    rack_ids, rack_of, u, id_rank = keys if keys is not None else server_keys(design, topo)
    racks = design.racks
    x = np.fromiter((racks[r].x for r in rack_ids), dtype=float, count=len(rack_ids))[rack_of]
    y = np.fromiter((racks[r].y for r in rack_ids), dtype=float, count=len(rack_ids))[rack_of]
    order = np.lexsort((id_rank, u, y, x))
    return servers[order], x[order], y[order]


def halves_of_groups(servers: np.ndarray, group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Balanced halves keeping whole groups together where they fit.

    ``servers`` in floor order, ``group`` the group code of each. Groups are taken in the order
    of their first server; a group goes to the first half if it fits in what is left of
    ``n // 2``, else to the second; a first half still short is topped up with the second
    half's servers in floor order (splitting the fewest groups)."""
    n = len(servers)
    target = n // 2
    codes, first, inverse, sizes = np.unique(
        group, return_index=True, return_inverse=True, return_counts=True
    )
    take = np.zeros(len(codes), dtype=bool)
    room = target
    for g in np.argsort(first).tolist():
        if sizes[g] <= room:
            take[g] = True
            room -= int(sizes[g])
    in_a = take[inverse.reshape(-1)]
    if room:
        in_a[np.flatnonzero(~in_a)[:room]] = True
    return np.sort(servers[in_a]), np.sort(servers[~in_a])


def _level_groups(
    topo: Topology, level: int, base: np.ndarray | None = None, touched=None
) -> np.ndarray:
    """Component label of every device over the compute links of servers and switches up to
    ``level`` (switches above it left out). ``base``: the labels of the topology this one
    survives, recomputed only where ``touched`` (:func:`topology.components_after`)."""
    n = len(topo.device_ids)
    compute = topo.kind == LINK_COMPUTE
    alive = topo.is_gpu_server | (topo.level >= 1)
    members = alive & (topo.level >= 0) & (topo.level <= level)
    if base is not None:
        return components_after(n, topo.a[compute], topo.b[compute], members, base, touched)
    return components(n, topo.a[compute], topo.b[compute], members)


def _group_name(level: int, top: int) -> str:
    if level == top:
        return "islands"
    if level == 1:
        return "leaf groups (scalable units)"
    if level == 2:
        return "spine groups (pods)"
    return f"{tier_name(level)} groups"


class MinCut:
    """The minimum balanced cut of one topology, kept for the next floor: the groups of each
    level and every evaluated pair of halves are reused, so a rack move re-evaluates only
    halves it changed (the hall halves along x or y, the rows)."""

    def __init__(
        self,
        topo: Topology,
        keys: tuple | None = None,
        *,
        refine: bool = True,
        flow_limit: int = IRREGULAR_MAX_FLOW_LIMIT,
        flow_links: int = MAX_FLOW_LINK_LIMIT,
        incremental: bool = True,
        switch_groups: dict[int, np.ndarray] | None = None,
    ) -> None:
        """``flow_links``: compute links up to which any fabric gets max flow;
        ``incremental``: survivors reuse this topology's figures of the same halves where the
        failure leaves them exact (:mod:`cut_delta`), else evaluate afresh; ``switch_groups``:
        :meth:`switch_groups` when the caller has found them (the analyzer's groups of each
        level: the same components, ~10 ms at XL not found twice)."""
        self.topo = topo
        self.refines = refine  # Kernighan-Lin from the best halves, where max flow is used
        self.flow_limit = flow_limit  # compute links up to which an irregular fabric gets max flow
        self.flow_links = flow_links
        self.incremental = incremental
        self._dead: tuple[np.ndarray, np.ndarray] | None = None  # survivors: devices, rows
        self._tier_states: dict[bytes, cut_delta.TierState] = {}
        self._group_states: dict[bytes, list] = {}
        self._exact: bool | None = None
        self._groups: dict[int, np.ndarray] = {}
        self._switch_groups = dict(switch_groups) if switch_groups is not None else None
        self._keys = keys
        self._values: dict[tuple[bool, bytes], tuple[float, np.ndarray | None]] = {}
        self._refined: dict[bytes, tuple[np.ndarray, np.ndarray] | None] = {}
        compute = topo.kind == LINK_COMPUTE
        self.n_compute = int(compute.sum())
        self._regular: bool | None = None
        self._parent: MinCut | None = None  # the topology this one survives (survivors)
        self._touched = np.zeros(0, np.int64)
        self._spread: tuple[np.ndarray, np.ndarray] | None = None

    def survivors(
        self,
        design: Design,
        after: Topology,
        touched: np.ndarray | None = None,
        dead: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> MinCut:
        """A MinCut of ``after`` (this topology less failed elements), reusing the servers'
        floor keys (a what-if evaluates many failures of one design). It evaluates the
        structural and floor halves without the Kernighan-Lin refinement, and an irregular
        survivor past ``MAX_FLOW_LINK_LIMIT`` links by its cheapest group-aligned cut rather
        than max flow: ``--n-1`` runs it per case (a lost link makes an L hall irregular, and
        its max flow takes seconds), and on the generated fabrics neither finds a cheaper
        cut. ``touched``: the failed devices and the ends of the failed links (device
        indices): the groups of each level are then this topology's, recomputed only in the
        groups they touch (:func:`topology.components_after`). ``dead``: the failed devices
        and link rows of this topology (indices), with ``touched``: the figures of halves this
        topology evaluated are then updated where the failure changed them (:mod:`cut_delta`)
        instead of evaluated afresh, bit for bit the same."""
        if self._keys is None:
            self._keys = server_keys(design, self.topo)
        rack_ids, rack_of, u, id_rank = self._keys
        alive = after.is_gpu_server[np.flatnonzero(self.topo.is_gpu_server)]
        keys = (rack_ids, rack_of[alive], u[alive], id_rank[alive])
        out = MinCut(
            after, keys, refine=False, flow_limit=min(self.flow_links, MAX_FLOW_LINK_LIMIT),
            flow_links=self.flow_links, incremental=self.incremental,
        )  # fmt: skip
        if touched is not None:
            out._parent, out._touched = self, touched
            if dead is not None and self.incremental:
                out._dead = dead
        return out

    def regular(self) -> bool:
        """Whether the tier computation is exact here (it does not depend on the halves)."""
        if self._regular is None:
            if self._parent is not None:  # a survivor: only the touched switches re-tested
                base = self._parent.spread()
                self._regular = regular_after(base, self.topo, self._touched)
            else:
                self._regular = is_regular(self.topo)
        return self._regular

    def spread(self) -> tuple[np.ndarray, np.ndarray]:
        """Each switch's even spread (:func:`survivor.spread_per_switch`), for survivors."""
        if self._spread is None:
            rows = np.flatnonzero(self.topo.kind == LINK_COMPUTE)
            self._spread = spread_per_switch(self.topo, rows)
        return self._spread

    def switch_groups(self) -> dict[int, np.ndarray]:
        """The tier computation's groups: components of the switches of levels 1..k, k >= 2."""
        if self._switch_groups is None:
            topo = self.topo
            n, compute = len(topo.device_ids), topo.kind == LINK_COMPUTE
            a, b = topo.a[compute], topo.b[compute]
            base = self._parent.switch_groups() if self._parent is not None else None
            self._switch_groups = {}
            for level in range(2, topo.top_level() + 1):
                members = (topo.level >= 1) & (topo.level <= level)
                if base is not None and level in base:
                    touched = self._touched_at(level, 1)
                    label = components_after(n, a, b, members, base[level], touched)
                else:
                    label = components(n, a, b, members)
                self._switch_groups[level] = label
        return self._switch_groups

    def _touched_at(self, level: int, lowest: int) -> np.ndarray:
        """The touched devices that matter to the groups of devices of levels ``lowest`` ..
        ``level``: the failed ones among them and the ends of failed compute links between
        two of them. A failed spine-core link leaves the pods (groups of level 2) as they
        were, so they are not relabelled; without the failure's rows, every touched device."""
        if self._dead is None or self._parent is None:
            return self._touched
        dead_devices, rows = self._dead
        before = self._parent.topo
        lv = before.level
        rows = rows[before.kind[rows] == LINK_COMPUTE]
        a, b = before.a[rows], before.b[rows]
        inside = (lv[a] >= lowest) & (lv[a] <= level) & (lv[b] >= lowest) & (lv[b] <= level)
        devices = dead_devices[(lv[dead_devices] >= lowest) & (lv[dead_devices] <= level)]
        return np.concatenate([devices, a[inside], b[inside]])

    def groups(self, level: int) -> np.ndarray:
        if level not in self._groups:
            if self._parent is not None and level <= self._parent.topo.top_level():
                self._groups[level] = _level_groups(
                    self.topo, level, self._parent.groups(level), self._touched_at(level, 0)
                )
            else:
                self._groups[level] = _level_groups(self.topo, level)
        return self._groups[level]

    def candidates(self, design: Design) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """Named balanced halves (module docstring), identical halves named once."""
        topo = self.topo
        if self._keys is None:
            self._keys = server_keys(design, topo)
        servers, x, y = server_order(design, topo, self._keys)
        if len(servers) < 2:
            return []
        out: dict[bytes, tuple[str, np.ndarray, np.ndarray]] = {}

        def add(name: str, order: np.ndarray, group: np.ndarray) -> None:
            half_a, half_b = halves_of_groups(servers[order], group[order])
            key = half_a.tobytes()
            named = f"{out[key][0]}; {name}" if key in out else name
            out[key] = (named, half_a, half_b)

        floor = np.arange(len(servers))
        top = topo.top_level()
        for level in range(top, 0, -1):  # islands first: a partitioned fabric's cheapest cut
            label = self.groups(level)[servers]
            if len(np.unique(label)) > 1:
                add(_group_name(level, top), floor, label)
        _, row = np.unique(np.round(y, 1), return_inverse=True)
        row = row.reshape(-1)
        if len(np.unique(row)) > 1:  # whole rows, in y order
            add("rows of racks", np.lexsort((x, row)), row)
        add("hall halves along x", floor, floor >= len(servers) // 2)
        add("hall halves along y", np.lexsort((x, y)), floor >= len(servers) // 2)
        return list(out.values())

    def evaluate(self, half_a, half_b, use_flow: bool, regular: bool) -> float:
        """Figure of one pair of halves (cached by the halves; see :meth:`cut_links`)."""
        key = (use_flow, half_a.tobytes())
        if key not in self._values:
            topo = self.topo
            cut = None  # a regular fabric's tier figure finds its cut only when asked
            if use_flow:
                value, side = max_flow_cut(topo, half_a, half_b, want_cut=True)
                cut = _cut_of_side(topo, side) if side is not None else np.zeros(0, np.int64)
            elif (reused := self._reused(half_a, half_b, regular)) is not None:
                value = reused  # its cut, where asked, is found afresh (cut_links)
            elif regular:
                value, _ = tier_bisection(
                    topo, half_a, half_b, groups=self.switch_groups(), regular=regular
                )
            else:  # the tier figure holds for even spreads only: the cheapest real cut
                value, cut = _group_cut(topo, half_a, half_b, self.groups)
            self._values[key] = (float(value), cut)
        return self._values[key][0]

    def _reused(self, half_a: np.ndarray, half_b: np.ndarray, regular: bool) -> float | None:
        """A survivor's figure of halves its parent evaluated, from the parent's, where
        :mod:`cut_delta`'s conditions hold; None where it must be evaluated afresh."""
        parent, dead = self._parent, self._dead
        if parent is None or dead is None or not parent.exact():
            return None
        dead_devices, dead_rows = dead
        before = parent.topo
        if (before.level[dead_devices] == 0).any() or not np.array_equal(
            before.is_gpu_server, self.topo.is_gpu_server
        ):
            return None  # a server failed: other halves
        alive = np.ones(len(before.device_ids), dtype=bool)
        alive[dead_devices] = False
        if regular:
            levels = parent.switch_groups()
            if not cut_delta.same_groups(levels, self.switch_groups(), alive):
                return None
            key = half_a.tobytes()
            if key not in parent._tier_states:
                parent._tier_states[key] = cut_delta.tier_state(before, half_a, half_b, levels)
            state = parent._tier_states[key]
            return cut_delta.tier_after(state, before, self.topo, self._touched, dead_rows)
        rows = dead_rows[before.kind[dead_rows] == LINK_COMPUTE]
        if ((before.level[before.a[rows]] == 0) | (before.level[before.b[rows]] == 0)).any():
            return None  # a server link failed: a group's lean, so the cuts, may change
        top = before.top_level()
        levels = {lv: parent.groups(lv) for lv in range(1, top + 1)}
        if not cut_delta.same_groups(levels, {lv: self.groups(lv) for lv in levels}, alive):
            return None
        key = half_a.tobytes()
        if key not in parent._group_states:
            parent._group_states[key] = _group_options(before, half_a, half_b, parent.groups)
        return cut_delta.group_after(parent._group_states[key], before, dead_rows)

    def exact(self) -> bool:
        """Whether sums of this fabric's capacities are exact in any order (:mod:`cut_delta`)."""
        if self._exact is None:
            self._exact = cut_delta.exact_sums(self.topo)
        return self._exact

    def cut_links(self, half_a, half_b, use_flow: bool) -> np.ndarray:
        """Topology link indices of the cut of these (evaluated) halves."""
        key = (use_flow, half_a.tobytes())
        value, cut = self._values[key]
        if cut is None:
            cut = _group_cut(self.topo, half_a, half_b, self.groups)[1]
            self._values[key] = (value, cut)
        return cut

    def refine(
        self, half_a: np.ndarray, half_b: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray] | None:
        key = half_a.tobytes()
        if key not in self._refined:
            self._refined[key] = _kernighan_lin(self.topo, half_a, half_b)
        return self._refined[key]

    def bisection(
        self, design: Design, *, force: str | None = None, want_cut: bool = True
    ) -> Bisection:
        """The minimum over balanced cuts (module docstring). ``force`` = "max-flow" or "tier"
        picks the evaluation (tests compare the two); without ``want_cut`` the cut links of a
        fabric evaluated by the tier computation are not looked for (``cut_links`` None)."""
        topo = self.topo
        cands = self.candidates(design)
        if not cands:
            servers = np.flatnonzero(topo.is_gpu_server)
            return Bisection(0.0, "none", True, servers, servers[:0], "", np.zeros(0, np.int64))
        regular = self.regular()
        affordable = self.n_compute <= self.flow_links or (
            not regular and self.n_compute <= self.flow_limit
        )
        use_flow = force == "max-flow" or (force is None and affordable)
        results = []  # (gbps, name, half_a, half_b)
        for name, half_a, half_b in cands:
            results.append((self.evaluate(half_a, half_b, use_flow, regular), name, half_a, half_b))
        best = min(results, key=lambda r: r[0])
        if self.refines and use_flow and len(best[2]) + len(best[3]) <= KL_SERVER_LIMIT:
            refined = self.refine(best[2], best[3])
            if refined is not None:
                value = self.evaluate(*refined, use_flow, regular)
                results.append((value, f"Kernighan-Lin from {best[1]}", *refined))
                best = min(results, key=lambda r: r[0])
        method = "max-flow" if use_flow else "tier"
        value, name, half_a, half_b = best
        cut = self.cut_links(half_a, half_b, use_flow) if want_cut or use_flow else None
        return Bisection(
            value,
            method,
            regular,
            half_a,
            half_b,
            name,
            cut,
            tuple((n, v, method) for v, n, *_ in results),
        )


def min_bisection(design: Design, topo: Topology, *, force: str | None = None) -> Bisection:
    """The minimum over balanced cuts of ``topo`` (see :class:`MinCut`)."""
    return MinCut(topo).bisection(design, force=force)


def clos_bisection(design: Design, topo: Topology) -> tuple[float, str]:
    """Exact bisection of a regular Clos fabric: the least tier figure over the group-aligned
    halves of every level, and the name of the halves that give it (module docstring)."""
    mc = MinCut(topo)
    servers, _x, _y = server_order(design, topo)
    if len(servers) < 2:
        return 0.0, "none"
    floor = np.arange(len(servers))
    # Level 0: every server its own group; any balanced halves exchange through the fabric.
    best = (tier_bisection(topo, *halves_of_groups(servers, floor))[0], "servers")
    top = topo.top_level()
    for level in range(1, top + 1):
        label = mc.groups(level)[servers]
        if len(np.unique(label)) > 1:
            value, _regular = tier_bisection(topo, *halves_of_groups(servers, label))
            best = min(best, (value, _group_name(level, top)))
    return float(best[0]), best[1]


def _cut_of_side(topo: Topology, side: np.ndarray) -> np.ndarray:
    """Compute links with one end on each side (topology link indices)."""
    compute = topo.kind == LINK_COMPUTE
    return np.flatnonzero(compute & (side[topo.a] != side[topo.b]))


def _group_cut(
    topo: Topology, half_a: np.ndarray, half_b: np.ndarray, groups
) -> tuple[float, np.ndarray]:
    """The cheapest cut of these halves that keeps each level's groups on the side of the
    servers they hold most of (a real cut: its capacity bounds the minimum from above).
    ``groups(level)``: the level's group label per device (:meth:`MinCut.groups`)."""
    best_value, best_side = np.inf, None
    for value, side in _group_options(topo, half_a, half_b, groups):
        if value < best_value:
            best_value, best_side = value, side
    assert best_side is not None  # every group split has a finite capacity
    return best_value, _cut_of_side(topo, best_side)


def _group_options(
    topo: Topology, half_a: np.ndarray, half_b: np.ndarray, groups
) -> list[tuple[float, np.ndarray]]:
    """Every group-aligned cut :func:`_group_cut` chooses from: (capacity, side per device)."""
    n = len(topo.device_ids)
    compute = topo.kind == LINK_COMPUTE
    a, b, cap = topo.a[compute], topo.b[compute], topo.capacity[compute]
    server_side = np.zeros(n)
    server_side[half_a] = 1.0
    server_side[half_b] = -1.0
    to_server = (topo.level[a] == 0) != (topo.level[b] == 0)
    srv_end = np.where(topo.level[a] == 0, a, b)[to_server]
    sw_end = np.where(topo.level[a] == 0, b, a)[to_server]
    pull = cap[to_server] * server_side[srv_end]
    out = []
    for level in range(0, topo.top_level() + 1):
        label = groups(level) if level else np.arange(n)
        # Each group's lean: server-link capacity from the first half minus the second's.
        ok = label[sw_end] >= 0
        lean = np.bincount(label[sw_end[ok]], weights=pull[ok], minlength=n)
        side = np.zeros(n, dtype=bool)
        side[half_a] = True
        switches = (topo.level >= 1) & (label >= 0)
        side[switches] = lean[label[switches]] > 0
        above = topo.level > level  # the switches over the groups: all on one side or the other
        for upper in (False, True):
            side[above] = upper
            out.append((float(cap[side[a] != side[b]].sum()), side.copy()))
    return out


def _kernighan_lin(topo: Topology, half_a: np.ndarray, half_b: np.ndarray):
    """Kernighan-Lin refinement of the halves on the server graph (networkx), or None."""
    import networkx as nx

    compute = topo.kind == LINK_COMPUTE
    la, lb = topo.level[topo.a], topo.level[topo.b]
    up = compute & ((la == 0) != (lb == 0))
    srv = np.where(la == 0, topo.a, topo.b)[up]
    sw = np.where(la == 0, topo.b, topo.a)[up]
    cap = topo.capacity[up]
    per_switch = np.bincount(sw, minlength=len(topo.device_ids))
    if int((per_switch * (per_switch - 1) // 2).sum()) > KL_PAIR_LIMIT:
        return None
    graph = nx.Graph()
    graph.add_nodes_from(np.concatenate([half_a, half_b]).tolist())
    order = np.argsort(sw, kind="stable")
    bounds = np.flatnonzero(np.diff(sw[order])) + 1
    for members in np.split(order, bounds):
        total = float(cap[members].sum())
        s, c = srv[members].tolist(), cap[members].tolist()
        for i in range(len(s)):
            for j in range(i + 1, len(s)):
                if s[i] == s[j]:
                    continue
                w = c[i] * c[j] / total
                prev = graph.get_edge_data(s[i], s[j])
                graph.add_edge(s[i], s[j], weight=w + (prev["weight"] if prev else 0.0))
    part = nx.algorithms.community.kernighan_lin_bisection(
        graph, partition=(set(half_a.tolist()), set(half_b.tolist())), max_iter=10, seed=0
    )
    new_a = np.sort(np.fromiter(part[0], dtype=np.int64))
    new_b = np.sort(np.fromiter(part[1], dtype=np.int64))
    if len(new_a) != len(half_a) or np.array_equal(new_a, half_a):
        return None
    return new_a, new_b


def cut_json(topo: Topology, bis: Bisection) -> dict:
    """``analyze --json``'s ``bisection`` entry: figure, method, the halves and the cut."""
    links = bis.cut_links if bis.cut_links is not None else np.zeros(0, np.int64)
    return {
        "gbps": bis.gbps,
        "method": bis.method,
        "regular": bis.regular,
        "halves": bis.cut,
        "servers": [len(bis.half_a), len(bis.half_b)],
        "candidates": [{"halves": n, "gbps": v, "method": m} for n, v, m in bis.candidates],
        "cut": {
            "links": [topo.link_ids[i] for i in links.tolist()],
            "capacity_gbps": float(topo.capacity[links].sum()) if len(links) else 0.0,
        },
    }
