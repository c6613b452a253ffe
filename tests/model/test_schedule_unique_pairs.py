"""unique_pairs (the schedule's ranking of two code columns: a device end's rack and U, a
cord's racks, a label's A end) gives what ``unique_inverse`` of the one product key gives, on
each of its ways: the same codes in both columns, a small product ranked by a count, 16-bit
ranks sorted by radix, and ranks too many for 16 bits."""

from __future__ import annotations

import numpy as np
import pytest

from model.common.arrays import unique_inverse
from model.outputs.schedule_columns import unique_pairs


def _same_as_the_product_key(hi: np.ndarray, lo: np.ndarray, lo_size: int) -> None:
    want = unique_inverse(hi.astype(np.int64) * lo_size + lo)
    got = unique_pairs(hi, lo, lo_size)
    assert got[0].dtype == want[0].dtype and got[1].dtype == want[1].dtype
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


@pytest.mark.parametrize(
    ("n", "hi_span", "lo_span"),
    [
        (5_000, 40, 30),  # a small product: counted
        (5_000, 3_000, 2_000),  # a wide product of few distinct ranks: radix
        (200_000, 100_000, 90_000),  # more distinct ranks than 16 bits hold
        (1, 1, 1),
    ],
)
def test_the_pairs_are_those_of_the_product_key(n: int, hi_span: int, lo_span: int) -> None:
    rng = np.random.default_rng(n + hi_span)
    hi = rng.integers(0, hi_span, n) * 7  # sparse codes: their ranks are not the codes
    lo = rng.integers(0, lo_span, n)
    _same_as_the_product_key(hi, lo, lo_span)


def test_the_same_codes_in_both_columns_and_no_rows() -> None:
    codes = np.random.default_rng(3).integers(0, 50_000, 20_000)
    _same_as_the_product_key(codes, codes.copy(), 50_000)
    _same_as_the_product_key(codes, codes, 50_000)
    empty = np.zeros(0, dtype=np.int64)
    _same_as_the_product_key(empty, empty, 4)
