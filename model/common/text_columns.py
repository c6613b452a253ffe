"""Text reports built column by column: each value formatted once, each line joined from pieces.

The ``routes`` report, the reasons and the route words are one line of text per link, but the
words come from a handful of columns with few distinct values (a speed, a medium, a length to
two places). :func:`formatted` words each distinct value of a column once and hands back one
piece per row (a numpy object array, indexed in C, not a Python loop); a report is a table of
such pieces, one row per link, that :func:`join_rows` or one ``"".join`` over the table turns
into text without building a string per piece per link.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np


def codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct values in sorted order, index of each value among them): ``np.unique`` with the
    inverse, flat. NaNs share one code (the last); -0.0 and 0.0 share one code."""
    values = np.asarray(values)
    if values.size and (
        values.dtype.kind == "i" or (values.dtype.kind == "u" and values.itemsize < 8)
    ):
        flat = values.reshape(-1).astype(np.int64, copy=False)
        lo, hi = int(flat.min()), int(flat.max())
        if hi - lo <= 4 * len(flat) + 4096:
            # Codes of a compact range of integers (device numbers, route ids, rounded lengths):
            # a count per value and a running rank instead of a sort (the same answer)
            shifted = flat - lo
            present = np.bincount(shifted, minlength=hi - lo + 1) > 0
            rank = np.cumsum(present) - 1
            return (np.flatnonzero(present) + lo).astype(values.dtype), rank[shifted]
    distinct, inverse = np.unique(values, return_inverse=True)
    return distinct, inverse.reshape(-1)


def formatted(values: np.ndarray, fmt: Callable[[object], str]) -> np.ndarray:
    """``fmt(v)`` of each value as an object array, ``fmt`` called once per distinct value.

    Negative zeros are worded apart (``f"{-0.0:.2f}"`` is "-0.00"), as a call per value would.
    """
    values = np.asarray(values)
    out = np.empty(len(values), dtype=object)
    if not len(values):
        return out
    distinct, inverse = codes(values)
    if values.dtype.kind == "f":
        distinct = distinct + 0.0  # the zeros' code words 0.0 (adding 0.0 turns -0.0 into 0.0)
    texts = np.empty(len(distinct), dtype=object)
    texts[:] = [fmt(v) for v in distinct.tolist()]
    out[:] = texts[inverse]
    if values.dtype.kind == "f":
        negative_zero = np.flatnonzero((values == 0) & np.signbit(values))
        if len(negative_zero):
            out[negative_zero] = fmt(-0.0)
    return out


def fixed(values: np.ndarray, places: int, before: str = "", after: str = "") -> np.ndarray:
    """``f"{before}{v:.{places}f}{after}"`` of each value as an object array, the same strings,
    worded once per distinct rounded value rather than once per distinct value (a length to
    the micrometre is nearly always distinct: 93k of 463k routed totals at XL).

    Python rounds the exact binary value, half to even; ``rint`` of the value times 10^places
    gives the same digits unless that product lies within 1e-6 of a half (its own rounding
    error, below 2^30, is under 1e-6), the value is negative (a -0.0 to word) or not finite:
    those few are formatted by Python itself."""
    x = np.asarray(values, dtype=float)
    out = np.empty(len(x), dtype=object)
    if not len(x):
        return out
    scale = 10**places
    scaled = x * scale
    with np.errstate(invalid="ignore"):
        exact = np.isfinite(scaled) & ~np.signbit(x) & (scaled < 2**30)
        exact &= np.abs(scaled - np.floor(scaled) - 0.5) > 1e-6
    units = np.rint(np.where(exact, scaled, 0)).astype(np.int64)[exact]
    if len(units):
        top = int(units.max())
        # Rounded lengths are small integers (a 1 km run is 100,000 hundredths): a table over
        # them, filled where a value occurs, instead of a sort of every value
        dense = top <= 4 * len(units) + 4096
        distinct = np.flatnonzero(np.bincount(units)) if dense else np.unique(units)
        if places:
            words = [
                f"{before}{k // scale}.{k % scale:0{places}d}{after}" for k in distinct.tolist()
            ]
        else:
            words = [f"{before}{k}{after}" for k in distinct.tolist()]
        texts = np.empty(top + 1 if dense else len(distinct), dtype=object)
        texts[distinct if dense else np.arange(len(distinct))] = words
        out[exact] = texts[units if dense else np.searchsorted(distinct, units)]
    rest = np.flatnonzero(~exact)
    if len(rest):
        out[rest] = [f"{before}{v:.{places}f}{after}" for v in x[rest].tolist()]
    return out


def lookup(table: Sequence[str], index: np.ndarray) -> np.ndarray:
    """``table[i]`` for each ``i`` of ``index``, as an object array (fancy indexing in C)."""
    texts = np.empty(len(table), dtype=object)
    texts[:] = list(table)
    return texts[np.asarray(index, dtype=np.int64)]


Columns = list  # of pieces: each a string (the same on every row) or one string per row


def _chunks(n: int, columns: Columns, rows_per_chunk: int) -> Iterator[np.ndarray]:
    """Row-major object tables of the pieces of ``rows_per_chunk`` rows at a time (small enough
    to stay in cache while the columns are copied in)."""
    for start in range(0, n, rows_per_chunk):
        stop = min(start + rows_per_chunk, n)
        table = np.empty((stop - start, len(columns)), dtype=object)
        for k, column in enumerate(columns):
            table[:, k] = column if isinstance(column, str) else column[start:stop]
        yield table


def join_rows(n: int, columns: Columns) -> list[str]:
    """One string per row: its pieces joined."""
    out: list[str] = []
    for table in _chunks(n, columns, 2048):
        out += map("".join, table.tolist())
    return out


def join_chunks(n: int, columns: Columns, rows_per_chunk: int = 2048) -> Iterator[str]:
    """The text of all rows, in chunks of ``rows_per_chunk`` rows (each one string): the text of
    a big report without holding it whole."""
    for table in _chunks(n, columns, rows_per_chunk):
        yield "".join(table.ravel().tolist())
