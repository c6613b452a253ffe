"""After a tray edit the drops' nearest segments are measured again only where the edit can
change them (model/engine/tray_attach.py ``carried_segments``): the answer equals measuring
every point afresh against the new segments, over random edits of random halls (a segment
moved, removed, added or duplicated; points at ties, at the reach, unreached)."""

from __future__ import annotations

import random

import numpy as np
import pytest
import shapely

from model.engine import tray_attach, tray_graph
from model.engine.routed_links import RoutedLinks
from model.engine.tray_attach import Attachments, carried_segments, nearest_figures
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.test_tray_attach_near import _hall
from tests.model.tray_drags import corner_moved


def _tree(a: np.ndarray, b: np.ndarray):
    return shapely.STRtree(shapely.linestrings(np.stack([a, b], axis=1)))


def _edited(rng, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The segments after one edit: an end moved, a segment removed, one added, one doubled,
    or the order changed (a tray before the others edited: every later one renumbered)."""
    a, b = a.copy(), b.copy()
    kind = int(rng.integers(0, 5))
    k = int(rng.integers(0, len(a)))
    if kind == 0:
        a[k] += rng.choice([-1.0, 1.0]) * rng.uniform(0, 3, 2) * rng.integers(0, 2, 2)
    elif kind == 1 and len(a) > 1:
        a, b = np.delete(a, k, axis=0), np.delete(b, k, axis=0)
    elif kind == 2:
        a, b = np.insert(a, k, a[k] + 0.5, axis=0), np.insert(b, k, b[k] + 0.5, axis=0)
    elif kind == 3:
        a, b = np.insert(a, k, a[k], axis=0), np.insert(b, k, b[k], axis=0)
    else:
        order = rng.permutation(len(a))
        a, b = a[order], b[order]
    return a, b


@pytest.mark.parametrize("grid", [True, False])
@pytest.mark.parametrize("seed", range(4))
def test_carried_nearest_segments_equal_fresh_ones_after_an_edit(seed, grid, monkeypatch):
    if grid:
        monkeypatch.setattr(tray_attach, "_GRID_FROM_PAIRS", 0)
    rng = np.random.default_rng(seed)
    carried_points = 0
    for trial in range(40):
        a, b, pts = _hall(rng, snapped=trial % 2 == 0)
        reach_m = max(float(rng.choice([0.0, 0.5, 3.0, 10.0])), 1e-9)
        before = nearest_figures(a, b, _tree(a, b), pts, reach_m)
        for _ in range(3):  # edits one after another, each carried from the last
            a, b = _edited(rng, a, b)
            tree = _tree(a, b)
            # the points asked again in another order, a few moved (a rack moved meanwhile)
            pts = pts[rng.permutation(len(pts))]
            moved = rng.random(len(pts)) < 0.05
            pts[moved] = rng.uniform(-5, 50, (int(moved.sum()), 2))
            fresh = nearest_figures(a, b, tree, pts, reach_m)
            after = carried_segments(before.of_points(pts), a, b, tree, reach_m)
            assert after is not None
            np.testing.assert_array_equal(after.seg, fresh.seg)
            reached = after.seg >= 0
            np.testing.assert_array_equal(after.best_m[reached], fresh.best_m[reached])
            assert (after.best_m[after.sure & ~reached] > reach_m).all()
            carried_points += int((before.sure & after.sure).sum())
            before = after
    assert carried_points > 1000  # the carry is taken, not always measured again


def test_another_reach_is_not_carried():
    a, b = np.array([[0.0, 0.0]]), np.array([[10.0, 0.0]])
    pts = np.array([[5.0, 1.0]])
    before = nearest_figures(a, b, _tree(a, b), pts, 2.0)
    assert carried_segments(before, a, b, _tree(a, b), 0.5) is None


def test_a_plant_s_drops_after_tray_edits_attach_as_a_fresh_plant_s(monkeypatch):
    # Every drop of a 2,048-GPU hall, corners dragged one after another: the attachments the
    # plant carried through its tray edits are those of routing the edited design afresh.
    design = synthetic_hall(2048)
    live = RoutedLinks(design)
    measured: list[int] = []  # points measured afresh per query

    def counted(seg_a, seg_b, tree, pts_xy, reach_m):
        measured.append(len(pts_xy))
        return nearest_figures(seg_a, seg_b, tree, pts_xy, reach_m)

    monkeypatch.setattr(tray_attach, "nearest_figures", counted)  # the carry's measures
    monkeypatch.setattr(tray_graph, "nearest_figures", counted)  # and a whole attach's
    rng = random.Random(5)
    for edit in range(4):
        if edit == 2:  # a rack moved between two tray edits: its drops are measured again
            rack = design.racks[sorted(design.racks)[0]]
            design.move_racks({rack.id: (rack.x, rack.y + 0.6)})
            live.refresh()
        measured.clear()
        corner_moved(design, live, rng)
        live.refresh()
        assert sum(measured) < len(live._drop_x)  # carried: not every drop measured again
        fresh = RoutedLinks(design)
        for name in Attachments.__dataclass_fields__:
            np.testing.assert_array_equal(
                getattr(live._att, name), getattr(fresh._att, name), err_msg=name
            )
