"""XLSX writer (openpyxl, write-only mode so 400k-row schedules fit in memory).

Each sheet gets a bold header row that stays frozen, an auto-filter, column widths that fit the
content (measured on the header and the first rows) and numbers stored as numbers with a display
format per column. Text that a spreadsheet would take for a formula stays text.

A sheet marked ``plain`` (no formats, no bold rows: the 400k-row cabling schedule) has its rows
written straight into the sheet XML that openpyxl produced for its header: openpyxl's
cell-by-cell writer takes over a minute for 6 million cells, this takes seconds. Its cells are
encoded column by column (:mod:`model.outputs.writers.xlsx_columns`: repeated text as shared strings,
no ``r`` on a cell) and the archive is rewritten with that sheet deflated on worker threads
(:mod:`model.outputs.writers.zip_deflate`), the other parts as openpyxl made them.

The rows are encoded in this process, not half of them in a forked child as before: a fork of
an XL process (~1.5 GB) made the child and the parent take a copy-on-write fault on every page
either wrote afterwards, which cost about what the child saved (its ~0.45 s of encoding).
Measured on the XL hall with every network (``bom -o .xlsx``, CPU of the process and its
children, nice 19, a loaded 2-core machine, 8 runs each): 10.1 s on average with that fork,
9.6 s without, the workbook the same.
"""

from __future__ import annotations

import copy
import io
import math
import re
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from model.outputs.writers import write_file
from model.outputs.writers.csv_writer import CodedColumns
from model.outputs.writers.xlsx_columns import (
    ILLEGAL_CHARACTERS_RE,
    SheetRows,
    column_heads,
    column_letter,
    strings_xml,
)
from model.outputs.writers.zip_deflate import (
    concatenated,
    deflate_member,
    small_member,
    zip_bytes,
)

if TYPE_CHECKING:
    from openpyxl import Workbook

_HEADER_FILL_COLOR = "DDE4EE"
_WIDTH_SAMPLE_ROWS = 2000
_MAX_WIDTH = 70


class Formula(str):
    """A cell formula (``=E2*M2``): written as a formula, so totals follow edited quantities,
    with the ``value`` it computes stored beside it (``<v>``): tools that read values without
    recalculating (pandas, importers, openpyxl's ``data_only``) see the totals, not blanks."""

    value: float | None

    def __new__(cls, text: str, value: float | None = None) -> Formula:
        formula = super().__new__(cls, text)
        formula.value = value
        return formula


@dataclass
class Sheet:
    """One worksheet: ``formats`` maps a column index to an Excel number format."""

    name: str
    header: Sequence[str]
    rows: Sequence[Sequence[object]]
    formats: dict[int, str] = field(default_factory=dict)
    bold_rows: frozenset[int] = frozenset()  # 0-based data row indices shown bold (totals)
    plain: bool = False  # values only (str, int, float, bool, None): written by the fast path
    # A plain sheet may be given column by column instead (``rows`` left empty): one list per
    # header entry, formatted per column (the 400k-row cabling schedule), or a CodedColumns
    # for a run of header entries (their distinct rows and a code per row, formatted once per
    # distinct row: the schedule's coded columns, whose full lists are then never made)
    columns: Sequence[Sequence[object] | CodedColumns] | None = None
    # Rows first:last of ``columns`` only (a continuation sheet of a long one: _split_long)
    window: tuple[int, int] | None = None

    def row_count(self) -> int:
        if self.window is not None:
            return self.window[1] - self.window[0]
        return len(self.columns[0]) if self.columns else len(self.rows)

    def head_rows(self, n: int) -> Sequence[Sequence[object]]:
        """The first ``n`` rows (for measuring column widths)."""
        if self.columns:
            return list(zip(*column_heads(self.columns, n), strict=True))
        return self.rows[:n]


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


