"""The column encoder and the parallel-deflate zip of the XLSX writer's plain sheets."""

from __future__ import annotations

import io
import math
import zipfile

import numpy as np
import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from model.outputs.writers import xlsx_columns, xlsx_writer
from model.outputs.writers.xlsx_writer import Sheet, workbook_bytes
from model.outputs.writers.zip_deflate import concatenated, deflate_member, small_member, zip_bytes


def _read_back(columns, monkeypatch, chunk_rows=3):
    monkeypatch.setattr(xlsx_writer, "_CHUNK_ROWS", chunk_rows)  # rows span several chunks
    monkeypatch.setattr(xlsx_columns, "_SAMPLE_ROWS", 4)
    header = tuple(f"c{i}" for i in range(len(_full(columns))))
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


def test_mostly_distinct_text_is_judged_plain_chunk_by_chunk(monkeypatch):
    """An id-like column is inline; a chunk holding a character to escape or a value that is
    not text is made cell by cell, the other chunks by one join, and no shared string is made."""
    monkeypatch.setattr(xlsx_columns, "_SAMPLE_ROWS", 4)
    values = [f"id-{i}" for i in range(12)]
    values[7], values[10] = "a&b", None
    strings: dict[str, int] = {}
    column = xlsx_columns._Column(values, strings)
    assert column.inline_plain and not strings
    plain, no_cell = column.cells(0, 3)
    assert plain == [b'<c t="inlineStr"><is><t>id-%d</t></is></c>' % i for i in range(3)]
    assert no_cell == []
    escaped, no_cell = column.cells(6, 9)
    assert escaped[1] == b'<c t="inlineStr"><is><t>a&amp;b</t></is></c>' and no_cell == []
    with_gap, no_cell = column.cells(9, 12)
    assert with_gap[1] == b"" and no_cell == [1]


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


def test_two_halves_deflated_apart_make_the_member_of_the_whole():
    """``concatenated``: the halves of a sheet encoded in two processes are one member."""
    chunks = [bytes([65 + i % 26]) * 30_000 + b"%d" % i for i in range(7)]
    whole = deflate_member("s.xml", iter(chunks), 1)
    first = deflate_member("s.xml", iter(chunks[:3]), 1)
    joined = concatenated(first, deflate_member("s.xml", iter(chunks[3:]), 1))
    assert (joined.crc, joined.size, joined.parts) == (whole.crc, whole.size, whole.parts)
    archive = zipfile.ZipFile(io.BytesIO(zip_bytes([joined])))
    assert archive.testzip() is None and archive.read("s.xml") == b"".join(chunks)
    with pytest.raises(ValueError):
        concatenated(small_member("t.xml", b"x", 1), first)


def _coded(rows: list[tuple], codes: list[int], width: int):
    from model.outputs.writers.csv_writer import CodedColumns

    return CodedColumns(rows, np.array(codes, dtype=np.int64), width)


def _full(columns) -> list[list]:
    from model.outputs.writers.csv_writer import CodedColumns

    out = []
    for column in columns:
        out.extend(column.columns() if isinstance(column, CodedColumns) else [list(column)])
    return out


def _chunks(columns, chunk_rows):
    strings = {"already there": 0}
    xml = b"".join(xlsx_columns.column_chunks(columns, 2, strings, chunk_rows))
    return xml, strings


def test_coded_columns_make_the_xml_and_shared_strings_of_their_full_columns(monkeypatch):
    """A run of columns given as distinct rows and codes (the schedule's CSV columns) encodes
    to the very bytes, and the same shared strings in the same order, as the columns in full:
    with gaps inside a row and before it, -0.0 beside 0.0, mixed kinds, a code -1 (the last
    row), distinct rows no row uses, text that goes shared, inline or inline by join."""
    monkeypatch.setattr(xlsx_columns, "_SAMPLE_ROWS", 4)
    rng = np.random.default_rng(7)
    n = 40
    groups = [
        (  # rack, U, device: repeated text, ints
            [("r1", 3, "leaf-1"), ("r1", 5, "leaf-2"), ("r2", 3, "x & y"), ("unused", 9, "z")],
            rng.integers(0, 3, n).tolist(),
        ),
        (  # lengths with gaps: none, only the second, both
            [
                (400, "mmf", 2.5, 3.0),
                (400.5, "dac", None, None),
                (800, "mmf", 1.25, None),
                (800, "", None, 4.0),
                (0.0, "aoc", -0.0, 0.0),
                (1, "=x", float("nan"), True),
            ],
            [-1, *rng.integers(0, 6, n - 1).tolist()],
        ),
        ([(f"port{i}",) for i in range(n)], rng.permutation(n).tolist()),  # mostly distinct
        ([(None,), (" lead",), ("x005F_y",)], rng.integers(0, 3, n).tolist()),
    ]
    ids = [f"id-{i}" for i in range(n)]
    gappy = [None if i % 5 == 0 else float(i) for i in range(n)]
    columns = [ids, _coded(*groups[0], 3), gappy, _coded(*groups[1], 4), _coded(*groups[2], 1)]
    columns += [_coded(*groups[3], 1), gappy, _coded(*groups[1], 4)]
    for chunk_rows in (7, n):
        assert _chunks(columns, chunk_rows) == _chunks(_full(columns), chunk_rows)


