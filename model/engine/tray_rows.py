"""Distance rows over a tray edit: the new tray graph's rows of the old graph's sources, exactly.

A corner dragged changes the edges of one tray (and splits or rejoins pieces of the trays it
meets); the plant then needs the new graph's rows of the same sources (the station nodes its
drops attach to). :class:`RowCarry` matches the old graph's nodes to the new one's
(:func:`_matched_nodes`) and works out the rows of every old source that is still a node, all
at once: every source at 0, every other node unreached, sweeps over the nodes, all sources
together, lower every value a way makes shorter (:meth:`RowCarry._relax`).

Why this equals a fresh search bit for bit: with non-negative weights, float addition is
monotone (``a <= b`` gives ``a + w <= b + w``), so Dijkstra's row is the least solution of
``d(u) = min over edges (v, u) of d(v) + w`` in floats, the minimum over paths of each path's
left-to-right sum. Every value here is such a path's sum, and when the sweeps end every edge
satisfies that inequality; the two together force the least solution.

Why not from the old rows: until #38 a node kept its old distance where its old tree path used
only edges the edit kept, and the sweeps started from those values. At XL the busiest cross
tray's corner moved 1.2 m changes the tree path of every source (55 % of all node-source
pairs), so finding the kept values (pointer jumping over 315k pairs, ~10 ms of CPU) bought
~1 ms of the sweeps (15.2 against 16.3 ms from the sources alone, the same rows); the carry
was 44.7 ms, from the sources 36.1 (medians of 10 alternated pairs on the same graphs).

The predecessors a fresh search would give (:func:`model.engine.tray_search.dijkstra`: each
node's first settled neighbour on a shortest way, which the route names follow) are read back
from the row: the neighbour ``v`` with ``d(v) + w == d(u)`` and the smallest ``d(v)``. Where two
such neighbours are equally near, only the search's heap order decides: that source is then
searched afresh (``row`` answers None).
"""

from __future__ import annotations

from array import array

import numpy as np

from model.engine.tray_search import Preds
from model.engine.tray_sweeps import (
    Places,
    corner_orders,
    tight_predecessors,
    ways_in_places,
)

MAX_DENSE_NODES = 4000  # the rows are nodes x sources floats (up to 128 MB at this size)
_BLOCK_SOURCES = 64  # sources whose predecessors are worked out together (RowCarry._preds)
_BLOCK_CELLS = 1 << 21  # float cells of one step's temporaries in RowCarry._relax (~16 MB)


