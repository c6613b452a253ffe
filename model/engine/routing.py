"""The routing half of :class:`~model.engine.routed_links.RoutedLinks`: routed lengths, tray routes and plan paths.

A mixin over the plant's per-link arrays (``drop_a``/``drop_b``, the attachments ``_att`` of
the drop points to the tray graph ``_graph``, the length pieces): :meth:`PlantRouting._route`
fills the lengths of rows; the public methods name routes (``route_keys``, ``tray_spans``) and
build one link's path (``route``, ``route_tray_ids``) for drawing, explaining and the cut sheet.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

import numpy as np

from model.common.arrays import same_rows
from model.common.text_columns import join_rows
from model.engine.changed_rows import ChangedRows
from model.engine.geometry import (
    FACE_FRONT,
    FACE_REAR,
    METHOD_NAMES,
    METHOD_NO_TRAY_PATH,
    METHOD_SAME_RACK,
    METHOD_TRAY,
    LinkRoute,
    compose_lengths,
    dedupe_points,
)
from model.engine.link_status import (
    NO_MEDIUM,
    NO_TRAY_PATH,
    PINNED_MISMATCH,
    PINNED_OUT_OF_REACH,
    SAME_RACK,
    UNREACHED_RACK,
)
from model.engine.link_table import EngineState, own_output_columns
from model.engine.retray_lengths import reroute_lengths
from model.engine.route_renames import renamed_as_a_whole
from model.engine.route_spans import memo_spans, named_trays
from model.engine.route_words import route_word_columns
from model.engine.tray_graph import TrayGraph

_MEDIA_COLUMNS = ("ordered_m", "medium_index")  # what a media choice writes and a diff compares
_STALE_ROUTE = -2  # _route_key of a row recomputed since route_keys() last named its route
# What a plant's route names are, to hand from a snapshot back to its live plant.
# (generation, route id per row, position pair -> id, spans per id, first rows: _route_firsts)
RoutedLinksNames = tuple[int, np.ndarray, dict, list, tuple[int, np.ndarray] | None]


class PlantRouting(EngineState):
    """Routing methods of :class:`~model.engine.routed_links.RoutedLinks` (which holds the arrays)."""

    def tray_distance(
        self, a: tuple[float, float], b: tuple[float, float], searches: dict | None = None
    ) -> float | None:
        """Distance between two plan points along the current trays (the measure tool): the
        plant's own tray graph, so a measurement and a routed length agree. ``searches``: a
        memo the caller keeps for many questions (:meth:`TrayGraph.point_distance`)."""
        self.refresh()
        reach_m = self.design.settings.tray_reach_m
        return self._graph.point_distance(a, b, reach_m, searches)

    def off_trays(self, drops: np.ndarray | int) -> np.ndarray | bool:
        """Whether each drop point (``drop_a``/``drop_b`` values) reaches no tray."""
        return self._att.seg[drops] < 0

    def pieces_m(self, link_id: str) -> tuple[str, float, float, float]:
        """(method, vertical A, horizontal, vertical B) of a link's route in m, without slack.

        Horizontal = hops + trays + floor: what a trunk between the two rack tops follows
        (:mod:`model.structured.layout`); cheaper than :meth:`route` (no plan path).
        """
        r = self.index[link_id]
        horizontal = self._hop_a[r] + self._tray[r] + self._hop_b[r] + self._floor[r]
        return (
            METHOD_NAMES[int(self._method[r])],
            float(self._vertical_a[r]),
            float(horizontal),
            float(self._vertical_b[r]),
        )

    def pieces_columns(self) -> tuple[list[str], list[float], list[float], list[float]]:
        """:meth:`pieces_m` of every row at once, as lists in row order (methods, vertical A,
        horizontal, vertical B): the same figures, summed in the same order."""
        horizontal = self._hop_a + self._tray + self._hop_b + self._floor
        return (
            [METHOD_NAMES[m] for m in np.asarray(self._method).tolist()],
            np.asarray(self._vertical_a, dtype=np.float64).tolist(),
            np.asarray(horizontal, dtype=np.float64).tolist(),
            np.asarray(self._vertical_b, dtype=np.float64).tolist(),
        )

    def pieces_arrays(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`pieces_columns`' vertical A, horizontal and vertical B of ``rows``, as float64
        arrays (the structured layout's 393k channels at zoned XL, without lists between)."""
        horizontal = self._hop_a[rows] + self._tray[rows] + self._hop_b[rows] + self._floor[rows]
        return (
            np.asarray(self._vertical_a[rows], dtype=np.float64),
            np.asarray(horizontal, dtype=np.float64),
            np.asarray(self._vertical_b[rows], dtype=np.float64),
        )

    def route(self, link_id: str) -> LinkRoute:
        """The pieces of a link's routed length and its plan path."""
        r = self.index[link_id]
        da, db = int(self.drop_a[r]), int(self.drop_b[r])
        method = int(self._method[r])
        pa = (float(self._drop_x[da]), float(self._drop_y[da]))
        pb = (float(self._drop_x[db]), float(self._drop_y[db]))
        trays: list[str] = []
        if method == METHOD_SAME_RACK:
            points = [pa]
        elif method == METHOD_NO_TRAY_PATH:
            points = [pa, (pb[0], pa[1]), pb]
        else:
            memo = self._memo_paths.get((da, db))
            if memo is None:
                att = self._att
                path, trays, _ = self._graph.path(att, da, att, db)
                memo = self._memo_paths[(da, db)] = (path, trays)
            path, trays = memo[0], list(memo[1])
            points = dedupe_points([pa, *path, pb])
        return LinkRoute(
            link_id=link_id,
            method=METHOD_NAMES[method],
            vertical_a_m=float(self._vertical_a[r]),
            hop_a_m=float(self._hop_a[r]),
            tray_m=float(self._tray[r]),
            hop_b_m=float(self._hop_b[r]),
            vertical_b_m=float(self._vertical_b[r]),
            floor_m=float(self._floor[r]),
            slack_m=float(self._slack[r]),
            total_m=float(self.routed_m[r]),
            points=points,
            tray_ids=trays,
        )

    def plan_points_of(self, link_ids: list[str]) -> list[list[tuple[float, float]]]:
        """``route(link_id).points`` of each of ``link_ids`` (KeyError for a link the plant
        does not know): the tray paths of the pairs of drop points not memoised yet are found
        together (:meth:`TrayGraph.paths`) and memoised as :meth:`route` memoises them. A
        zoned XL picture draws its trunks along ~7k links: a route each was ~1 s CPU."""
        rows = self._rows_of_links(link_ids)
        methods = self._method[rows].tolist()
        da, db = self.drop_a[rows].tolist(), self.drop_b[rows].tolist()
        memo = self._memo_paths
        new = list(
            dict.fromkeys(
                p
                for p, m in zip(zip(da, db, strict=True), methods, strict=True)
                if m == METHOD_TRAY and p not in memo
            )
        )
        if new:
            att = self._att
            new_a, new_b = (np.array(side, dtype=np.int64) for side in zip(*new, strict=True))
            found = self._graph.paths(att, new_a, att, new_b)
            for p, (path, trays, _) in zip(new, found, strict=True):
                memo[p] = (path, trays)
        xa, ya = self._drop_x[da].tolist(), self._drop_y[da].tolist()
        xb, yb = self._drop_x[db].tolist(), self._drop_y[db].tolist()
        out: list[list[tuple[float, float]]] = []
        for k, method in enumerate(methods):
            pa, pb = (xa[k], ya[k]), (xb[k], yb[k])
            if method == METHOD_SAME_RACK:
                out.append([pa])
            elif method == METHOD_NO_TRAY_PATH:
                out.append([pa, (pb[0], pa[1]), pb])
            else:
                out.append(dedupe_points([pa, *memo[(da[k], db[k])][0], pb]))
        return out

    def _rows_of_links(self, link_ids: list[str]) -> np.ndarray:
        """Plant rows of ``link_ids`` (KeyError for a link the plant does not know): by the index
        once it is built (kept from then on, see RoutedLinks.__getattr__); a few links without
        it by one pass over ``link_ids`` (a zoned XL picture's ~7k trunk links: ~30 ms, where
        building the 393k-entry index it never needs again was ~0.12 s)."""
        index = self.__dict__.get("index")
        if index is None and len(link_ids) * 8 < len(self.link_ids):
            wanted = set(link_ids)
            index = {i: r for r, i in enumerate(self.link_ids) if i in wanted}
        elif index is None:
            index = self.index
        return np.array([index[i] for i in link_ids], dtype=np.int64)

    def route_descriptions(self, rows: np.ndarray) -> list[str]:
        """``route(link_id).describe()`` of many rows at once, from the length arrays alone
        (no plan path): each length column is formatted once per distinct value."""
        return join_rows(len(rows), self.route_word_columns(rows))

    def route_word_columns(self, rows: np.ndarray, end: str = "") -> list:
        """:meth:`route_descriptions` (each followed by ``end``) of ``rows`` as columns of
        pieces (:func:`model.engine.route_words.route_word_columns`): what the ``routes`` report joins."""
        rows = np.asarray(rows, dtype=np.int64)
        return route_word_columns(
            self._method[rows],
            self._vertical_a[rows],
            self._hop_a[rows],
            self._tray[rows],
            self._hop_b[rows],
            self._vertical_b[rows],
            self._floor[rows],
            self._slack[rows],
            self.routed_m[rows],
            end=end,
        )

    def route_tray_ids(self, link_id: str) -> list[str]:
        """Ids of the trays a link's route follows (what :meth:`route` gives), without building
        its plan path: once per pair of drop points, memoised with the paths."""
        return self.route_tray_ids_of([link_id])[0]

    def route_tray_ids_of(self, link_ids: list[str]) -> list[list[str]]:
        """:meth:`route_tray_ids` of each of ``link_ids`` (see :meth:`route_tray_ids_at`)."""
        return self.route_tray_ids_at(np.array([self.index[i] for i in link_ids], dtype=np.int64))

    def route_tray_ids_at(self, rows: np.ndarray) -> list[list[str]]:
        """:meth:`route_tray_ids` of the links in plant ``rows``: the pairs of drop points not
        memoised yet are found together (one way choice for all, one search per source)."""
        rows = np.asarray(rows, dtype=np.int64)
        on_tray = (self._method[rows] == METHOD_TRAY).tolist()
        pairs = list(zip(self.drop_a[rows].tolist(), self.drop_b[rows].tolist(), strict=True))
        memo = self._memo_paths
        new = list(
            dict.fromkeys(
                p
                for p, tray in zip(pairs, on_tray, strict=True)
                if tray and p not in memo and ("ids", *p) not in memo
            )
        )
        if new:
            da, db = (np.array(side, dtype=np.int64) for side in zip(*new, strict=True))
            found = self._graph.tray_ids_between(self._att, da, self._att, db)
            for p, ids in zip(new, found, strict=True):
                memo[("ids", *p)] = ids
        return [
            (list(memo[p][1]) if p in memo else list(memo[("ids", *p)])) if tray else []
            for p, tray in zip(pairs, on_tray, strict=True)
        ]

    def route_keys(self) -> np.ndarray:
        """Route id of every link (int64, one per row in ``link_ids`` order); -1 off the trays.

        Links with the same route id run along the same trays over the same intervals (they
        join the trays at the same two drop points), so per-route work such as tray fill is done
        once per id: :meth:`tray_spans` gives the intervals. Ids are small integers
        ``0 .. route_count - 1``, assigned as routes are first seen; an id keeps its meaning
        while ``route_generation`` is unchanged (a moved rack's links take the ids of their new
        routes; what an existing id means never changes). Same-rack and floor-routed links have
        -1. The array is a read-only view, valid until the next edit is applied.
        """
        stale = np.flatnonzero(self._route_key == _STALE_ROUTE)
        if len(stale):
            frozen = not self._route_key.flags.writeable  # a snapshot naming its routes
            if frozen:  # into a copy of its own (snapshot.py): others' stay as they are
                self._route_key = self._route_key.copy()
            if not self._renamed_as_before(stale):
                self._name_routes(stale)
            self._route_key.flags.writeable = not frozen
        view = self._route_key.view()
        view.flags.writeable = False
        return view

    def route_keys_at(self, rows: np.ndarray) -> np.ndarray:
        """:meth:`route_keys` of ``rows`` alone (ascending plant rows; a copy), naming only
        the stale rows among them: the ids :meth:`route_keys` gives when every row routed
        since the last naming is among ``rows`` (the optimiser's rows of a rack move), without
        its pass over every row for stale ones (~0.2 ms of each XL candidate's fill bound)."""
        keys = self._route_key[rows]
        stale = rows[keys == _STALE_ROUTE]
        if not len(stale):
            return keys
        if not self._route_key.flags.writeable:  # a snapshot: named as route_keys() names
            return self.route_keys()[rows]
        self._name_routes(stale)
        return self._route_key[rows]

    def routes_unnamed(self) -> bool:
        """Whether no route of this generation is named yet (after a tray edit or a rebuild):
        naming them is then one pass over every row, which a snapshot does on its worker
        (:func:`model.engine.snapshot.freeze_plant`) instead of the GUI thread."""
        return not self._route_of and bool((self._route_key == _STALE_ROUTE).all())

    def adopt_routes(self, named: RoutedLinksNames) -> bool:
        """Take the route names a snapshot of this plant made (``named``, its
        :meth:`route_names`) when this plant is still as it was then: the snapshot's
        generation is the one just below this plant's (the snapshot took it) and nothing was
        named since. The caller vouches that no edit came since the snapshot was taken."""
        generation, keys, route_of, spans, firsts = named
        if generation != self.route_generation - 1 or not self.routes_unnamed():
            return False
        self._route_key[:] = keys
        self._route_of, self._route_spans = dict(route_of), list(spans)
        self._route_firsts = firsts  # a tray edit next restores these names (the snapshot's
        self.route_generation = generation  # refreshes applied are this plant's: none since)
        return True

    def route_names(self) -> RoutedLinksNames:
        """(route generation, route id per row, position pair -> id, spans per id, each
        route's first row after a whole naming): what :meth:`adopt_routes` takes; names the
        stale rows first."""
        keys = self.route_keys()
        return self.route_generation, keys, self._route_of, self._route_spans, self._route_firsts

    @property
    def route_count(self) -> int:
        """Number of route ids handed out so far in this ``route_generation``."""
        return len(self._route_spans)

    def tray_spans(self, route_id: int) -> tuple[tuple[str, float, float], ...]:
        """Trays a route runs along, in order: (tray id, s0_m, s1_m) intervals of arc length.

        ``s0_m <= s1_m`` are positions along the tray from its first point. Joins between trays
        and the hops from racks to trays take no interval. No plan points are built (use
        :meth:`route` to draw or explain one link).
        """
        return self._route_spans[route_id]

    def link_tray_spans(self, link_id: str) -> tuple[tuple[str, float, float], ...]:
        """:meth:`tray_spans` of one link's route (``()`` when it does not run on trays)."""
        key = int(self.route_keys()[self.index[link_id]])
        return self._route_spans[key] if key >= 0 else ()

    def rack_tray_spans(
        self, rack_a: str, face_a: str, rack_b: str, face_b: str
    ) -> tuple[tuple[str, float, float], ...]:
        """:meth:`tray_spans` of the way between two racks' drop points (``face``: "front" or
        "rear"), for a cable no link's route follows (a zone's trunk to its HDA rack): the
        route a link between those faces would take. ``()`` when either rack is off the trays."""
        self.refresh()
        ra, rb = self._rack_row.get(rack_a), self._rack_row.get(rack_b)
        if ra is None or rb is None or ra == rb:
            return ()
        da = 2 * ra + (FACE_REAR if face_a == "rear" else FACE_FRONT)
        db = 2 * rb + (FACE_REAR if face_b == "rear" else FACE_FRONT)
        att, names = self._att, self._graph.tray_ids
        (legs,) = self._graph.spans(att, np.array([da]), att, np.array([db]))
        return tuple((names[t], s0, s1) for t, s0, s1 in legs)

    def rack_points(
        self, rack_a: str, face_a: str, rack_b: str, face_b: str
    ) -> list[tuple[float, float]]:
        """Plan points of the way between two racks' drop points along the trays (``face``:
        "front" or "rear"), the way :meth:`rack_tray_spans` counts for a cable no link's route
        follows (a zone's trunk to its HDA rack), so the plan draws it where its tray fill is
        counted. ``[]`` when either rack is off the trays or the trays do not join them."""
        self.refresh()
        ra, rb = self._rack_row.get(rack_a), self._rack_row.get(rack_b)
        if ra is None or rb is None or ra == rb:
            return []
        da = 2 * ra + (FACE_REAR if face_a == "rear" else FACE_FRONT)
        db = 2 * rb + (FACE_REAR if face_b == "rear" else FACE_FRONT)
        memo = self._memo_paths.get((da, db))
        if memo is None:
            att = self._att
            path, trays, _ = self._graph.path(att, da, att, db)
            memo = self._memo_paths[(da, db)] = (path, trays)
        if not memo[0]:
            return []
        pa = (float(self._drop_x[da]), float(self._drop_y[da]))
        pb = (float(self._drop_x[db]), float(self._drop_y[db]))
        return dedupe_points([pa, *memo[0], pb])

    def _name_routes(self, rows: np.ndarray) -> None:
        """Route ids of these rows: one per unordered pair of drop points (by plan position)."""
        whole = not self._route_of and len(rows) == len(self._route_key)
        self._route_firsts = None
        on_tray = self._method[rows] == METHOD_TRAY
        self._route_key[rows[~on_tray]] = -1
        rows = rows[on_tray]
        if not len(rows):
            return
        da, db = self.drop_a[rows], self.drop_b[rows]
        code = np.minimum(da, db) * (len(self._drop_x) + 1) + np.maximum(da, db)
        # Links between the same two drops sit in runs of rows: the distinct pairs are found
        # among the runs' heads (XL: 14k of 393k rows), each pair's first row being a head.
        heads = np.flatnonzero(np.concatenate([[True], code[1:] != code[:-1]]))
        _, first_head, head_pair = np.unique(code[heads], return_index=True, return_inverse=True)
        first = heads[first_head]
        inverse = np.repeat(head_pair.reshape(-1), np.diff(np.append(heads, len(code))))
        fa, fb = da[first], db[first]
        # Each drop point's rounded position made once, not once per pair it ends (XL: 7,168
        # pairs cost ~40 ms in numpy scalar reads and rounding): the same ``round`` of the same
        # floats, so the same keys.
        points, end_codes = np.unique(np.concatenate([fa, fb]), return_inverse=True)
        xs, ys = self._drop_x[points].tolist(), self._drop_y[points].tolist()
        position = [(round(x, 6), round(y, 6)) for x, y in zip(xs, ys, strict=True)]
        end_of = end_codes.reshape(-1).tolist()
        ids = []
        fresh_a, fresh_b, fresh_rows = [], [], []
        route_of, known = self._route_of, self._route_spans
        # A route is named, and its spans taken, in the direction of its first link in row
        # order: the trays route() gives that link (equal shortest paths break the same way).
        for a, b, pa_at, pb_at, row in zip(
            fa.tolist(),
            fb.tolist(),
            end_of[: len(fa)],
            end_of[len(fa) :],
            rows[first].tolist(),
            strict=True,
        ):
            pa, pb = position[pa_at], position[pb_at]
            key = (pa, pb) if pa <= pb else (pb, pa)  # (min, max) of the two positions
            route = route_of.get(key)
            if route is None:
                route = route_of[key] = len(known)
                known.append(())
                fresh_a.append(a)
                fresh_b.append(b)
                fresh_rows.append(row)
            ids.append(route)
        self._route_key[rows] = np.array(ids, dtype=np.int64)[inverse.reshape(-1)]
        if fresh_a:
            start = len(self._route_spans) - len(fresh_a)
            self._route_spans[start:] = self._spans_between(
                np.array(fresh_a, dtype=np.int64), np.array(fresh_b, dtype=np.int64), whole
            )
        if whole:  # each route's first row, for a tray edit's names (_renamed_as_before)
            self._route_firsts = (self.applied_edits, np.array(fresh_rows, dtype=np.int64))

    def _spans_between(self, da: np.ndarray, db: np.ndarray, every: bool = False) -> list:
        """:meth:`tray_spans` of the routes from drops ``da`` to ``db`` (tray ids named);
        ``every`` (all routes: a whole naming) through the plant's memo (route_spans.py)."""
        if every:
            return memo_spans(self, da, db)
        return named_trays(self._graph, self._graph.spans(self._att, da, self._att, db))

    def _renamed_as_before(self, stale: np.ndarray) -> bool:
        """Name every row (``stale``: all of them, after a tray edit) as a whole naming would,
        from the names before the edit (:meth:`_retray` keeps them when it may): a tray edit
        moves no drop point and here took no row on or off the trays, so each row's route
        (its pair of drop positions), the ids (by drop pair code) and each route's first row
        are those of the naming before (renumbered if piecemeal: route_renames.py); only the
        spans are found again, from each first row as that naming did (XL: ~18 ms, not ~36)."""
        kept, self._renaming = self._renaming, None
        if (
            kept is None
            or kept[0] != self.applied_edits  # a refresh came since the tray edit
            or self._route_of
            or len(stale) != len(self._route_key)
        ):
            return False
        _, keys, route_of, firsts = kept
        if firsts is None:  # named piecemeal since the last whole naming (a rack move's)
            ends = (self.drop_a, self.drop_b, len(self._drop_x))
            keys, route_of, firsts = renamed_as_a_whole(keys, *ends, route_of)
        self._route_key[:] = keys
        self._route_of = dict(route_of)
        self._route_spans = self._spans_between(self.drop_a[firsts], self.drop_b[firsts], True)
        self._route_firsts = (self.applied_edits, firsts)
        return True

    def _retray(self, lazy_ids: bool = False) -> AbstractSet[str]:
        """Apply an edit of the trays alone (a corner dragged, a tray moved, added or removed):
        ids of the links whose length, ordered length or medium changed (``lazy_ids``: as a
        :class:`~model.engine.changed_rows.ChangedRows` over this plant's id list, which must
        then never change: a snapshot's copy).

        What a full rebuild would do, less what trays cannot change: the link rows, their
        inputs and the cage components stay. The tray graph is built again (the joins and
        stations move with the corner) and every drop point attaches to it again. A row's
        routed length reads only its two drops' attachments (hop, elevation, reached) and the
        tray distance between them, so only rows where one of those changed are routed again,
        and media chosen again for the components where a length crossed one the choice
        compares with (:meth:`_reroute`; :mod:`model.engine.length_breaks`):
        the tray distance is compared once per run of rows between the same two drops, old
        graph against new.
        Route ids are named again, as after a full rebuild (tray positions moved with the
        trays): from the names before the edit where they still hold (:meth:`_renamed_as_before`).
        """
        design = self.design
        old_graph, old_att = self._graph, self._att
        self._graph = graph = TrayGraph(
            list(design.trays.values()), design.hall, design.settings.tray_join_tolerance_m
        )
        graph.carry_rows(old_graph)  # only the ways the edit changed are searched again
        reach_m = design.settings.tray_reach_m
        self._att = att = graph.attach_after(old_graph, self._drop_x, self._drop_y, reach_m)
        self._memo_paths.clear()
        firsts, keys = self._route_firsts, self._route_key
        whole = firsts[1] if firsts is not None and firsts[0] == self.applied_edits - 1 else None
        named = whole is not None or keys.min(initial=0) >= -1  # at once, or piecemeal
        before = (keys.copy(), self._route_of, whole) if named else None
        self._route_of, self._route_spans = {}, []
        self.route_generation += 1
        self._route_key[:] = _STALE_ROUTE
        level = (old_att.reached == att.reached) & (old_att.elev == att.elev)  # vertical runs kept
        drop_moved = ~level | (old_att.hop != att.hop)
        da, db = self.drop_a, self.drop_b
        if not len(da):
            return set()
        starts = np.concatenate([[True], (da[1:] != da[:-1]) | (db[1:] != db[:-1])])
        heads = np.flatnonzero(starts)
        ha, hb = da[heads], db[heads]
        then, now = old_graph.distance(old_att, ha, old_att, hb), graph.distance(att, ha, att, hb)
        run_of = np.cumsum(starts) - 1
        level_runs = level[ha] & level[hb] & np.isfinite(then) & np.isfinite(now)  # on trays
        tray_only = (level_runs, now, run_of)  # hops and tray piece alone made again
        rows = np.flatnonzero((drop_moved[ha] | drop_moved[hb] | (then != now))[run_of])
        changed = self._reroute(rows, lazy_ids, tray_only) if len(rows) else set()
        # The names before are the names after when no row went on or off the trays (and
        # every row was named): kept for route_keys() to restore (_renamed_as_before).
        if before is not None and np.array_equal(before[0] >= 0, self._method == METHOD_TRAY):
            self._renaming = (self.applied_edits, *before)
        return changed

    def _reroute(self, routed: np.ndarray, lazy_ids=False, tray_only=None) -> AbstractSet[str]:
        """``_compute`` of rows whose routes alone can have changed (a tray edit): ids of the
        links whose length, ordered length or medium changed. A component none of whose links'
        length crossed a length the media choice compares with keeps its media
        (:meth:`_length_crossed`: at XL a corner drag changes ~190k lengths, mostly within one
        stock length), and only the rows routed or chosen again are compared. ``tray_only``:
        :func:`model.engine.retray_lengths.reroute_lengths`'."""
        old_length, old_routed = self.length_m[routed], self.routed_m[routed]
        old_status = self.status[routed]
        reroute_lengths(self, routed, tray_only)  # _route, or the new tray piece alone
        new_length = self.length_m[routed]
        chosen = self._component_rows(routed[self._length_crossed(routed, old_length, new_length)])
        # The others keep their media, and so the status bits their media set (_route wrote
        # the routing bits alone): by a mask, not np.isin (sorting ~190k rows at XL).
        marked = np.zeros(len(self.link_ids), dtype=bool)
        marked[chosen] = True
        kept = ~marked[routed]
        media_bits = np.uint8(NO_MEDIUM | PINNED_OUT_OF_REACH | PINNED_MISMATCH)
        self.status[routed[kept]] |= old_status[kept] & media_bits
        before = tuple(getattr(self, name)[chosen] for name in _MEDIA_COLUMNS)  # gathers: copies
        if len(chosen):
            self._choose(chosen)
        lengths = same_rows((old_routed, old_length), (self.routed_m[routed], new_length))
        media = same_rows(before, tuple(getattr(self, name)[chosen] for name in _MEDIA_COLUMNS))
        # ~190k rows at XL, once each (a row can change length and medium), in row order;
        # named as ids only where wanted (ChangedRows)
        marked[:] = False
        marked[routed[~lengths]] = True
        marked[chosen[~media]] = True
        rows = np.flatnonzero(marked)
        return ChangedRows(rows, self.link_ids) if lazy_ids else self._ids(rows)

    def _route(self, rows: np.ndarray) -> None:
        """Routed and effective length of ``rows`` (the geometry: no media)."""
        self._renaming = None  # rows re-keyed: the names before an edit no longer hold
        if not len(rows):
            return
        own_output_columns(self.__dict__)  # a re-routed copy's shared ROUTED_WHOLE_COLUMNS
        settings, att = self.design.settings, self._att
        da, db = self.drop_a[rows], self.drop_b[rows]
        # Tray and floor distances depend on the two drop points only, and links between the
        # same two racks sit in runs of consecutive rows (a fabric's links are listed by rack
        # pair): compute them once per run and gather. Same arithmetic per pair, so the same
        # floats; rows in no order at all take the per-row path.
        changed = (da[1:] != da[:-1]) | (db[1:] != db[:-1])
        heads = np.flatnonzero(np.concatenate([[True], changed]))
        run = None
        if len(heads) * 2 < len(rows):
            run = np.cumsum(np.concatenate([[False], changed]))
            da, db = da[heads], db[heads]
        tray = self._graph.distance(att, da, att, db)
        floor = np.abs(self._drop_x[da] - self._drop_x[db]) + np.abs(
            self._drop_y[da] - self._drop_y[db]
        )
        if run is not None:
            tray, floor = tray[run], floor[run]
            da, db = self.drop_a[rows], self.drop_b[rows]
        p = compose_lengths(
            same_rack=self._same_rack[rows],
            faces_differ=self._faces_differ[rows],
            rack_depth_m=self._rack_depth[rows],
            height_a=self._height_a[rows],
            height_b=self._height_b[rows],
            elev_a=att.elev[da],
            elev_b=att.elev[db],
            hop_a=att.hop[da],
            hop_b=att.hop[db],
            tray_m=tray,
            floor_m=floor,
            slack_per_end_m=settings.slack_per_end_m,
            slack_pct=settings.slack_pct,
        )
        self._method[rows], self._vertical_a[rows], self._hop_a[rows] = (
            p.method,
            p.vertical_a,
            p.hop_a,
        )
        self._tray[rows], self._hop_b[rows], self._vertical_b[rows] = p.tray, p.hop_b, p.vertical_b
        self._floor[rows], self._slack[rows], self.routed_m[rows] = p.floor, p.slack, p.total
        length = np.where(
            np.isnan(self._as_built[rows]),
            np.where(np.isnan(self._override[rows]), p.total, self._override[rows]),
            self._as_built[rows],
        )
        self.length_m[rows] = length
        status = np.where(p.method == METHOD_SAME_RACK, SAME_RACK, 0)
        status |= np.where(p.method == METHOD_NO_TRAY_PATH, NO_TRAY_PATH, 0)
        unreached = (att.seg[da] < 0) | (att.seg[db] < 0)
        status |= np.where((p.method == METHOD_NO_TRAY_PATH) & unreached, UNREACHED_RACK, 0)
        self.status[rows] = status.astype(np.uint8)
        self._route_key[rows] = _STALE_ROUTE
