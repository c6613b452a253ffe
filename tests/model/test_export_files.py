"""CSV and XLSX writers: headers, numbers as numbers, the four sheets, atomic replacement."""

from __future__ import annotations

import csv
import io
import os

import openpyxl
import pytest

from model.outputs.bom import BOM_COLUMNS, bom_lines, bom_totals, export_findings, summary_rows
from model.outputs.bom_files import (
    BOM_HEADERS,
    SCHEDULE_HEADERS,
    XLSX_SHEETS,
    bom_sheets,
    write_bom_csv,
    write_bom_xlsx,
    write_schedule_csv,
)
from model.outputs.schedule import SCHEDULE_COLUMNS, schedule_rows
from model.outputs.writers import ExportError
from model.outputs.writers.csv_writer import csv_bytes
from model.outputs.writers.xlsx_writer import workbook_bytes
from tests.model.bom_test_helpers import plant_of


@pytest.fixture
def exported(pod):
    plant = plant_of(pod)
    lines = bom_lines(pod, plant)
    findings = export_findings(pod, plant)
    return pod, plant, lines, schedule_rows(pod, plant), findings


def _read_csv(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_bom_csv_has_headers_lines_and_a_total(tmp_path, exported):
    _, _, lines, _, _ = exported
    out = tmp_path / "bom.csv"
    write_bom_csv(out, lines)
    rows = _read_csv(out)
    assert tuple(rows[0]) == BOM_COLUMNS
    assert len(rows) == 1 + len(lines) + 1
    assert rows[-1][0] == "Total"
    totals = bom_totals(lines)
    assert float(rows[-1][BOM_COLUMNS.index("total_price_usd")]) == pytest.approx(totals.price_usd)
    server = next(r for r in rows if r[0] == "GPU servers")
    assert server[BOM_COLUMNS.index("quantity")] == "4"


def test_schedule_csv_round_trips(tmp_path, exported):
    _, _, _, schedule, _ = exported
    out = tmp_path / "schedule.csv"
    write_schedule_csv(out, schedule)
    rows = _read_csv(out)
    assert tuple(rows[0]) == SCHEDULE_COLUMNS
    assert len(rows) == 1 + len(schedule)
    assert rows[1][0] == schedule[0].cable_id
    assert (
        float(rows[1][SCHEDULE_COLUMNS.index("ordered_length_m")]) == schedule[0].ordered_length_m
    )


def test_csv_writes_empty_cells_for_missing_values_and_defuses_formulas():
    data = csv_bytes(("a", "b", "c"), [(None, float("nan"), "=cmd()"), (1.0, 2.5, "x")])
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    assert rows[1] == ["", "", "'=cmd()"]
    assert rows[2] == ["1", "2.5", "x"]
    raw = csv_bytes(("a",), [("=x",)], spreadsheet_safe=False)
    assert raw.endswith(b"=x\r\n")


def test_xlsx_reads_back_with_four_sheets_frozen_headers_and_numbers(tmp_path, exported):
    design, plant, lines, schedule, findings = exported
    out = tmp_path / "bom.xlsx"
    write_bom_xlsx(out, summary_rows(design, plant, lines, findings), lines, schedule, findings)
    book = openpyxl.load_workbook(out)
    assert (
        book.sheetnames == list(XLSX_SHEETS) == ["Summary", "BOM", "Cabling schedule", "Warnings"]
    )
    for ws in book.worksheets:
        assert ws.freeze_panes == "A2"
        for col in range(1, ws.max_column + 1):
            letter = openpyxl.utils.get_column_letter(col)
            width = ws.column_dimensions[letter].width
            header = ws.cell(1, col).value
            assert width >= len(str(header)), (ws.title, header, width)
    bom = book["BOM"]
    assert tuple(c.value for c in bom[1]) == BOM_HEADERS
    assert any("(W)" in h for h in BOM_HEADERS) and any("USD" in h for h in BOM_HEADERS)
    qty_col = BOM_HEADERS.index("Quantity") + 1
    price_col = BOM_HEADERS.index("Total price (USD, indicative)") + 1
    qty_letter = openpyxl.utils.get_column_letter(qty_col)
    for row in range(2, bom.max_row):
        value = bom.cell(row, price_col).value  # a formula: the purchaser's edits flow through
        assert value is None or value.startswith(f"={qty_letter}{row}*")
    assert bom.cell(2, qty_col).value == 4  # the GPU servers, as a number
    assert bom.cell(bom.max_row, 1).value == "Total"
    assert bom.cell(bom.max_row, price_col).value.startswith("=SUM(")
    assert bom_totals(lines).price_usd == pytest.approx(
        sum(ln.total_price_usd or 0 for ln in lines)
    )
    sched = book["Cabling schedule"]
    # Headers a reader reads (the CSV keeps the machine names), in the CSV's order
    assert tuple(c.value for c in sched[1]) == tuple(SCHEDULE_HEADERS[c] for c in SCHEDULE_COLUMNS)
    assert not any("_" in c.value for c in sched[1])
    assert sched.max_row == 1 + len(schedule)
    assert isinstance(sched.cell(2, SCHEDULE_COLUMNS.index("length_m") + 1).value, float)
    summary = {r[0].value: r[1].value for r in book["Summary"].iter_rows(min_row=2)}
    assert summary["GPUs"] == 32
    assert summary["Switches (scale-out and management)"] == 2


def test_xlsx_keeps_formula_like_text_as_text():
    from model.outputs.writers.xlsx_writer import Sheet

    data = workbook_bytes([Sheet("S", ("name",), [('=HYPERLINK("x")',), ("ok\x01",)])])
    ws = openpyxl.load_workbook(io.BytesIO(data))["S"]
    assert ws["A2"].value == '=HYPERLINK("x")' and ws["A2"].data_type == "s"
    assert ws["A3"].value == "ok"


def test_warnings_sheet_lists_the_findings(tmp_path, exported):
    from model.common.findings import Finding

    design, plant, lines, schedule, _ = exported
    findings = [
        Finding(
            code="NO_MEDIUM",
            severity="error",
            message="link l-1: none reaches",
            objects=tuple(f"l-{i}" for i in range(200)),
        )
    ]
    sheets = bom_sheets(summary_rows(design, plant, lines, findings), lines, schedule, findings)
    ws = openpyxl.load_workbook(io.BytesIO(workbook_bytes(sheets)))["Warnings"]
    assert [c.value for c in ws[2]][:3] == ["error", "NO_MEDIUM", "link l-1: none reaches"]
    assert ws.cell(2, 4).value.endswith("(150 more)")


def test_many_warnings_are_written_as_text_with_the_sheets_look(exported):
    """The Warnings sheet takes the plain rows' fast path (thousands of findings in a big
    hall): text that looks like a formula stays text, control characters are dropped, and the
    header is bold and frozen as on every sheet."""
    from model.common.findings import Finding

    design, plant, lines, schedule, _ = exported
    findings = [
        Finding(code="X", severity="warning", message=f"link l-{i}: far", objects=(f"l-{i}",))
        for i in range(3000)
    ]
    findings.append(Finding(code="Y", severity="error", message="=SUM(A1)\x07", objects=()))
    sheets = bom_sheets(summary_rows(design, plant, lines, findings), lines, schedule, findings)
    assert next(s for s in sheets if s.name == "Warnings").plain
    ws = openpyxl.load_workbook(io.BytesIO(workbook_bytes(sheets)))["Warnings"]
    assert ws.max_row == 3002 and ws.freeze_panes == "A2" and ws["A1"].font.bold
    assert [c.value for c in ws[2]] == ["warning", "X", "link l-0: far", "l-0"]
    assert ws["C3002"].value == "=SUM(A1)" and ws["C3002"].data_type == "s"


def test_a_failed_write_leaves_the_previous_file_and_no_temporary(tmp_path, exported):
    _, _, lines, _, _ = exported
    out = tmp_path / "bom.csv"
    out.write_bytes(b"previous")
    os.chmod(tmp_path, 0o500)
    try:
        if os.access(tmp_path, os.W_OK):  # running as root: permissions do not stop us
            pytest.skip("cannot make a read-only folder here")
        with pytest.raises(ExportError):
            write_bom_csv(out, lines)
    finally:
        os.chmod(tmp_path, 0o700)
    assert out.read_bytes() == b"previous"
    assert os.listdir(tmp_path) == ["bom.csv"]


def test_missing_folder_is_refused_with_a_sentence(tmp_path, exported):
    _, _, lines, _, _ = exported
    with pytest.raises(ExportError, match="does not exist"):
        write_bom_csv(tmp_path / "nope" / "bom.csv", lines)
    assert not (tmp_path / "nope").exists()


def test_a_row_of_the_wrong_width_fails_before_anything_is_written(tmp_path):
    from model.outputs.writers.csv_writer import write_csv

    out = tmp_path / "x.csv"
    with pytest.raises(ValueError):
        write_csv(out, ("a", "b"), [(1, 2), (3,)])
    assert not out.exists() and os.listdir(tmp_path) == []


def test_a_write_failing_at_the_last_step_keeps_the_old_file(tmp_path, exported, monkeypatch):
    _, _, lines, _, _ = exported
    out = tmp_path / "bom.csv"
    out.write_bytes(b"previous")

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(ExportError, match="No space left"):
        write_bom_csv(out, lines)
    monkeypatch.undo()
    assert out.read_bytes() == b"previous"
    assert os.listdir(tmp_path) == ["bom.csv"]


def test_plain_sheet_rows_read_back_exactly(monkeypatch):
    from model.outputs.writers import xlsx_writer
    from model.outputs.writers.xlsx_writer import Sheet

    monkeypatch.setattr(xlsx_writer, "_CHUNK_ROWS", 2)  # rows span several chunks

    rows = [
        ("a & b <c>", 1, 2.5, None, True),
        (" lead", -3, 1e-7, "=SUM(A1)", False),
        ("bell\x07", 0, float("nan"), "ünïcødé ⇄", None),
    ]
    book = openpyxl.load_workbook(
        io.BytesIO(
            workbook_bytes(
                [
                    Sheet("First", ("x",), [(1,)]),
                    Sheet("Plain & simple", ("s", "i", "f", "e", "b"), rows, plain=True),
                ]
            )
        )
    )
    ws = book["Plain & simple"]
    assert ws.freeze_panes == "A2"
    got = [tuple(c.value for c in r) for r in ws.iter_rows(min_row=2)]
    assert got == [
        ("a & b <c>", 1, 2.5, None, True),
        (" lead", -3, 1e-7, "=SUM(A1)", False),
        ("bell", 0, None, "ünïcødé ⇄", None),
    ]
    assert ws["D3"].data_type == "s"
    assert book["First"]["A2"].value == 1
