"""The tray graph's own graph and Dijkstra give networkx's shortest paths and distances exactly,
ties and neighbour order included (the tray graph no longer imports networkx)."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from model.engine.tray_graph import TrayGraph
from model.engine.tray_search import dijkstra, walk_path


def _path(pred: dict[int, int], end: int) -> list[int]:
    path = [end]
    while (node := pred[path[-1]]) >= 0:
        path.append(node)
    return path[::-1]


@pytest.mark.parametrize("seed", range(40))
def test_predecessor_paths_equal_networkx_paths_on_random_graphs(seed):
    # Few distinct weights (and zero ones) make many equal-length paths: the tie-break is
    # what the schedule's route text depends on, so it must be networkx's.
    rng = random.Random(seed)
    graph = nx.Graph()
    n = rng.randint(1, 40)
    graph.add_nodes_from(range(n))
    for _ in range(rng.randint(0, 120)):
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v:
            graph.add_edge(u, v, weight=rng.choice([0.0, 0.5, 1.0, 1.0, 2.0, rng.random()]))
    adjacency = [[(u, e["weight"]) for u, e in graph.adj[v].items()] for v in range(n)]
    for source in graph.nodes:
        expected_dist, expected = nx.single_source_dijkstra(graph, source)
        dist, pred = dijkstra(adjacency, source)
        assert pred.keys() == expected.keys()
        assert {end: _path(pred, end) for end in pred} == expected
        assert list(dist.items()) == list(expected_dist.items())  # same values, same order


@pytest.mark.parametrize("seed", range(40))
def test_a_search_stopped_at_its_targets_gives_the_whole_searchs_paths(seed):
    # The same tie-heavy graphs: every target's path (and distance) from a search that stops
    # once its targets are settled is the one of the full search, whatever else it left.
    rng = random.Random(1000 + seed)
    n = rng.randint(2, 40)
    adjacency: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for _ in range(rng.randint(n, 160)):
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v:
            w = rng.choice([0.0, 0.5, 1.0, 1.0, 2.0, rng.random()])
            adjacency[u].append((v, w))
            adjacency[v].append((u, w))
    for source in range(n):
        dist, pred = dijkstra(adjacency, source)
        reached = list(dist)
        for _ in range(3):
            targets = set(rng.sample(reached, rng.randint(1, len(reached))))
            part_dist, part_pred = dijkstra(adjacency, source, targets)
            assert len(part_dist) <= len(dist)
            for end in targets:
                assert walk_path(part_pred, end) == walk_path(pred, end) == _path(pred, end)
                assert part_dist[end] == dist[end]


@pytest.mark.parametrize("seed", range(20))
def test_own_edges_keep_networkx_neighbour_order_and_lightest_weight(seed):
    # A lighter edge between the same two nodes replaces the heavier one where it stands;
    # Dijkstra's tie-break follows this neighbour order.
    rng = random.Random(seed)
    n = rng.randint(2, 20)
    reference = nx.Graph()
    reference.add_nodes_from(range(n))
    own: dict[int, dict[int, dict]] = {k: {} for k in range(n)}
    for _ in range(rng.randint(0, 80)):
        u, v = rng.randrange(n), rng.randrange(n)
        w, tray = rng.choice([0.5, 1.0, 2.0, rng.random()]), rng.randrange(-1, 5)
        TrayGraph._add_edge(own, u, v, w, tray)
        old = reference.get_edge_data(u, v)
        if u != v and (old is None or old["weight"] > w):
            reference.add_edge(u, v, weight=w, tray=tray)
    assert {k: list(nbrs.items()) for k, nbrs in own.items()} == {
        k: list(nbrs.items()) for k, nbrs in reference.adj.items()
    }
