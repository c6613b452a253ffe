"""Routed lengths do not depend on the order the trays are listed in (a reloaded file lists
them by id), nor on which of two overlapping parallel trays is named first."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import numpy as np
import pytest

from model.design.entities import Tray
from model.engine.routed_links import RoutedLinks
from model.engine.tray_graph import TrayGraph
from model.files.design_file import design_to_bytes, load_design, read_design_bytes

SMALL_POD = Path(__file__).parents[2] / "resources" / "examples" / "small-pod.hall.json"


def _lengths(design) -> dict[str, float]:
    """Routed length per link (compared to the micrometre: the positions of stations read back
    from keys that add 1e7 per tray number still differ by nanometres with the order)."""
    routed = RoutedLinks(design)
    routed.refresh()
    return dict(zip(routed.link_ids, routed.length_m.tolist(), strict=True))


def _with_parallel_copy(dx: float, dy: float):
    """small-pod with a copy of tray t-row-B laid beside it, offset by (dx, dy), added last."""
    design = load_design(SMALL_POD)
    row = design.trays["t-row-B"]
    points = [(x + dx, y + dy) for x, y in row.points]
    design.add_trays([msgspec.structs.replace(row, id="t-new", points=points)])
    return design


def _trays_listed(design, order: list[str]):
    """The design with its trays listed in ``order`` (a file that lists them so)."""
    raw = msgspec.json.decode(design_to_bytes(design))
    by_id = {t["id"]: t for t in raw["trays"]}
    raw["trays"] = [by_id[i] for i in order]
    listed = read_design_bytes(msgspec.json.encode(raw))
    assert list(listed.trays) == order
    return listed


@pytest.mark.parametrize("dx, dy", [(0.5, 0.1), (-0.7, 0.2), (1.3, 0.0), (0.5, -0.25)])
def test_a_reloaded_design_routes_as_it_did_in_memory(dx, dy):
    # The reviewer's repro (f5_tray_order.py): the added tray is last in memory, first after
    # reloading; shapely's closest points of the overlapping pair followed that order.
    design = _with_parallel_copy(dx, dy)
    reloaded = read_design_bytes(design_to_bytes(design))
    assert list(reloaded.trays) != list(design.trays)
    before, after = _lengths(design), _lengths(reloaded)
    assert before == pytest.approx(after, abs=1e-6)


@pytest.mark.parametrize("seed", range(6))
def test_any_order_of_the_trays_routes_every_link_alike(seed):
    rng = random.Random(seed)
    design = _with_parallel_copy(rng.uniform(-1.5, 1.5), rng.choice([0.0, 0.1, -0.2]))
    expected = _lengths(design)
    for _ in range(3):
        order = list(design.trays)
        rng.shuffle(order)
        assert _lengths(_trays_listed(design, order)) == pytest.approx(expected, abs=1e-6)


def _tray(tray_id: str, *points: tuple[float, float]) -> Tray:
    return Tray(id=tray_id, points=list(points), width_m=0.3, depth_m=0.1)


@pytest.mark.parametrize("names", [("a", "b"), ("b", "a")])
def test_overlapping_parallel_trays_join_at_both_ends_of_their_overlap(names):
    # One tray along x 0..10 at y 0, the other along x 4..14 at y 0.2: every point of x 4..10
    # is equally close. A cable from x 9 on the first to x 12 on the second crosses near x 9..10
    # (1 + 0.2 + 2 m); a single join at x 4 would make it 10 m longer.
    hall = load_design(SMALL_POD).hall
    low, high = _tray(names[0], (0.0, 0.0), (10.0, 0.0)), _tray(names[1], (4.0, 0.2), (14.0, 0.2))
    for listed in ([low, high], [high, low]):
        graph = TrayGraph(listed, hall, 0.3)
        on_low = graph.tray_ids.index(names[0])
        crossings = sorted(
            (round(si if i == on_low else sj, 9), round(sj if i == on_low else si, 9), round(w, 9))
            for i, si, j, sj, w in graph._find_joins(0.3)
        )
        assert crossings == [(4.0, 0.0, 0.2), (10.0, 6.0, 0.2)]
        att = graph.attach(np.array([9.0, 12.0]), np.array([-0.1, 0.3]), 1.0)
        along = graph.distance(att, np.array([0]), att, np.array([1]))[0]
        assert along == pytest.approx(1.0 + 0.2 + 2.0)
