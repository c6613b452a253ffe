"""RoutedLinks's route API (route_keys, tray_spans) and the tray fill computed from it.

The fill of the reference workloads is checked against an independent computation from each
link's drawn route (``plant.route(...).points`` projected onto the trays), which is how tray fill
was computed before the route API: the figures and the warnings must be the same.
"""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import pairwise

import msgspec
import numpy as np
import pytest

from model.analysis import analyze
from model.design.entities import Settings
from model.engine.routed_links import RoutedLinks
from model.engine.routing import _STALE_ROUTE, METHOD_TRAY
from tests.benchmarks.workloads import build
from tests.builders import link
from tests.model.test_geometry import layout


def test_links_between_the_same_drop_points_share_a_route():
    design = layout()
    link(design, "adjacent-2", ("s2", "nic2"), ("sw2", "p2"))  # s2 shares s1's rack and face
    plant = RoutedLinks(design)
    keys = plant.route_keys()
    key = {lid: int(keys[plant.index[lid]]) for lid in design.links}
    assert key["same"] == -1 and key["nopath"] == -1  # same rack, routed on the floor
    assert key["adjacent"] == key["adjacent-2"] >= 0
    assert key["corner"] >= 0 and key["corner"] != key["adjacent"]
    assert plant.route_count == 2
    with pytest.raises(ValueError):
        keys[0] = 5  # a read-only view of the plant's column


def test_tray_spans_follow_the_route_without_plan_points():
    plant = RoutedLinks(layout())
    spans = plant.link_tray_spans("corner")
    # r1's rear drop (1.5, 3.6) lies on t1 at 0.9; t1 ends at 5.4 where t2 starts; r3's rear
    # drop (3.0, 7.2) lies on t2 at 3.6 + 3.0.
    assert [t for t, _, _ in spans] == plant.route("corner").tray_ids == ["t1", "t2"]
    assert spans == (
        ("t1", pytest.approx(0.9), pytest.approx(5.4)),
        ("t2", pytest.approx(0.0), pytest.approx(6.6)),
    )
    assert sum(b - a for _, a, b in spans) == pytest.approx(plant.route("corner").tray_m)
    assert plant.link_tray_spans("same") == () and plant.link_tray_spans("nopath") == ()


def test_moving_a_rack_gives_its_links_new_routes_and_keeps_the_old_ones():
    design = layout()
    plant = RoutedLinks(design)
    before = plant.route_keys().copy()
    spans = {int(k): plant.tray_spans(int(k)) for k in before if k >= 0}
    generation = plant.route_generation
    design.move_racks({"r3": (3.6, 6.6)})
    plant.refresh()
    after = plant.route_keys()
    assert after[plant.index["corner"]] != before[plant.index["corner"]]
    assert after[plant.index["adjacent"]] == before[plant.index["adjacent"]]
    assert {k: plant.tray_spans(k) for k in spans} == spans  # an id never changes meaning
    assert plant.link_tray_spans("corner")[-1][2] == pytest.approx(3.6 + 2.4)
    assert plant.route_generation == generation
    design.set_settings(Settings(slack_pct=1.0))  # a full rebuild renumbers
    plant.refresh()
    assert plant.route_generation > generation


def _named_one_pair_at_a_time(plant, route_of: dict) -> np.ndarray:
    """Route ids of the plant's stale rows (-2 elsewhere) as route naming gave them before it
    rounded each drop point once: per distinct pair of drop points (in key order), its two
    positions rounded there and then; a pair of positions not in ``route_of`` (position pair ->
    id, updated) takes the next id."""
    rows = np.flatnonzero(plant._route_key == _STALE_ROUTE)
    rows = rows[plant._method[rows] == METHOD_TRAY]
    da, db = plant.drop_a[rows], plant.drop_b[rows]
    lo, hi = np.minimum(da, db), np.maximum(da, db)
    _, first, inverse = np.unique(
        lo * (len(plant._drop_x) + 1) + hi, return_index=True, return_inverse=True
    )
    xs, ys = plant._drop_x, plant._drop_y
    ids = []
    for a, b in zip(da[first].tolist(), db[first].tolist(), strict=True):
        pa = (round(float(xs[a]), 6), round(float(ys[a]), 6))
        pb = (round(float(xs[b]), 6), round(float(ys[b]), 6))
        key = (min(pa, pb), max(pa, pb))
        if key not in route_of:
            route_of[key] = len(route_of)
        ids.append(route_of[key])
    out = np.full(len(plant._route_key), -2, dtype=np.int64)
    out[rows] = np.array(ids, dtype=np.int64)[inverse.reshape(-1)]
    return out


