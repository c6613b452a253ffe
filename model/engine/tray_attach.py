"""Where plan points meet the tray network: each point's nearest tray segment within reach
(:func:`nearest_segments`) and the arrays describing the attachment (:class:`Attachments`),
which :meth:`model.engine.tray_graph.TrayGraph.attach` fills."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import shapely

# Distances closer than this (m) are left to GEOS when choosing a rack's nearest tray segment:
# far above float error at hall sizes (~1e-12 m), far below any real gap between two trays.
_NEAR_TIE_M = 1e-6


@dataclass
class Attachments:
    """Where each of n points meets the tray network (arrays of length n; seg -1 = unreached)."""

    seg: np.ndarray  # int64 segment index, -1 when no tray within reach
    piece: np.ndarray  # int64 global piece index (between stations u and v), -1 when unreached
    s: np.ndarray  # float64 position along the tray (m from its first point)
    x: np.ndarray  # float64 plan point on the tray
    y: np.ndarray
    hop: np.ndarray  # float64 plan distance from the point to the tray
    elev: np.ndarray  # float64 tray elevation at the attachment
    u: np.ndarray  # int64 station node at the start of the piece
    v: np.ndarray  # int64 station node at the end of the piece
    du: np.ndarray  # float64 tray distance attachment -> u
    dv: np.ndarray  # float64 tray distance attachment -> v

    @property
    def reached(self) -> np.ndarray:
        return self.seg >= 0

    @staticmethod
    def none_reached(pts_xy: np.ndarray) -> Attachments:
        """The attachments of points on a plan with no tray: each unreached, where it stands."""
        n = len(pts_xy)
        seg, zeros, ints = np.full(n, -1, dtype=np.int64), np.zeros(n), np.zeros(n, dtype=np.int64)
        x, y = pts_xy[:, 0].copy(), pts_xy[:, 1].copy()
        return Attachments(
            seg, seg.copy(), zeros, x, y, np.full(n, np.inf), zeros.copy(), ints, ints.copy(),
            zeros.copy(), zeros.copy(),
        )  # fmt: skip


def plan_points(x, y) -> np.ndarray:
    """Points' plan coordinates as one (n, 2) float array."""
    return np.column_stack([np.asarray(x, float), np.asarray(y, float)]).reshape(len(x), 2)


# Below this many point-segment pairs measuring them all costs less than setting up the grid
# (~100 us: a rack move's two drops, a structured layout's point distances).
_GRID_FROM_PAIRS = 10_000
# Near pairs are measured in one piece, all pairs in blocks of ~1M: past this many near pairs
# (a long reach against the trays' spacing) the blocked path is cheaper in memory and no slower.
_NEAR_PAIRS_AT_MOST = 1_000_000


@dataclass(frozen=True)
class NearestFigures:
    """A bulk :func:`nearest_segments` answer with what a graph built after a tray edit needs
    to keep it where the edit cannot change it (:func:`carried_segments`)."""

    pts_xy: np.ndarray  # the points asked about
    reach_m: float
    seg_a: np.ndarray  # the segments they were measured against
    seg_b: np.ndarray
    seg: np.ndarray  # the answer
    # Distance to the nearest segment: exact for a reached point; for an unreached one only
    # known to be more than ``reach_m + _NEAR_TIE_M`` where ``sure``.
    best_m: np.ndarray
    sure: np.ndarray  # clear-cut: answered by the measure, not left to GEOS

    def of_points(self, pts_xy: np.ndarray) -> NearestFigures:
        """These figures for the points ``pts_xy``, matched by position: a plant attaches its
        drops rack by rack when built and in drop order after a tray edit, and a moved rack's
        drops are points not seen here (not ``sure``, so measured again). A point's figures
        hang on its position alone, so equal points share them."""
        if np.array_equal(self.pts_xy, pts_xy):
            return self
        m, n = len(self.pts_xy), len(pts_xy)
        both = np.concatenate([self.pts_xy, pts_xy]).reshape(-1, 2)
        # by position, and within one position the points here first
        order = np.lexsort((np.arange(m + n) >= m, both[:, 1], both[:, 0]))
        ordered = both[order]
        new_run = np.concatenate([[True], (ordered[1:] != ordered[:-1]).any(axis=1)])
        source = order[np.flatnonzero(new_run)][np.cumsum(new_run) - 1]
        theirs = order >= m
        at = np.full(n, -1, dtype=np.int64)
        found = source[theirs] < m
        at[order[theirs][found] - m] = source[theirs][found]
        seen = at >= 0
        pick = np.maximum(at, 0)
        return NearestFigures(
            pts_xy,
            self.reach_m,
            self.seg_a,
            self.seg_b,
            np.where(seen, self.seg[pick], -1) if m else np.full(n, -1, dtype=np.int64),
            np.where(seen, self.best_m[pick], np.nan) if m else np.full(n, np.nan),
            (seen & self.sure[pick]) if m else np.zeros(n, dtype=bool),
        )


