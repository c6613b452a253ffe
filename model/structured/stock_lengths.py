"""Lengths ordered as stock: the first orderable length of a part at or above a wanted one."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np


def stock_lengths_at(lengths_m: Iterable[float], wanted_m: np.ndarray) -> np.ndarray:
    """Per wanted length, the first of ``lengths_m`` (a part's orderable lengths, ascending) at
    or above it, to 1 nm, as an object array of those floats; ``math.nan`` itself where none is
    long enough or the wanted length is NaN (numpy sorts NaN last: the lower-bound search finds
    no length). The very NaN object, so a count keyed by (part, ordered length) keeps every
    unorderable piece of a part on one key."""
    return stock_lengths_found(lengths_m, wanted_m)[0]


def stock_lengths_found(
    lengths_m: Iterable[float], wanted_m: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`stock_lengths_at`, and per wanted length whether none was found (its length is
    that NaN): a caller that checks for unorderable pieces reads it off the search, not off
    the objects."""
    lengths = [float(x) for x in lengths_m]
    pick = np.empty(len(lengths) + 1, dtype=object)
    pick[:] = [*lengths, math.nan]  # k == len(lengths): none long enough
    grid = np.asarray(lengths, dtype=np.float64)
    at = np.searchsorted(grid, np.asarray(wanted_m, dtype=np.float64) - 1e-9, side="left")
    return pick[at], np.isnan(np.append(grid, math.nan))[at]
