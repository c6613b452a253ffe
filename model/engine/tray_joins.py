"""Where two tray segments within the join tolerance are joined: their closest points, measured
in an order of the pair that does not follow the order the trays are listed in."""

from __future__ import annotations

import numpy as np
import shapely


def canonical_pairs(
    seg_tray: np.ndarray, tray_ids: list[str], left: np.ndarray, right: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each pair of segments ordered by (tray id, segment along its tray): (first, second,
    swapped: True where that is ``right`` before ``left``). Segments are numbered tray by tray
    in the order the trays are listed, which a saved and reloaded design changes (it lists them
    by id); ids and the segments along a tray survive it."""
    rank = np.empty(len(tray_ids), dtype=np.int64)
    rank[sorted(range(len(tray_ids)), key=tray_ids.__getitem__)] = np.arange(len(tray_ids))
    first_seg = np.searchsorted(seg_tray, np.arange(len(tray_ids)))  # contiguous per tray
    along = np.arange(len(seg_tray)) - first_seg[seg_tray]
    key = rank[seg_tray] * (len(seg_tray) + 1) + along
    swapped = key[left] > key[right]
    return np.where(swapped, right, left), np.where(swapped, left, right), swapped


def closest_points(
    lines: np.ndarray, seg_a: np.ndarray, seg_b: np.ndarray, first: np.ndarray, second: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The joins of segments ``first[k]`` and ``second[k]``: (the pair ``k`` of each join, its
    points as (join, point on first / on second, xy)); each pair's join in pair order, then the
    second joins of overlapping parallel pairs.

    Shapely's closest points of two segments whose closest points are not unique depend on the
    order of the arguments: callers pass pairs in :func:`canonical_pairs`' order. Parallel
    segments whose spans overlap have a whole stretch of equally close points: a cable may
    cross anywhere along it, and a join at each end of the overlap gives every route that
    enters the overlap on one tray and leaves it on the other its true length whichever way it
    runs (a join at one end only makes a route that turns back pay twice the overlap)."""
    gaps = shapely.shortest_line(lines[first], lines[second])
    coords = shapely.get_coordinates(gaps).reshape(-1, 2, 2)
    ends = overlap_ends(seg_a[first], seg_b[first], seg_a[second], seg_b[second])
    pair = np.arange(len(first))
    if ends is None:
        return pair, coords
    rows, near, far = ends
    coords[rows] = near
    return np.concatenate([pair, rows]), np.concatenate([coords, far])


def overlap_ends(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, e: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The pairs of parallel segments a-b, c-e whose spans overlap by more than a nanometre:
    (their rows, (point on a-b, point on c-e) at the overlap's start along a-b, and at its end),
    or None when there is none."""
    d, f = b - a, e - c
    len_d = np.maximum(np.hypot(*d.T), 1e-18)
    len_f = np.maximum(np.hypot(*f.T), 1e-18)
    cross = d[:, 0] * f[:, 1] - d[:, 1] * f[:, 0]
    parallel = np.abs(cross) <= 1e-12 * len_d * len_f
    t_c = ((c - a) * d).sum(axis=1) / (len_d * len_d)
    t_e = ((e - a) * d).sum(axis=1) / (len_d * len_d)
    lo = np.maximum(np.minimum(t_c, t_e), 0.0)
    hi = np.minimum(np.maximum(t_c, t_e), 1.0)
    rows = np.flatnonzero(parallel & ((hi - lo) * len_d > 1e-9))
    if not len(rows):
        return None
    a, d, c, f, len_f = a[rows], d[rows], c[rows], f[rows], len_f[rows]
    pairs = []
    for t in (lo[rows], hi[rows]):
        on_ab = a + t[:, None] * d
        u = np.clip(((on_ab - c) * f).sum(axis=1) / (len_f * len_f), 0.0, 1.0)
        pairs.append(np.stack([on_ab, c + u[:, None] * f], axis=1))
    return rows, pairs[0], pairs[1]
