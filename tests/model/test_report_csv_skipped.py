"""read_table(skipped=...): a row csv cannot read is listed and left out, the others read."""

from __future__ import annotations

import csv

import pytest

from model.asbuilt.report_csv import ReportError, read_table

COLUMNS = {"model": ("Model",), "comments": ("Comments",)}


def _file(tmp_path, text: str):
    path = tmp_path / "types.csv"
    path.write_bytes(text.encode("utf-8"))
    return path


def test_a_row_over_csv_s_field_limit_is_skipped_and_the_rows_after_it_read(tmp_path):
    """A quoted cell over 128 KiB holding line breaks and doubled quotes: that row is listed
    by the line it begins on; a multi-line cell, a stray quote inside an unquoted cell and
    CR-only line ends around it read as csv reads them."""
    big = "x" * 200_000
    text = (
        "Model,Comments\r\n"
        'A,"two\nlines"\r\n'
        f'B,"{big}\nHallwright ""type"": {{}}, more"\r\n'
        'C,6" rack\r'
        'D,"say ""hi"""\n'
    )
    skipped: list[tuple[int, str]] = []
    rows = read_table(_file(tmp_path, text), COLUMNS, dialect=csv.excel, skipped=skipped)
    assert rows == [
        (2, {"model": "A", "comments": "two\nlines"}),
        (6, {"model": "C", "comments": '6" rack'}),
        (7, {"model": "D", "comments": 'say "hi"'}),
    ]
    assert [line for line, _ in skipped] == [4] and "field limit" in skipped[0][1]
    with pytest.raises(ReportError, match="line 4: not readable as CSV"):
        read_table(_file(tmp_path, text), COLUMNS, dialect=csv.excel)


def test_without_a_big_row_skipping_reads_what_csv_reads(tmp_path):
    text = 'Model,Comments\n"A, B","x\ny"\n\nC,\n'
    path = _file(tmp_path, text)
    skipped: list[tuple[int, str]] = []
    rows = read_table(path, COLUMNS, dialect=csv.excel, skipped=skipped)
    plain = read_table(path, COLUMNS, dialect=csv.excel)
    assert skipped == [] and [r for _, r in rows] == [r for _, r in plain]
    assert [line for line, _ in rows] == [2, 5]  # the line a row begins on
