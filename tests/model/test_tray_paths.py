"""The tray graph's own Dijkstra gives networkx's shortest paths exactly, ties included."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from model.tray_graph import _dijkstra_predecessors


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
    adjacency = {v: [(u, e["weight"]) for u, e in nbrs.items()] for v, nbrs in graph.adj.items()}
    for source in graph.nodes:
        expected = nx.single_source_dijkstra(graph, source)[1]
        pred = _dijkstra_predecessors(adjacency, source)
        assert pred.keys() == expected.keys()
        assert {end: _path(pred, end) for end in pred} == expected
