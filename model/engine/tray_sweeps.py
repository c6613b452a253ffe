"""Many tray distance rows at once: the rows and shortest-path trees of a full build's sources.

A full build of an XL hall asks for the distance row of nearly every station node (~560-600
sources); one Dijkstra each (:func:`model.engine.tray_search.distance_row`) was 0.18-0.21 s
of CPU in every command. :func:`swept_rows` gives the same rows and trees bit for bit, all
sources at once in numpy (0.05 s):

- rows: every source starts at 0, every other node unreached; sweeps over the nodes, from
  each corner of the hall in turn (:func:`_relaxed`), each node taking the best way in from
  its neighbours' values as they are now (a node is looked at again only when a neighbour
  fell since it last looked), until nothing falls. With non-negative weights float addition is monotone, so Dijkstra's row is
  the least solution of ``d(u) = min over edges (v, u) of d(v) + w``, the minimum over paths
  of each path's left-to-right sum; every value here is such a path's sum, and at the end
  every edge satisfies the inequality: the two force that least solution, to the bit.
- trees: a search's predecessor of a node is its first settled neighbour on a shortest way,
  the neighbour ``v`` with ``d(v) + w == d(u)`` and the smallest ``d(v)`` (the heap settles
  nearer nodes first). Where two such neighbours are equally near, or a weight vanishes in
  the sum, only the heap's order decides: that source is left out, for a search of its own.

The tray edit's carry (:mod:`model.engine.tray_rows`) reads predecessors back the same way.
"""

from __future__ import annotations

import numpy as np

# A sweep looks at every node however few the sources (a look reads a node's whole row):
# below about this many, one search per source is cheaper (zoned XL: 64 sources swept 22-28 ms,
# searched 21 ms; all 594 swept 50 ms, searched 205 ms). An editor's rack move adds one or two.
MIN_SWEPT_SOURCES = 128
_BLOCK_SOURCES = 64  # sources whose trees are read back together (temporaries stay small)

Adjacency = list[list[tuple[int, float]]]


def swept_rows(
    adjacency: Adjacency, sources: list[int], node_xy: np.ndarray
) -> dict[int, tuple[np.ndarray, list[int]]]:
    """(distance row, predecessor per node) of each source, as :func:`distance_row` gives
    them (predecessors as a list: -1 at the source and at unreached nodes); a source whose
    tree a tie decides is missing from the answer. ``node_xy``: each node's plan point, which
    orders the sweeps (any order gives the same rows; a good one, fewer sweeps)."""
    if not sources or not adjacency:
        return {}
    dist = _relaxed(adjacency, sources, node_xy)  # nodes by sources
    edges = _Edges(adjacency)
    out: dict[int, tuple[np.ndarray, list[int]]] = {}
    for lo in range(0, len(sources), _BLOCK_SOURCES):
        block = sources[lo : lo + _BLOCK_SOURCES]
        d = np.ascontiguousarray(dist[:, lo : lo + len(block)])
        pred, exact = edges.preds(d, block)
        rows, trees = d.T.copy(), pred.T.tolist()
        for k in np.flatnonzero(exact).tolist():
            out[block[k]] = (rows[k], trees[k])
    return out


def _relaxed(adjacency: Adjacency, sources: list[int], node_xy: np.ndarray) -> np.ndarray:
    """The least solution of the rows (nodes by sources), swept as the module says.

    The sweeps take the nodes by plan position, in turn from each corner of the hall (x then
    y up, both down, x up and y down, and back): a shortest way along a grid of trays runs
    towards one corner, and a sweep from the corner behind it carries a fall the whole way.
    Zoned XL: 4 sweeps and 2,822 looks, 34 ms of CPU, where sweeping in node order (the
    stations along each tray) and back took 18 sweeps and 8,256 looks, 74 ms."""
    n = len(adjacency)
    dist = np.full((n, len(sources)), np.inf)
    dist[sources, np.arange(len(sources))] = 0.0
    ways_in = [
        (u, np.array(names), np.array(weights)[:, None], names, weights)
        for u, (names, weights) in enumerate(
            ([v for v, _ in ways], [w for _, w in ways]) for ways in adjacency
        )
    ]
    sweeps = [[ways_in[u] for u in order if ways_in[u][3]] for order in corner_orders(node_xy)]
    sweep_until_settled(dist, sweeps, 4 * n + 4)
    return dist


def corner_orders(node_xy: np.ndarray) -> list[list[int]]:
    """The nodes by plan position (``node_xy``), from each corner of the hall in turn: x then y
    up, both down, x up and y down, and back; the orders of :func:`_relaxed`' sweeps."""
    x, y = node_xy[:, 0], node_xy[:, 1]
    rising, crossing = np.lexsort((y, x)).tolist(), np.lexsort((-y, x)).tolist()
    return [rising, rising[::-1], crossing, crossing[::-1]]


