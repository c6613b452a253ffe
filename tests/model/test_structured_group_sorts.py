"""The structured layout's sorts by a stable argsort give numpy's own answers: the kinds of
members (``np.unique`` with its inverse) and the route links' order (``np.lexsort``), on
random, sorted and reversed inputs, with ties and a pair's lengths out of order."""

import numpy as np
import pytest

from model.structured.channel_groups import _by_pair_then_length, _unique_inverse


@pytest.mark.parametrize("n", [0, 1, 2, 9, 2000])
@pytest.mark.parametrize("high", [1, 4, 10**9])
def test_unique_inverse_is_numpys(n, high):
    rng = np.random.default_rng(n * 7 + high)
    values = rng.integers(0, high, n).astype(np.int64)
    for given in (values, np.sort(values), np.sort(values)[::-1].copy()):
        kinds, inverse = _unique_inverse(given)
        want_kinds, want_inverse = np.unique(given, return_inverse=True)
        assert np.array_equal(kinds, want_kinds)
        assert np.array_equal(inverse, want_inverse.reshape(-1))


@pytest.mark.parametrize("n", [0, 1, 2, 9, 2000])
@pytest.mark.parametrize("pairs", [1, 5, 300])
def test_by_pair_then_length_is_lexsort(n, pairs):
    rng = np.random.default_rng(n * 11 + pairs)
    pair = rng.integers(0, pairs, n).astype(np.int64)
    length = rng.integers(0, 3, n).astype(np.float64) * 0.25  # ties within a pair
    for p, h in ((pair, length), (np.sort(pair), length), (np.sort(pair), np.sort(length))):
        assert np.array_equal(_by_pair_then_length(p, h), np.lexsort((h, p)))


def test_by_pair_then_length_sorts_a_pair_whose_lengths_fall():
    pair = np.array([0, 0, 1, 1, 1], dtype=np.int64)
    length = np.array([2.0, 1.0, 3.0, 3.0, 0.5])
    assert _by_pair_then_length(pair, length).tolist() == [1, 0, 4, 2, 3]