def nearest_segments(
    seg_a: np.ndarray, seg_b: np.ndarray, tree, pts_xy: np.ndarray, reach_m: float
) -> np.ndarray:
    """:func:`nearest_figures`' answer alone."""
    return nearest_figures(seg_a, seg_b, tree, pts_xy, reach_m).seg


def nearest_figures(
    seg_a: np.ndarray, seg_b: np.ndarray, tree, pts_xy: np.ndarray, reach_m: float
) -> NearestFigures:
    """Nearest segment (``seg_a`` -> ``seg_b``, rows; ``tree`` their STRtree) of each point
    within ``reach_m`` (-1 none), as GEOS answers it.

    Halls have tens to hundreds of segments and thousands of drop points: the distance of
    every point to every segment in numpy takes a few ms where the STRtree's nearest query
    takes ~80 ms at XL. Where the answer is not clear-cut (two segments within
    ``_NEAR_TIE_M`` of the nearest, as at a corner, or the nearest within that of the
    reach) the STRtree decides, so every point gets the segment it always got.

    Only the segments near a point are measured (:func:`_near_pairs`): at XL (9,088 drops,
    50 long segments) all 454k pairs took ~35 ms of CPU at every tray edit and every build.
    A segment farther than ``reach_m + 3 * _NEAR_TIE_M`` changes no answer: a point whose
    nearest is within ``reach_m + _NEAR_TIE_M`` finds it among the near ones and any farther
    second is more than ``_NEAR_TIE_M`` behind, so not a tie; a point whose nearest is farther
    is unreached, tie or not (the STRtree finds nothing within reach for it either).
    """
    n_all = len(pts_xy) * len(seg_a)
    pairs = None
    if n_all >= _GRID_FROM_PAIRS:
        pairs = _near_pairs(seg_a, seg_b, pts_xy, reach_m + 3 * _NEAR_TIE_M)
    if pairs is not None and len(pairs[2]) > min(n_all // 4, _NEAR_PAIRS_AT_MOST):
        pairs = (
            None  # most pairs are near (a reach long against the trays' spacing): all, in blocks
        )
    if pairs is None:
        best, best_m, second_m = _all_pairs(seg_a, seg_b, pts_xy)
    else:
        best, best_m, second_m = _best_of_pairs(seg_a, seg_b, pts_xy, *pairs)
    seg = np.where(best_m <= reach_m, best, -1)
    with np.errstate(invalid="ignore"):  # inf - inf for a point with no segment near: not unsure
        unsure = (second_m - best_m <= _NEAR_TIE_M) | (np.abs(best_m - reach_m) <= _NEAR_TIE_M)
    ask = np.flatnonzero(unsure)
    if len(ask):
        seg[ask] = -1
        (src, hit), _ = tree.query_nearest(
            shapely.points(pts_xy[ask]),
            max_distance=reach_m,
            return_distance=True,
            all_matches=False,
        )
        seg[ask[src]] = hit
    return NearestFigures(pts_xy, reach_m, seg_a, seg_b, seg, best_m, ~unsure)


def carried_segments(
    before: NearestFigures, seg_a: np.ndarray, seg_b: np.ndarray, tree, reach_m: float
) -> NearestFigures | None:
    """:func:`nearest_figures` of ``before``'s points against segments ``seg_a`` -> ``seg_b``
    (``tree`` their STRtree) after a tray edit, measured again only where the edit can change
    the answer; None when ``before`` was asked with another reach.

    A tray edit keeps most segments (the trays it did not touch; renumbered when one before
    them changed). A point's clear-cut answer (``before.sure``) stands when its nearest
    segment is kept and every segment not kept before is more than ``_NEAR_TIE_M`` farther:
    it is still the one nearest, by more than the tie margin (segments taken away only widen
    the margin). An unreached point stays unreached, clear-cut, when every such segment is
    farther than ``reach_m + 3 * _NEAR_TIE_M`` (the near-pair radius). Every other point,
    and every point GEOS decided, is measured again as :func:`nearest_figures` measures it
    (a point's answer does not hang on the other points asked with it)."""
    if before.reach_m != reach_m or not len(seg_a) or not len(before.seg_a):
        return None
    pts = before.pts_xy
    old_keys = [tuple(r) for r in np.hstack([before.seg_a, before.seg_b]).tolist()]
    new_keys = [tuple(r) for r in np.hstack([seg_a, seg_b]).tolist()]
    # A segment is kept when its end points are those of exactly one segment before and after
    # (two equal segments are a tie at any distance: not kept, so measured again).
    once_old = {k for k, n in Counter(old_keys).items() if n == 1}
    new_of = {k: i for i, k in enumerate(new_keys)}
    once_new = {k for k, n in Counter(new_keys).items() if n == 1}
    mapped = np.array(
        [new_of[k] if k in once_old and k in once_new else -1 for k in old_keys], dtype=np.int64
    )
    added = np.setdiff1d(np.arange(len(seg_a)), mapped[mapped >= 0])
    near_m = np.full(len(pts), np.inf)  # to the nearest segment not kept
    if len(added):
        _, near_m, _ = _all_pairs(seg_a[added], seg_b[added], pts)
    best_m, sure, old_seg = before.best_m, before.sure, before.seg
    new_seg = mapped[np.maximum(old_seg, 0)]
    reached = sure & (old_seg >= 0) & (new_seg >= 0) & (near_m > best_m + _NEAR_TIE_M)
    unreached = (
        sure
        & (old_seg < 0)
        & (best_m > reach_m + _NEAR_TIE_M)
        & (near_m > reach_m + 3 * _NEAR_TIE_M)
    )
    seg = np.where(reached, new_seg, -1)
    best = np.where(reached, best_m, np.minimum(best_m, near_m))
    kept = reached | unreached
    redo = np.flatnonzero(~kept)
    if len(redo):
        again = nearest_figures(seg_a, seg_b, tree, pts[redo], reach_m)
        seg[redo], best[redo], kept[redo] = again.seg, again.best_m, again.sure
    return NearestFigures(pts, reach_m, seg_a, seg_b, seg, best, kept)


def _distances(d: np.ndarray, len2: np.ndarray, rel: np.ndarray, axis: int) -> np.ndarray:
    """Distance from points to segments (``rel``: point minus segment start, ``d`` the segment's
    direction, ``len2`` its squared length; coordinates along ``axis``): one formula for the
    whole table and for the near pairs, so both give the same floats."""
    t = np.clip((rel * d).sum(axis=axis) / len2, 0.0, 1.0)
    x, y = np.moveaxis(rel, axis, 0), np.moveaxis(d, axis, 0)
    return np.hypot(x[0] - t * y[0], x[1] - t * y[1])


def _all_pairs(
    seg_a: np.ndarray, seg_b: np.ndarray, pts_xy: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(nearest segment, its distance, the second nearest's distance) of each point, over
    every segment."""
    n, a, d = len(pts_xy), seg_a, seg_b - seg_a
    best = np.zeros(n, dtype=np.int64)
    best_m, second_m = np.full(n, np.inf), np.full(n, np.inf)
    len2 = np.maximum((d * d).sum(axis=1), 1e-18)
    step = max(1, 1_000_000 // len(a))  # points per block: ~1M point-segment pairs
    for lo in range(0, n, step):
        rel = pts_xy[lo : lo + step, None, :] - a[None, :, :]
        dist = _distances(d[None], len2, rel, 2)
        rows = np.arange(len(dist))
        near = dist.argmin(axis=1)
        best[lo : lo + step], best_m[lo : lo + step] = near, dist[rows, near]
        dist[rows, near] = np.inf
        second_m[lo : lo + step] = dist.min(axis=1)
    return best, best_m, second_m


def _near_pairs(
    seg_a: np.ndarray, seg_b: np.ndarray, pts_xy: np.ndarray, r_m: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Every (point, segment) pair whose distance may be within ``r_m``, grouped by point in
    point order and by segment number within a point: (points' pair counts, point of each
    pair, segment of each pair). A square grid of side ``r_m`` (or more, to bound its cells):
    a point is paired with the segments whose box, grown by ``r_m``, covers the point's cell.
    None when that would be no fewer pairs than all of them."""
    n, m = len(pts_xy), len(seg_a)
    if not n or not m:
        return None
    lo = np.minimum(seg_a, seg_b) - r_m
    hi = np.maximum(seg_a, seg_b) + r_m
    origin = np.minimum(pts_xy.min(axis=0), lo.min(axis=0))
    extent = float(np.max(np.maximum(pts_xy.max(axis=0), hi.max(axis=0)) - origin))
    side = max(r_m, extent / 1024, 1e-9)
    p_cell = np.floor((pts_xy - origin) / side).astype(np.int64)
    c0 = np.floor((lo - origin) / side).astype(np.int64)
    c1 = np.floor((hi - origin) / side).astype(np.int64)
    rows_y = int(max(p_cell[:, 1].max(), c1[:, 1].max())) + 1
    wide, tall = c1[:, 0] - c0[:, 0] + 1, c1[:, 1] - c0[:, 1] + 1
    cells = wide * tall
    if int(cells.sum()) > 4 * n * m:
        return None
    seg = np.repeat(np.arange(m), cells)
    k = np.arange(len(seg)) - np.repeat(np.cumsum(cells) - cells, cells)
    key = (c0[seg, 0] + k // tall[seg]) * rows_y + c0[seg, 1] + k % tall[seg]
    order = np.argsort(key, kind="stable")  # segments in number order within a cell
    key, seg = key[order], seg[order]
    p_key = p_cell[:, 0] * rows_y + p_cell[:, 1]
    first = np.searchsorted(key, p_key, side="left")
    counts = np.searchsorted(key, p_key, side="right") - first
    total = int(counts.sum())
    if total >= n * m:
        return None
    point = np.repeat(np.arange(n), counts)
    at = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(first, counts)
    return counts, point, seg[at]


def _best_of_pairs(
    seg_a: np.ndarray,
    seg_b: np.ndarray,
    pts_xy: np.ndarray,
    counts: np.ndarray,
    point: np.ndarray,
    seg: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_all_pairs`' figures over the pairs of :func:`_near_pairs` only (inf where a
    point has none; the nearest is the first in segment order among equally near ones)."""
    n = len(pts_xy)
    best = np.zeros(n, dtype=np.int64)
    best_m, second_m = np.full(n, np.inf), np.full(n, np.inf)
    if not len(seg):
        return best, best_m, second_m
    d_all = seg_b - seg_a
    len2 = np.maximum((d_all * d_all).sum(axis=1), 1e-18)
    rel = pts_xy[point] - seg_a[seg]
    dist = _distances(d_all[seg], len2[seg], rel, 1)
    has = counts > 0
    starts = (np.cumsum(counts) - counts)[has]
    best_m[has] = np.minimum.reduceat(dist, starts)
    at = np.flatnonzero(dist == best_m[point])
    at = at[np.concatenate([[True], point[at][1:] != point[at][:-1]])]  # first per point
    best[point[at]] = seg[at]
    dist[at] = np.inf
    second_m[has] = np.minimum.reduceat(dist, starts)
    return best, best_m, second_m


class AttachMemo:
    """Attachments of queries of a few points, kept per point (its fields as 1-element arrays,
    joined again with their own dtypes): the optimiser places racks again and again on the same
    few free places (~0.1 ms a candidate at XL). Bounded: past ``AT_MOST_ENTRIES`` points it
    starts again, so an editor session asking about many places (a tray graph lives until the
    next tray edit) does not grow it without end. One-off questions (``point_distance``: the
    measure tool, the structured layout's rack distances) do not come here at all."""

    AT_MOST_POINTS = 8  # a rack move's drops; a larger query is a bulk attach, not memoised
    AT_MOST_ENTRIES = 4096  # ~1.6 KB each: ~6.5 MB at most

    def __init__(self, entries: dict[tuple[float, float, float], tuple] | None = None) -> None:
        self._entries: dict[tuple[float, float, float], tuple] = dict(entries or {})

    def __len__(self) -> int:
        return len(self._entries)

    def copy(self) -> AttachMemo:
        return AttachMemo(self._entries)

    def attach(self, attach: Callable, x: np.ndarray, y: np.ndarray, reach_m: float) -> Attachments:
        """``attach(x, y, reach_m)`` (the graph's own, unmemoised), from the memo when every
        point is in it."""
        if not 0 < len(x) <= self.AT_MOST_POINTS:
            return attach(x, y, reach_m)
        keys = [
            (a, b, float(reach_m))
            for a, b in zip(*(np.asarray(v, float).tolist() for v in (x, y)), strict=True)
        ]
        if any(a == 0.0 or b == 0.0 for a, b, _ in keys):  # -0.0 would find 0.0's fields
            return attach(x, y, reach_m)
        entries = self._entries
        found = [entries.get(k) for k in keys]
        if any(f is None for f in found):
            att = attach(x, y, reach_m)
            if len(entries) + len(keys) > self.AT_MOST_ENTRIES:
                entries.clear()
            columns = [getattr(att, f) for f in Attachments.__dataclass_fields__]
            for i, k in enumerate(keys):
                entries[k] = tuple(c[i : i + 1].copy() for c in columns)
            return att
        return Attachments(*(np.concatenate(parts) for parts in zip(*found, strict=True)))
