"""The column encoder and the parallel-deflate zip of the XLSX writer's plain sheets."""

from __future__ import annotations

import io
import math
import zipfile

import openpyxl

from model.export import xlsx_columns, xlsx_writer
from model.export.xlsx_writer import Sheet, workbook_bytes
from model.export.zip_deflate import deflate_member, small_member, zip_bytes


def _read_back(columns, monkeypatch, chunk_rows=3):
    monkeypatch.setattr(xlsx_writer, "_CHUNK_ROWS", chunk_rows)  # rows span several chunks
    monkeypatch.setattr(xlsx_columns, "_SAMPLE_ROWS", 4)
    header = tuple(f"c{i}" for i in range(len(columns)))
    data = workbook_bytes([Sheet("Plain", header, (), plain=True, columns=columns)])
    assert zipfile.ZipFile(io.BytesIO(data)).testzip() is None  # every CRC matches
    ws = openpyxl.load_workbook(io.BytesIO(data))["Plain"]
    return [[c.value for c in row] for row in ws.iter_cols(min_row=2, max_row=ws.max_row)]


def _same(got, want) -> bool:
    """Equal with the type kept (1 is not 1.0 nor True) and the sign of a zero."""
    if isinstance(want, float) and not math.isfinite(want):
        return got is None
    if isinstance(want, float) and want == 0.0:
        return isinstance(got, float) and math.copysign(1, got) == math.copysign(1, want)
    return type(got) is type(want) and got == want


def test_columns_of_every_kind_read_back_as_written(monkeypatch):
    n = 11
    columns = [
        [f"id-{i}" for i in range(n)],  # mostly distinct, plain: inline by join/split
        [f"id-{i}" if i != 7 else None for i in range(n)],  # mostly distinct with a gap
        [f"x & <{i}>" for i in range(n)],  # mostly distinct, escaped
        ["rack A", "rack B", None] * 3 + ["rack A", "x005F_y"],  # repeated: shared, unsafe text
        [0.0, -0.0, 1.5, 1.5, float("nan"), 2.25, -0.0, 0.0, float("inf"), 1.5, 2.25],
        [1, 2, 1, 2, None, 1, 2, 1, 2, 1, 2],
        [True, False, True, True, False, None, True, False, True, True, False],
        [1, 1.0, True, "1", None, 2, 2.0, False, "2", 0, -0.0],  # mixed kinds
        [" lead", "trail ", "tab\there", "bell\x07", "ünï", " lead", "a", "a", "a", "a", "a"],
    ]
    got = _read_back(columns, monkeypatch)
    for c, (values, read) in enumerate(zip(columns, got, strict=True)):
        for r, (want, value) in enumerate(zip(values, read, strict=False)):
            if isinstance(want, str):
                want = want.replace("\x07", "")
            ok = value is None if want is None else _same(value, want)
            assert ok, (c, r, want, value)


def test_a_text_column_with_a_number_further_down_is_not_taken_for_plain_text(monkeypatch):
    columns = [[f"t{i}" for i in range(9)] + [5]]
    assert _read_back(columns, monkeypatch) == [[f"t{i}" for i in range(9)] + [5]]


def test_parallel_deflate_chunks_make_one_valid_member():
    chunks = [bytes([65 + i % 26]) * 50_000 + b"%d" % i for i in range(9)]
    members = [
        small_member("small.txt", b"hello", 1),
        deflate_member("big.xml", iter(chunks), 1, workers=2),
        deflate_member("empty.xml", iter(()), 1),
    ]
    archive = zipfile.ZipFile(io.BytesIO(zip_bytes(members)))
    assert archive.testzip() is None
    assert archive.read("big.xml") == b"".join(chunks)
    assert archive.read("small.txt") == b"hello"
    assert archive.read("empty.xml") == b""