class _Edges:
    """The ways into every node (edge ``ev -> eu`` of weight ``ew``), grouped by the node they
    lead to, and taken place by place (:func:`ways_in_places`)."""

    def __init__(self, adjacency: Adjacency) -> None:
        self.eu = np.array([u for u, ways in enumerate(adjacency) for _ in ways], dtype=np.int64)
        self.ev = np.array([v for ways in adjacency for v, _ in ways], dtype=np.int64)
        self.ew = np.array([w for ways in adjacency for _, w in ways], dtype=np.float64)
        self.places = ways_in_places(self.eu)

    def preds(self, dist: np.ndarray, sources: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """:func:`tight_predecessors` of these edges."""
        return tight_predecessors(dist, sources, self.eu, self.ev, self.ew, self.places)


Places = list[tuple[np.ndarray, np.ndarray]]


def ways_in_places(eu: np.ndarray) -> Places:
    """The edges by their place among the ways into their node (edges grouped by the node
    ``eu`` they lead to, in edge order): per place, (edge numbers, the distinct nodes they lead
    to). Taken place by place, the k-th way into each node at once touches distinct nodes."""
    starts = np.flatnonzero(np.concatenate([[True], eu[1:] != eu[:-1]])) if len(eu) else eu
    sizes = np.diff(np.append(starts, len(eu)))
    place = np.arange(len(eu)) - np.repeat(starts, sizes)
    groups = [np.flatnonzero(place == k) for k in range(int(sizes.max(initial=0)))]
    return [(edges, eu[edges]) for edges in groups]


def tight_predecessors(
    dist: np.ndarray, sources, eu: np.ndarray, ev: np.ndarray, ew: np.ndarray, places: Places
) -> tuple[np.ndarray, np.ndarray]:
    """Each reached node's first settled neighbour on a shortest way per source (``dist``: nodes
    by sources; -1 at the source and unreached nodes): the neighbour ``v`` with
    ``d(v) + w == d(u)`` and the smallest ``d(v)``, as Dijkstra settles it; and whether each
    source's are sure: not when two neighbours tie, or a weight vanishes in the sum.

    A node's ways in are taken place by place (``places``: whole rows of sources at once), in
    edge order: np.minimum.reduceat and np.add.reduceat down the edges were 12 of the 26 ms at
    XL, and the scatter of np.nonzero's pairs 4. Each place's tight ways are found from the
    place's own rows, not from tables over every edge gathered place by place again: fewer and
    smaller temporaries (XL, a block of 64 sources: 3.4 -> 0.9 ms of CPU where they land on
    fresh pages, 10.1 -> 9.4 ms a tray drop in a process whose allocator reuses freed ones)."""
    cols = np.arange(dist.shape[1])
    nearest = np.full(dist.shape, np.inf)
    tight_at: list[np.ndarray] = []  # per place, which of its ways are tight
    for edges, nodes in places:
        d_v = dist[ev[edges]]
        # Tight ways into unreached nodes (inf == inf) are left in: those nodes are masked
        # below, cheaper over the nodes than an isfinite over the edges (XL: 2,144 x 529).
        tight = np.add(d_v, ew[edges, None]) == dist[nodes]
        np.copyto(d_v, np.inf, where=~tight)  # a tight way's d(v), inf for the others
        nearest[nodes] = np.minimum(nearest[nodes], d_v, out=d_v)
        tight_at.append(tight)
    # ways in per node, fewer than the nodes: uint16 holds them (a quarter of int64's bytes)
    kind = np.uint16 if len(dist) <= np.iinfo(np.uint16).max else np.int64
    count = np.zeros(dist.shape, dtype=kind)
    pred = np.full(dist.shape, -1, dtype=np.int64)
    for (edges, nodes), tight in zip(places, tight_at, strict=True):
        # the last first-settled way in, as a scatter in edge order
        from_v = ev[edges]
        firsts = tight & (dist[from_v] == nearest[nodes])
        count[nodes] += firsts
        pred[nodes] = np.where(firsts, from_v[:, None], pred[nodes])
    reached = np.isfinite(dist)
    pred[~reached] = -1
    reached[sources, cols] = False
    exact = ~((reached & ((count != 1) | (nearest >= dist))).any(axis=0))
    pred[sources, cols] = -1
    return pred, exact


def sweep_until_settled(dist: np.ndarray, orders: list[list[tuple]], limit: int) -> None:
    """Lower ``dist`` (one row per node, one column per source) in place by sweeps over the nodes
    in ``orders`` taken in turn, until a sweep lowers nothing or ``limit`` sweeps ran (each sweep
    that lowers a value settles one more node). Each entry of an order is a node's ways in:
    (node, its neighbours' rows as an array, their weights as a column, the same two as lists).

    After the first sweep a node is looked at again only when one of its neighbours fell since
    it last looked (it took the others' values then): none, skip it; one (half the looks at XL),
    a row and a number, no minimum down a gathered block. When each node last fell and was last
    looked at is kept on a clock of looks; every node counts as fallen before the first sweep, so
    that sweep looks at all of them. A sweep in which nothing fell saw every edge hold."""
    fell_at, looked_at = [0] * len(dist), [-1] * len(dist)
    clock = 0
    for sweep in range(limit):
        fell = False
        for u, nbrs, w, names, weights in orders[sweep % len(orders)]:
            seen = looked_at[u]
            fallen = [k for k, v in enumerate(names) if fell_at[v] > seen]
            if not fallen:
                continue
            clock += 1
            looked_at[u] = clock
            if len(fallen) == 1:
                best = dist[names[fallen[0]]] + weights[fallen[0]]
            elif len(fallen) == len(names):
                best = (dist[nbrs] + w).min(axis=0)
            else:
                best = (dist[nbrs[fallen]] + w[fallen]).min(axis=0)
            row = dist[u]
            if (best < row).any():
                np.minimum(best, row, out=row)
                fell_at[u] = clock
                fell = True
        if not fell:
            return