def _values_width(values: list) -> int:
    """``max(map(_width, values), default=0)``, a column at a time: text by C-level passes over
    its lines, whole numbers and decimals once per distinct value. Why: ~45k cells of an XL
    schedule's first rows, one ``_width`` call each, were ~0.07 s of the workbook's CPU."""
    kinds = set(map(type, values))
    if type(None) in kinds:
        kinds.discard(type(None))
        values = [v for v in values if v is not None]
    if kinds == {str}:  # exact str: a Formula or other subclass goes by _width
        return max(map(len, "\n".join(values).splitlines()), default=0)
    if kinds == {int} or (kinds == {float} and 0.0 not in values):  # -0.0 == 0.0, wider
        values = list(set(values))
    return max(map(_width, values), default=0)


def _column_widths(sheet: Sheet) -> list[float]:
    widths = [len(h) for h in sheet.header]
    if sheet.columns:  # column by column: no row tuples to build
        for col, values in enumerate(column_heads(sheet.columns, _WIDTH_SAMPLE_ROWS)):
            widths[col] = max(widths[col], _values_width(values[:_WIDTH_SAMPLE_ROWS]))
    else:
        for row in sheet.head_rows(_WIDTH_SAMPLE_ROWS):
            for col, value in enumerate(row):
                widths[col] = max(widths[col], _width(value))
    return [min(w + 2, _MAX_WIDTH) for w in widths]


def _write_sheet(book: Workbook, sheet: Sheet) -> None:
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Alignment, Font, PatternFill

    bold_font = Font(bold=True)
    ws = book.create_sheet(sheet.name)
    for col, width in enumerate(_column_widths(sheet), start=1):
        ws.column_dimensions[column_letter(col)].width = width
    ws.freeze_panes = "A2"
    if sheet.row_count():
        ws.auto_filter.ref = f"A1:{column_letter(len(sheet.header))}{sheet.row_count() + 1}"
    header = []
    for title in sheet.header:
        cell = WriteOnlyCell(ws, value=title)
        cell.font = bold_font
        cell.fill = PatternFill("solid", fgColor=_HEADER_FILL_COLOR)
        cell.alignment = Alignment(vertical="center")
        header.append(cell)
    ws.append(header)
    if sheet.plain:
        return
    formats = sheet.formats
    for n, row in enumerate(sheet.rows):
        bold = n in sheet.bold_rows
        out: list[object] = []
        for col, raw in enumerate(row):
            value = _value(raw)
            fmt = formats.get(col) if isinstance(value, (int, float)) else None
            if isinstance(raw, Formula):
                cell = WriteOnlyCell(ws, value=str(raw))
                cell.data_type = "f"
                if formats.get(col):
                    cell.number_format = formats[col]
                if bold:
                    cell.font = bold_font
                out.append(cell)
            elif fmt or bold or (isinstance(value, str) and value.startswith("=")):
                cell = WriteOnlyCell(ws, value=value)
                if isinstance(value, str):
                    cell.data_type = "s"
                if fmt:
                    cell.number_format = fmt
                if bold:
                    cell.font = bold_font
                out.append(cell)
            else:
                out.append(value)
        ws.append(out)


# Excel's sheet holds 1,048,576 rows: the header and 1,048,575 data rows. A longer plain sheet
# (the cabling schedule of a hall past ~1M cable segments) goes on in "NAME (2)", "NAME (3)"...,
# each with the header, instead of a workbook Excel refuses to open whole.
MAX_SHEET_ROWS = 1_048_575
_MAX_TITLE = 31  # Excel's longest sheet name


def _split_long(sheets: list[Sheet], max_rows: int = MAX_SHEET_ROWS) -> list[Sheet]:
    """``sheets`` with each plain sheet longer than ``max_rows`` split in turn; a continuation's
    name cut to Excel's 31 characters and never one the workbook already has."""
    taken = {sheet.name for sheet in sheets}
    out: list[Sheet] = []
    for sheet in sheets:
        count = sheet.row_count()
        if not sheet.plain or count <= max_rows:
            out.append(sheet)
            continue
        for k, first in enumerate(range(0, count, max_rows)):
            last = min(first + max_rows, count)
            name = sheet.name if k == 0 else _continuation(sheet.name, k + 1, taken)
            if sheet.columns:
                out.append(replace(sheet, name=name, window=(first, last)))
            else:
                out.append(replace(sheet, name=name, rows=sheet.rows[first:last]))
    return out


