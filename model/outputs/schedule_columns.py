"""Column tools of the cabling schedule: gathers of object arrays, coded column runs, the
per-distinct-value cells and the one-key sort, all over numpy codes (no object per row)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from model.common.arrays import unique_inverse
from model.outputs.writers.csv_writer import CodedColumns

# The schedule's columns, in file order: the cut sheet's CSV header and the XLSX sheet's.
SCHEDULE_COLUMNS = (
    "cable_id",
    "link_id",
    "label",
    "a_rack",
    "a_u",
    "a_device",
    "a_port",
    "b_rack",
    "b_u",
    "b_device",
    "b_port",
    "speed_gbps",
    "medium",
    "medium_kind",
    "length_m",
    "ordered_length_m",
    "a_cage",
    "b_cage",
    "a_module",
    "b_module",
    "part",
    "route",
)
# Not a column of the file: per row of the link table, whether the schedule lists the link
# from its B end (``[False, True]`` and a code per row, as a column's codes are read).
TURNED = "turned"
# Not a column of the file either: per row of the link table, its link's plant row (the
# plant's link ids and a code per row; -1: a link not in the plant), which the structured
# segments map to channel rows by arrays, not by a 393k-entry index of link ids.
PLANT_ROW = "plant_row"


def gathered(values: Sequence, codes: np.ndarray) -> list:
    """``[values[c] for c in codes]`` (a gather of an object array)."""
    return objects(values, len(values))[codes].tolist() if len(codes) else []


def coded(columns: list[tuple[Sequence, np.ndarray]]) -> CodedColumns:
    """Adjacent columns, each given as (its distinct values, a code per row), as one
    :class:`CodedColumns` over the distinct rows that occur, in the order of their codes
    (ranked column by column when the product of the sizes fits in an integer, else the
    rows' values joined in Python, in order of first use)."""
    n = len(columns[0][1])
    sizes = [len(values) for values, _ in columns]
    if n == 0:
        return CodedColumns([], np.zeros(0, dtype=np.int64), len(columns))
    if len(columns) == 1:  # its values as the distinct rows (a code -1 is the last value)
        values, codes = columns[0]
        return CodedColumns([(v,) for v in values], codes, 1)
    product = 1
    for size in sizes:
        product *= max(size, 1)
    if product >= 1 << 62:
        rows = list(zip(*(gathered(v, c) for v, c in columns), strict=True))
        distinct = list(dict.fromkeys(rows))
        at = {r: k for k, r in enumerate(distinct)}
        return CodedColumns(
            distinct, np.fromiter(map(at.__getitem__, rows), np.int64, n), len(sizes)
        )
    # Each row's codes ranked column by column: the rank of the columns so far times the next
    # column's size, ranked again (ascending: the rows' codes in lexicographic order, as one
    # mixed-radix key of all the columns would sort them). Each key then spans a few times
    # the rows at most and is ranked by a count (unique_inverse), where a sort of the one key
    # of the product of the sizes was ~0.1 s per run of columns at zoned XL. A column whose
    # codes are the column before's (an end's rack, U and device: one per device) leaves the
    # rank as it is. A negative code (-1: the last value, as numpy indexes) is that position.
    full = [np.where(c < 0, c + size, c) for (_, c), size in zip(columns, sizes, strict=True)]
    rank = full[0]
    for j in range(1, len(full)):
        if full[j] is not full[j - 1] and not np.array_equal(full[j], full[j - 1]):
            rank = unique_inverse(rank * max(sizes[j], 1) + full[j])[1]
    if rank is full[0]:  # every column has the first's codes
        rank = unique_inverse(rank)[1]
    row_of = np.empty(int(rank.max()) + 1, dtype=np.int64)
    row_of[rank] = np.arange(n, dtype=np.int64)  # a row of each rank: its rows' codes are one
    cols = [gathered(list(values), c[row_of]) for (values, _), c in zip(columns, full, strict=True)]
    return CodedColumns(list(zip(*cols, strict=True)), rank.reshape(-1), len(sizes))


def unique_pairs(hi: np.ndarray, lo: np.ndarray, lo_size: int) -> tuple[np.ndarray, np.ndarray]:
    """``unique_inverse(hi * lo_size + lo)`` for codes ``hi >= 0`` and ``0 <= lo < lo_size``,
    without the sort of the product key when its span is wide (a device end's (rack, U)
    codes, a cord's (from, to) racks: two ~40 ms sorts per ~0.4 M cords at zoned XL): when
    both columns hold the same codes, one column ranked by a count; else each column ranked
    by a count, then the pairs of ranks by a count when their product is small, or by two
    stable radix sorts of 16-bit ranks. The ranks keep each column's order, so the distinct
    keys come out ascending as a sort gives them."""
    n = len(hi)
    if not n or lo_size < 1:
        return unique_inverse(hi.astype(np.int64) * lo_size + lo)
    if hi is lo or np.array_equal(hi, lo):
        distinct, inverse = unique_inverse(hi)
        return distinct.astype(np.int64) * (lo_size + 1), inverse
    hi_values, hi_rank = unique_inverse(hi)
    lo_values, lo_rank = unique_inverse(lo)
    n_lo = len(lo_values)
    if len(hi_values) * n_lo <= 4 * n + 1024 or max(len(hi_values), n_lo) > 1 << 16:
        pairs, inverse = unique_inverse(hi_rank.astype(np.int64) * n_lo + lo_rank)
    else:  # by the low rank, then (stable) by the high one: the pairs in ascending order
        order = np.argsort(lo_rank.astype(np.uint16), kind="stable")
        order = order[np.argsort(hi_rank[order].astype(np.uint16), kind="stable")]
        ranked = hi_rank[order].astype(np.int64) * n_lo + lo_rank[order]
        first = np.empty(n, dtype=bool)
        first[0] = True
        np.not_equal(ranked[1:], ranked[:-1], out=first[1:])
        inverse = np.empty(n, dtype=np.intp)
        inverse[order] = np.cumsum(first) - 1
        pairs = ranked[first]
    high, low = np.divmod(pairs, n_lo)
    return hi_values[high].astype(np.int64) * lo_size + lo_values[low], inverse


def objects(values, n: int) -> np.ndarray:
    """``values`` (any iterable of ``n`` Python objects) as a 1-D object array."""
    out = np.empty(n, dtype=object)
    out[:] = values if isinstance(values, list) else list(values)
    return out


def per_value(values: np.ndarray, cell) -> tuple[list, np.ndarray]:
    """(``cell(v)`` of each distinct value, the code of each of ``values`` in that list):
    ``cell`` is called once per distinct value."""
    if not len(values):
        return [], np.zeros(0, dtype=np.int64)
    uniq, inverse = np.unique(values, return_inverse=True)
    return [cell(v) for v in uniq.tolist()], inverse.reshape(-1)


def sorted_by(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(stable order of the columns of ``keys`` by its rows, first row first; the keys as one
    comparable array per column in that order). The rows are packed into one int64 when their
    ranges fit in 63 bits (one sort instead of a six-key lexsort), else lexsorted as they are."""
    n = keys.shape[1]
    if n and keys.min() >= 0:
        bits = [int(row.max()).bit_length() for row in keys]
        if sum(bits) <= 63:
            packed = np.zeros(n, dtype=np.int64)
            for row, width in zip(keys, bits, strict=True):
                packed = (packed << width) | row
            order = np.argsort(packed, kind="stable")
            return order, packed[order][None, :]
    order = np.lexsort(tuple(keys[::-1]))
    return order, keys[:, order]


def break_ties_by_id(order: np.ndarray, sorted_keys: np.ndarray, ids: list[str]) -> np.ndarray:
    """Rows whose sort keys are all equal (two links between the same two ports) by link id;
    ``sorted_keys`` are the keys in ``order`` (one column per row)."""
    if len(order) < 2:
        return order
    same = (sorted_keys[:, 1:] == sorted_keys[:, :-1]).all(axis=0)
    if not same.any():
        return order
    out = order.copy()
    starts = np.flatnonzero(same & ~np.concatenate([[False], same[:-1]]))
    for s in starts.tolist():
        e = s + 1
        while e < len(same) and same[e]:
            e += 1
        out[s : e + 1] = sorted(order[s : e + 1].tolist(), key=ids.__getitem__)
    return out
