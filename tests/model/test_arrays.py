"""numpy helpers."""

import numpy as np


def test_unique_sorted_matches_numpy_unique():
    from model.arrays import unique_sorted

    rng = np.random.default_rng(3)
    for values in (
        rng.integers(0, 50, 1000),
        rng.random(200),
        np.array([], dtype=np.int64),
        np.array([5]),
    ):
        assert np.array_equal(unique_sorted(values), np.unique(values))
