"""XLSX writer (openpyxl, write-only mode so 400k-row schedules fit in memory).

Each sheet gets a bold header row that stays frozen, an auto-filter, column widths that fit the
content (measured on the header and the first rows) and numbers stored as numbers with a display
format per column. Text that a spreadsheet would take for a formula stays text.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from model.export import write_file

_HEADER_FONT = Font(bold=True)
_HEADER_FILL = PatternFill("solid", fgColor="DDE4EE")
_WIDTH_SAMPLE_ROWS = 2000
_MAX_WIDTH = 70


@dataclass
class Sheet:
    """One worksheet: ``formats`` maps a column index to an Excel number format."""

    name: str
    header: Sequence[str]
    rows: Sequence[Sequence[object]]
    formats: dict[int, str] = field(default_factory=dict)
    bold_rows: frozenset[int] = frozenset()  # 0-based data row indices shown bold (totals)


def _value(value: object) -> object:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, str):
        return ILLEGAL_CHARACTERS_RE.sub("", value)
    return value


def _width(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, float):
        return len(f"{value:,.2f}")
    if isinstance(value, int):
        return len(f"{value:,}")
    return max((len(line) for line in str(value).splitlines()), default=0)


def _column_widths(sheet: Sheet) -> list[float]:
    widths = [len(h) for h in sheet.header]
    for row in sheet.rows[:_WIDTH_SAMPLE_ROWS]:
        for col, value in enumerate(row):
            widths[col] = max(widths[col], _width(value))
    return [min(w + 2, _MAX_WIDTH) for w in widths]


def _write_sheet(book: Workbook, sheet: Sheet) -> None:
    ws = book.create_sheet(sheet.name)
    for col, width in enumerate(_column_widths(sheet), start=1):
        ws.column_dimensions[get_column_letter(col)].width = width
    ws.freeze_panes = "A2"
    if sheet.rows:
        ws.auto_filter.ref = (f"A1:{get_column_letter(len(sheet.header))}"
                              f"{len(sheet.rows) + 1}")
    header = []
    for title in sheet.header:
        cell = WriteOnlyCell(ws, value=title)
        cell.font = _HEADER_FONT
        cell.fill = _HEADER_FILL
        cell.alignment = Alignment(vertical="center")
        header.append(cell)
    ws.append(header)
    formats = sheet.formats
    for n, row in enumerate(sheet.rows):
        bold = n in sheet.bold_rows
        out: list[object] = []
        for col, raw in enumerate(row):
            value = _value(raw)
            fmt = formats.get(col) if isinstance(value, (int, float)) else None
            if fmt or bold or (isinstance(value, str) and value.startswith("=")):
                cell = WriteOnlyCell(ws, value=value)
                if isinstance(value, str):
                    cell.data_type = "s"
                if fmt:
                    cell.number_format = fmt
                if bold:
                    cell.font = _HEADER_FONT
                out.append(cell)
            else:
                out.append(value)
        ws.append(out)


def workbook_bytes(sheets: Iterable[Sheet]) -> bytes:
    """The complete .xlsx file as bytes, sheets in the given order."""
    book = Workbook(write_only=True)
    for sheet in sheets:
        _write_sheet(book, sheet)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def write_xlsx(path: str | Path, sheets: Iterable[Sheet]) -> None:
    """Build the workbook in memory, then replace ``path`` atomically."""
    write_file(path, workbook_bytes(sheets))