class RowCarry:
    """The old graph's sources (nodes with a row and a tree), matched to the new graph's nodes,
    and the new graph's edges.

    Holds arrays only (never the old graph), so a chain of edits keeps no old graphs alive.
    """

    def __init__(self, old, new) -> None:
        """``old`` and ``new``: :class:`~model.engine.tray_graph.TrayGraph` before and after."""
        n_old, n_new = old.node_count, new.node_count
        self.usable = 0 < n_old <= MAX_DENSE_NODES and 0 < n_new
        if not self.usable:
            return
        # rows of an all-pairs pass have no tree: searched afresh
        self.sources = [node for node in old._rows if old._paths.get(node) is not None]
        before = {t.id: t for t in old.trays}
        same = {t.id for t in new.trays if before.get(t.id) == t}  # trays the edit left alone
        self.new_of_old = _matched_nodes(old, new, same)
        self.old_of_new = np.full(n_new, -1, dtype=np.int64)
        mapped = np.flatnonzero(self.new_of_old >= 0)
        self.old_of_new[self.new_of_old[mapped]] = mapped
        adjacency = new._adjacency_lists()
        ev = np.array([v for v, nbrs in enumerate(adjacency) for _ in nbrs], dtype=np.int64)
        eu = np.array([u for nbrs in adjacency for u, _ in nbrs], dtype=np.int64)
        ew = np.array([w for nbrs in adjacency for _, w in nbrs], dtype=np.float64)
        order = np.argsort(eu, kind="stable")  # edges grouped by the node they lead to
        self.ev, self.eu, self.ew = ev[order], eu[order], ew[order]
        self.node_xy = new.node_xy  # the plan point of each node, which orders the sweeps
        self._answers: dict[int, tuple[np.ndarray, Preds]] | None = None
        self._ways_in: Places | None = None  # the edges place by place, once asked for

    def row(self, node: int) -> tuple[np.ndarray, Preds] | None:
        """(distance row, predecessors) of source ``node`` of the new graph, as a fresh search
        gives them; None when the old graph had no tree for it or a tie needs the search.
        Every source is worked out on the first call, together (numpy over sources)."""
        if not self.usable:
            return None
        if self._answers is None:
            self._answers = self._carry_all()
        return self._answers.get(node)

    def _carry_all(self) -> dict[int, tuple[np.ndarray, Preds]]:
        """The rows and trees of every old source that is a node of the new graph."""
        news = self.new_of_old[self.sources] if self.sources else np.zeros(0, dtype=np.int64)
        news = news[news >= 0]
        if not len(news):
            return {}
        dist = np.full((len(self.old_of_new), len(news)), np.inf)  # nodes by sources
        dist[news, np.arange(len(news))] = 0.0
        self._relax(dist)
        pred, exact = self._preds(dist, news)
        dist = dist.T.copy()
        # Each tree as an array of C longs cut from one copy of the matrix, not a list: a
        # list's Python ints for all 561 sources at XL were ~5 ms of the drop's CPU, these
        # ~0.6 ms; reading a predecessor (walk_path) gives the same int either way.
        trees, width = np.ascontiguousarray(pred.T, dtype=np.int64).tobytes(), 8 * len(pred)
        return {
            int(news[k]): (dist[k], array("q", trees[k * width : (k + 1) * width]))
            for k in np.flatnonzero(exact).tolist()
        }

    def _relax(self, dist: np.ndarray) -> None:
        """Lower ``dist`` (path sums, nodes by sources, each source at 0) to the least solution,
        all sources at once: sweeps over the nodes, each taking the best way in from its
        neighbours' values as they are now, the nodes by plan position from each corner of
        the hall in turn (:func:`~model.engine.tray_sweeps.corner_orders`, as a full build's
        sweeps), until no node has a neighbour that fell since it last looked: every edge is
        then satisfied.

        Why sweeps and not rounds of every edge at once: a way of n stations falls in n
        rounds (XL after a cross tray is tilted: 42 rounds of the whole matrix), in a sweep or
        two per change of direction. Why from the corners: a shortest way along a grid of
        trays runs towards one corner, and a sweep from the corner behind it carries a fall
        the whole way (XL, the busiest cross tray's corner moved 1.2 m, starting from the old
        rows' kept values as the carry then did: in node order and back, 11 sweeps,
        3,598-3,947 looks, 30-34 ms of CPU; from the corners 5 sweeps, 2,394-2,396 looks,
        23-24 ms; the same rows).

        A sweep looks at the nodes a wave at a time (:func:`_waves`): no two nodes of a wave
        are neighbours and each node's neighbours earlier in the order are in earlier waves,
        so each node takes the same values as in a sweep one node at a time, with one numpy
        step per wave, not per node (XL: 49 waves a sweep for 561 nodes; 24.3 -> 14.8 ms of
        CPU, medians of 20 alternated pairs, the same rows). A node is looked at again only
        when one of its neighbours fell since it last looked (its other ways held then and
        their values stand). A node's ways in are a padded table (its neighbours, then an
        unreached spare row n)."""
        n, cols = dist.shape
        counts = np.bincount(self.eu, minlength=n)
        width = int(counts.max()) if n else 0
        slot = np.arange(len(self.eu)) - np.repeat(np.cumsum(counts) - counts, counts)
        into = np.full((n, width), n, dtype=np.int64)  # row n: the spare, never reached
        weight = np.zeros((n, width))
        into[self.eu, slot], weight[self.eu, slot] = self.ev, self.ew
        padded = np.vstack([dist, np.full((1, cols), np.inf)])
        neighbours = [into[u, : counts[u]].tolist() for u in range(n)]
        # A wave's step makes (nodes x width x sources) temporaries, and ``width`` is the
        # busiest node's degree: a hall of many short separate trays has waves of half its
        # nodes, and one crossing of four trays pads them all to 8 (review16: 3,989 nodes,
        # 1.4 GB). A wave is looked at in blocks of ~16 MB of such temporaries instead: its
        # nodes are no neighbours, so block after block is the same sweep (XL's waves of ~11
        # nodes are never cut).
        block = max(1, _BLOCK_CELLS // max(width * cols, 1))
        sweeps = [
            [
                (part, into[part], weight[part][:, :, None])
                for wave in _waves(order, neighbours)
                for part in (wave[lo : lo + block] for lo in range(0, len(wave), block))
            ]
            for order in corner_orders(self.node_xy)
        ]
        # Each node's clock (one tick a wave looked at) when it last fell and last looked;
        # every node counts as fallen before the first sweep, the spare row never falls.
        fell_at = np.zeros(n + 1, dtype=np.int64)
        fell_at[n] = -1
        looked_at = np.full(n, -1, dtype=np.int64)
        clock = 0
        for sweep in range(4 * n + 4):  # each sweep that lowers a value settles a node more
            fell_any = False
            for wave, ways, w in sweeps[sweep % len(sweeps)]:
                # ">=": a neighbour that fell in the tick this node last looked cannot be one of
                # its wave (no two are neighbours) unless an edge is one-way; the graph's are
                # not, but then it is looked at again rather than left above its least value.
                woken = (fell_at[ways] >= looked_at[wave][:, None]).any(axis=1)
                if not woken.all():
                    if not woken.any():
                        continue
                    wave, ways, w = wave[woken], ways[woken], w[woken]
                clock += 1
                looked_at[wave] = clock
                best = (padded[ways] + w).min(axis=1)
                rows = padded[wave]
                fell = (best < rows).any(axis=1)
                if fell.any():
                    padded[wave] = np.minimum(best, rows)
                    fell_at[wave[fell]] = clock
                    fell_any = True
            if not fell_any:
                break
        dist[:] = padded[:n]

    def _preds(self, dist: np.ndarray, sources: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each reached node's first settled neighbour on a shortest way, per source (nodes by
        sources; -1 at the source and unreached nodes), and whether a source's are sure: not
        when two neighbours tie, or a weight vanishes in the sum.

        Worked out a block of sources at a time (each source's answer is its own): the edges
        by all 529 sources of XL made ~9 MB temporaries, whose fresh pages the editor's first
        drop paid for (~40-60 ms of CPU there, against ~15 ms in a process that had freed as
        much memory before); a block's fit in memory the allocator reuses."""
        pred = np.empty(dist.shape, dtype=np.int64)
        exact = np.empty(dist.shape[1], dtype=bool)
        for lo in range(0, dist.shape[1], _BLOCK_SOURCES):
            block = slice(lo, lo + _BLOCK_SOURCES)
            pred[:, block], exact[block] = self._block_preds(
                np.ascontiguousarray(dist[:, block]), sources[block]
            )
        return pred, exact

    def _block_preds(self, dist: np.ndarray, sources: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_preds` of one block of sources (``dist``: nodes by those sources)."""
        if self._ways_in is None:
            self._ways_in = ways_in_places(self.eu)
        return tight_predecessors(dist, sources, self.eu, self.ev, self.ew, self._ways_in)


def _waves(order: list[int], neighbours: list[list[int]]) -> list[np.ndarray]:
    """The nodes with neighbours, in ``order``, cut into waves: a node's wave is one past the
    last wave of its neighbours before it in the order (0 with none), so no two nodes of a
    wave are neighbours. Looking at the waves in turn, each all at once, is looking at the
    nodes one by one in the order."""
    place = np.empty(len(order), dtype=np.int64)
    place[order] = np.arange(len(order))
    wave_of = [0] * len(order)
    placed = place.tolist()
    for u in order:  # plain loops: a generator and max() per node took twice the CPU
        at, last = placed[u], 0
        for v in neighbours[u]:
            if placed[v] < at and wave_of[v] >= last:
                last = wave_of[v] + 1
        wave_of[u] = last
    nodes = np.array([u for u in order if neighbours[u]], dtype=np.int64)
    waves = np.array(wave_of, dtype=np.int64)[nodes]
    nodes = nodes[np.argsort(waves, kind="stable")]
    ends = np.cumsum(np.bincount(waves, minlength=1)).tolist()  # no node with an edge: []
    return [nodes[lo:hi] for lo, hi in zip([0, *ends[:-1]], ends, strict=True) if hi > lo]


def all_pairs_rows(graph: dict[int, dict[int, dict]], n: int) -> dict[int, np.ndarray]:
    """Every node's distance row by a vectorised Floyd-Warshall (n^3 in numpy: small graphs)."""
    dist = np.full((n, n), np.inf)
    np.fill_diagonal(dist, 0.0)
    for u, nbrs in graph.items():
        for v, edge in nbrs.items():
            dist[u, v] = dist[v, u] = min(dist[u, v], edge["weight"])
    for k in range(n):
        np.minimum(dist, dist[:, k, None] + dist[None, k, :], out=dist)
    return {k: dist[k] for k in range(n)}


def _matched_nodes(old, new, same: set[str]) -> np.ndarray:
    """The new graph's node for each node of the old graph (-1: none), one to one: by the
    stations of :func:`_node_keys`, then the nodes left on both sides by their places along
    the edited trays (:func:`_places_on_edited`). A tray tilted by its corner moves its joins
    along the kept trays it crosses too, so those nodes matched by no station (the busiest XL
    cross tray's 32 joins), and their rows were searched afresh (~18-20 ms of CPU a drop)."""
    old_key, new_key = _node_keys(old, same), _node_keys(new, same)
    new_of_key = {key: k for k, key in enumerate(new_key)}
    new_of_old = [new_of_key.get(key, -1) for key in old_key]
    taken = set(new_of_old)
    left_old = [o for o, k in enumerate(new_of_old) if k < 0]
    if left_old and len(taken) - (-1 in taken) < new.node_count:
        places_old, places_new = _places_on_edited(old, same), _places_on_edited(new, same)
        new_of_place = {
            places_new[k]: k for k in range(new.node_count) if k not in taken and places_new[k]
        }
        for o in left_old:
            if places_old[o]:
                new_of_old[o] = new_of_place.get(places_old[o], -1)
    return np.array(new_of_old, dtype=np.int64)


def _places_on_edited(graph, same: set[str]) -> list[tuple[tuple[str, int], ...]]:
    """Each station node of ``graph`` named by its stations on the trays not in ``same`` (tray
    id, the station's place in that tray's order); ``()`` for a node on none of them. A
    corner moved shifts a tray's stations, it seldom reorders them."""
    places: list[list[tuple[str, int]]] = [[] for _ in range(graph.node_count)]
    offsets, node_of = graph.station_offset, graph.node_of_station.tolist()
    for t, positions in enumerate(graph.station_s):
        tray = graph.tray_ids[t]
        if tray not in same:
            for k in range(len(positions)):
                places[node_of[int(offsets[t]) + k]].append((tray, k))
    return [tuple(sorted(p)) for p in places]


def _node_keys(graph, same: set[str]) -> list[tuple[tuple[str, float], ...]]:
    """Each station node of ``graph`` named by its stations (tray id, position along it) on the
    trays in ``same``, or by all of its stations when it has none there. A tray whose corner
    moved has its positions shifted: a join of it is known by the other tray's station. Any
    one-to-one naming is correct (only the rows' sums are carried, and the relaxation makes
    them exact); a naming that follows the nodes leaves it less to do."""
    stations: list[list[tuple[str, float]]] = [[] for _ in range(graph.node_count)]
    steady: list[list[tuple[str, float]]] = [[] for _ in range(graph.node_count)]
    offsets, node_of = graph.station_offset, graph.node_of_station.tolist()
    for t, positions in enumerate(graph.station_s):
        tray = graph.tray_ids[t]
        kept = tray in same
        for k, s in enumerate(positions.tolist()):
            node = node_of[int(offsets[t]) + k]
            stations[node].append((tray, s))
            if kept:
                steady[node].append((tray, s))
    return [tuple(sorted(k or s)) for k, s in zip(steady, stations, strict=True)]
