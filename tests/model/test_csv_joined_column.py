"""A text column given as parts joined per row (csv_writer.JoinedColumn) writes the same CSV
bytes as its cells in full: formula starts, quotes, commas, line breaks and empty parts
anywhere in the parts, alone or beside other columns, with and without spreadsheet safety."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from model.outputs.writers.csv_writer import JoinedColumn, csv_bytes, csv_column_bytes

# Texts that reach every branch: a formula start, a quote, a comma, CR / LF, empty, plain
_TEXT = st.sampled_from(["", "a", "b c", "=1+1", "-x", "@", "\t", '"q"', "R1,R3", "\r", "x\ny"])


@st.composite
def _joined(draw):
    n = draw(st.integers(0, 12))
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        values = draw(st.lists(_TEXT, min_size=1, max_size=5))
        codes = draw(st.lists(st.integers(0, len(values) - 1), min_size=n, max_size=n))
        parts.append((values, np.array(codes, dtype=np.int64)))
    return parts


def _cells(parts) -> list[str]:
    n = len(parts[0][1])
    return ["".join(values[codes[k]] for values, codes in parts) for k in range(n)]


@settings(max_examples=300)
@given(_joined(), st.integers(0, 2), st.booleans())
def test_a_joined_column_writes_the_bytes_of_its_cells(parts, place, safe):
    """``place``: the joined column first, in the middle or last of three columns."""
    cells = _cells(parts)
    column = JoinedColumn(parts)
    assert list(column) == cells and column[:3] == cells[:3] and len(column) == len(cells)
    other = [f"o{k}" for k in range(len(cells))]
    columns: list = [other, other]
    columns.insert(place, column)
    full = [other, other]
    full.insert(place, cells)
    rows = list(zip(*full, strict=True))
    expected = csv_bytes(["x", "y", "z"], rows, spreadsheet_safe=safe)
    assert csv_column_bytes(["x", "y", "z"], columns, spreadsheet_safe=safe) == expected


@given(_joined(), st.booleans())
def test_a_lone_joined_column_writes_the_bytes_of_its_cells(parts, safe):
    cells = _cells(parts)
    expected = csv_bytes(["x"], [(c,) for c in cells], spreadsheet_safe=safe)
    assert csv_column_bytes(["x"], [JoinedColumn(parts)], spreadsheet_safe=safe) == expected


def test_many_rows_in_several_pieces_and_a_separator_of_its_own():
    """More rows than one piece joins, and a last part of more distinct texts than a quarter
    of the rows (its separator then an item of its own)."""
    n = 5000
    ids = [f"l-{k}" for k in range(n)]
    heads = ["A01-U2-", "=B", 'p"1:']
    parts = [
        (heads, np.arange(n, dtype=np.int64) % 3),
        (ids, np.arange(n, dtype=np.int64)[::-1].copy()),
        ([",x", ""], np.arange(n, dtype=np.int64) % 2),
        (ids, np.arange(n, dtype=np.int64)),
    ]
    cells = _cells(parts)
    expected = csv_bytes(["a", "b"], [(c, k) for k, c in enumerate(cells)])
    got = csv_column_bytes(["a", "b"], [JoinedColumn(parts), list(range(n))])
    assert got == expected
