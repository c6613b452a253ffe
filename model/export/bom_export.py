"""Bill of materials and cabling schedule files: BOM CSV, schedule CSV, and the XLSX workbook
with the sheets "Summary", "BOM", "Cabling schedule" and "Warnings"."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from model.bom import (
    BOM_COLUMNS,
    SCHEDULE_COLUMNS,
    BomLine,
    ScheduleRow,
    bom_total_line,
    bom_totals,
)
from model.export.csv_writer import write_csv
from model.export.xlsx_writer import Sheet, write_xlsx
from model.findings import Finding

XLSX_SHEETS = ("Summary", "BOM", "Cabling schedule", "Warnings")
BOM_HEADERS = (
    "Category",
    "Part",
    "Description",
    "Length (m)",
    "Quantity",
    "Unit",
    "Unit power (W)",
    "Total power (W)",
    "Unit price (USD, indicative)",
    "Total price (USD, indicative)",
    "Source",
    "Fabric",
)
SUMMARY_HEADERS = ("Item", "Value", "Unit")
WARNING_HEADERS = ("Severity", "Code", "Message", "Objects")
_MONEY = "#,##0.00"
_POWER = "#,##0.0"


def write_bom_csv(path: str | Path, lines: Sequence[BomLine]) -> None:
    """BOM lines with machine-readable headers (units in the names) and a closing Total line."""
    rows = [ln.as_row() for ln in lines] + [bom_total_line(bom_totals(lines)).as_row()]
    write_csv(path, BOM_COLUMNS, rows)


def write_schedule_csv(path: str | Path, rows: Sequence[ScheduleRow]) -> None:
    write_csv(path, SCHEDULE_COLUMNS, [row.as_row() for row in rows])


def bom_sheets(
    summary: Sequence[tuple],
    lines: Sequence[BomLine],
    schedule: Sequence[ScheduleRow],
    findings: Sequence[Finding],
) -> list[Sheet]:
    """The four sheets of the XLSX bill of materials, in order."""
    total = bom_total_line(bom_totals(lines))
    bom_rows = [ln.as_row() for ln in lines] + [total.as_row()]
    bom = Sheet(
        "BOM",
        BOM_HEADERS,
        bom_rows,
        formats={3: "0.0##", 4: "#,##0.#", 6: _POWER, 7: _POWER, 8: _MONEY, 9: _MONEY},
        bold_rows=frozenset({len(bom_rows) - 1}),
    )
    summary_sheet = Sheet(
        "Summary", SUMMARY_HEADERS, [tuple(r) for r in summary], formats={1: "#,##0.###"}
    )
    # Plain cells (no per-cell formats): 400k rows of styled cells would take minutes to write.
    cabling = Sheet(
        "Cabling schedule", SCHEDULE_COLUMNS, [row.as_row() for row in schedule], plain=True
    )
    warnings = Sheet(
        "Warnings",
        WARNING_HEADERS,
        [(f.severity, f.code, f.message, _objects_text(f.objects)) for f in findings],
    )
    return [summary_sheet, bom, cabling, warnings]


def write_bom_xlsx(
    path: str | Path,
    summary: Sequence[tuple],
    lines: Sequence[BomLine],
    schedule: Sequence[ScheduleRow],
    findings: Sequence[Finding],
) -> None:
    write_xlsx(path, bom_sheets(summary, lines, schedule, findings))


def _objects_text(objects: Sequence[str], limit: int = 50) -> str:
    """Ids of a finding's objects; long lists are cut (a cell holds at most 32,767 characters)."""
    text = ", ".join(objects[:limit])
    return text + (f" ... ({len(objects) - limit} more)" if len(objects) > limit else "")
