"""Adjacent schedule columns as one coded run (model.outputs.schedule_columns.coded)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from model.outputs.schedule_columns import coded


@st.composite
def _columns(draw):
    n = draw(st.integers(1, 30))
    columns: list[tuple[list, np.ndarray]] = []
    for j in range(draw(st.integers(2, 5))):
        size = draw(st.integers(1, 6))
        if columns and len(columns[-1][0]) == size and draw(st.booleans()):
            codes = columns[-1][1]  # the column before's codes (an end's rack, U and device)
        else:
            codes = np.array(draw(st.lists(st.integers(-size, size - 1), min_size=n, max_size=n)))
        columns.append(([f"c{j}v{k}" for k in range(size)], codes))
    return columns


@given(_columns())
def test_a_run_of_columns_is_its_distinct_rows_in_code_order_and_a_code_per_row(columns):
    full = [np.where(c < 0, c + len(v), c) for v, c in columns]
    rows = list(zip(*(c.tolist() for c in full), strict=True))
    distinct = sorted(set(rows))
    run = coded(columns)
    assert run.width == len(columns)
    assert run.distinct == [
        tuple(v[k] for (v, _), k in zip(columns, r, strict=True)) for r in distinct
    ]
    assert run.codes.tolist() == [distinct.index(r) for r in rows]
