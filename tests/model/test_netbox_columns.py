"""Column-wise NetBox tables: the CSV chunks are the bytes csv_chunks writes for their rows."""

from __future__ import annotations

import math

import numpy as np
import pytest

from model.outputs.netbox.columns import Lookup, Repeat, Table, table_chunks
from model.outputs.writers.csv_writer import csv_chunks

AWKWARD = ["plain", "=SUM(A1)", "+1", "-x", "@a", 'say "hi"', "a,b", "two\nlines", "", " pad "]


def _same(table: Table, chunk_rows: int) -> list[bytes]:
    got = table_chunks(table, chunk_rows)
    assert got == csv_chunks(table.header, table.rows(), chunk_rows)
    return got


@pytest.mark.parametrize("chunk_rows", [1, 3, 7, 500])
def test_every_kind_of_column_matches_the_row_writer(chunk_rows):
    n = 23
    keys = np.arange(n) % len(AWKWARD)
    lengths = [None if k % 4 == 0 else k * 1.25 for k in range(n)]
    distinct = set(lengths)
    table = Table(
        ("site", "name", "kind", "note", "length", "unit", "u", "tail"),
        [
            Repeat("=site", n),
            Lookup(AWKWARD, keys),  # numpy keys into a list
            Lookup({"a": "x,y", "b": "-b"}, ["a", "b"] * 11 + ["a"]),  # list keys into a dict
            [AWKWARD[(k * 3) % len(AWKWARD)] for k in range(n)],
            Lookup({v: v for v in distinct}, lengths),  # same keys as the next: merged
            Lookup({v: "" if v is None else "m" for v in distinct}, lengths),
            [k if k % 5 else None for k in range(n)],
            Repeat(2.50, n),
        ],
    )
    _same(table, chunk_rows)


def test_a_first_or_last_variable_column_and_negative_codes():
    n = 9
    codes = np.array([-1, 0, 1, -1, 0, 1, 2, -1, 2])
    table = Table(
        ("a", "b", "c"), [Lookup(["x", '"q"', "z", ""], codes), Repeat(1, n), list("abcdefghi")]
    )
    _same(table, 4)


def test_all_repeated_columns_and_one_distinct_value():
    assert _same(Table(("a", "b"), [Repeat("x", 5), Repeat(None, 5)]), 2)[0].endswith(b"x,\r\n")
    _same(Table(("a", "b"), [Lookup(["same"], [0] * 6), Lookup({1: "+"}, [1] * 6)]), 4)


def test_empty_and_narrow_tables_and_nan():
    _same(Table(("a", "b"), [[], Repeat("x", 0)]), 10)
    _same(Table(("a",), [["=x", "y"]]), 1)
    _same(Table(("a", "b"), [[math.nan, 1.0, -0.0, 2.5], Lookup([True, False], [0, 1, 1, 0])]), 3)


def test_rows_and_from_rows_round_trip():
    rows = [("a", 1, None), ("b", 2, 1.5)]
    table = Table.from_rows(("x", "y", "z"), rows)
    assert table.rows() == rows
    assert len(table) == 2
    with pytest.raises(ValueError):
        Table.from_rows(("x", "y"), [("a",)])
    with pytest.raises(ValueError):
        Table(("x", "y"), [["a"], ["b", "c"]])


@pytest.mark.parametrize("chunk_rows", [1, 4, 7, 500])
@pytest.mark.parametrize("first_repeated", [True, False])
def test_small_lookups_with_their_separators_in_their_texts_match_the_row_writer(
    chunk_rows, first_repeated
):
    """A lookup whose table is small beside its rows carries the text after its cell in each
    of its texts (a row's end and the next row's start when it comes last): the same bytes,
    the last row of each file ending the file, whether the row starts with a repeated column
    (a text before the first cell) or with a lookup."""
    n = 61
    columns = [
        Lookup(["x", "y,z", "=q"], np.arange(n) % 3),  # numpy keys into a list: folded
        Repeat("planned", n),
        [f"label {k}" for k in range(n)],  # formatted per block: its separator stays apart
        Lookup({"a": "-a", "b": "b"}, ["a", "b", "b"] * 20 + ["a"]),  # a dict: folded
        Lookup(list(AWKWARD), np.arange(n) % len(AWKWARD)),  # last: the row's end folded in
    ]
    header = ("k", "status", "label", "d", "last")
    if first_repeated:
        columns.insert(0, Repeat("site", n))
        header = ("site", *header)
    _same(Table(header, columns), chunk_rows)


def test_a_large_lookup_keeps_its_separator_apart():
    """A table about as long as its rows (a text per cable) is not copied with the separator:
    the same bytes either way."""
    n = 12
    table = Table(
        ("a", "b"), [Lookup([f"t{k}" for k in range(n)], np.arange(n)[::-1]), Repeat("z", n)]
    )
    _same(table, 5)
