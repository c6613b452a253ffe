"""Attaching points to trays measures only the segments near each point (model/engine/tray_attach.py
``_near_pairs``): the same segment as GEOS's nearest query for every point, and the same
distances, bit for bit, as measuring every segment."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from model.engine import tray_attach
from model.engine.tray_attach import nearest_segments


def _geos(a: np.ndarray, b: np.ndarray, tree, pts: np.ndarray, reach_m: float) -> np.ndarray:
    seg = np.full(len(pts), -1, dtype=np.int64)
    (src, hit), _ = tree.query_nearest(
        shapely.points(pts), max_distance=reach_m, return_distance=True, all_matches=False
    )
    seg[src] = hit
    return seg


def _hall(rng, snapped: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random segments (axis-aligned mostly, as trays are; snapped to a grid: shared corners,
    points equally near two segments) and random points around them."""
    m, n = int(rng.integers(1, 40)), int(rng.integers(1, 400))
    scale = float(rng.choice([5.0, 50.0, 300.0]))
    a = rng.uniform(0, scale, (m, 2))
    axis = rng.integers(0, 2, (m, 2))  # a zero in a column: that coordinate stays
    b = a + rng.choice([-1, 1], (m, 2)) * rng.uniform(0, scale / 3, (m, 2)) * axis
    pts = rng.uniform(-5, scale + 5, (n, 2))
    if snapped:
        a, b, pts = np.round(a), np.round(b), np.round(pts * 2) / 2
    return a, b, pts


@pytest.mark.parametrize("seed", range(6))
def test_every_point_gets_geos_nearest_segment(seed, monkeypatch):
    # The grid even for these small halls (in use it starts at _GRID_FROM_PAIRS pairs).
    monkeypatch.setattr(tray_attach, "_GRID_FROM_PAIRS", 0)
    rng = np.random.default_rng(seed)
    for trial in range(40):
        a, b, pts = _hall(rng, snapped=trial % 2 == 0)
        reach_m = max(float(rng.choice([0.0, 0.5, 3.0, 10.0, 100.0])), 1e-9)
        tree = shapely.STRtree(shapely.linestrings(np.stack([a, b], axis=1)))
        np.testing.assert_array_equal(
            nearest_segments(a, b, tree, pts, reach_m), _geos(a, b, tree, pts, reach_m)
        )


def test_near_pairs_give_the_all_pairs_figures_bit_for_bit_within_reach():
    rng = np.random.default_rng(11)
    checked = 0
    for trial in range(60):
        a, b, pts = _hall(rng, snapped=trial % 3 == 0)
        reach_m = float(rng.choice([0.5, 3.0, 10.0]))
        r_m = reach_m + 3 * tray_attach._NEAR_TIE_M
        pairs = tray_attach._near_pairs(a, b, pts, r_m)
        if pairs is None:
            continue  # as many pairs as all of them: all are measured
        best, best_m, second_m = tray_attach._all_pairs(a, b, pts)
        near_best, near_m, near_second = tray_attach._best_of_pairs(a, b, pts, *pairs)
        near = best_m <= reach_m + tray_attach._NEAR_TIE_M
        np.testing.assert_array_equal(near_m[near], best_m[near])
        np.testing.assert_array_equal(near_best[near], best[near])
        close = near & (second_m <= r_m)
        np.testing.assert_array_equal(near_second[close], second_m[close])
        assert (near_m[~near] > reach_m + tray_attach._NEAR_TIE_M).all()
        checked += int(near.sum())
    assert checked > 1000


def test_small_queries_answered_from_the_memo_equal_fresh_ones():
    # A rack move's drops, asked again and again (the optimiser): the memo's answer is the
    # attachment measured afresh, field by field, bit for bit, dtypes included, alone or paired.
    from model.engine.tray_graph import TrayGraph
    from tests.model.optimise_runs import leaf_spine_pod

    design = leaf_spine_pod()
    trays = list(design.trays.values())
    reach = design.settings.tray_reach_m
    graph = TrayGraph(trays, design.hall, design.settings.tray_join_tolerance_m)
    fresh = TrayGraph(trays, design.hall, design.settings.tray_join_tolerance_m)
    rng = np.random.default_rng(2)
    xs = np.round(rng.uniform(-1, 20, 12), 1)
    ys = np.round(rng.uniform(-1, 12, 12), 1)
    for _ in range(3):  # the first round fills the memo, the others read it
        for i in range(0, 12, 2):
            for pick in ([i], [i, i + 1], [i + 1, i]):
                got = graph.attach(xs[pick], ys[pick], reach)
                want = fresh._attach(xs[pick], ys[pick], reach)
                for name in got.__dataclass_fields__:
                    a, b = getattr(got, name), getattr(want, name)
                    assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), name
    assert len(graph._attached) == 12
    assert (fresh._attach(xs, ys, reach).seg >= 0).any()


def test_the_attach_memo_is_bounded_and_one_off_distances_do_not_grow_it():
    """The memo lives as long as the tray graph (until the next tray edit): a session asking
    about many places must not grow it without end, and point_distance (the measure tool at
    every mouse move, the structured layout on the analysis worker) does not use it at all."""
    from model.engine.tray_graph import TrayGraph
    from tests.model.optimise_runs import leaf_spine_pod

    design = leaf_spine_pod()
    reach = design.settings.tray_reach_m
    graph = TrayGraph(
        list(design.trays.values()), design.hall, design.settings.tray_join_tolerance_m
    )
    fresh = TrayGraph(
        list(design.trays.values()), design.hall, design.settings.tray_join_tolerance_m
    )
    rng = np.random.default_rng(5)
    for a, b in rng.uniform(0.5, 12, (200, 2)).round(2):
        graph.point_distance((a, b), (b, a), reach)
    assert len(graph._attached) == 0
    graph._attached.AT_MOST_ENTRIES = 16
    for k, (a, b) in enumerate(rng.uniform(0.5, 12, (100, 2)).round(3)):
        got = graph.attach(np.array([a, b]), np.array([b, a]), reach)
        want = fresh._attach(np.array([a, b]), np.array([b, a]), reach)
        assert got.seg.tobytes() == want.seg.tobytes() and got.s.tobytes() == want.s.tobytes()
        assert len(graph._attached) <= 16, k
