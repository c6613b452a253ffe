"""The measure tool's distance along the trays comes from the cable plant's own tray graph, and
follows tray edits (no cache keyed by object identity that a reload could reuse)."""

from __future__ import annotations

import msgspec
import numpy as np
import pytest

from model.engine.routed_links import RoutedLinks
from model.engine.tray_graph import TrayGraph
from tests.builders import small_pod


def test_plant_tray_distance_is_the_routing_graph_distance():
    design = small_pod()
    plant = RoutedLinks(design)
    a, b = (4.0, 3.0), (6.0, 5.5)
    assert plant.tray_distance(a, b) == pytest.approx(2.0 + 2.5)
    graph = TrayGraph(list(design.trays.values()), design.hall, 0.05)
    att = graph.attach(np.array([a[0], b[0]]), np.array([a[1], b[1]]), 1.0)
    along = graph.distance(att, np.array([0]), att, np.array([1]))[0]
    assert plant.tray_distance(a, b) == pytest.approx(float(att.hop.sum() + along))
    assert plant.tray_distance(a, (4.5, 3.0)) == pytest.approx(0.5)  # on one piece of one tray


def test_plant_tray_distance_follows_tray_edits_and_refuses_far_points():
    design = small_pod()
    plant = RoutedLinks(design)
    cross = design.trays["t-cross"]
    assert plant.tray_distance((4.0, 3.0), (6.0, 5.5)) == pytest.approx(2.0 + 2.5)
    design.update_trays([msgspec.structs.replace(cross, points=[(8.0, 3.0), (8.0, 6.0)])])
    assert plant.tray_distance((4.0, 3.0), (8.0, 5.5)) == pytest.approx(4.0 + 2.5)
    # the same two points, now 2 m off the moved cross tray: along it and hop off
    assert plant.tray_distance((4.0, 3.0), (6.0, 5.5)) == pytest.approx(4.0 + 2.5 + 2.0)
    assert plant.tray_distance((4.0, 3.0), (2.0, 8.5)) is None  # nowhere near a tray
    design.remove_trays(["t-cross"])  # now the point hops 2.5 m to the row tray instead
    assert plant.tray_distance((4.0, 3.0), (8.0, 5.5)) == pytest.approx(2.5 + 4.0)


def test_a_memo_of_searches_gives_the_same_distances_with_fewer_searches(monkeypatch):
    """The structured layout's rack distances share the searches from a source node; each
    distance is the one asked alone, to the bit (the same search, summed in the same order)."""
    import model.engine.tray_graph as tray_graph

    design = small_pod()
    plant = RoutedLinks(design)
    points = [(4.0, 3.0), (6.0, 5.5), (4.5, 3.0), (8.0, 5.5), (5.0, 3.0), (2.0, 8.5)]
    pairs = [(a, b) for a in points for b in points if a != b]
    alone = [plant.tray_distance(a, b) for a, b in pairs]
    calls = []
    search = tray_graph.distance_row
    monkeypatch.setattr(
        tray_graph, "distance_row", lambda adj, node: calls.append(node) or search(adj, node)
    )
    memo: dict = {}
    shared = [plant.tray_distance(a, b, memo) for a, b in pairs]
    assert shared == alone  # exact, None included (a point out of reach)
    assert any(d is None for d in shared) and any(d for d in shared)
    assert len(calls) == len(set(calls)) == len(memo) > 0  # each source searched once
