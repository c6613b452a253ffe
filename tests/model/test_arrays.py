"""numpy helpers."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st


def test_unique_sorted_matches_numpy_unique():
    from model.common.arrays import unique_sorted

    rng = np.random.default_rng(3)
    for values in (
        rng.integers(0, 50, 1000),
        rng.random(200),
        np.array([], dtype=np.int64),
        np.array([5]),
    ):
        assert np.array_equal(unique_sorted(values), np.unique(values))


INTEGER_DTYPES = st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32])


@given(
    INTEGER_DTYPES,
    st.lists(st.integers(-(2**7), 2**7 - 1), max_size=300),
    st.integers(0, 3),
    st.integers(0, 2**20),
)
def test_unique_inverse_is_numpys_unique_with_inverse(dtype, small, spread, offset):
    """Dense and sparse ranges, negatives, every integer width: the values and the inverse
    of ``np.unique(..., return_inverse=True)``, dtype and all."""
    from model.common.arrays import unique_inverse

    info = np.iinfo(dtype)
    values = np.array(small, dtype=np.int64) * (10**spread) + (offset if spread else 0)
    values = np.clip(values, info.min, info.max).astype(dtype)
    distinct, inverse = unique_inverse(values)
    expected, expected_inverse = np.unique(values, return_inverse=True)
    assert distinct.dtype == expected.dtype and np.array_equal(distinct, expected)
    assert inverse.dtype == expected_inverse.dtype
    assert np.array_equal(inverse, expected_inverse.reshape(-1))
    assert np.array_equal(distinct[inverse], values)


def test_cage_ranks_are_numpys_unique_of_cage_keys():
    from model.engine.cages import CAGE_STRIDE, cage_ranks

    rng = np.random.default_rng(5)
    for devices, cages in ((300, 40), (5, 1000), (2, 3)):
        keys = rng.integers(0, devices, 2000) * CAGE_STRIDE + rng.integers(0, cages, 2000)
        nodes, inverse = cage_ranks(keys)
        expected, expected_inverse = np.unique(keys, return_inverse=True)
        assert np.array_equal(nodes, expected) and np.array_equal(inverse, expected_inverse)


@given(
    INTEGER_DTYPES,
    st.lists(st.integers(-(2**7), 2**7 - 1), max_size=300),
    st.integers(0, 4),
)
def test_unique_sorted_of_dense_and_sparse_integers_is_numpys(dtype, small, spread):
    from model.common.arrays import unique_sorted

    info = np.iinfo(dtype)
    values = np.clip(np.array(small, dtype=np.int64) * (10**spread), info.min, info.max)
    values = values.astype(dtype)
    got, expected = unique_sorted(values), np.unique(values)
    assert got.dtype == expected.dtype and np.array_equal(got, expected)


@given(
    INTEGER_DTYPES,
    st.lists(st.integers(-(2**7), 2**7 - 1), max_size=300),
    st.integers(0, 4),
)
def test_unique_counts_is_numpys_unique_with_counts(dtype, small, spread):
    """Dense and sparse ranges, negatives (left to numpy), every integer width: the values,
    dtype and all, and the counts of ``np.unique(..., return_counts=True)``."""
    from model.common.arrays import unique_counts

    info = np.iinfo(dtype)
    values = np.array(small, dtype=np.int64) * (10**spread)
    values = np.clip(values, info.min, info.max).astype(dtype)
    distinct, counts = unique_counts(values)
    expected, expected_counts = np.unique(values, return_counts=True)
    assert distinct.dtype == expected.dtype and np.array_equal(distinct, expected)
    assert np.array_equal(counts, expected_counts)


@given(
    INTEGER_DTYPES,
    st.lists(st.lists(st.integers(-(2**7), 2**7 - 1), max_size=40), max_size=12),
)
def test_unique_counts_of_runs_is_numpys_unique_with_counts(dtype, runs):
    """Values in ascending runs (each run sorted, runs overlapping), empty, and in no order
    at all: the values, dtype and all, and the counts of ``np.unique(..., return_counts=True)``."""
    from model.common.arrays import unique_counts_of_runs

    info = np.iinfo(dtype)
    for order in ("runs", "as drawn"):
        parts = [sorted(run) if order == "runs" else run for run in runs]
        flat = [v for run in parts for v in run]
        values = np.clip(np.array(flat, dtype=np.int64), info.min, info.max).astype(dtype)
        got, expected = unique_counts_of_runs(values), np.unique(values, return_counts=True)
        assert got[0].dtype == expected[0].dtype and np.array_equal(got[0], expected[0])
        assert got[1].dtype == expected[1].dtype and np.array_equal(got[1], expected[1])


@given(
    st.sampled_from([np.int8, np.int32, np.int64, np.uint8]),
    st.lists(st.tuples(*[st.integers(-(2**7), 2**7 - 1)] * 3), max_size=200),
    st.sampled_from([0, 3, 40]),
)
def test_unique_rows_inverse_is_numpys_unique_of_rows(dtype, rows, spread):
    """Few and many distinct rows, negatives, narrow and wide columns (up to a code past
    2**62, left to numpy): the rows, in order and dtype, and the inverse of
    ``np.unique(axis=0, return_inverse=True)``."""
    from model.common.arrays import unique_rows_inverse

    info = np.iinfo(dtype)
    table = np.array(rows, dtype=np.int64).reshape(-1, 3) * np.array([1, 2**spread, 1])
    columns = [np.clip(table[:, j], info.min, info.max).astype(dtype) for j in range(3)]
    distinct, inverse = unique_rows_inverse(columns)
    expected, expected_inverse = np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)
    assert distinct.dtype == expected.dtype and np.array_equal(distinct, expected)
    assert inverse.dtype == expected_inverse.dtype
    assert np.array_equal(inverse, expected_inverse.reshape(-1))