@pytest.mark.parametrize("size", ["S", "L"])
def test_route_ids_are_those_of_naming_one_pair_at_a_time(size):
    design = build(size)
    plant = RoutedLinks(design)
    expected = _named_one_pair_at_a_time(plant, {})
    on_tray = expected >= 0
    assert on_tray.sum() > 1000
    assert np.array_equal(plant.route_keys()[on_tray], expected[on_tray])
    # A moved rack's links are named again, after the routes known.
    rack = next(iter(design.racks.values()))
    design.move_racks({rack.id: (rack.x + 0.6, rack.y)})
    plant.refresh()
    assert len(plant._route_of) == plant.route_count
    expected = _named_one_pair_at_a_time(plant, dict(plant._route_of))
    renamed = expected >= 0
    assert renamed.any()
    assert np.array_equal(plant.route_keys()[renamed], expected[renamed])


@pytest.mark.parametrize("size", ["S", "L"])
def test_tray_fill_of_the_workloads_matches_the_drawn_routes(size):
    design = build(size)
    # Trays an eighth as wide: every tray with cables is overfilled, so every peak is reported.
    design.update_trays(
        [msgspec.structs.replace(t, width_m=t.width_m / 8) for t in design.trays.values()]
    )
    plant = RoutedLinks(design)
    report = analyze(design, plant)
    fill, peak = _fill_from_drawn_routes(design, plant)
    assert report.tray_fill == pytest.approx(fill, rel=1e-9, abs=1e-12)
    messages = {w.objects[0]: w.message for w in report.warnings if w.code == "TRAY_OVERFILLED"}
    assert set(messages) == {t for t, f in fill.items() if f > 0.4}
    for tray_id, message in messages.items():
        x, y = peak[tray_id]
        name = design.trays[tray_id].name
        assert message.startswith(
            f"Tray {name} is {fill[tray_id]:.0%} full at ({x:.1f}, {y:.1f}) m"
        )


def _fill_from_drawn_routes(design, plant):
    """Peak fill per tray from route().points of one link per (rack, face) pair, as before."""
    types = design.catalog.device_types
    groups: dict[tuple, list[int]] = defaultdict(list)
    for row, lid in enumerate(plant.link_ids):
        ends = []
        for end in (design.links[lid].a, design.links[lid].b):
            device = design.devices[end.device]
            ends.append((device.rack, types[device.type].ports_face))
        groups[tuple(ends)].append(row)
    tol = max(design.settings.tray_join_tolerance_m, 1e-6)
    events: dict[str, list[tuple[float, int, float]]] = defaultdict(list)
    for rows in groups.values():
        route = plant.route(plant.link_ids[rows[0]])
        if route.method != "tray":
            continue
        area = sum(
            math.pi * (plant.media[m].cable_diameter_mm / 1000) ** 2 / 4
            for m in plant.medium_index[rows].tolist()
            if m >= 0
        )
        for tray_id, a, b in _projected_spans(design, route, tol):
            events[tray_id] += [(a, 1, area), (b, 0, -area)]
    fill, peak = dict.fromkeys(design.trays, 0.0), {}
    for tray_id, evs in events.items():
        evs.sort(key=lambda e: (e[0], e[1], abs(e[2])))  # leaving before joining
        level = np.cumsum([e[2] for e in evs])
        k = int(np.argmax(level >= level.max() * (1 - 1e-9)))  # first place of the peak
        tray = design.trays[tray_id]
        fill[tray_id] = max(float(level[k]), 0.0) / (tray.width_m * tray.depth_m)
        peak[tray_id] = _point_at(tray.points, evs[k][0])
    return fill, peak


def _projected_spans(design, route, tol):
    out = []
    for p, q in pairwise(route.points):
        mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        for tray_id in dict.fromkeys(route.tray_ids):
            poly = design.trays[tray_id].points
            (sp, dp), (sq, dq) = _project(poly, p), _project(poly, q)
            if max(dp, dq) <= tol and _project(poly, mid)[1] <= tol and abs(sq - sp) > 1e-9:
                out.append((tray_id, min(sp, sq), max(sp, sq)))
                break
    return out


def _project(poly, point):
    best_s, best_d, start = 0.0, math.inf, 0.0
    for (ax, ay), (bx, by) in pairwise(poly):
        dx, dy = bx - ax, by - ay
        seg = math.hypot(dx, dy)
        t = (
            0.0
            if seg == 0
            else min(max(((point[0] - ax) * dx + (point[1] - ay) * dy) / seg**2, 0), 1)
        )
        d = math.hypot(ax + t * dx - point[0], ay + t * dy - point[1])
        if d < best_d:
            best_s, best_d = start + t * seg, d
        start += seg
    return best_s, best_d


def _point_at(poly, s):
    start = 0.0
    for (ax, ay), (bx, by) in pairwise(poly):
        seg = math.hypot(bx - ax, by - ay)
        if s <= start + seg or seg == 0:
            t = 0.0 if seg == 0 else max(0.0, min(1.0, (s - start) / seg))
            return (ax + t * (bx - ax), ay + t * (by - ay))
        start += seg
    return tuple(poly[-1])
