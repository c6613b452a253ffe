"""The structured layout's rack distances read the plant's tray graph rows only where a search of
that graph made them (the same numbers by construction), and search themselves otherwise: the
rows of the all-pairs pass (graphs of up to 256 nodes) and the rows carried over a tray edit.
Either way the layout is the one whose every rack distance was searched afresh."""

from __future__ import annotations

import functools
import random

import pytest

import model.engine.routed_links as routed_links
import model.engine.routing as routing
import model.engine.tray_graph as tray_graph
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, rail_optimized
from model.structured.layout import structured_layout
from model.structured.paths import RackDistances
from tests.model.test_structured_relay import _every_record
from tests.model.tray_drags import corner_moved


def _zoned():
    """A three-tier hall cabled in zones whose servers beside a spine rack have it as their
    zone's HDA: their trunks to it are rack distances (16 pairs; its tray graph: 27 nodes)."""
    design = rail_optimized(nodes=512, node_type="hgx-h100-8x400", switch="qm9700", su_nodes=32)
    return apply_cabling(design, "zones")


@pytest.fixture
def searched_graphs(monkeypatch):
    """Plants whose tray graphs search every row (no all-pairs pass, rows carried over a tray
    edit), as every graph of more than 256 nodes does (XL: 561)."""
    searching = functools.partial(tray_graph.TrayGraph, all_pairs_max_nodes=0)
    monkeypatch.setattr(routed_links, "TrayGraph", searching)
    monkeypatch.setattr(routing, "TrayGraph", searching)


def _counted_searches(monkeypatch) -> list[int]:
    """The source of every tray search made from now on (the plant's and the layout's)."""
    calls: list[int] = []
    search = tray_graph.distance_row
    monkeypatch.setattr(
        tray_graph, "distance_row", lambda adj, node: calls.append(node) or search(adj, node)
    )
    return calls


def _searched_afresh(plant, pairs) -> list[float]:
    """Each pair's rack distance from a graph of the same trays with nothing cached."""
    design = plant.design
    graph = tray_graph.TrayGraph(
        list(design.trays.values()), design.hall, design.settings.tray_join_tolerance_m
    )
    racks, reach = design.racks, design.settings.tray_reach_m
    out = []
    for a, b in pairs:
        if a == b:
            out.append(0.0)
            continue
        ra, rb = racks[min(a, b)], racks[max(a, b)]  # searched from the first id, as asked
        got = graph.point_distance((ra.x, ra.y), (rb.x, rb.y), reach)
        out.append(abs(ra.x - rb.x) + abs(ra.y - rb.y) if got is None else got)
    return out


def _asked_pairs(plant) -> tuple[list[tuple[str, str]], list[float]]:
    """The rack pairs a layout of ``plant`` asks, and what its distances answered."""
    asked: list[tuple[str, str]] = []
    distances = RackDistances(plant)

    def asking(a: str, b: str) -> float:
        asked.append((a, b))
        return distances(a, b)

    structured_layout(plant, distances=asking)
    return asked, [distances(a, b) for a, b in asked]


def test_rows_a_search_made_are_read_and_lay_the_searched_layout(searched_graphs, monkeypatch):
    plant = RoutedLinks(_zoned())
    graph = plant._graph
    assert graph._searched  # the routing searched rows: the layout reads them
    calls = _counted_searches(monkeypatch)
    reused = _every_record(structured_layout(plant))
    read_only = len(calls)
    graph._searched.clear()  # the same plant, its rows no longer known as a search's own
    searched = _every_record(structured_layout(plant))
    assert len(calls) > read_only  # the second layout searched its sources itself
    assert reused == searched
    asked, answers = _asked_pairs(plant)
    assert any(a != b for a, b in asked) and answers == _searched_afresh(plant, asked)


def test_carried_rows_are_searched_again_after_a_tray_edit(searched_graphs, monkeypatch):
    design = _zoned()
    plant = RoutedLinks(design)
    structured_layout(plant)
    corner_moved(design, plant, random.Random(3))
    plant.refresh()
    graph = plant._graph
    carried = set(graph._rows) - graph._searched
    assert graph._carry is not None and carried  # rows the edit carried, not searched
    calls = _counted_searches(monkeypatch)
    after_edit = _every_record(structured_layout(plant))
    assert set(calls) & carried  # the layout searched carried sources itself
    fresh = RoutedLinks(design)  # every row of its graph searched
    assert after_edit == _every_record(structured_layout(fresh))
    asked, answers = _asked_pairs(plant)
    assert any(a != b for a, b in asked) and answers == _searched_afresh(plant, asked)


def test_all_pairs_rows_are_not_read(monkeypatch):
    """A graph of up to 256 nodes has every row from the all-pairs pass: none is read."""
    plant = RoutedLinks(_zoned())
    graph = plant._graph
    assert 0 < graph.node_count <= tray_graph.ALL_PAIRS_MAX_NODES
    assert len(graph._rows) == graph.node_count and not graph._searched
    calls = _counted_searches(monkeypatch)
    laid = _every_record(structured_layout(plant))
    assert calls  # searched by the layout
    graph._searched.update(graph._rows)  # as though the all-pairs rows were a search's
    assert _every_record(structured_layout(plant)) == laid  # here they happen to be the same
    asked, answers = _asked_pairs(plant)
    assert any(a != b for a, b in asked) and answers == _searched_afresh(plant, asked)
