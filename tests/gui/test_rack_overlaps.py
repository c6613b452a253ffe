"""Which racks the rack field draws one by one: the sweep finds exactly the footprints that
overlap another (touching is not overlapping), and gives up to "all" on heaps of racks."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gui.canvas import rack_overlaps
from gui.canvas.rack_overlaps import overlapping, overlapping_row

MARGIN = 0.02  # RackItem's bounds: the footprint grown by this on every side


def _bounds(footprints: list[tuple[float, float, float, float]]) -> np.ndarray:
    rows = [(x - MARGIN, y - MARGIN, x + w + MARGIN, y + d + MARGIN) for x, y, w, d in footprints]
    return np.array(rows, dtype=np.float64).reshape(-1, 4)


def _brute(footprints) -> list[bool]:
    out = [False] * len(footprints)
    for i, (x, y, w, d) in enumerate(footprints):
        for j, (u, v, s, t) in enumerate(footprints):
            if i != j and x < u + s and u < x + w and y < v + t and v < y + d:
                out[i] = True
    return out


# Racks on a 0.25 m grid, 0.5 or 0.75 m wide (binary fractions: the sums are exact, so touching
# racks touch exactly): side by side they touch, a step along they overlap.
_rack = st.tuples(
    st.integers(0, 12).map(lambda k: k * 0.25),
    st.integers(0, 8).map(lambda k: k * 0.5),
    st.sampled_from([0.5, 0.75]),
    st.sampled_from([1.0, 0.5]),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_rack, max_size=25))
def test_the_sweep_finds_the_footprints_a_pairwise_test_finds(footprints):
    got = overlapping(_bounds(footprints)).tolist()
    assert got == _brute(footprints)


@settings(max_examples=60, deadline=None)
@given(st.lists(_rack, min_size=1, max_size=25), st.data())
def test_one_rack_tested_alone_marks_itself_and_the_racks_it_overlaps(footprints, data):
    row = data.draw(st.integers(0, len(footprints) - 1))
    got = overlapping_row(_bounds(footprints), row).tolist()
    x, y, w, d = footprints[row]
    partners = [
        j != row and x < u + s and u < x + w and y < v + t and v < y + d
        for j, (u, v, s, t) in enumerate(footprints)
    ]
    expected = [p or (j == row and any(partners)) for j, p in enumerate(partners)]
    assert got == expected


def test_a_row_of_racks_side_by_side_overlaps_nowhere():
    row = [(k * 0.6, 0.0, 0.6, 1.2) for k in range(40)]
    assert not overlapping(_bounds(row)).any()


def test_racks_heaped_in_one_place_all_count_as_overlapping(monkeypatch):
    monkeypatch.setattr(rack_overlaps, "_MAX_PAIRS", 50)
    # Twenty racks in one column a row apart: none overlaps, but every pair is a candidate.
    column = [(0.0, k * 1.2, 0.6, 1.2) for k in range(20)]
    assert overlapping(_bounds(column)).all()
