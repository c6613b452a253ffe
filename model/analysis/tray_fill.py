"""Tray fill, weight and bend: the cables (and trunks) in each tray against its size and class.

The one definition of these figures (the canvas heat map shows :meth:`TrayFill.update`'s
ratios; the analysis warns from :attr:`TrayFill.loads`): fill = sum of cable cross-sections /
(width x usable depth), warning above 40 %, error above 50 % (domain-facts §8b); weight =
the kg/m of the cables present, against the tray class's load (NEMA-VE1 12A); bend = the
largest minimum bend radius of a cable that turns in the tray (its span runs round a polyline
corner, or its route passes onto another tray) against the tray's corner radius (the structured catalog's
``tray_class`` and ``bend_rules``). Under structured cabling the links' fibres are replaced by
their trunks (:func:`trunk_load`).

Fill varies along a tray: cables join at their racks' drop points and leave at others. Each
route's legs lie on its trays as intervals of arc length; a tray's fill is the **peak** over its
length of the cross-section of the cables present there (a sweep over interval ends), with the
place where it peaks. A cable of diameter d takes pi d^2 / 4.

The cable plant names the distinct routes (``plant.route_keys()``: links between the same two
drop points share one route id) and the intervals of each (``plant.tray_spans(route_id)``), so
the work here is per route, not per link. Counts are kept as integers per (route, medium), so an
incremental update after a rack move gives exactly the figures of a full recount.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import islice

import numpy as np

from model.analysis.tray_fill_loads import TrayLoad, carried_counts, in_key_order
from model.analysis.tray_fill_spans import SpanColumns, tray_numbers
from model.analysis.tray_fill_undo import FillUndo, keeping, recorded
from model.analysis.tray_levels import TrayLevels, net_cables
from model.analysis.tray_spans import appended as _appended
from model.analysis.tray_spans import corners_along, gather_runs, peak_along, point_along
from model.analysis.tray_trunks import TrunkLoad, TrunkLoadMemo, trunk_columns, trunk_load
from model.catalog.components import medium_group
from model.catalog.structured import structured_catalog
from model.common.arrays import unique_counts, unique_sorted
from model.design.design import Design

# Re-exported: the analysis, the optimiser and the generators read a trunk's load from here.
__all__ = [
    "PlanTrayFigures",
    "TrayFill",
    "TrayLoad",
    "TrunkLoad",
    "TrunkLoadMemo",
    "medium_bundle_group",
    "plan_tray_figures",
    "trunk_load",
]


class TrayFill:
    """Per-tray cable counts, recounted in full or updated for changed links."""

    def __init__(self) -> None:
        self.peak_at: dict[str, tuple[float, float]] = {}  # tray id -> plan point of peak fill
        self.loads: dict[str, TrayLoad] = {}  # tray id -> fill, weight and bend figures
        self._structured: TrunkLoad | None = None
        self.undo: FillUndo | None = None  # what the last ``undoable`` update wrote
        self.reset()

    def reset(self) -> None:
        """Forget everything (trays, hall or the link set changed)."""
        self._plant_state: tuple | None = None  # (plant, generation, media) counted
        self._row_route = np.zeros(0, dtype=np.int64)  # per plant row: route id counted, -1 none
        self._row_medium = np.zeros(0, dtype=np.int64)  # per plant row: medium index, -1 none
        self._counts: Counter = Counter()  # (route id, medium index) -> links
        self._pair_rows: tuple[Counter, np.ndarray] | None = None  # its keys as an array
        self._forget_spans()

    def forget_spans(self) -> None:
        """The trays were edited: every route's intervals are learnt again at the next update,
        and the counts per (route, medium) are carried over to the plant's next route
        generation when each plant row keeps its route id there (a tray edit moves no drop
        point; see :func:`~model.analysis.tray_fill_loads.carried_counts`), only the rows
        whose medium changed recounted: not every row counted again (~5 ms at XL)."""
        self._forget_spans()
        self._carry = True

    def _forget_spans(self) -> None:
        """Drop what was learnt of the routes' intervals and the figures swept from them."""
        self._carry = False  # forget_spans(): the next update may carry the counts over
        self._spans = SpanColumns()  # flat: one row per (route, tray interval)
        # (tray ids numbered, (tray no,) per span in a buffer with room to grow, spans filled in)
        self._span_trays: tuple[list[str], tuple[np.ndarray, ...], int] | None = None
        # (spans known, tray ids, distinct (route, tray) rows)
        self._pairs: tuple[int, list[str], np.ndarray] | None = None
        # The last fill-only figures (ratio and peak place per tray) and the cables per medium
        # between each tray's interval ends they were found from: what a ``loads=False``
        # update brings up to date by the recounted rows alone (tray_levels.py).
        self._fill_state: tuple[TrayLevels, dict, dict] | None = None

    def update(
        self,
        design: Design,
        plant,
        changed: set[str] | None,
        structured: TrunkLoad | None = None,
        peaks: bool = True,
        loads: bool = True,
        rows_hint: np.ndarray | None = None,
        undoable: bool = False,
    ) -> dict[str, float]:
        """Fill ratio per tray id; ``changed`` None (or after ``reset``) recounts every link,
        otherwise the links whose route or medium differ from those last counted are recounted.

        ``peaks`` False: only the counts are brought up to date (what :meth:`cables_by_tray`
        and :meth:`used_stretches` read) and ``{}`` is returned, with no fill, peak or load
        figure: a picture that shows no tray fill skips the sweep (~35 ms at XL). ``loads``
        False: the fill ratios (and where each peaks) only, without the weight and bend
        figures of :attr:`loads` (the optimiser's tray-fill limit, priced at every move).

        ``structured`` (:func:`trunk_load`): the trunks that replace the links' fibres in the
        trays; :attr:`loads` then holds each tray's fill, weight and bend figures.
        ``rows_hint``: the only plant rows whose route or medium can differ from the counted
        ones, when the caller knows them (the optimiser, after rack moves only). ``undoable``:
        a fill-only update with ``rows_hint`` keeps what it wrote in :attr:`undo`
        (:func:`model.analysis.tray_fill_undo.take_back`)."""
        before = (self.peak_at, self.loads, self._structured)
        self.undo = None
        self.peak_at = {}
        self.loads = {}
        self._structured = structured
        recounted = None
        if plant is None or not design.trays:
            self.reset()
            return {t: 0.0 for t in design.trays}
        # Route ids and medium indexes are counted as integers: they mean the same while these do.
        # A snapshot of the plant (model.engine.snapshot) carries the live plant's identity.
        identity = getattr(plant, "plant_identity", id(plant))
        state = (identity, plant.route_generation, tuple(m.id for m in plant.media))
        carried = (
            self._carry
            and changed is not None
            and rows_hint is None
            and carried_counts(self, plant, state)
        )
        self._carry = False
        if not carried and (
            changed is None
            or state != self._plant_state
            or len(self._row_route) != len(plant.link_ids)
        ):
            self.reset()
            self._plant_state = state
            self._full(plant)
        else:
            # The rows to recount are found by comparing the plant's routes and media with the
            # counted ones (two integer passes): ``changed`` need not name links whose route
            # changed at an unchanged length (a moved rack's), and no id is looked up. Ascending
            # rows: the counts' order does not hang on the order of a set of ids.
            # The plant's own column (int32): read where it is compared, not widened whole
            # (a 3 MB copy of every XL move).
            media = np.asarray(plant.medium_index)
            if rows_hint is not None:
                # Route ids of the hinted rows alone (no pass over every row for stale ones,
                # ~0.2 ms at XL): the rows a rack move routed are all among them.
                near = rows_hint
                near_routes = np.asarray(plant.route_keys_at(near), dtype=np.int64)
                differ = (near_routes != self._row_route[near]) | (
                    media[near] != self._row_medium[near]
                )
                rows, new_routes = near[differ], near_routes[differ]
            elif carried:  # every row's route id as counted (carried_counts compared them)
                rows = np.flatnonzero(media != self._row_medium)
                new_routes = self._row_route[rows]
            else:
                routes = np.asarray(plant.route_keys(), dtype=np.int64)
                rows = np.flatnonzero((routes != self._row_route) | (media != self._row_medium))
                new_routes = routes[rows]
            # (route, medium) of the recounted rows as counted before and as counted now
            recounted = (
                self._row_route[rows].copy(),
                self._row_medium[rows].copy(),
                new_routes,
                media[rows],
            )
            if undoable and rows_hint is not None:
                self.undo = recorded(len(self._counts), rows, recounted, before)
            if len(rows):
                self._recount(plant, rows, new_routes, recounted[3], self.undo)
        if peaks and not loads and structured is None:
            return self._fill_delta(design, plant, recounted)
        self._fill_state = None
        self.undo = None  # the kept levels are gone: nothing for take_back to write into
        return self._peaks(design, plant, loads) if peaks else {}

    def _full(self, plant) -> None:
        routes = np.asarray(plant.route_keys(), dtype=np.int64)
        media = np.asarray(plant.medium_index, dtype=np.int64)
        self._row_route, self._row_medium = routes.copy(), media.copy()
        counted = (routes >= 0) & (media >= 0)
        width = len(plant.media) + 1
        values, counts = unique_counts(routes[counted] * width + media[counted])
        self._counts = Counter(
            {
                (v // width, v % width): c
                for v, c in zip(values.tolist(), counts.tolist(), strict=True)
            }
        )
        # the keys as an array, in the Counter's order (_count_keys): from the codes, not the
        # ~15k key tuples of an XL recount (every tray drop's) made into an array (~3-6 ms)
        self._pair_rows = (self._counts, np.stack([values // width, values % width], axis=1))

    def _recount(self, plant, rows, routes, media, undo: FillUndo | None = None) -> None:
        # Counted per distinct (route, medium) with numpy: a rack move recounts thousands of
        # rows at L, and a Python step per row was most of the optimiser's tray-fill price.
        # ``routes`` and ``media``: the plant's at ``rows``, as update read them (asking the
        # plant for its route keys again scans every link for stale ones, ~0.5 ms at XL).
        # ``undo``: each count's value before its first change is kept there (None: a key added).
        width = len(plant.media) + 1
        kept = undo.counts if undo is not None else None
        for sign in (-1, 1):
            if sign > 0:
                self._row_route[rows] = routes
                self._row_medium[rows] = media
            route, medium = self._row_route[rows], self._row_medium[rows]
            keep = (route >= 0) & (medium >= 0)
            values, counts = unique_counts(route[keep] * width + medium[keep])
            counted = self._counts
            for value, n in zip(values.tolist(), counts.tolist(), strict=True):
                key = (value // width, value % width)
                if kept is not None and key not in kept:
                    kept[key] = counted.get(key)
                counted[key] += sign * n

    def cables_by_tray(self, plant, group_of, rows=None) -> dict[str, dict[str, int]]:
        """Cables per tray and group (``group_of(medium or None) -> name``) as last counted.

        The cable bundles of the plan: a cable counts once in every tray its route runs along
        (a tray its route only crosses at a join carries no interval of it and is not counted).
        Derived from the per-(route, medium) counts, so after an incremental :meth:`update` it
        equals a full recount. Call after :meth:`update` with the same plant; with ``rows``
        (plant rows) only those links are counted, straight from the plant.
        """
        if rows is None:
            live = [(r, m, c) for (r, m), c in self._counts.items() if c > 0]
        else:  # only these plant rows (the fabric layers shown), counted from the plant now
            routes = np.asarray(plant.route_keys())[rows]
            media = np.asarray(plant.medium_index, dtype=np.int64)[rows]
            keep = (routes >= 0) & (media >= 0)
            width = len(plant.media) + 1
            values, counts = unique_counts(routes[keep] * width + media[keep])
            live = list(
                zip(
                    (values // width).tolist(),
                    (values % width).tolist(),
                    counts.tolist(),
                    strict=True,
                )
            )
        if not live:
            return {}
        groups = [group_of(m) for m in plant.media]
        names = sorted(set(groups))
        col = np.array([names.index(g) for g in groups], dtype=np.int64)
        route, medium, count = (np.array(v, dtype=np.int64) for v in zip(*live, strict=True))
        self._learn_spans(plant, int(route.max()) + 1)
        per_route = np.zeros((max(self._spans.routes_known, 1), len(names)), dtype=np.int64)
        np.add.at(per_route, (route, col[medium]), count)
        tray_ids, pairs = self._route_tray_pairs()
        per_tray = np.zeros((len(tray_ids), len(names)), dtype=np.int64)
        np.add.at(per_tray, pairs[:, 1], per_route[pairs[:, 0]])
        return {
            tray_ids[t]: {
                names[g]: int(per_tray[t, g]) for g in np.flatnonzero(per_tray[t]).tolist()
            }
            for t in np.flatnonzero(per_tray.any(axis=1)).tolist()
        }

    def used_stretches(self, plant, rows=None) -> dict[str, list[tuple[float, float]]]:
        """Per tray, the stretches (sorted disjoint arc-length intervals, m) some cable runs
        along: a bundle is drawn there only, not along a leg of the tray no cable uses.

        Cables are the links with a medium (``rows``: only those plant rows, e.g. the fabric
        layers shown). Vectorised over the learnt route spans: one sort, one running maximum.
        """
        routes = np.asarray(plant.route_keys())
        media = np.asarray(plant.medium_index, dtype=np.int64)
        if rows is not None:
            routes, media = routes[rows], media[rows]
        live = unique_sorted(routes[(routes >= 0) & (media >= 0)])
        if live.size == 0:
            return {}
        self._learn_spans(plant, int(live.max()) + 1)
        spans = self._spans
        keep = np.isin(spans.route, live)
        if not keep.any():
            return {}
        tray_ids = sorted(set(spans.trays))
        tray = tray_numbers(spans.trays, tray_ids)[keep]
        a, b = spans.s0[keep], spans.s1[keep]
        s0, s1 = np.minimum(a, b), np.maximum(a, b)
        order = np.lexsort((s0, tray))
        tray, s0, s1 = tray[order], s0[order], s1[order]
        out: dict[str, list[tuple[float, float]]] = {}
        bounds = np.flatnonzero(np.diff(tray)) + 1
        for t_s0, t_s1, t in zip(
            np.split(s0, bounds), np.split(s1, bounds), tray[np.r_[0, bounds]], strict=True
        ):
            reach = np.maximum.accumulate(t_s1)
            starts = np.r_[True, t_s0[1:] > reach[:-1] + 1e-6]
            first = np.flatnonzero(starts)
            last = np.r_[first[1:] - 1, len(t_s0) - 1]
            out[tray_ids[int(t)]] = list(
                zip(t_s0[first].tolist(), reach[last].tolist(), strict=True)
            )
        return out

    def _route_tray_pairs(self) -> tuple[list[str], np.ndarray]:
        """Distinct (route, tray number) of the known spans, and the tray ids they number;
        cached until more spans are learnt (a route along one tray in two intervals is still
        one cable in that tray)."""
        cached = self._pairs
        spans = self._spans
        known = len(spans)
        if cached is not None and cached[0] == known:
            return cached[1], cached[2]
        start = 0
        if cached is not None and set(spans.trays[cached[0] :]) <= set(cached[1]):
            # Spans only grow, by routes numbered above every known one: the distinct pairs of
            # the new spans sort after all the earlier ones, so they are appended (the same
            # rows as a unique over every span, without re-sorting them all after each move).
            start = cached[0]
        tray_ids = cached[1] if start and cached is not None else sorted(set(spans.trays))
        flat = tray_numbers(spans.trays, tray_ids, start)
        # Distinct (route, tray) rows in lexicographic order: one number per row, sorted.
        width = max(len(tray_ids), 1)
        codes = unique_sorted(spans.route[start:] * width + flat)
        pairs = np.stack([codes // width, codes % width], axis=1).reshape(-1, 2)
        if start and cached is not None:  # start > 0 only from a cached table
            pairs = np.concatenate([cached[2], pairs])
        self._pairs = (known, tray_ids, pairs)
        return tray_ids, pairs

    def _learn_spans(self, plant, up_to: int) -> None:
        """Append the intervals of the routes not learnt yet below ``up_to``."""
        self._spans.learn(plant, up_to)

    def _count_keys(self) -> np.ndarray:
        """The counts' (route, medium) keys as an array, in the Counter's order. Keys are only
        ever added (a count that falls to 0 keeps its key), so the array of the same Counter
        grows by its new keys: converting every key per report was ~4 ms at XL."""
        known = self._pair_rows
        if known is None or known[0] is not self._counts:
            known = (self._counts, np.zeros((0, 2), dtype=np.int64))
        counter, rows = known
        if len(rows) < len(counter):
            new = list(islice(counter, len(rows), None))
            rows = np.concatenate([rows, np.array(new, dtype=np.int64).reshape(-1, 2)])
        self._pair_rows = (counter, rows)
        return rows

    def _route_figures(self, plant) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per route: cable cross-section (m^2), weight (kg/m), the largest bend radius (mm) of
        its cables, and whether it turns from one tray onto another."""
        sc = structured_catalog()
        areas = [math.pi * (m.cable_diameter_mm / 1000) ** 2 / 4 for m in plant.media]
        bends = [sc.bend_radius_mm(m.kind, m.cable_diameter_mm) for m in plant.media]
        load = self._structured
        # The counts as arrays, in the Counter's order: each route's sums below add its media
        # in that order, as a loop over the items would (bincount adds in input order).
        pairs = self._count_keys()
        count = np.fromiter(self._counts.values(), dtype=np.int64, count=len(pairs))
        counted = pairs[count > 0, 0]  # routes with cables, before trunks take their fibres
        n_routes = int(counted.max()) + 1 if len(counted) else 0
        minus = load.minus if load is not None else {}
        if minus:
            count = count - np.fromiter(
                (minus.get(key, 0) for key in self._counts), dtype=np.int64, count=len(pairs)
            )
        live = count > 0
        route, medium, count = in_key_order(pairs[live, 0], pairs[live, 1], count[live])
        plus = trunk_columns(load.plus) if load is not None else None
        if plus is not None and len(plus):
            n_routes = max(n_routes, int(plus.route.max()) + 1)
        self._learn_spans(plant, n_routes)
        size = max(self._spans.routes_known, 1)
        weights = np.array([m.weight_kg_per_m for m in plant.media] + [0.0])
        # (float even when no route has cables: bincount of nothing gives integers)
        area = np.bincount(route, np.array(areas + [0.0])[medium] * count, size).astype(float)
        mass = np.bincount(route, weights[medium] * count, size).astype(float)
        bend = np.zeros(size)
        np.maximum.at(bend, route, np.array(bends + [0.0])[medium])
        if plus is not None and len(plus):
            # Unbuffered, in trunk order: each route's sums add its trunks one by one, as a
            # loop over them would (bit for bit); fmax keeps the larger, as max() did.
            np.add.at(area, plus.route, plus.area_m2)
            np.add.at(mass, plus.route, plus.kg_per_m)
            np.fmax.at(bend, plus.route, plus.bend_mm)
        turns = np.zeros(size, dtype=bool)
        turns[: self._spans.routes_known] = self._spans.turns
        return area, mass, bend, turns

    def _peaks(self, design: Design, plant, loads: bool = True) -> dict[str, float]:
        """Sweep every tray's interval ends: peak cross-section and where, peak weight per
        metre, and the largest bend radius a cable in it needs at a corner (``loads``)."""
        # Imported here: it brings model.plant.physical_plant (~13 ms), which a picture's count (no peaks)
        # never needs.
        from model.plant.tray_products import trays_in_bank

        area, mass, bend, turns = self._route_figures(plant)
        tray_ids = list(design.trays)
        span_route, span_tray, s0, s1 = self._span_table(tray_ids)
        own = self._structured.own if self._structured is not None else ()
        if own:  # trunks on their own tray intervals: numbered after the routes
            tray_no = {t: i for i, t in enumerate(tray_ids)}
            base = len(area)
            rows = [
                (base + k, tray_no.get(t, -1), a, b) for k, o in enumerate(own) for t, a, b in o[0]
            ]
            extra = np.array(rows, dtype=float).reshape(-1, 4)
            span_route = np.concatenate([span_route, extra[:, 0].astype(np.int64)])
            span_tray = np.concatenate([span_tray, extra[:, 1].astype(np.int64)])
            s0, s1 = np.concatenate([s0, extra[:, 2]]), np.concatenate([s1, extra[:, 3]])
            area = np.concatenate([area, [o[1] for o in own]])
            mass = np.concatenate([mass, [o[2] for o in own]])
            bend = np.concatenate([bend, [o[3] for o in own]])
            turns = np.concatenate([turns, [len({t for t, _, _ in o[0]}) > 1 for o in own]])
        filled = peak_along(span_route, span_tray, s0, s1, area)
        if not loads:
            return self._fill_only(design, tray_ids, filled)
        weighed = peak_along(span_route, span_tray, s0, s1, mass)
        need = np.zeros(len(tray_ids))
        live = (area[span_route] > 0) & (span_tray >= 0) if len(span_route) else np.zeros(0, bool)
        if live.any():
            routes, trays = span_route[live], span_tray[live]
            a, b = np.minimum(s0[live], s1[live]), np.maximum(s0[live], s1[live])
            bent = turns[routes].copy()
            for k, tray_id in enumerate(tray_ids):  # a span that runs round a polyline corner
                for corner in corners_along(design.trays[tray_id].points):
                    bent |= (trays == k) & (a < corner - 1e-6) & (b > corner + 1e-6)
            np.maximum.at(need, trays, np.where(bent, bend[routes], 0.0))
        tray_class = structured_catalog().tray_class
        out = dict.fromkeys(tray_ids, 0.0)
        self.loads = {}
        for k, tray_id in enumerate(tray_ids):
            t = design.trays[tray_id]
            level, pos = filled.get(k, (0.0, None))
            out[tray_id] = max(level, 0.0) / (t.width_m * t.depth_m)
            if pos is not None:
                self.peak_at[tray_id] = point_along(t.points, pos)
            kg, kg_pos = weighed.get(k, (0.0, None))
            self.loads[tray_id] = TrayLoad(
                fill_ratio=out[tray_id],
                load_kg_per_m=max(kg, 0.0),
                # A bank of n parallel trays carries n trays' load class (tray_products).
                load_limit_kg_per_m=(
                    tray_class.load_kg_per_m * trays_in_bank(design, t) if tray_class else math.inf
                ),
                load_at=point_along(t.points, kg_pos) if kg_pos is not None else None,
                bend_radius_mm=float(need[k]),
                corner_radius_mm=tray_class.corner_radius_mm if tray_class else math.inf,
            )
        return out

    def _span_table(self, tray_ids: list[str]) -> tuple[np.ndarray, ...]:
        """Bring the span arrays (route, tray number, s0, s1 per learnt span) up to date, and
        give them."""
        spans = self._spans
        numbered = self._span_trays
        known = len(spans)
        if numbered is None or numbered[0] != tray_ids or numbered[2] != known:
            # The spans learnt since the last report are numbered and appended (spans only
            # grow until reset(), which also follows any change of the trays).
            start = numbered[2] if numbered is not None and numbered[0] == tray_ids else 0
            new: tuple[np.ndarray, ...] = (tray_numbers(spans.trays, tray_ids, start),)
            if start and numbered is not None:  # start > 0 only from an earlier buffer
                new = _appended(numbered[1], start, new)
            self._span_trays = numbered = (tray_ids, new, known)
        # Views of the filled part: a later append writes beyond it (or into new buffers)
        return spans.route, numbered[1][0][:known], spans.s0, spans.s1

    def _fill_delta(self, design: Design, plant, recounted) -> dict[str, float]:
        """Fill ratios (and peak places) from the cables per medium kept between each tray's
        interval ends (:class:`~model.analysis.tray_levels.TrayLevels`): the ``recounted``
        rows' old (route, medium) taken out and new put in over their routes' spans, and only
        the trays those run along measured again. Built from every count the first time, or
        after a reset, another tray list or any update that was not fill-only."""
        tray_ids = list(design.trays)
        state = self._fill_state
        if state is None or state[0].tray_ids != tray_ids or recounted is None:
            counted = [r for (r, _m), c in self._counts.items() if c > 0]
            self._learn_spans(plant, max(counted, default=-1) + 1)
            span_route, span_tray, s0, s1 = self._span_table(tray_ids)
            keys = self._count_keys()
            counts = np.fromiter(self._counts.values(), dtype=np.int64, count=len(keys))
            levels = TrayLevels.build(
                tray_ids, self._media_areas(plant), (span_route, span_tray, s0, s1), keys, counts
            )
            out = dict.fromkeys(tray_ids, 0.0)
            peak_at: dict[str, tuple[float, float]] = {}
            levels.fill(design, np.arange(len(tray_ids)), out, peak_at)
            self.undo = None  # levels built anew: the old ones are not kept to go back to
        else:
            levels, out, peak_at = state
            with keeping(self.undo, levels) as kept:  # what an undoable update writes
                trays = self._move_cables(levels, plant, recounted)
                kept(trays, out, peak_at)
            levels.fill(design, trays, out, peak_at)
        self._fill_state = (levels, out, peak_at)
        self.peak_at = dict(peak_at)
        return dict(out)

    @staticmethod
    def _media_areas(plant) -> np.ndarray:
        """One cable's cross-section (m^2) per plant medium."""
        return np.array([math.pi * (m.cable_diameter_mm / 1000) ** 2 / 4 for m in plant.media])

    def _move_cables(self, levels: TrayLevels, plant, recounted) -> np.ndarray:
        """Take the recounted rows' cables out of their old routes' spans and put them in their
        new routes' (one net number per (route, medium)); the tray numbers touched."""
        cables = self._cables_moved(levels, plant, recounted)
        return levels.add(*cables) if cables is not None else np.zeros(0, dtype=np.int64)

    def _cables_moved(self, levels: TrayLevels, plant, recounted) -> tuple | None:
        """(tray number, s0, s1, medium, net cables) per span of each (route, medium) whose
        count the recounted rows change; None when none changes."""
        old_route, old_medium, new_route, new_medium = recounted
        width = len(plant.media) + 1
        codes = []
        for route, medium in ((old_route, old_medium), (new_route, new_medium)):
            keep = (route >= 0) & (medium >= 0)
            codes.append(route[keep] * width + medium[keep])
        code, net = net_cables(*codes)
        if not len(code):
            return None
        # The routes' spans gathered from the span table (learnt once per route: a route keeps
        # its trays while the route generation stands), not a Python step per span of every
        # route the move touched, old and new (~1 ms of each XL move).
        routes = code // width
        self._learn_spans(plant, int(routes.max()) + 1)
        span_route, span_tray, s0, s1 = self._span_table(levels.tray_ids)
        first = np.searchsorted(span_route, routes, "left")
        stop = np.searchsorted(span_route, routes, "right")
        at = gather_runs(first, stop)
        if not len(at):
            return None
        key_of = np.repeat(np.arange(len(code)), stop - first)
        return span_tray[at], s0[at], s1[at], (code % width)[key_of], net[key_of]

    def _fill_only(self, design: Design, tray_ids: list[str], filled) -> dict[str, float]:
        """Fill ratio per tray and where it peaks, from the swept cross-sections."""
        out = dict.fromkeys(tray_ids, 0.0)
        for k, tray_id in enumerate(tray_ids):
            t = design.trays[tray_id]
            level, pos = filled.get(k, (0.0, None))
            out[tray_id] = max(level, 0.0) / (t.width_m * t.depth_m)
            if pos is not None:
                self.peak_at[tray_id] = point_along(t.points, pos)
        return out


def medium_bundle_group(medium) -> str:
    """The bundle a cable of ``medium`` is drawn in (copper, fibre …: its kind's group)."""
    return medium_group(medium.kind)


@dataclass(frozen=True)
class PlanTrayFigures:
    """What a plan shows along the trays: fill ratio per tray, cables per tray and bundle group,
    and per tray the stretches some cable runs along (see :class:`TrayFill`)."""

    fill: dict[str, float]
    counts: dict[str, dict[str, int]]
    used: dict[str, list[tuple[float, float]]]


def plan_tray_figures(design: Design, plant) -> PlanTrayFigures:
    """:class:`PlanTrayFigures` of every cable of the refreshed ``plant``, from one full count:
    the figures the canvas's own count gives when every layer is shown (a headless picture)."""
    fill_counter = TrayFill()
    fill = fill_counter.update(design, plant, None)
    return PlanTrayFigures(
        fill,
        fill_counter.cables_by_tray(plant, medium_bundle_group),
        fill_counter.used_stretches(plant),
    )
