"""The channel pieces' longest route per rack pair (patch_points._longest_per_key) is the
maximum over the rows of each key, whatever the order of the keys: checked against the
unique-and-maximum.at formula it replaced."""

from __future__ import annotations

import numpy as np
import pytest

from model.engine.patch_points import _longest_per_key


def _oracle(key: np.ndarray, values: np.ndarray) -> np.ndarray:
    _, inverse = np.unique(key, return_inverse=True)
    longest = np.full(int(inverse.max(initial=-1)) + 1, -np.inf)
    np.maximum.at(longest, inverse, values)
    return longest[inverse]


@pytest.mark.parametrize("layout", ["runs", "shuffled", "one key", "all distinct"])
def test_longest_per_key_is_the_maximum_of_each_key(layout):
    rng = np.random.default_rng(7)
    n = 5_000
    if layout == "runs":  # rack pairs listed in runs, each pair in two runs
        key = np.repeat(np.tile(rng.integers(0, 10**7, 300), 2), rng.integers(1, 20, 600))
    elif layout == "shuffled":
        key = rng.integers(0, 200, n)
    elif layout == "one key":
        key = np.full(n, 42)
    else:
        key = rng.permutation(n) * 3
    values = rng.normal(20.0, 10.0, len(key))
    values[::7] = -1e300  # the smallest finite value nan_to_num gives
    got = _longest_per_key(key.astype(np.int64), values)
    assert got.dtype == np.float64
    assert np.array_equal(got, _oracle(key, values))


def test_longest_per_key_of_no_rows():
    got = _longest_per_key(np.zeros(0, dtype=np.int64), np.zeros(0))
    assert got.shape == (0,)
