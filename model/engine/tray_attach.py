"""Where plan points meet the tray network: each point's nearest tray segment within reach
(:func:`nearest_segments`) and the arrays describing the attachment (:class:`Attachments`),
which :meth:`model.engine.tray_graph.TrayGraph.attach` fills."""

from __future__ import annotations

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


def nearest_segments(
    seg_a: np.ndarray, seg_b: np.ndarray, tree, pts_xy: np.ndarray, reach_m: float
) -> np.ndarray:
    """Nearest segment (``seg_a`` -> ``seg_b``, rows; ``tree`` their STRtree) of each point
    within ``reach_m`` (-1 none), as GEOS answers it.

    Halls have tens to hundreds of segments and thousands of drop points: the distance of
    every point to every segment in numpy takes a few ms where the STRtree's nearest query
    takes ~80 ms at XL. Where the answer is not clear-cut (two segments within
    ``_NEAR_TIE_M`` of the nearest, as at a corner, or the nearest within that of the
    reach) the STRtree decides, so every point gets the segment it always got.
    """
    n, a, d = len(pts_xy), seg_a, seg_b - seg_a
    seg = np.full(n, -1, dtype=np.int64)
    unsure = np.zeros(n, dtype=bool)
    len2 = np.maximum((d * d).sum(axis=1), 1e-18)
    step = max(1, 1_000_000 // len(a))  # points per block: ~1M point-segment pairs
    for lo in range(0, n, step):
        rel = pts_xy[lo : lo + step, None, :] - a[None, :, :]
        t = np.clip((rel * d).sum(axis=2) / len2, 0.0, 1.0)
        dist = np.hypot(rel[..., 0] - t * d[:, 0], rel[..., 1] - t * d[:, 1])
        best = dist.argmin(axis=1)
        best_m = dist[np.arange(len(dist)), best]
        dist[np.arange(len(dist)), best] = np.inf
        second_m = dist.min(axis=1)
        seg[lo : lo + step] = np.where(best_m <= reach_m, best, -1)
        unsure[lo : lo + step] = (second_m - best_m <= _NEAR_TIE_M) | (
            np.abs(best_m - reach_m) <= _NEAR_TIE_M
        )
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
    return seg
