"""``tray_search.distance_row`` is ``dijkstra`` over the whole graph: the same distances (inf
where not reached) and the same predecessors, in the same order, ties included."""

from __future__ import annotations

import random
from math import inf

from model.engine.tray_search import dijkstra, distance_row


def _graph(rng: random.Random, n: int) -> list[list[tuple[int, float]]]:
    """A random undirected graph with many equal-length ways (small integer weights, some
    zero), a few isolated nodes, neighbours in insertion order as the tray graph keeps them."""
    adjacency: list[dict[int, float]] = [{} for _ in range(n)]
    for _ in range(2 * n):
        u, v = rng.randrange(n - 3), rng.randrange(n - 3)  # the last three nodes stay alone
        if u != v and v not in adjacency[u]:
            w = float(rng.choice([0, 1, 1, 2, 3]))
            adjacency[u][v] = adjacency[v][u] = w
    return [list(neighbours.items()) for neighbours in adjacency]


def test_distance_row_is_dijkstra_as_a_row() -> None:
    rng = random.Random(7)
    for _ in range(30):
        n = rng.randrange(5, 60)
        adjacency = _graph(rng, n)
        for source in range(n):
            dist, pred = dijkstra(adjacency, source)
            row, row_pred = distance_row(adjacency, source)
            assert row == [dist.get(k, inf) for k in range(n)]
            assert list(row_pred.items()) == list(pred.items())


def test_unreached_nodes_are_inf() -> None:
    adjacency: list[list[tuple[int, float]]] = [[(1, 2.5)], [(0, 2.5)], []]
    row, pred = distance_row(adjacency, 0)
    assert row == [0, 2.5, inf]
    assert pred == {0: -1, 1: 0}
