"""The cable-tray network: trays joined where they touch, cross or nearly meet; racks attached.

Trays are polylines at an elevation. Along each tray the engine keeps *stations*: its two ends
and every point where another tray joins it (crossing, touching, or passing within
``settings.tray_join_tolerance_m``). Stations are the nodes of a small graph whose edges are the
tray pieces between consecutive stations (their plan length) and the joins (the plan gap plus
the difference of elevation). Stations at the same place on two trays at the same elevation are
one node. Overhead and under-floor trays never join each other.

A rack attaches to the network at the point of the nearest tray segment within
``settings.tray_reach_m`` of its drop point (plan distance), else it is *unreached*. An
attachment lies on one tray piece, between two stations ``u`` and ``v`` at distances ``du`` and
``dv``. The tray distance between two attachments is then the best of the four ways out of their
pieces through the station graph (shortest-path rows per station, lazily by Dijkstra, cached;
after a tray edit carried over from the old graph: tray_rows.py), or the direct run when both
lie on the same piece. Nothing here depends on where racks are: a moved rack is re-attached.
"""

from __future__ import annotations

import copy
from itertools import pairwise

import numpy as np
import shapely

from model.common.arrays import unique_sorted
from model.design.entities import Hall, Tray
from model.engine import tray_search
from model.engine.geometry import dedupe_points, point_along, points_along, tray_elevation_m
from model.engine.tray_attach import (
    AttachMemo,
    Attachments,
    NearestFigures,
    carried_segments,
    nearest_figures,
    plan_points,
)
from model.engine.tray_joins import canonical_pairs, closest_points
from model.engine.tray_rows import RowCarry, all_pairs_rows
from model.engine.tray_search import Preds, dijkstra, distance_row, merge_legs, walk_path
from model.engine.tray_sweeps import MIN_SWEPT_SOURCES, swept_rows

# Floyd-Warshall (n^3, vectorised) for graphs up to this many nodes, else searches or sweeps that
# also leave the trees route names read (XL's 561 nodes: all pairs 307 ms CPU, sweeps 50 ms).
ALL_PAIRS_MAX_NODES = 256
_TRAY_KEY = 1e7  # separates trays in one sorted array of station positions (trays < 10,000 km)