def test_a_plain_sheet_of_coded_columns_reads_back_as_its_full_columns(monkeypatch):
    columns = [
        [f"c{i}" for i in range(9)],
        _coded([("a", 1, None), ("b", None, 2.5)], [0, 1, 1, 0, 0, 1, 0, 1, 1], 3),
    ]
    got = _read_back(columns, monkeypatch)
    assert got == _full(columns)


def test_a_plain_sheet_whose_first_column_is_coded_reads_back_as_its_full_columns(monkeypatch):
    """A coded group first gives each row its opening tag too (the rows came out without
    their <row> tags, a workbook openpyxl could not open; found by a review, no sheet of the
    product starts with one yet)."""
    columns = [
        _coded([("A01", 2), ("B02", 7)], [0, 1, 0, 0, 1, 1, 0, 1, 0], 2),
        [f"l-{i}" for i in range(9)],
    ]
    got = _read_back(columns, monkeypatch)
    assert got == _full(columns)


def test_the_workbook_schedule_sheet_never_makes_the_full_columns(tmp_path):
    """The XLSX takes the schedule's coded columns: the per-row lists are left unmade, and
    the sheet is the one the full columns make."""
    from model.engine.routed_links import RoutedLinks
    from model.files.design_file import load_design, save_design
    from model.generators.generate import generate
    from model.outputs.bom_files import bom_sheets
    from model.outputs.schedule import schedule_table

    design = generate("leaf-spine", nodes=16, node_type="dgx-h100", switch="qm9700")
    path = tmp_path / "d.hall.json"
    save_design(design, path)
    design = load_design(path)  # as the command has it: just loaded
    plant = RoutedLinks(design)
    table = schedule_table(design, plant)
    sheets = bom_sheets([], [], table, [])
    cabling = sheets[2]
    assert table.coded is not None and cabling.columns is table.coded
    encoded = xlsx_columns.columns_xml(cabling.columns, 2)
    assert table._made is None  # nothing asked for the full lists
    assert encoded == xlsx_columns.columns_xml(table.column_list(), 2)


@given(st.lists(st.integers(0, 30), max_size=200))
def test_first_use_order_lists_each_code_present_once_in_order_of_first_row(codes):
    want = list(dict.fromkeys(codes))
    assert xlsx_columns._first_use_order(np.array(codes, dtype=np.int64), 31) == want


def test_the_column_encoder_cleans_and_names_columns_as_openpyxl_does():
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.utils import get_column_letter

    assert xlsx_columns.ILLEGAL_CHARACTERS_RE.pattern == ILLEGAL_CHARACTERS_RE.pattern
    assert all(xlsx_columns.column_letter(c) == get_column_letter(c) for c in range(1, 18279))


