"""The plant's shortcuts for repeated values give what the plain computation gives: cage keys
ranked without a sort (``np.unique``'s inverse), and tray and floor distances taken once per
run of rows between the same two drop points (the same floats as row by row)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from model.engine.cages import CAGE_STRIDE, _rank, component_graph
from model.engine.routed_links import RoutedLinks
from tests.benchmarks.workloads import build

_ROUTED = (
    "routed_m",
    "length_m",
    "status",
    "_method",
    "_vertical_a",
    "_hop_a",
    "_tray",
    "_hop_b",
    "_vertical_b",
    "_floor",
    "_slack",
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 50), st.integers(0, 40)).map(lambda t: t[0] * CAGE_STRIDE + t[1]),
        min_size=1,
        max_size=300,
    ),
    st.booleans(),
)
def test_rank_is_uniques_inverse(keys, spread):
    arr = np.array(keys, dtype=np.int64)
    if spread:  # few keys far apart: the sorted path
        arr = arr * 1_000_003
    nodes, inverse = np.unique(arr, return_inverse=True)
    count, rank = _rank(arr)
    assert count == len(nodes)
    assert np.array_equal(rank, inverse.reshape(-1))


def test_component_graph_labels_smallest_cage_node():
    a = np.array([5 * CAGE_STRIDE + 1, 2 * CAGE_STRIDE, 9 * CAGE_STRIDE + 3], dtype=np.int64)
    b = np.array([2 * CAGE_STRIDE, 7 * CAGE_STRIDE + 2, 9 * CAGE_STRIDE + 4], dtype=np.int64)
    labels, u, v, n = component_graph(a, b)
    # nodes in key order: 2.0, 5.1, 7.2, 9.3, 9.4
    assert n == 5
    assert u.tolist() == [1, 0, 3] and v.tolist() == [0, 2, 4]
    assert labels.tolist() == [0, 0, 3]


def test_routing_by_runs_equals_routing_row_by_row():
    plant = RoutedLinks(build("S"))  # built by runs: its links come in runs of one rack pair
    n = len(plant.link_ids)
    drop_a, drop_b = plant.drop_a, plant.drop_b
    runs = 1 + int(((drop_a[1:] != drop_a[:-1]) | (drop_b[1:] != drop_b[:-1])).sum())
    assert runs * 2 < n
    by_runs = {name: getattr(plant, name).copy() for name in _ROUTED}
    # Rows in a shuffled order share no runs: the row-by-row path.
    order = np.random.default_rng(1).permutation(n)
    plant._route(order)
    for name in _ROUTED:
        assert np.array_equal(getattr(plant, name), by_runs[name], equal_nan=True), name
