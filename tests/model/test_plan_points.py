"""Plan paths asked many at once (``RoutedLinks.plan_points_of``, ``TrayGraph.paths``, what the
plan's trunks are drawn along) are the paths asked one link at a time, to the bit; and a point
along a tray, now interpolated in Python floats, is the numpy interpolation it replaced."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from model.design.entities import Hall, Tray
from model.engine.routed_links import RoutedLinks
from model.engine.tray_graph import TrayGraph
from model.files.design_file import load_design
from tests.model.test_snapshot_pipeline import fabric

EXAMPLE = Path(__file__).resolve().parents[2] / "resources/examples/superpod-4su.hall.json"


def _designs():
    off_trays = fabric()  # a rack moved off every tray's reach: its links run on the floor
    off_trays.move_racks({list(off_trays.racks)[-1]: (38.0, 38.0)})
    return [off_trays, load_design(EXAMPLE)]


@pytest.mark.parametrize("which", [0, 1])
def test_plan_points_of_many_links_are_each_links_route_points(which):
    design = _designs()[which]
    links = sorted(design.links)
    one_by_one = RoutedLinks(design)
    expected = [one_by_one.route(i).points for i in links]
    methods = {one_by_one.route(i).method for i in links}
    together = RoutedLinks(design)  # nothing memoised yet: every path found in one call
    got = together.plan_points_of(links)
    assert got == expected
    assert [type(x) for pts in got for p in pts for x in p] == [
        type(x) for pts in expected for p in pts for x in p
    ]
    # Asked again (memoised now), shuffled, and a route asked afterwards agree too
    shuffled = random.Random(3).sample(links, len(links))
    assert together.plan_points_of(shuffled) == [one_by_one.route(i).points for i in shuffled]
    assert [together.route(i) for i in links] == [one_by_one.route(i) for i in links]
    if which == 0:  # every kind of route: along trays, on the floor, within a rack
        assert methods == {"tray", "no-tray-path", "same-rack"}


def test_paths_of_many_pairs_are_each_pairs_path():
    design = load_design(EXAMPLE)
    plant = RoutedLinks(design)
    graph, att = plant._graph, plant._att
    rng = random.Random(7)
    n = len(att.seg)
    ia = np.array([rng.randrange(n) for _ in range(300)], dtype=np.int64)
    ib = np.array([rng.randrange(n) for _ in range(300)], dtype=np.int64)
    together = graph.paths(att, ia, att, ib)
    tolerance = design.settings.tray_join_tolerance_m
    single = TrayGraph(list(design.trays.values()), design.hall, tolerance)
    single_att = single.attach(plant._drop_x, plant._drop_y, design.settings.tray_reach_m)
    for i, j, got in zip(ia.tolist(), ib.tolist(), together, strict=True):
        assert got == single.path(single_att, i, single_att, j)


def _numpy_point_at(points, s):
    """The interpolation point_at did in numpy before it was written in Python floats."""
    pts = np.asarray(points, dtype=float)
    cum = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(pts, axis=0).T))])
    k = min(max(int(np.searchsorted(cum, s, side="right")) - 1, 0), len(pts) - 2)
    seg_len = cum[k + 1] - cum[k]
    t = 0.0 if seg_len <= 0 else min(max((s - cum[k]) / seg_len, 0.0), 1.0)
    p = pts[k] + t * (pts[k + 1] - pts[k])
    return float(p[0]), float(p[1])


@pytest.mark.parametrize("seed", range(10))
def test_point_at_is_the_numpy_interpolation_to_the_bit(seed):
    rng = random.Random(seed)
    trays = []
    for t in range(5):
        points = [(rng.uniform(-50, 50), rng.uniform(-50, 50))]
        for _ in range(rng.randint(1, 6)):  # some bends repeat a point: a zero-length segment
            x, y = points[-1]
            step = rng.choice([0.0, rng.uniform(0.01, 30.0)])
            points.append((x + step * rng.choice([-1, 1]), y + rng.uniform(-20, 20)))
        trays.append(Tray(id=f"t{t}", points=points, width_m=0.3, depth_m=0.1))
    graph = TrayGraph(trays, Hall(outline=[(0, 0), (1, 0), (1, 1)]), 0.05)
    for t, tray in enumerate(trays):
        length = float(graph.tray_cum[t][-1])
        for s in [-1.0, 0.0, length, length + 1.0, *(rng.uniform(0, length) for _ in range(50))]:
            got = graph.point_at(t, s)
            assert got == _numpy_point_at(tray.points, s)
            assert type(got[0]) is float and type(got[1]) is float


def test_a_few_links_are_found_without_the_index_and_an_unknown_one_refused():
    design = load_design(EXAMPLE)
    links = sorted(design.links)
    few = random.Random(5).sample(links, len(links) // 20)
    plant = RoutedLinks(design)
    assert "index" not in plant.__dict__  # not built by routing
    assert plant.plan_points_of(few) == [RoutedLinks(design).route(i).points for i in few]
    assert "index" not in plant.__dict__  # a few links: one pass over link_ids instead
    for many in (False, True):
        asked = [*(links if many else few), "no-such-link"]
        with pytest.raises(KeyError):
            plant.plan_points_of(asked)
