"""Distance rows carried over a tray edit (model/engine/tray_rows.py) equal a fresh graph's, bit for bit.

After a corner move the new graph works out the rows of the old graph's sources all at once,
by sweeps; every row and every predecessor (the paths the route names follow) must be what a
fresh search of the new graph gives, or the carry must decline.
"""

from __future__ import annotations

import random
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from model.design.entities import Hall, Tray
from model.engine.routed_links import RoutedLinks
from model.engine.tray_graph import TrayGraph
from model.engine.tray_search import dijkstra
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.test_tray_reroute import _assert_same_plant
from tests.model.tray_drags import nudged_corner

TOLERANCE_M = 0.05


def _searched(graph: TrayGraph, nodes: list[int]) -> None:
    """Rows (and trees) of ``nodes`` cached in ``graph``, as an edit finds them."""
    graph.rows(np.array(nodes, dtype=np.int64))


def _check_carry(old: TrayGraph, trays: list[Tray], hall: Hall) -> tuple[TrayGraph, int]:
    """The new graph (rows of ``old`` carried) against a fresh one: (new graph with every row
    cached, how many rows the carry answered)."""
    new = TrayGraph(trays, hall, TOLERANCE_M, all_pairs_max_nodes=0)
    new.carry_rows(old)
    fresh = TrayGraph(trays, hall, TOLERANCE_M, all_pairs_max_nodes=0)
    carried = 0
    for node in range(new.node_count):
        answer = new._carry.row(node) if new._carry is not None else None
        if answer is None:
            continue
        carried += 1
        dist, pred = dijkstra(fresh._adjacency_lists(), node)
        expected = np.full(fresh.node_count, np.inf)
        expected[list(dist)] = list(dist.values())
        row, tree = answer
        np.testing.assert_array_equal(row, expected)  # exact floats, inf where unreached
        assert {v: tree[v] for v in pred} == pred  # the same predecessor for every node
    # what the plant reads: the new graph's rows and paths (carried or searched) are fresh ones
    nodes = np.arange(new.node_count)
    matrix, index = new.rows(nodes)
    fresh_matrix, fresh_index = fresh.rows(nodes)
    np.testing.assert_array_equal(matrix[index[nodes]], fresh_matrix[fresh_index[nodes]])
    for node in nodes.tolist():
        expected_tree = fresh._paths[node]
        assert {v: new._paths[node][v] for v in expected_tree} == expected_tree
    return new, carried


def test_corner_moves_on_the_l_hall_carry_rows_a_fresh_search_gives():
    design = synthetic_hall(2048)
    hall, trays = design.hall, list(design.trays.values())
    rng = random.Random(7)
    total = 0
    for _ in range(4):
        old = TrayGraph(trays, hall, TOLERANCE_M, all_pairs_max_nodes=0)
        _searched(old, list(range(old.node_count)))
        k = rng.randrange(len(trays))
        points = nudged_corner(trays[k].points, rng)
        trays[k] = Tray(id=trays[k].id, points=points, elevation_m=trays[k].elevation_m)
        total += _check_carry(old, trays, hall)[1]
    assert total > 0  # the carry answered, it did not decline every source


