"""length_words: the routes report's lengths worded in numpy, the same strings as ``_lengths``."""

from __future__ import annotations

import numpy as np

from model.engine.media import _lengths
from model.engine.media_words import length_words


def test_lengths_word_as_python_formats_them_one_by_one():
    rng = np.random.default_rng(7)
    uniform, places = rng.uniform(0, 200, 20000), rng.integers(0, 4, 20000)
    lengths = np.concatenate(
        [
            rng.uniform(0, 2000, 20000),
            [round(x, int(d)) for x, d in zip(uniform, places, strict=True)],
            np.arange(0, 200, 0.05),  # every tenth's half below 100 m, every metre's half above
            [0.05, 0.15, 0.25, 2.5, 99.95, 99.949999, 99.96, 100.0, 100.5, 101.5, 999.5],
            [1234.5, 1e6 + 0.5, 2.0**53 + 2, 1e300, 0.0, -0.0, -1.25, np.nan, np.inf, -np.inf],
        ]
    )
    assert length_words(lengths).tolist() == [_lengths(x) for x in lengths.tolist()]


def test_no_lengths_no_words():
    assert length_words(np.zeros(0)).tolist() == []


def test_fixed_words_as_python_formats_them_one_by_one():
    from model.common.text_columns import fixed

    rng = np.random.default_rng(11)
    values = np.concatenate(
        [
            rng.uniform(0, 500, 20000),
            np.arange(0, 20, 0.005),  # every half of a hundredth (and of a unit) and its neighbours
            [0.125, 0.375, 2.675, 1.005, 0.5, 1.5, 2.5, 1e9, 2.0**40 + 0.5, 1e300],
            [0.0, -0.0, -1.255, -0.001, np.nan, np.inf, -np.inf],
        ]
    )
    for places in (0, 1, 2, 3):
        expected = [f"<{v:.{places}f}>" for v in values.tolist()]
        assert fixed(values, places, "<", ">").tolist() == expected
    assert fixed(np.zeros(0), 2).tolist() == []


def test_codes_of_integers_equal_numpy_unique():
    from model.common.text_columns import codes

    rng = np.random.default_rng(5)
    cases = [
        rng.integers(-50, 50, 1000),
        rng.integers(0, 10**6, 300),  # sparse: the sort
        rng.integers(0, 200, 5000).astype(np.int32),
        rng.integers(0, 200, 5000).astype(np.uint8),
        rng.integers(0, 9, (40, 3)),
        np.array([7]),
        np.zeros(0, dtype=np.int64),
        np.array([2**40, 2**40 + 3, 2**40]),
        np.array([1.5, -0.0, 0.0, np.nan, 1.5]),
    ]
    for values in cases:
        distinct, inverse = codes(values)
        expected, expected_inverse = np.unique(values, return_inverse=True)
        assert distinct.dtype == expected.dtype
        assert np.array_equal(distinct, expected, equal_nan=True)
        assert np.array_equal(inverse, expected_inverse.reshape(-1))