def test_a_plain_sheet_s_rows_are_encoded_without_importing_openpyxl():
    """openpyxl (~0.1 s to import) is for the workbook's small sheets, made while a forked
    child encodes half the big one: the BOM sheets and the rows must not need it first."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys\n"
        "from model.outputs import bom_files as bom_export\n"
        "from model.outputs.writers import xlsx_writer\n"
        "from model.outputs.writers.xlsx_columns import SheetRows\n"
        "rows = SheetRows([['a', 'b'], [1, 2]], 2, {})\n"
        "xml = b''.join(rows.chunks(0, rows.count, 10))\n"
        "print(bom_export._letter('quantity'), b'<row r=\"3\">' in xml,"
        " any(m.startswith('openpyxl') for m in sys.modules))\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[1:] == ["True", "False"] and out[0].isalpha()


@pytest.mark.parametrize("given_as", ["columns", "rows"])
def test_a_plain_sheet_past_excels_rows_goes_on_in_continuation_sheets(monkeypatch, given_as):
    """Excel opens 1,048,575 data rows a sheet: a longer plain sheet (the cabling schedule of
    a hall past ~1M segments) goes on in "NAME (2)"..., each under the header, each row once
    and in order, numbered from 2 (shown here with 4 rows a sheet)."""
    monkeypatch.setattr(xlsx_writer, "_CHUNK_ROWS", 3)
    columns = [
        [f"c{i}" for i in range(11)],
        _coded([("a", 1, None), ("b", None, 2.5)], [0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1], 3),
    ]
    full = _full(columns)
    if given_as == "columns":
        sheet = Sheet("Cabling schedule", ("id", "x", "y", "z"), (), plain=True, columns=columns)
    else:
        rows = [tuple(col[i] for col in full) for i in range(11)]
        sheet = Sheet("Cabling schedule", ("id", "x", "y", "z"), rows, plain=True)
    small = Sheet("Warnings", ("code",), [("w1",)], plain=True)
    book = openpyxl.load_workbook(io.BytesIO(workbook_bytes([sheet, small], max_rows=4)))
    names = ["Cabling schedule", "Cabling schedule (2)", "Cabling schedule (3)"]
    assert book.sheetnames == [*names, "Warnings"]
    got: list[list] = [[] for _ in full]
    for name in names:
        ws = book[name]
        assert [c.value for c in ws[1]] == ["id", "x", "y", "z"]
        assert ws.max_row <= 5 and ws["A2"].value is not None  # rows from 2, under the header
        for k, col in enumerate(ws.iter_cols(min_row=2, max_row=ws.max_row)):
            got[k].extend(c.value for c in col)
    assert got == full
    assert [c.value for c in book["Warnings"]["A"]] == ["code", "w1"]


def test_a_continuation_sheets_name_fits_excel_and_is_never_one_already_there():
    """31 characters at most, and a name another sheet has is skipped (its rows were lost)."""
    long_name = "Cabling schedule, every fabric"  # 30 characters
    sheets = [
        Sheet(long_name, ("n",), [(i,) for i in range(3)], plain=True),
        Sheet("Links", ("n",), [(i,) for i in range(3)], plain=True),
        Sheet("Links (2)", ("n",), [("own",)], plain=True),
    ]
    book = openpyxl.load_workbook(io.BytesIO(workbook_bytes(sheets, max_rows=2)))
    assert all(len(name) <= 31 for name in book.sheetnames)
    assert len(book.sheetnames) == 5 == len(set(book.sheetnames))
    assert book.sheetnames[1] == "Cabling schedule, every fab (2)"  # 27 + 4
    assert [c.value for c in book["Links (2)"]["A"]] == ["n", "own"]
    assert [c.value for c in book["Links (3)"]["A"]] == ["n", 2]


@pytest.mark.parametrize(
    "part",
    [
        ["A001", "su1-node01", "p1/1", ""],
        ["only-one"],
        ["Bâtiment-é", "zone Ω 2"],  # printable, not ASCII: judged on the text
    ],
)
def test_a_plain_chunk_made_by_one_split_is_its_cells_one_by_one(part):
    assert xlsx_columns._inline_plain_cells(part) == list(map(xlsx_columns.cell_bytes, part))


@pytest.mark.parametrize(
    "part", [["a", " lead"], ["trail ", "b"], ["a&b"], ["x<y"], ["bell\x07"], ["\ud800"], ["é\x01"]]
)
def test_a_chunk_with_anything_to_escape_or_clean_is_not_plain(part):
    assert xlsx_columns._inline_plain_cells(part) is None


def _cell_by_cell(columns: list[list], row0: int) -> bytes:
    """The rows of ``columns`` made one cell at a time (the reference): each value's cell,
    with its ``r`` when the cell before it in the row was left out."""
    out = []
    for i, row in enumerate(zip(*columns, strict=True)):
        cells, after_gap = [], False
        for c, value in enumerate(row):
            cell = xlsx_columns.cell_bytes(value)
            if cell and after_gap:
                cell = b'<c r="%s%d"' % (xlsx_columns.column_letter(c + 1).encode(), row0 + i)
                cell += xlsx_columns.cell_bytes(value)[2:]
            cells.append(cell)
            after_gap = not cell
        out.append(b'<row r="%d">' % (row0 + i) + b"".join(cells) + b"</row>")
    return b"".join(out)


@pytest.mark.parametrize(
    "parts",
    [
        [["A001", "B2", "C3"], ["su1-node01", "", "x"], ["p1/1 to p2/2", 'x=y "q"', "z"]],
        [["only-one", "two", "three"]],
        [["Bâtiment-é", "zone Ω 2", "c"], ["a", "b", "c"]],  # printable, not ASCII
    ],
)
def test_a_chunk_of_plain_inline_columns_is_its_cells_one_by_one(parts, monkeypatch):
    """Plain inline text goes into the chunk's one join as it is, between the tags every row
    repeats: the same bytes as each value's own cell."""
    monkeypatch.setattr(xlsx_columns, "_SAMPLE_ROWS", 4)
    rows = xlsx_columns.SheetRows(parts, 7, {})
    assert all(column.inline_plain for column in rows._encoded)
    for chunk_rows in (1, 2, 3):
        assert b"".join(rows.chunks(0, 3, chunk_rows)) == _cell_by_cell(parts, 7)


