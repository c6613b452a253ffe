"""Tray fill: the cross-section of the cables in each tray against the tray's width x depth.

Fill varies along a tray: cables join at their racks' drop points and leave at others. Each
route's legs are placed on its trays as intervals of arc length; a tray's fill is the **peak**
over its length of the cross-section of the cables present there (a sweep over interval ends),
with the place where it peaks. A cable of diameter d takes pi d^2 / 4. A route the engine gives
without plan points on the tray (a plant without ``points``) counts on the whole tray.

Routes are asked from the cable plant once per distinct route: links between the same two drop
points (same routing method) follow the same trays. The geometry engine's per-link drop arrays
(``_drop_a``, ``_drop_b``, ``_drop_x``, ``_drop_y``, ``_method``) name them when present; other
plants are asked per link. Counts are kept as integers per (tray, medium), so an incremental
update after a rack move gives exactly the figures of a full recount.
"""

from __future__ import annotations

import math
from collections import Counter
from itertools import pairwise

import numpy as np

from model.design import Design


class TrayFill:
    """Per-tray cable counts, recounted in full or updated for changed links."""

    def __init__(self) -> None:
        self.peak_at: dict[str, tuple[float, float]] = {}  # tray id -> plan point of peak fill
        self.reset()

    def reset(self) -> None:
        """Forget everything (trays, hall or the link set changed)."""
        self._key_id: dict[tuple, int] = {}
        self._key_spans: list[tuple[tuple[str, float, float], ...]] = []  # (tray, s0, s1)
        self._span_key: list[int] = []      # flat: one row per (key, tray interval)
        self._span_tray: list[str] = []
        self._span_s0: list[float] = []
        self._span_s1: list[float] = []
        self._span_arrays = None
        self._projections: dict[tuple, tuple[float, float]] = {}
        self._row_of: dict[str, int] = {}
        self._row_key = np.zeros(0, dtype=np.int64)
        self._row_medium = np.zeros(0, dtype=object)    # medium id per row ("" none)
        self._counts: Counter = Counter()                # (key id, medium id) -> links

    def update(self, design: Design, plant, changed: set[str] | None) -> dict[str, float]:
        """Fill ratio per tray id; ``changed`` None (or after ``reset``) recounts every link."""
        self.peak_at = {}
        if plant is None or not design.trays:
            self.reset()
            return {t: 0.0 for t in design.trays}
        self._design = design
        if changed is None or not self._row_of:
            self._full(plant)
        elif changed:
            self._links(plant, [lid for lid in changed if lid in self._row_of])
        return self._peaks(design)

    def _peaks(self, design: Design) -> dict[str, float]:
        """Sweep every tray's interval ends (vectorised): peak cross-section and where."""
        media = design.catalog.media_types
        n_keys = len(self._key_spans)
        weight = np.zeros(n_keys)
        for (key, medium), count in self._counts.items():
            if count > 0 and medium:
                weight[key] += math.pi * (media[medium].cable_diameter_mm / 1000) ** 2 / 4 * count
        tray_ids = list(design.trays)
        if self._span_arrays is None or len(self._span_arrays[0]) != len(self._span_key):
            tray_no = {t: i for i, t in enumerate(tray_ids)}  # trays change -> reset()
            self._span_arrays = (np.array(self._span_key, dtype=np.int64),
                                 np.array([tray_no.get(t, -1) for t in self._span_tray],
                                          dtype=np.int64),
                                 np.array(self._span_s0), np.array(self._span_s1))
        span_key, span_tray, s0, s1 = self._span_arrays
        out = dict.fromkeys(tray_ids, 0.0)
        w = weight[span_key] if len(span_key) else np.zeros(0)
        keep = w > 0
        if keep.any():
            trays = span_tray[keep]
            ok = trays >= 0
            trays, w, a, b = trays[ok], w[keep][ok], s0[keep][ok], s1[keep][ok]
            tray = np.concatenate([trays, trays])
            pos = np.concatenate([a, b])
            joining = np.concatenate([np.ones(len(a), np.int8), np.zeros(len(b), np.int8)])
            ww = np.concatenate([w, w])
            order = np.lexsort((ww, joining, pos, tray))  # leaving sorts before joining
            tray, pos = tray[order], pos[order]
            signed = np.where(joining[order] == 1, ww[order], -ww[order])
            starts = np.flatnonzero(np.r_[True, tray[1:] != tray[:-1]])
            ends = np.r_[starts[1:], len(tray)]
            for lo, hi in zip(starts.tolist(), ends.tolist(), strict=True):
                level = np.cumsum(signed[lo:hi])
                k = int(np.argmax(level))
                tray_id = tray_ids[int(tray[lo])]
                t = design.trays[tray_id]
                out[tray_id] = max(float(level[k]), 0.0) / (t.width_m * t.depth_m)
                self.peak_at[tray_id] = _point_at(t.points, float(pos[lo + k]))
        return out

    def _full(self, plant) -> None:
        self.reset()
        link_ids = plant.link_ids
        self._row_of = dict(plant.index)
        n = len(plant.medium_index)
        self._row_key = np.full(n, -1, dtype=np.int64)
        self._row_medium = np.full(n, "", dtype=object)
        self._assign(plant, link_ids)
        valid = self._row_key >= 0
        media = self._row_medium[valid]
        keys = self._row_key[valid]
        names, medium_code = np.unique(media.astype(str), return_inverse=True)
        combined = keys * len(names) + medium_code.reshape(-1)
        values, counts = np.unique(combined, return_counts=True)
        for value, count in zip(values.tolist(), counts.tolist(), strict=True):
            self._counts[(value // len(names), str(names[value % len(names)]))] += count

    def _links(self, plant, link_ids: list[str]) -> None:
        rows = [self._row_of[lid] for lid in link_ids]
        for row in rows:
            if self._row_key[row] >= 0:
                self._counts[(int(self._row_key[row]), self._row_medium[row])] -= 1
        self._assign(plant, link_ids)
        for row in rows:
            if self._row_key[row] >= 0:
                self._counts[(int(self._row_key[row]), self._row_medium[row])] += 1

    def _assign(self, plant, link_ids: list[str]) -> None:
        """Route key and medium id of each link into the row arrays (routes asked once per key)."""
        if not link_ids:
            return
        trays = self._design.trays
        tol = max(self._design.settings.tray_join_tolerance_m, 1e-6)
        if link_ids is plant.link_ids or link_ids == plant.link_ids:
            rows = np.arange(len(link_ids), dtype=np.int64)  # rows follow link_ids (contract)
        else:
            rows = np.fromiter((plant.index[lid] for lid in link_ids), dtype=np.int64,
                               count=len(link_ids))
        mi = np.asarray(plant.medium_index)[rows]
        ids = np.array([m.id for m in plant.media] + [""], dtype=object)
        self._row_medium[rows] = ids[np.where(mi < 0, len(ids) - 1, mi)]
        table, inverse = _route_keys(plant, rows, link_ids)
        key_ids = np.empty(len(table), dtype=np.int64)
        first = np.full(len(table), -1, dtype=np.int64)
        first[inverse[::-1]] = np.arange(len(inverse))[::-1]  # first link of each key
        for i, key in enumerate(table):
            known = self._key_id.get(key)
            if known is None:
                known = self._key_id[key] = len(self._key_spans)
                spans = _spans(plant, link_ids[int(first[i])], trays, tol, self._projections)
                self._key_spans.append(spans)
                for tray_id, a, b in spans:
                    self._span_key.append(known)
                    self._span_tray.append(tray_id)
                    self._span_s0.append(a)
                    self._span_s1.append(b)
            key_ids[i] = known
        self._row_key[rows] = key_ids[inverse]


def _route_keys(plant, rows: np.ndarray, link_ids: list[str]) -> tuple[list[tuple], np.ndarray]:
    """Distinct route keys (drop points in order, method; or the link id) and each link's key.

    Links are grouped by drop indices (fast integer sort); each group's key is named by its drop
    coordinates, which stay valid across refreshes even if the plant reuses a drop index.
    """
    names = ("_drop_a", "_drop_b", "_drop_x", "_drop_y", "_method")
    arrays = [getattr(plant, n, None) for n in names]
    if any(a is None for a in arrays):
        return [("link", lid) for lid in link_ids], np.arange(len(link_ids))
    drop_a, drop_b, xs, ys, method = arrays
    da, db = drop_a[rows].astype(np.int64), drop_b[rows].astype(np.int64)
    lo, hi = np.minimum(da, db), np.maximum(da, db)
    span = int(max(hi.max(), 0)) + 1
    code = (lo * span + hi) * 256 + method[rows].astype(np.int64)
    unique, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    keys = []
    for row in rows[first].tolist():
        pa = (round(float(xs[drop_a[row]]), 6), round(float(ys[drop_a[row]]), 6))
        pb = (round(float(xs[drop_b[row]]), 6), round(float(ys[drop_b[row]]), 6))
        keys.append((*min(pa, pb), *max(pa, pb), int(method[row])))
    return keys, inverse.reshape(-1)


def _spans(plant, link_id: str, trays, tol: float,
           cache: dict[tuple, tuple[float, float]]) -> tuple[tuple[str, float, float], ...]:
    """(tray id, s0, s1) arc-length intervals of the trays a link's route runs along."""
    route = plant.route(link_id)
    tray_ids = [t for t in (getattr(route, "tray_ids", ()) or ()) if t in trays]
    points = getattr(route, "points", None)
    if not tray_ids:
        return ()
    if not points or len(points) < 2:
        return tuple((t, 0.0, _length(trays[t].points)) for t in dict.fromkeys(tray_ids))
    out = []
    for p, q in pairwise(points):
        mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        for tray_id in dict.fromkeys(tray_ids):
            poly = trays[tray_id].points
            sp, dp = _cached_project(cache, tray_id, poly, p)
            sq, dq = _cached_project(cache, tray_id, poly, q)
            if max(dp, dq) <= tol and _project(poly, mid)[1] <= tol and abs(sq - sp) > 1e-9:
                out.append((tray_id, min(sp, sq), max(sp, sq)))
                break
    return tuple(out)


def _cached_project(cache, tray_id: str, poly, point) -> tuple[float, float]:
    key = (tray_id, point[0], point[1])
    found = cache.get(key)
    if found is None:
        found = cache[key] = _project(poly, point)
    return found


def _project(poly, point) -> tuple[float, float]:
    """Arc length along a polyline of the nearest point to ``point``, and the distance."""
    best_s, best_d, start = 0.0, math.inf, 0.0
    px, py = point
    for (ax, ay), (bx, by) in pairwise(poly):
        dx, dy = bx - ax, by - ay
        seg = math.hypot(dx, dy)
        t = 0.0 if seg == 0 else min(max(((px - ax) * dx + (py - ay) * dy) / (seg * seg), 0.0), 1.0)
        d = math.hypot(ax + t * dx - px, ay + t * dy - py)
        if d < best_d:
            best_s, best_d = start + t * seg, d
        start += seg
    return best_s, best_d


def _length(poly) -> float:
    return sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(poly))


def _point_at(poly, s: float) -> tuple[float, float]:
    start = 0.0
    for (ax, ay), (bx, by) in pairwise(poly):
        seg = math.hypot(bx - ax, by - ay)
        if s <= start + seg or seg == 0:
            t = 0.0 if seg == 0 else max(0.0, min(1.0, (s - start) / seg))
            return (ax + t * (bx - ax), ay + t * (by - ay))
        start += seg
    return tuple(poly[-1])