def _small_hall(rows: int, cross: list[float]) -> tuple[Hall, list[Tray]]:
    """Row trays 3 m apart from x = 0 to 20 m, cross trays at the ``cross`` x positions."""
    hall = Hall(outline=[(0.0, 0.0), (24.0, 0.0), (24.0, 3.0 * rows + 3), (0.0, 3.0 * rows + 3)])
    trays = [
        Tray(id=f"r{i}", points=[(0.0, 3.0 * i + 1.5), (20.0, 3.0 * i + 1.5)]) for i in range(rows)
    ]
    top = 3.0 * (rows - 1) + 1.5
    trays += [Tray(id=f"c{k}", points=[(x, 1.5), (x, top)]) for k, x in enumerate(cross)]
    return hall, trays


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(2, 5),
    cross=st.lists(st.floats(0.0, 20.0).map(lambda x: round(x, 1)), min_size=1, max_size=4),
    moves=st.lists(
        st.tuples(
            st.integers(0, 50),  # which tray (modulo their count)
            st.integers(0, 1),  # which corner
            st.floats(-2.0, 2.0).map(lambda d: round(d, 2)),
            st.floats(-2.0, 2.0).map(lambda d: round(d, 2)),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_random_corner_moves_carry_exact_rows(rows, cross, moves):
    hall, trays = _small_hall(rows, cross)
    old = TrayGraph(trays, hall, TOLERANCE_M, all_pairs_max_nodes=0)
    _searched(old, list(range(old.node_count)))
    for which, corner, dx, dy in moves:  # a chain of edits: each carries the last one's rows
        k = which % len(trays)
        points = list(trays[k].points)
        x, y = points[corner]
        points[corner] = (x + dx, y + dy)
        if points[0] == points[1]:
            continue
        trays[k] = Tray(id=trays[k].id, points=points)
        old, _ = _check_carry(old, trays, hall)


def test_plant_corner_moves_with_carried_rows_route_as_a_fresh_plant(monkeypatch):
    # Every graph searched per node (as at XL, whose 561 nodes are past the all-pairs size):
    # the plant's in-place re-route after each corner move takes the carried rows, and every
    # length, route id and tray span is a fresh plant's.
    monkeypatch.setattr(TrayGraph.__init__, "__defaults__", (0,))
    design = synthetic_hall(2048)
    live = RoutedLinks(design)
    live.route_keys()
    rng = random.Random(11)
    answered = 0
    for _ in range(3):
        used = sorted({t for k in range(live.route_count) for t, _, _ in live.tray_spans(k)})
        tray_id = rng.choice(used)
        design.set_tray_points(tray_id, nudged_corner(design.trays[tray_id].points, rng))
        assert live.refresh()
        carry = live._graph._carry
        assert carry is not None and carry._answers is not None  # the re-route read the carry
        answered += len(carry._answers)
        _assert_same_plant(live, RoutedLinks(design))
    assert answered


def test_waves_hold_no_two_neighbours_and_follow_the_order():
    """Each node with neighbours in exactly one wave; no edge inside a wave; a node's
    neighbours earlier in the order in earlier waves (so a wave at a time is a node at a time)."""
    from model.engine.tray_rows import _waves

    rng = random.Random(3)
    for _ in range(20):
        n = rng.randrange(1, 40)
        edges = {tuple(sorted(rng.sample(range(n), 2))) for _ in range(2 * n)} if n > 1 else set()
        neighbours: list[list[int]] = [[] for _ in range(n)]
        for u, v in edges:
            neighbours[u].append(v)
            neighbours[v].append(u)
        order = list(range(n))
        rng.shuffle(order)
        waves = [w.tolist() for w in _waves(order, neighbours)]
        wave_of = {u: k for k, wave in enumerate(waves) for u in wave}
        assert sorted(u for wave in waves for u in wave) == [u for u in range(n) if neighbours[u]]
        place = {u: k for k, u in enumerate(order)}
        for u, v in edges:
            first, then = (u, v) if place[u] < place[v] else (v, u)
            assert wave_of[first] < wave_of[then]


def test_waves_of_nodes_without_an_edge_are_none():
    """A graph whose nodes have no edge (one tray of a single point) has no wave to look at
    (review16: `_waves` raised on an empty count)."""
    from model.engine.tray_rows import _waves

    assert _waves([0], [[]]) == []
    assert _waves([2, 0, 1], [[], [], []]) == []


def test_carried_rows_of_many_short_trays_and_one_crossing_stay_exact_in_bounded_steps(
    monkeypatch,
):
    """A hall of many short separate trays and one crossing of four (width 8, waves of half
    the nodes): the carried rows equal a fresh search, and no relaxation step holds more than
    the block cap of cells (review16: one step of 1,994 nodes x 8 x 3,989 sources, 1.4 GB)."""
    from model.engine import tray_rows

    hall = Hall(outline=[(0.0, 0.0), (60.0, 0.0), (60.0, 60.0), (0.0, 60.0)])
    trays = [
        Tray(
            id=f"t{i}",
            points=[
                (1.0 + (i % 20) * 1.2, 1.0 + (i // 20) * 2.0),
                (1.5 + (i % 20) * 1.2, 1.0 + (i // 20) * 2.0),
            ],
        )
        for i in range(200)
    ]
    trays += [
        Tray(id="x1", points=[(55.0, 52.0), (59.0, 52.0)]),
        Tray(id="x3", points=[(55.0, 50.0), (59.0, 54.0)]),
        Tray(id="x4", points=[(55.0, 54.0), (59.0, 50.0)]),
        Tray(id="x2", points=[(57.0, 50.0), (57.0, 54.0)]),
    ]
    old = TrayGraph(trays, hall, 0.05, all_pairs_max_nodes=0)
    old.rows(np.arange(old.node_count))
    trays[-1] = Tray(id="x2", points=[(57.0, 49.0), (57.0, 54.0)])  # an end dragged 1 m
    cap = 4096
    monkeypatch.setattr(tray_rows, "_BLOCK_CELLS", cap)
    steps: list[int] = []
    real_min = np.minimum

    def counted_minimum(a, b, *args, **kwargs):
        if sys._getframe(1).f_code.co_name == "_relax":  # a relaxation step's new values
            steps.append(int(np.size(a)))
        return real_min(a, b, *args, **kwargs)

    monkeypatch.setattr(tray_rows.np, "minimum", counted_minimum)
    carried = TrayGraph(trays, hall, 0.05, all_pairs_max_nodes=0)
    carried.carry_rows(old)
    got, _ = carried.rows(np.arange(carried.node_count))
    monkeypatch.setattr(tray_rows.np, "minimum", real_min)
    fresh, _ = TrayGraph(trays, hall, 0.05, all_pairs_max_nodes=0).rows(
        np.arange(carried.node_count)
    )
    assert carried._carry is not None and steps, "the rows were not carried"
    np.testing.assert_array_equal(got, fresh)
    width, cols = 8, carried.node_count  # a step of one node is the least there can be
    assert max(steps) * width <= max(cap, width * cols)