@pytest.mark.parametrize(
    "bad",
    [" lead", "trail ", "a&b", "x<y", "y>x", "bell\x07", "é\x01", "del\x7f", "nul\x00", None, 5],
)
def test_a_chunk_with_anything_but_plain_text_is_made_cell_by_cell(bad, monkeypatch):
    """A value to escape, clean, leave out or write as a number: that column's cells of the
    chunk are made one by one (the others still go in as text), the same bytes as the
    reference, a cell after a left-out one with its ``r``."""
    monkeypatch.setattr(xlsx_columns, "_SAMPLE_ROWS", 2)
    parts = [["a1", "a2", "a3", "a4"], ["b1", "b2", bad, "b4"], ["c1", "c2", "c3", "c4"]]
    rows = xlsx_columns.SheetRows(parts, 2, {})
    assert all(column.inline_plain for column in rows._encoded)
    got = b"".join(rows.chunks(0, 4, 2))
    assert got == _cell_by_cell(parts, 2)


def test_a_run_of_inline_columns_after_a_left_out_cell_reads_back_in_its_columns(monkeypatch):
    """The run's first cell after a row with no cell before it carries its reference."""
    n = 9
    columns = [
        [f"id-{i}" for i in range(n)],
        [1, 2, None, 1, 2, None, 1, 2, 1],  # no cell in rows 2 and 5
        [f"a-{i}" for i in range(n)],  # with the next: a run of plain inline text
        [f"b-{i}" for i in range(n)],
    ]
    assert _read_back(columns, monkeypatch) == columns


def _plain_one_by_one(texts: list[str], escapes: bool) -> bool:
    """The reference of plain_text: each text printable, nothing to escape (``escapes``: or
    only ``&<>``), no space at either end."""
    bad = "" if escapes else "&<>"
    return all(
        t.isprintable() and not any(c in t for c in bad) and t == t.strip(" ") for t in texts
    )


@pytest.mark.parametrize("escapes", [False, True])
def test_plain_text_is_judged_as_text_by_text(escapes):
    """The joined check (a translate, the spaces beside each NUL read by numpy) against the
    texts one by one, on lists of short texts drawn from an alphabet of spaces, escapes,
    controls, NULs and non-ASCII letters, empty texts first and last among them."""
    import random

    pick = random.Random(43)
    alphabet = ["a", "b", "-", " ", " ", "&", "<", "\x01", "\x00", "\x7f", "é", "\t"]
    for _ in range(4000):
        texts = [
            "".join(pick.choices(alphabet, k=pick.randrange(4)))
            for _ in range(pick.randrange(1, 5))
        ]
        got = xlsx_columns.plain_text(texts, escapes)
        assert got == _plain_one_by_one(texts, escapes), texts


@pytest.mark.parametrize("start", [2, 990, 999, 1000, 999_995, 1_048_570])
def test_row_numbers_across_thousands_are_written_as_their_numbers(start):
    """A row's number is laid out in two pieces (its thousands with the tag, its last three
    digits): rows crossing a thousand, a million and starting below 1000 read as one by one."""
    parts = [[f"id-{i}" for i in range(30)], [i * 0.5 for i in range(30)]]
    for chunk_rows in (1, 7, 30):
        got = b"".join(xlsx_columns.SheetRows(parts, start, {}).chunks(0, 30, chunk_rows))
        assert got == _cell_by_cell(parts, start)