def _continuation(name: str, k: int, taken: set[str]) -> str:
    """'NAME (k)' within 31 characters, the first such name not in ``taken`` (added to it)."""
    n = k
    while True:
        suffix = f" ({n})"
        title = name[: _MAX_TITLE - len(suffix)] + suffix
        if title not in taken:
            taken.add(title)
            return title
        n += 1


def workbook_bytes(sheets: Iterable[Sheet], max_rows: int = MAX_SHEET_ROWS) -> bytes:
    """The complete .xlsx file as bytes, sheets in the given order (a plain sheet past
    ``max_rows``, Excel's rows, split over continuation sheets)."""
    sheets = _split_long(list(sheets), max_rows)
    plain = {sheet.name: sheet for sheet in sheets if sheet.plain and sheet.row_count()}
    if not plain:
        return _book_bytes(sheets)
    return _with_plain_rows(sheets, plain)


def _book_bytes(sheets: list[Sheet]) -> bytes:
    """openpyxl's workbook of ``sheets`` (a plain sheet with its header row only)."""
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    for sheet in sheets:
        _write_sheet(book, sheet)
    buffer = io.BytesIO()
    book.save(buffer)
    values = _formula_values(sheets)
    return _with_formula_values(buffer.getvalue(), values) if values else buffer.getvalue()


def _formula_values(sheets: list[Sheet]) -> dict[str, dict[str, float]]:
    """Sheet title -> cell reference -> the computed value of each formula cell that has one."""
    found: dict[str, dict[str, float]] = {}
    for sheet in sheets:
        if sheet.plain:
            continue
        for n, row in enumerate(sheet.rows):
            for col, raw in enumerate(row):
                if isinstance(raw, Formula) and raw.value is not None:
                    if math.isfinite(raw.value):
                        cells = found.setdefault(sheet.name, {})
                        cells[f"{column_letter(col + 1)}{n + 2}"] = raw.value
    return found


_FORMULA_CELL_RE = re.compile(rb'(<c r="([A-Z]+[0-9]+)"[^>]*><f>[^<]*</f>)<v ?/>')


