"""Small numpy helpers shared by the engine, the analysis and the exports."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def unique_sorted(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` for numbers, by sorting.

    numpy 2.x answers a plain ``np.unique`` on integers with a hash table that holds the GIL:
    ~300 ms for 400k values, which froze the editor while the analysis ran on its worker
    thread. Sorting gives the same result in ~30 ms and lets the GUI thread run meanwhile.
    Integers spread over a range up to about eight times their count (end codes, route keys,
    device-and-port numbers) are marked in a table of that range instead: ~5 ms for 786k.
    """
    values = np.asarray(values)
    if values.size and values.dtype.kind in "iu":
        low, high = int(values.min()), int(values.max())
        span = high - low + 1
        if span <= 8 * values.size + 4096:
            present = np.zeros(span, dtype=bool)
            present[(values.astype(np.intp, copy=False) - low).reshape(-1)] = True
            return (np.flatnonzero(present) + low).astype(values.dtype)
    ordered = np.sort(values, kind="stable")
    if ordered.size == 0:
        return ordered
    keep = np.empty(ordered.size, dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def unique_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_counts=True)`` for non-negative integer codes (the tray
    fill's (route, medium) codes): counted by ``np.bincount`` when they spread over not much
    more than their count, else numpy's sort. The same distinct values, ascending, in the
    values' dtype, and counts. XL after a tray edit: 393k codes below ~290k, whose sort was
    ~20 ms of each full tray-fill count."""
    values = np.asarray(values)
    if values.size and values.dtype.kind in "iu":
        low, high = int(values.min()), int(values.max())
        if low >= 0 and high < 8 * values.size + 4096:
            counts = np.bincount(values.reshape(-1).astype(np.intp, copy=False), minlength=high + 1)
            present = np.flatnonzero(counts)
            return present.astype(values.dtype), counts[present]
    return np.unique(values, return_counts=True)


def unique_counts_of_runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_counts=True)`` for values that come mostly in ascending runs
    (codes led by a device number, in device order): numpy's stable sort (timsort) merges the
    runs in close to linear time, where ``np.unique`` sorts them afresh. XL with every network:
    the 543k plug codes of the optics' count, ~27 ms in ``np.unique``, ~1 ms so (on values in
    no order it is ~20 % slower). The same distinct values, ascending, in the values' dtype,
    and counts."""
    ordered = np.sort(np.asarray(values).reshape(-1), kind="stable")
    if not ordered.size:
        return np.unique(ordered, return_counts=True)
    new = np.empty(ordered.size, dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    return ordered[starts], np.diff(np.append(starts, ordered.size))


def unique_inverse(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` (the inverse flat) for integer arrays.

    Values spread over a range not much wider than their count (component labels, device
    numbers, codes) are ranked by a running count of the values present instead of a sort:
    numpy sorts to find the inverse, ~30-60 ms per call for the 400k-800k link ends of an XL
    hall, several calls per analysis and per export. Values spread wider are left to
    ``np.unique``. The result is the same either way (distinct values ascending, in the
    values' dtype; the inverse as numpy's index type).
    """
    values = np.asarray(values)
    if values.size and values.dtype.kind in "iu":
        low, high = int(values.min()), int(values.max())
        span = high - low + 1
        if span <= 4 * values.size + 1024:
            shifted = values.astype(np.intp, copy=False)
            if low:
                shifted = shifted - low
            present = np.bincount(shifted.reshape(-1), minlength=span) > 0
            rank = np.cumsum(present) - 1
            distinct = (np.flatnonzero(present) + low).astype(values.dtype)
            return distinct, rank[shifted.reshape(-1)]
    distinct, inverse = np.unique(values, return_inverse=True)
    return distinct, inverse.reshape(-1)


def unique_rows_inverse(columns: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(np.stack(columns, axis=1), axis=0, return_inverse=True)`` (the inverse
    flat) for integer columns of one length.

    Each row is coded as one integer, in mixed radix over the columns' ranges with the first
    column the most significant, so that the codes sort as the rows do, and the codes are ranked
    by :func:`unique_inverse`: numpy sorts the rows as records, ~30 ms for the ~10^5 copper
    cable assemblies of XL with every network. The same distinct rows, in the same order and
    dtype, and the same inverse; rows whose code could pass 2**62 are left to numpy."""
    stacked = np.stack(columns, axis=1)
    spans: list[int] = []
    kind, width = stacked.dtype.kind, stacked.dtype.itemsize
    if stacked.size and (kind == "i" or (kind == "u" and width < 8)):  # int64 holds them
        lows = stacked.min(axis=0).tolist()
        highs = stacked.max(axis=0).tolist()
        spans = [int(h) - int(lo) + 1 for h, lo in zip(highs, lows, strict=True)]
    if not spans or math.prod(spans) >= 2**62:
        distinct, inverse = np.unique(stacked, axis=0, return_inverse=True)
        return distinct, inverse.reshape(-1)
    code = np.zeros(len(stacked), dtype=np.int64)
    for j, (low, span) in enumerate(zip(lows, spans, strict=True)):
        code *= span
        code += stacked[:, j].astype(np.int64) - low
    codes, inverse = unique_inverse(code)
    distinct = np.empty((len(codes), len(spans)), dtype=stacked.dtype)
    for j in range(len(spans) - 1, -1, -1):
        codes, digit = np.divmod(codes, spans[j])
        distinct[:, j] = digit + lows[j]
    return distinct, inverse


def same_rows(before: tuple[np.ndarray, ...], after: tuple[np.ndarray, ...]) -> np.ndarray:
    """Per row: whether every column holds the same value after as before (NaN equal to NaN)."""
    same = np.ones(len(before[0]), dtype=bool)
    for old, new in zip(before, after, strict=True):
        same &= (
            (old == new) | (np.isnan(old) & np.isnan(new)) if old.dtype.kind == "f" else old == new
        )
    return same


class FirstSeen(dict):
    """Value -> code, a new value taking the next code on first lookup: ``map(codes.__getitem__,
    values)`` numbers values in order of first use at C speed (``__missing__`` runs once per
    distinct value, e.g. ~200 port names for 786k link ends)."""

    def __missing__(self, value: object) -> int:
        code = self[value] = len(self)
        return code
