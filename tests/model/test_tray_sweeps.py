"""Rows swept for many sources at once (model/engine/tray_sweeps.py) are distance_row's, bit for bit.

Every row ``swept_rows`` answers must hold the very floats a search gives (inf where not
reached) and every predecessor the search's (the paths route names follow); a source whose
tree only the search's heap order decides (two equally near ways in, or a weight lost in the
sum) must be left out, not guessed.
"""

from __future__ import annotations

import random

import numpy as np

from model.design.entities import Hall, Tray
from model.engine.tray_graph import TrayGraph
from model.engine.tray_search import distance_row
from model.engine.tray_sweeps import MIN_SWEPT_SOURCES, swept_rows
from tests.model.test_distance_row import _graph as _tied_graph


def _float_graph(rng: random.Random, n: int) -> list[list[tuple[int, float]]]:
    """A random undirected graph with lengths of many digits (ways rarely tie), a few nodes
    alone, neighbours in insertion order as the tray graph keeps them."""
    adjacency: list[dict[int, float]] = [{} for _ in range(n)]
    for _ in range(2 * n):
        u, v = rng.randrange(n - 2), rng.randrange(n - 2)
        if u != v and v not in adjacency[u]:
            adjacency[u][v] = adjacency[v][u] = round(rng.uniform(0.1, 30.0), 3)
    return [list(neighbours.items()) for neighbours in adjacency]


def _check(rng: random.Random, adjacency: list[list[tuple[int, float]]], sources: list[int]) -> int:
    """Every answer against distance_row; how many sources were answered."""
    # Plan points at random: the order of the sweeps, which must not change the answer.
    xy = np.array([(rng.uniform(0, 50), rng.uniform(0, 50)) for _ in adjacency]).reshape(-1, 2)
    answers = swept_rows(adjacency, sources, xy)
    assert set(answers) <= set(sources)
    for source, (row, tree) in answers.items():
        seen, pred = distance_row(adjacency, source)
        np.testing.assert_array_equal(row, np.array(seen))  # exact floats, inf where unreached
        assert {v: tree[v] for v in pred} == pred
        assert all(tree[v] == -1 for v in range(len(adjacency)) if v not in pred)
    return len(answers)


def test_swept_rows_of_untied_graphs_are_every_search() -> None:
    rng = random.Random(11)
    for _ in range(20):
        n = rng.randrange(6, 90)
        sources = rng.sample(range(n), rng.randrange(1, n + 1))
        assert _check(rng, _float_graph(rng, n), sources) == len(sources)


def test_swept_rows_of_tied_graphs_leave_out_what_a_tie_decides() -> None:
    rng = random.Random(5)
    answered = asked = 0
    for _ in range(300):  # equal ways are common here, ties deciding a tree a few times
        n = rng.randrange(5, 60)
        answered += _check(rng, _tied_graph(rng, n), list(range(n)))
        asked += n
    assert 0 < answered < asked  # small integer weights: some trees decided by ties, not all


def _grid(rows: int, cross: int) -> tuple[Hall, list[Tray]]:
    """Row trays 3 m apart crossed by trays at uneven x: a graph past the swept size."""
    hall = Hall(outline=[(0.0, 0.0), (64.0, 0.0), (64.0, 3.0 * rows + 3), (0.0, 3.0 * rows + 3)])
    top = 3.0 * (rows - 1) + 1.5
    trays = [
        Tray(id=f"r{i}", points=[(0.0, 3.0 * i + 1.5), (60.0, 3.0 * i + 1.5)]) for i in range(rows)
    ]
    xs = [1.0 + 4.7 * k + 0.013 * k * k for k in range(cross)]
    trays += [Tray(id=f"c{k}", points=[(x, 1.5), (x, top)]) for k, x in enumerate(xs)]
    return hall, trays


def test_tray_graph_rows_swept_at_once_equal_rows_searched_one_by_one() -> None:
    hall, trays = _grid(12, 12)
    swept = TrayGraph(trays, hall, 0.05, all_pairs_max_nodes=0)
    searched = TrayGraph(trays, hall, 0.05, all_pairs_max_nodes=0)
    nodes = np.arange(swept.node_count)
    assert swept.node_count >= MIN_SWEPT_SOURCES  # the rows are swept, not searched
    matrix, index = swept.rows(nodes)
    for node in nodes.tolist():  # one new source a call: each one searched
        searched.rows(np.array([node]))
    expected, expected_index = searched.rows(nodes)
    np.testing.assert_array_equal(matrix[index[nodes]], expected[expected_index[nodes]])
    for node in nodes.tolist():
        tree = searched._paths[node]
        assert {v: swept._paths[node][v] for v in tree} == tree
    assert swept._searched == set(nodes.tolist())  # point_distance may read every row