class TrayGraph:
    """Stations, pieces and joins of a set of trays; a pure function of trays, hall, tolerance."""

    def __init__(
        self,
        trays: list[Tray],
        hall: Hall,
        join_tolerance_m: float,
        all_pairs_max_nodes: int = ALL_PAIRS_MAX_NODES,
    ) -> None:
        self.all_pairs_max_nodes = all_pairs_max_nodes
        self.trays = list(trays)
        self.tray_ids = [t.id for t in self.trays]
        self.elevations = np.array([tray_elevation_m(t, hall) for t in self.trays], dtype=float)
        self._build_segments()
        joins = self._find_joins(join_tolerance_m)
        self._build_stations(joins)
        self._rows: dict[int, np.ndarray] = {}
        # Sources whose rows point_distance may read: distance_row's, and swept_rows' (the same
        # sums by tray_sweeps.py's argument, checked against distance_row by its tests); all-pairs
        # rows add their ways up in another order, carried rows are equal only by argument.
        self._searched: set[int] = set()
        self._paths: dict[int, Preds] = {}  # source -> predecessor per reached node
        self._legs: dict[tuple[int, int], list[tuple[int, float, float]]] = {}  # _station_legs
        self._between: dict[tuple[int, int], tray_search.StationPoints] = {}  # _way_points
        self._adjacency: list[list[tuple[int, float]]] | None = None  # node: (node, weight)
        self._attached = AttachMemo()  # attach(): a few points' fields, per point
        self._nearest: NearestFigures | None = None  # the last bulk attach's (attach_after)
        self._matrix: np.ndarray | None = None
        self._index = np.zeros(0, dtype=np.int64)
        self._carry: RowCarry | None = None  # rows of the graph before a tray edit

    def twin(self) -> TrayGraph:
        """This graph with caches of its own: the built network is shared (never changed after
        building), the searched rows, trees and legs copied one level, so a worker carrying
        rows from the twin (:meth:`carry_rows`) never iterates a dict the editing thread fills."""
        twin = copy.copy(self)
        twin._rows, twin._paths, twin._legs = dict(self._rows), dict(self._paths), dict(self._legs)
        twin._between = dict(self._between)
        twin._searched = set(self._searched)
        twin._attached = self._attached.copy()
        return twin

    # ----------------------------------------------------------------------------- building
    def _build_segments(self) -> None:
        seg_tray, ax, ay, bx, by, s0 = [], [], [], [], [], []
        self.tray_cum: list[np.ndarray] = []  # cumulative length at each polyline vertex
        # Each tray's points and cumulative lengths as Python floats, for point_at: the plan
        # draws ~7k trunk routes at zoned XL, 70k points whose numpy scalars (searchsorted,
        # a 2-vector per point) were ~0.4 s CPU; float arithmetic is the same to the bit.
        self._tray_xy: list[list[tuple[float, float]]] = []
        self._cum_m: list[list[float]] = []
        for i, tray in enumerate(self.trays):
            pts = np.asarray(tray.points, dtype=float)
            self._tray_xy.append(list(map(tuple, pts.tolist())))
            lengths = np.hypot(*np.diff(pts, axis=0).T)
            cum = np.concatenate([[0.0], np.cumsum(lengths)])
            self.tray_cum.append(cum)
            self._cum_m.append(cum.tolist())
            for k in range(len(pts) - 1):
                seg_tray.append(i)
                ax.append(pts[k, 0])
                ay.append(pts[k, 1])
                bx.append(pts[k + 1, 0])
                by.append(pts[k + 1, 1])
                s0.append(cum[k])
        self.seg_tray = np.array(seg_tray, dtype=np.int64)
        self.seg_a = np.column_stack([ax, ay]) if ax else np.zeros((0, 2))
        self.seg_b = np.column_stack([bx, by]) if bx else np.zeros((0, 2))
        self.seg_s0 = np.array(s0, dtype=float)
        self.seg_len = np.hypot(*(self.seg_b - self.seg_a).T) if ax else np.zeros(0)
        self.seg_index = np.arange(len(seg_tray))
        lines = shapely.linestrings(np.stack([self.seg_a, self.seg_b], axis=1)) if ax else []
        self._lines = np.asarray(lines, dtype=object)
        self._tree = shapely.STRtree(self._lines)

    def _find_joins(self, tol: float) -> list[tuple[int, float, int, float, float]]:
        """(tray i, s on i, tray j, s on j, join length incl. elevation step) for each join,
        whatever the trays' order (:mod:`model.engine.tray_joins`)."""
        if len(self._lines) < 2:
            return []
        left, right = self._tree.query(self._lines, predicate="dwithin", distance=max(tol, 1e-9))
        keep = left < right
        tr = self.seg_tray
        keep &= ~((tr[left] == tr[right]) & (np.abs(left - right) == 1))  # a tray's own bends
        under = np.array([t.under_floor for t in self.trays], dtype=bool)
        keep &= under[tr[left]] == under[tr[right]]
        left, right = left[keep], right[keep]
        if not len(left):
            return []
        first, second, swapped = canonical_pairs(self.seg_tray, self.tray_ids, left, right)
        pair, coords = closest_points(self._lines, self.seg_a, self.seg_b, first, second)
        coords[swapped[pair]] = coords[swapped[pair], ::-1]  # (on left, on right) again
        left, right = left[pair], right[pair]
        sa, sb = self._position(left, coords[:, 0]), self._position(right, coords[:, 1])
        plan = np.hypot(*(coords[:, 1] - coords[:, 0]).T)
        step = np.abs(self.elevations[tr[left]] - self.elevations[tr[right]])
        return list(
            zip(
                tr[left].tolist(),
                sa.tolist(),
                tr[right].tolist(),
                sb.tolist(),
                (plan + step).tolist(),
                strict=True,
            )
        )

    def _position(self, seg: np.ndarray, pts: np.ndarray) -> np.ndarray:
        """Position along the tray (m) of points lying on (or projected onto) segments ``seg``."""
        a, b = self.seg_a[seg], self.seg_b[seg]
        d = b - a
        L2 = np.maximum((d * d).sum(axis=1), 1e-18)
        t = np.clip(((pts - a) * d).sum(axis=1) / L2, 0.0, 1.0)
        return self.seg_s0[seg] + t * self.seg_len[seg]

    def _build_stations(self, joins: list[tuple[int, float, int, float, float]]) -> None:
        per_tray: list[set[float]] = [{0.0, round(float(c[-1]), 9)} for c in self.tray_cum]
        for i, sa, j, sb, _ in joins:
            per_tray[i].add(round(sa, 9))
            per_tray[j].add(round(sb, 9))
        self.station_s: list[np.ndarray] = [np.array(sorted(s)) for s in per_tray]
        offsets = np.cumsum([0] + [len(s) for s in self.station_s])
        self.station_offset = offsets
        n = int(offsets[-1])
        parent = list(range(n))

        def find(k: int) -> int:
            while parent[k] != k:
                parent[k] = parent[parent[k]]
                k = parent[k]
            return k

        def station(tray: int, s: float) -> int:
            arr = self.station_s[tray]
            return int(offsets[tray] + np.searchsorted(arr, round(s, 9)))

        edges: list[tuple[int, int, float]] = []
        for i, sa, j, sb, w in joins:
            u, v = station(i, sa), station(j, sb)
            if w <= 1e-9:
                parent[find(u)] = find(v)
            else:
                edges.append((u, v, w))
        roots = sorted({find(k) for k in range(n)})
        node_of_root = {r: k for k, r in enumerate(roots)}
        self.node_of_station = np.array([node_of_root[find(k)] for k in range(n)], dtype=np.int64)
        self.node_xy = np.zeros((len(roots), 2))
        # node -> {neighbour: edge}, one edge dict shared by both ends: networkx's Graph layout
        # (the same neighbour order, so the same shortest path among equal ones) without
        # importing networkx (~0.1 s of every command's start).
        graph: dict[int, dict[int, dict]] = {k: {} for k in range(len(roots))}
        self._node_s: dict[tuple[int, int], float] = {}  # (node, tray) -> position along tray
        for t, arr in enumerate(self.station_s):
            nodes = self.node_of_station[offsets[t] : offsets[t + 1]]
            for k, s in enumerate(arr):
                self.node_xy[nodes[k]] = self.point_at(t, float(s))
                self._node_s[(int(nodes[k]), t)] = float(s)
            for k in range(len(arr) - 1):
                self._add_edge(
                    graph, int(nodes[k]), int(nodes[k + 1]), float(arr[k + 1] - arr[k]), t
                )
        for u, v, w in edges:
            self._add_edge(graph, int(self.node_of_station[u]), int(self.node_of_station[v]), w, -1)
        self.graph = graph
        self.node_count = len(roots)
        self._station_keys = (
            np.concatenate([i * _TRAY_KEY + arr for i, arr in enumerate(self.station_s)])
            if self.station_s
            else np.zeros(0)
        )

    @staticmethod
    def _add_edge(graph: dict[int, dict[int, dict]], u: int, v: int, w: float, tray: int) -> None:
        """The edge u-v of weight ``w`` along ``tray`` (-1: a join), unless a lighter one is
        there; a heavier one is replaced in place (it keeps its place among the neighbours)."""
        if u == v:
            return
        old = graph[u].get(v)
        if old is None:
            graph[u][v] = graph[v][u] = {"weight": w, "tray": tray}
        elif old["weight"] > w:
            old.update(weight=w, tray=tray)

    # ----------------------------------------------------------------------------- queries

    def point_at(self, tray: int, s: float) -> tuple[float, float]:
        """Plan point at position ``s`` along tray number ``tray``."""
        return point_along(self._tray_xy[tray], self._cum_m[tray], s)

    def points_between(self, tray: int, s1: float, s2: float) -> list[tuple[float, float]]:
        """Plan points along a tray from position s1 to s2 (either direction), bends included."""
        return points_along(self._tray_xy[tray], self._cum_m[tray], s1, s2)

    def attach(self, x: np.ndarray, y: np.ndarray, reach_m: float) -> Attachments:
        """Attach plan points to their nearest tray segment within ``reach_m``; a query of a
        few points (a rack move's drops) through the memo (:class:`AttachMemo`): a pure
        function of the point, the reach and this graph, which never changes once built."""
        if not len(self._lines):
            return self._attach(x, y, reach_m)
        return self._attached.attach(self._attach, x, y, reach_m)

    def attach_after(
        self, old: TrayGraph, x: np.ndarray, y: np.ndarray, reach_m: float
    ) -> Attachments:
        """:meth:`attach` of points, those ``old`` (this graph before a tray edit) last
        attached in bulk at the same places measured again only where the edit can change them
        (:func:`~model.engine.tray_attach.carried_segments`; XL: ~9k drops, most far from
        the edited tray)."""
        pts_xy = plan_points(x, y)
        before = old._nearest.of_points(pts_xy) if old._nearest is not None else None
        if before is None or not len(self._lines) or not before.sure.any():
            return self.attach(x, y, reach_m)
        reach = max(reach_m, 1e-9)  # as _attach measures
        nearest = carried_segments(before, self.seg_a, self.seg_b, self._tree, reach)
        if nearest is None:
            return self.attach(x, y, reach_m)
        self._nearest = nearest
        # A copy: a rack move re-attaches drops in place; the kept figures stay as measured (#38)
        return self._attached_at(pts_xy, nearest.seg.copy())

    def _attach(self, x: np.ndarray, y: np.ndarray, reach_m: float) -> Attachments:
        pts_xy = plan_points(x, y)
        if not len(self._lines):
            return Attachments.none_reached(pts_xy)
        n = len(pts_xy)
        seg = np.full(n, -1, dtype=np.int64)
        if n:
            nearest = nearest_figures(
                self.seg_a, self.seg_b, self._tree, pts_xy, max(reach_m, 1e-9)
            )
            seg[:] = nearest.seg
            if n > AttachMemo.AT_MOST_POINTS:  # a bulk attach: the next tray edit's to carry
                self._nearest = nearest
        return self._attached_at(pts_xy, seg)

    def _attached_at(self, pts_xy: np.ndarray, seg: np.ndarray) -> Attachments:
        """The attachments of points to their nearest segments ``seg`` (-1 none)."""
        ok = seg >= 0
        sg = np.where(ok, seg, 0)
        tray = self.seg_tray[sg]
        s = self._position(sg, pts_xy)
        t = (s - self.seg_s0[sg]) / np.maximum(self.seg_len[sg], 1e-18)
        q = self.seg_a[sg] + t[:, None] * (self.seg_b[sg] - self.seg_a[sg])
        hop = np.hypot(*(q - pts_xy).T)
        # the piece of the tray holding s: between stations k-1 and k of that tray
        flat = self._station_keys
        start, end = self.station_offset[tray], self.station_offset[tray + 1]
        k = np.clip(np.searchsorted(flat, tray * _TRAY_KEY + s, side="right"), start + 1, end - 1)
        su, sv = flat[k - 1] - tray * _TRAY_KEY, flat[k] - tray * _TRAY_KEY
        return Attachments(
            seg=seg,
            piece=np.where(ok, k - 1, -1),
            s=s,
            x=q[:, 0],
            y=q[:, 1],
            hop=np.where(ok, hop, np.inf),
            elev=self.elevations[tray],
            u=self.node_of_station[k - 1],
            v=self.node_of_station[k],
            du=np.maximum(s - su, 0.0),
            dv=np.maximum(sv - s, 0.0),
        )

    def rows(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Shortest tray distances from each of ``nodes`` to every node: (matrix, row index per node).

        Small networks (up to ``all_pairs_max_nodes`` station nodes) get all rows at once by a
        vectorised Floyd-Warshall; larger ones one Dijkstra per new source node, cached.
        """
        if not self._rows and 0 < self.node_count <= self.all_pairs_max_nodes:
            self._rows = all_pairs_rows(self.graph, self.node_count)
        new = [node for node in unique_sorted(nodes).tolist() if node not in self._rows]
        swept = {}  # many new and none carried: all swept at once, Dijkstra's sums (tray_sweeps)
        if self._carry is None and len(new) >= MIN_SWEPT_SOURCES:
            swept = swept_rows(self._adjacency_lists(), new, self.node_xy)
            self._searched.update(swept)
        for node in new:
            carried = self._carry.row(node) if self._carry is not None else swept.get(node)
            if carried is None:
                seen, pred = distance_row(self._adjacency_lists(), node)
                carried = (np.array(seen, dtype=float), pred)
                self._searched.add(node)
            self._rows[node], tree = carried
            self._paths.setdefault(node, tree)  # the same search gives its paths
        if self._matrix is None or len(self._matrix) != len(self._rows):
            order = list(self._rows)
            self._index = np.full(max(self.node_count, 1), -1, dtype=np.int64)
            self._index[order] = np.arange(len(order))
            rows = [self._rows[k] for k in order]
            self._matrix = np.array(rows, dtype=float).reshape(len(order), self.node_count)
        return self._matrix, self._index

    def carry_rows(self, old: TrayGraph) -> None:
        """Take the rows of ``old`` (this graph's trays before an edit) where they still hold,
        repaired where the edit changed the way (:class:`model.engine.tray_rows.RowCarry`)."""
        if self.node_count > self.all_pairs_max_nodes:  # all-pairs graphs redo all at once
            self._carry = RowCarry(old, self)

    def distance(
        self, a: Attachments, ia: np.ndarray, b: Attachments, ib: np.ndarray
    ) -> np.ndarray:
        """Tray distance between attachments ``a[ia]`` and ``b[ib]`` (inf when not connected)."""
        n = len(ia)
        out = np.full(n, np.inf)
        ok = (a.seg[ia] >= 0) & (b.seg[ib] >= 0)
        if not ok.any():
            return out
        ia, ib = ia[ok], ib[ok]
        ua, va, ub, vb = a.u[ia], a.v[ia], b.u[ib], b.v[ib]
        matrix, index = self.rows(np.concatenate([ua, va]))
        dua, dva, dub, dvb = a.du[ia], a.dv[ia], b.du[ib], b.dv[ib]
        ru, rv = index[ua], index[va]
        best = np.minimum.reduce(
            [
                dua + matrix[ru, ub] + dub,
                dua + matrix[ru, vb] + dvb,
                dva + matrix[rv, ub] + dub,
                dva + matrix[rv, vb] + dvb,
            ]
        )
        same = a.piece[ia] == b.piece[ib]
        best = np.where(same, np.minimum(best, np.abs(a.s[ia] - b.s[ib])), best)
        out[ok] = best
        return out

    def point_distance(
        self,
        a: tuple[float, float],
        b: tuple[float, float],
        reach_m: float,
        searches: dict[int, list[float]] | None = None,
    ) -> float | None:
        """Distance between two plan points along the trays: hop to the nearest tray (within
        ``reach_m``), along the tray network, hop off; None when either point is out of reach or
        the trays do not join them. Dijkstra from the first point's two stations, not cached:
        a one-off question must not grow the cache an analysis worker reads (a row this graph's
        own search cached is read: :meth:`_searched_row`). ``searches``: the caller's own memo
        of those rows per source node, for many questions in a row (the structured layout's
        rack distances: 448 questions from 128 nodes at zoned XL)."""
        att = self._attach(np.array([a[0], b[0]]), np.array([a[1], b[1]]), reach_m)
        if not att.reached.all():
            return None
        best = abs(float(att.s[0] - att.s[1])) if att.piece[0] == att.piece[1] else np.inf
        for node, off in ((int(att.u[0]), float(att.du[0])), (int(att.v[0]), float(att.dv[0]))):
            dist = self._searched_row(node, searches)
            for far, far_off in ((int(att.u[1]), att.du[1]), (int(att.v[1]), att.dv[1])):
                best = min(best, off + dist[far] + float(far_off))  # inf + x: not reached
        if not np.isfinite(best):
            return None
        return float(att.hop[0] + best + att.hop[1])

    def _searched_row(self, node: int, searches: dict[int, list[float]] | None) -> list[float]:
        """Distances from ``node`` (inf: not reached): the caller's memo's, else the row a search
        of :meth:`rows` cached (the same numbers; zoned XL's layout reads 128 such, ~0.05 s of
        CPU), else searched now (into the memo, never into this graph's cache)."""
        row = searches.get(node) if searches is not None else None
        if row is None:
            mine = self._rows.get(node) if node in self._searched else None  # stored in any order
            row = distance_row(self._adjacency_lists(), node)[0] if mine is None else mine.tolist()
            if searches is not None:
                searches[node] = row
        return row

    def spans(
        self, a: Attachments, ia: np.ndarray, b: Attachments, ib: np.ndarray
    ) -> list[tuple[tuple[int, float, float], ...]]:
        """Tray intervals followed from ``a[ia]`` to ``b[ib]``: per pair, (tray number, s0, s1).

        The route is the one :meth:`path` takes (same choice of ways out, same shortest path
        among equal ones), without its plan points: each tray run is one interval of arc length
        along that tray (``s0 <= s1``, metres); joins between trays contribute none; an
        unreached or unconnected pair gives ``()``. The ways out are chosen for all pairs at
        once; the station-to-station paths come from one Dijkstra per source node, cached.
        """
        out: list[tuple[tuple[int, float, float], ...]] = [()] * len(ia)
        reached = self._reached_ways(a, ia, b, ib)
        if reached is None:
            return out
        ok, ia, ib, way, start, end, best = reached
        sa, sb = a.s[ia], b.s[ib]
        tray_a, tray_b = self.seg_tray[a.seg[ia]], self.seg_tray[b.seg[ib]]
        node_s, ways, starts, ends = self._node_s, way.tolist(), start.tolist(), end.tolist()
        self._learn_legs(ways, starts, ends)
        ends_s = (sa.tolist(), sb.tolist(), tray_a.tolist(), tray_b.tolist(), starts, ends)
        for row, w, s_a, s_b, t_a, t_b, u, v, d in zip(
            ok.tolist(), ways, *ends_s, best.tolist(), strict=True
        ):
            if w < 0:
                if d != float("inf"):
                    out[row] = merge_legs([(t_a, s_a, s_b)])
                continue
            legs = [(t_a, s_a, node_s[(u, t_a)])]
            legs.extend(self._station_legs(u, v))
            legs.append((t_b, node_s[(v, t_b)], s_b))
            out[row] = merge_legs(legs)
        return out

    def _ways(
        self, a: Attachments, ia: np.ndarray, b: Attachments, ib: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The shortest tray way of every pair ``a[ia]``-``b[ib]`` (both on trays): (way, start
        station node, end station node, length); way -1 when it stays on one piece (or none)."""
        ua, va, ub, vb = a.u[ia], a.v[ia], b.u[ib], b.v[ib]
        matrix, index = self.rows(np.concatenate([ua, va]))
        best = np.where(a.piece[ia] == b.piece[ib], np.abs(a.s[ia] - b.s[ib]), np.inf)
        way = np.full(len(ia), -1, dtype=np.int64)
        starts, ends = (ua, ua, va, va), (ub, vb, ub, vb)
        d0s, d1s = (
            (a.du[ia], a.du[ia], a.dv[ia], a.dv[ia]),
            (b.du[ib], b.dv[ib], b.du[ib], b.dv[ib]),
        )
        for k in range(4):  # in path()'s order, replacing only when shorter by more than 1e-12
            total = d0s[k] + matrix[index[starts[k]], ends[k]] + d1s[k]
            better = total < best - 1e-12
            best = np.where(better, total, best)
            way[better] = k
        start = np.choose(np.maximum(way, 0), starts)
        return way, start, np.choose(np.maximum(way, 0), ends), best

    def _learn_legs(self, ways: list[int], starts: list[int], ends: list[int]) -> None:
        """The station legs of the pairs not known yet whose source has no cached search: one
        search per source, stopped once its targets are settled (the same paths as a whole
        search, :func:`~model.engine.tray_search.dijkstra`), not kept."""
        wanted: dict[int, set[int]] = {}
        for w, u, v in zip(ways, starts, ends, strict=True):
            if w >= 0 and u not in self._paths and (u, v) not in self._legs:
                wanted.setdefault(u, set()).add(v)
        for u, targets in wanted.items():
            _, pred = dijkstra(self._adjacency_lists(), u, targets)
            for v in targets:
                self._legs[(u, v)] = self._legs_along(walk_path(pred, v))

    def _station_legs(self, start: int, end: int) -> list[tuple[int, float, float]]:
        """Tray runs (tray, s from, s to) of the shortest station path ``start`` -> ``end``,
        kept per pair of stations (at XL 3,444 routes run between 741 pairs)."""
        legs = self._legs.get((start, end))
        if legs is None:
            legs = self._legs[(start, end)] = self._legs_along(self._node_path(start, end))
        return legs

    def _legs_along(self, path: list[int]) -> list[tuple[int, float, float]]:
        """Tray runs (tray, s from, s to) along a path of station nodes (joins give none)."""
        legs = []
        graph, node_s = self.graph, self._node_s
        for p, q in pairwise(path):
            tray = graph[p][q]["tray"]
            if tray >= 0:
                legs.append((tray, node_s[(p, tray)], node_s[(q, tray)]))
        return legs

    def _node_path(self, start: int, end: int) -> list[int]:
        """Station nodes of the shortest path ``start`` -> ``end``, from one cached Dijkstra per
        source (the same path ``nx.dijkstra_path`` gives: :func:`model.engine.tray_search.dijkstra` is
        networkx's search, and a path is read back from its predecessors only when asked)."""
        pred = self._paths.get(start)
        if pred is None:
            pred = self._paths[start] = dijkstra(self._adjacency_lists(), start)[1]
        return walk_path(pred, end)

    def _adjacency_lists(self) -> list[list[tuple[int, float]]]:
        """(neighbour, weight) of every node, in the graph's neighbour order, read once."""
        if self._adjacency is None:
            self._adjacency = [
                [(u, edge["weight"]) for u, edge in self.graph[v].items()]
                for v in range(self.node_count)
            ]
        return self._adjacency

    def _reached_ways(self, a: Attachments, ia, b: Attachments, ib):
        """The pairs ``a[ia]``-``b[ib]`` whose both ends reach a tray (their positions ``ok``
        among the pairs, their ``ia`` and ``ib``) with :meth:`_ways`' answer for them; None when
        no pair does."""
        ia, ib = np.asarray(ia, dtype=np.int64), np.asarray(ib, dtype=np.int64)
        ok = np.flatnonzero((a.seg[ia] >= 0) & (b.seg[ib] >= 0))
        if not len(ok):
            return None
        ia, ib = ia[ok], ib[ok]
        return (ok, ia, ib, *self._ways(a, ia, b, ib))

    def tray_ids_between(
        self, a: Attachments, ia: np.ndarray, b: Attachments, ib: np.ndarray
    ) -> list[list[str]]:
        """Ids of the trays :meth:`path` follows from each ``a[ia]`` to ``b[ib]`` (repeats
        merged, ``[]`` when not joined), no plan points: :meth:`spans`' ways and legs."""
        out: list[list[str]] = [[] for _ in range(len(ia))]
        reached = self._reached_ways(a, ia, b, ib)
        if reached is None:
            return out
        ok, ia, ib, way, start, end, best = reached
        ways, starts, ends = way.tolist(), start.tolist(), end.tolist()
        self._learn_legs(ways, starts, ends)
        ids = self.tray_ids
        tray_a, tray_b = self.seg_tray[a.seg[ia]].tolist(), self.seg_tray[b.seg[ib]].tolist()
        rows = zip(ok.tolist(), ways, tray_a, tray_b, starts, ends, best.tolist(), strict=True)
        for row, w, t_a, t_b, u, v, d in rows:
            if w >= 0:
                trays = [t_a, *(leg[0] for leg in self._station_legs(u, v)), t_b]
                out[row] = [ids[t] for k, t in enumerate(trays) if k == 0 or trays[k - 1] != t]
            elif d != float("inf"):
                out[row] = [ids[t_a]]
        return out

    def path(
        self, a: Attachments, i: int, b: Attachments, j: int
    ) -> tuple[list[tuple[float, float]], list[str], float]:
        """The tray path from attachment ``a[i]`` to ``b[j]``: plan points, tray ids, length."""
        return self.paths(a, np.array([i]), b, np.array([j]))[0]

    def paths(
        self, a: Attachments, ia: np.ndarray, b: Attachments, ib: np.ndarray
    ) -> list[tuple[list[tuple[float, float]], list[str], float]]:
        """:meth:`path` of every pair ``a[ia]``-``b[ib]``, the ways out chosen for all pairs at
        once: the plan draws ~7k trunk routes at zoned XL, and one way choice per pair (numpy
        on one-element arrays) was ~0.3 s CPU of a picture."""
        out: list[tuple[list[tuple[float, float]], list[str], float]] = [
            ([], [], float("inf")) for _ in range(len(ia))
        ]
        reached = self._reached_ways(a, ia, b, ib)
        if reached is None:
            return out
        ok, ia, ib, way, first, last, best = reached
        tray_a, tray_b = self.seg_tray[a.seg[ia]].tolist(), self.seg_tray[b.seg[ib]].tolist()
        ends = (a.s[ia].tolist(), b.s[ib].tolist(), tray_a, tray_b, first.tolist(), last.tolist())
        for row, w, s_a, s_b, t_a, t_b, start, end, length in zip(
            ok.tolist(), way.tolist(), *ends, best.tolist(), strict=True
        ):
            if w < 0:
                if length != float("inf"):
                    points = self.points_between(t_a, s_a, s_b)
                    out[row] = (points, [self.tray_ids[t_a]], length)
                continue
            out[row] = (*self._way_points(t_a, s_a, t_b, s_b, start, end), length)
        return out

    def _way_points(
        self, tray_a: int, s_a: float, tray_b: int, s_b: float, start: int, end: int
    ) -> tuple[list[tuple[float, float]], list[str]]:
        """Plan points and tray ids from ``s_a`` on ``tray_a`` through the station nodes
        ``start`` .. ``end`` to ``s_b`` on ``tray_b`` (one pair of :meth:`paths`)."""
        middle = self._between.get((start, end))
        if middle is None:  # kept per pair of stations: ~5k drawn routes, far fewer pairs
            path, along = self._node_path(start, end), self.points_between
            middle = self._between[(start, end)] = tray_search.station_points(
                path, self.graph, self._node_s, self.node_xy, along
            )
        points = self.points_between(tray_a, s_a, self._node_s[(start, tray_a)]) + middle[0]
        points += self.points_between(tray_b, self._node_s[(end, tray_b)], s_b)[1:]
        trays = [tray_a, *middle[1], tray_b]
        ids = [self.tray_ids[t] for k, t in enumerate(trays) if k == 0 or trays[k - 1] != t]
        return dedupe_points(points), ids
