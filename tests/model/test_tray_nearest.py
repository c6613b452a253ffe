"""Attaching points to trays picks, for every point, the segment the STRtree's nearest query
gives (the numpy distance pass only answers where that is clear-cut): at corners and joints,
on the reach boundary, and for points scattered over the generated halls."""

from __future__ import annotations

import numpy as np
import shapely

from model.engine.tray_graph import TrayGraph
from tests.benchmarks.workloads import build
from tests.builders import small_pod


def _geos_segments(graph: TrayGraph, x: np.ndarray, y: np.ndarray, reach_m: float) -> np.ndarray:
    seg = np.full(len(x), -1, dtype=np.int64)
    (src, hit), _ = graph._tree.query_nearest(
        shapely.points(np.column_stack([x, y])),
        max_distance=max(reach_m, 1e-9),
        return_distance=True,
        all_matches=False,
    )
    seg[src] = hit
    return seg


def _bounds(design) -> tuple[tuple[float, float], tuple[float, float]]:
    outline = np.asarray(design.hall.outline, dtype=float)
    return tuple(outline.min(axis=0)), tuple(outline.max(axis=0))


def _check(graph: TrayGraph, x: np.ndarray, y: np.ndarray, reach_m: float) -> None:
    got = graph.attach(x, y, reach_m).seg
    assert np.array_equal(got, _geos_segments(graph, x, y, reach_m))


def test_small_pod_points_ties_and_reach_boundary_match_geos():
    design = small_pod()
    graph = TrayGraph(list(design.trays.values()), design.hall, 0.05)
    rng = np.random.default_rng(7)
    (x0, y0), (x1, y1) = _bounds(design)
    x = rng.uniform(x0 - 2, x1 + 2, 4000)
    y = rng.uniform(y0 - 2, y1 + 2, 4000)
    # Every segment end (corners and joints: equidistant from two segments) and points at
    # exactly the reach from a segment end.
    ends = np.concatenate([graph.seg_a, graph.seg_b])
    x = np.concatenate([x, ends[:, 0], ends[:, 0] + 1.0, ends[:, 0] - 1.0])
    y = np.concatenate([y, ends[:, 1], ends[:, 1], ends[:, 1]])
    for reach_m in (0.0, 0.5, 1.0, 3.0):
        _check(graph, x, y, reach_m)


def test_generated_hall_drop_points_match_geos():
    design = build("S")
    graph = TrayGraph(list(design.trays.values()), design.hall, 0.05)
    rng = np.random.default_rng(3)
    (x0, y0), (x1, y1) = _bounds(design)
    x = rng.uniform(x0, x1, 20000)
    y = rng.uniform(y0, y1, 20000)
    _check(graph, x, y, design.settings.tray_reach_m)