def _with_formula_values(book: bytes, values: dict[str, dict[str, float]]) -> bytes:
    """openpyxl's workbook with each formula's computed value in its empty ``<v/>`` (openpyxl
    writes formulas without one)."""
    source = zipfile.ZipFile(io.BytesIO(book))
    parts = {part: values[title] for title, part in _sheet_parts(source).items() if title in values}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=_ZIP_LEVEL) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            cells = parts.get(info.filename)
            if cells:

                def filled(match: re.Match, cells: dict[str, float] = cells) -> bytes:
                    value = cells.get(match.group(2).decode())
                    if value is None:
                        return match.group(0)
                    return match.group(1) + f"<v>{value!r}</v>".encode()

                content = _FORMULA_CELL_RE.sub(filled, content)
            target.writestr(info, content, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _sheet_parts(source: zipfile.ZipFile) -> dict[str, str]:
    """Sheet title -> its part (``xl/worksheets/sheet2.xml``) in a workbook."""
    rels = source.read("xl/_rels/workbook.xml.rels")
    targets = {rid.decode(): target.lstrip(b"/").decode() for target, rid in _REL_RE.findall(rels)}
    parts = {}
    for name, rid in _SHEET_RE.findall(source.read("xl/workbook.xml")):
        title = name.decode().replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        parts[title] = targets[rid.decode()]
    return parts


_ZIP_LEVEL = 1
_CHUNK_ROWS = 20_000  # rows encoded at a time: keeps the sheet XML of XL out of memory
_SHEET_RE = re.compile(rb'<sheet name="([^"]*)"[^>]*r:id="([^"]+)"')
_REL_RE = re.compile(rb'<Relationship [^>]*Target="([^"]+)" Id="([^"]+)"')
_STRINGS_PART = "xl/sharedStrings.xml"
_STRINGS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
_STRINGS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"


def _with_plain_rows(sheets: list[Sheet], plain: dict[str, Sheet]) -> bytes:
    """openpyxl's workbook of ``sheets`` with the rows of the ``plain`` sheets written into
    their sheet XML, and the shared strings those rows use as a part of its own."""
    strings: dict[str, int] = {}  # shared text -> its index in the shared strings part
    # The sheets of one long sheet's columns encode them once: keyed by the columns object,
    # which the sheets hold (so no other object takes its id while this runs)
    encoded: dict[int, SheetRows] = {}
    rows = {}
    for name, sheet in plain.items():
        if sheet.columns:
            if id(sheet.columns) not in encoded:
                encoded[id(sheet.columns)] = SheetRows(sheet.columns, 2, strings)
            whole = encoded[id(sheet.columns)]
        else:
            whole = SheetRows(list(map(list, zip(*sheet.rows, strict=True))), 2, strings)
        first, last = sheet.window or (0, whole.count)
        part = copy.copy(whole)
        part.start = 2 - first  # each sheet's rows numbered from 2, under its own header
        rows[name] = (part, first, last)
    # the shared strings of every plain sheet now known
    # Level 1 (ISA-L's, model.outputs.writers.zip_deflate): the schedule sheet is ~0.25 GB of
    # XML at 400k rows; ISA-L's level 3 takes 8x longer for a file 0.4 % smaller
    row_members = {
        name: deflate_member("rows", part.chunks(first, last, _CHUNK_ROWS), _ZIP_LEVEL)
        for name, (part, first, last) in rows.items()
    }
    source = zipfile.ZipFile(io.BytesIO(_book_bytes(sheets)))
    rels = source.read("xl/_rels/workbook.xml.rels")
    part_of = {part: title for title, part in _sheet_parts(source).items() if title in plain}
    if len(part_of) != len(plain):
        raise RuntimeError("could not find every plain sheet in the workbook")
    members = []
    for info in source.infolist():
        content = source.read(info.filename)
        title = part_of.get(info.filename)
        if title is None:
            content = _with_strings_part(info.filename, content, rels)
            members.append(small_member(info.filename, content, _ZIP_LEVEL, info.date_time))
            continue
        head, marker, tail = content.partition(b"</sheetData>")
        if not marker:
            raise RuntimeError(f"no sheet data in {info.filename}")
        # One deflate stream: openpyxl's head (up to the header row), the rows, the tail.
        head_part = deflate_member(info.filename, [head], _ZIP_LEVEL, workers=1)
        tail_part = deflate_member(info.filename, [marker + tail], _ZIP_LEVEL, workers=1)
        members.append(concatenated(concatenated(head_part, row_members[title]), tail_part))
    members.append(deflate_member(_STRINGS_PART, strings_xml(strings, _CHUNK_ROWS), _ZIP_LEVEL))
    return zip_bytes(members)


def _with_strings_part(name: str, content: bytes, rels: bytes) -> bytes:
    """The content types and the workbook's relationships, with the shared strings part added
    (openpyxl writes none: its cells hold their text inline)."""
    if name == "[Content_Types].xml":
        entry = f'<Override PartName="/{_STRINGS_PART}" ContentType="{_STRINGS_TYPE}" />'
        return content.replace(b"</Types>", entry.encode() + b"</Types>")
    if name == "xl/_rels/workbook.xml.rels":
        taken = {rid.decode() for _target, rid in _REL_RE.findall(rels)}
        rid = next(
            f"rId{k}" for k in range(len(taken) + 1, 2 * len(taken) + 2) if f"rId{k}" not in taken
        )
        entry = f'<Relationship Type="{_STRINGS_REL}" Target="sharedStrings.xml" Id="{rid}" />'
        return content.replace(b"</Relationships>", entry.encode() + b"</Relationships>")
    return content


def write_xlsx(path: str | Path, sheets: Iterable[Sheet]) -> None:
    """Build the workbook in memory, then replace ``path`` atomically."""
    write_file(path, workbook_bytes(sheets))
