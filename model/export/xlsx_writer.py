"""XLSX writer (openpyxl, write-only mode so 400k-row schedules fit in memory).

Each sheet gets a bold header row that stays frozen, an auto-filter, column widths that fit the
content (measured on the header and the first rows) and numbers stored as numbers with a display
format per column. Text that a spreadsheet would take for a formula stays text.

A sheet marked ``plain`` (no formats, no bold rows: the 400k-row cabling schedule) has its rows
written straight into the sheet XML that openpyxl produced for its header: openpyxl's
cell-by-cell writer takes over a minute for 6 million cells, this takes seconds. Its cells are
written compactly, as the format allows (ECMA-376 Part 1, 18.3.1.4 and 18.4): text repeated down
a column goes into a shared strings part (``<c t="s"><v>index</v></c>``), other text inline;
numbers take the default cell type; and a cell carries no ``r`` reference, being the next column
of its row, except after a left-out empty cell. At 393k rows that halves the XML to compress.
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path

import numpy as np
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


class Formula(str):
    """A cell formula (``=E2*M2``): written as a formula, so totals follow edited quantities."""


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
    # header entry, formatted per column (the 400k-row cabling schedule)
    columns: Sequence[Sequence[object]] | None = None

    def row_count(self) -> int:
        return len(self.columns[0]) if self.columns else len(self.rows)

    def head_rows(self, n: int) -> Sequence[Sequence[object]]:
        """The first ``n`` rows (for measuring column widths)."""
        if self.columns:
            return list(zip(*(c[:n] for c in self.columns), strict=True))
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


def _column_widths(sheet: Sheet) -> list[float]:
    widths = [len(h) for h in sheet.header]
    for row in sheet.head_rows(_WIDTH_SAMPLE_ROWS):
        for col, value in enumerate(row):
            widths[col] = max(widths[col], _width(value))
    return [min(w + 2, _MAX_WIDTH) for w in widths]


def _write_sheet(book: Workbook, sheet: Sheet) -> None:
    ws = book.create_sheet(sheet.name)
    for col, width in enumerate(_column_widths(sheet), start=1):
        ws.column_dimensions[get_column_letter(col)].width = width
    ws.freeze_panes = "A2"
    if sheet.row_count():
        ws.auto_filter.ref = f"A1:{get_column_letter(len(sheet.header))}{sheet.row_count() + 1}"
    header = []
    for title in sheet.header:
        cell = WriteOnlyCell(ws, value=title)
        cell.font = _HEADER_FONT
        cell.fill = _HEADER_FILL
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
                    cell.font = _HEADER_FONT
                out.append(cell)
            elif fmt or bold or (isinstance(value, str) and value.startswith("=")):
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
    sheets = list(sheets)
    book = Workbook(write_only=True)
    for sheet in sheets:
        _write_sheet(book, sheet)
    buffer = io.BytesIO()
    book.save(buffer)
    plain = {sheet.name: sheet for sheet in sheets if sheet.plain and sheet.row_count()}
    if not plain:
        return buffer.getvalue()
    return _fill_plain_sheets(buffer.getvalue(), plain)


_ZIP_LEVEL = 1
_CHUNK_ROWS = 20_000  # rows encoded at a time: keeps the sheet XML of XL out of memory
_SHEET_RE = re.compile(rb'<sheet name="([^"]*)"[^>]*r:id="([^"]+)"')
_REL_RE = re.compile(rb'<Relationship [^>]*Target="([^"]+)" Id="([^"]+)"')
_STRINGS_PART = "xl/sharedStrings.xml"
_STRINGS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
_STRINGS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"
_MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
# openpyxl (and Excel) drop "x005F_" from a shared string read back (the escape of "_xHHHH_"),
# not from an inline one: such a text stays inline, so that it reads back as written.
_SHARED_UNSAFE = "x005F_"


def _fill_plain_sheets(data: bytes, plain: dict[str, Sheet]) -> bytes:
    """The workbook ``data`` (openpyxl's) with the rows of the ``plain`` sheets written into
    their sheet XML, and the shared strings those rows use as a part of its own."""
    source = zipfile.ZipFile(io.BytesIO(data))
    rels = source.read("xl/_rels/workbook.xml.rels")
    targets = {rid.decode(): target.lstrip(b"/").decode() for target, rid in _REL_RE.findall(rels)}
    part_of = {}
    for name, rid in _SHEET_RE.findall(source.read("xl/workbook.xml")):
        title = name.decode().replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        if title in plain:
            part_of[targets[rid.decode()]] = plain[title]
    if len(part_of) != len(plain):
        raise RuntimeError("could not find every plain sheet in the workbook")
    strings: dict[str, int] = {}  # shared text -> its index in the shared strings part
    out = io.BytesIO()
    # Level 1: the schedule sheet is ~0.25 GB of XML at 400k rows; level 6 (the default) takes
    # ~4x longer to compress it for a file ~20 % smaller
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=_ZIP_LEVEL) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            sheet = part_of.get(info.filename)
            if sheet is None:
                target.writestr(info.filename, _with_strings_part(info.filename, content, rels))
                continue
            head, marker, tail = content.partition(b"</sheetData>")
            if not marker:
                raise RuntimeError(f"no sheet data in {info.filename}")
            columns = sheet.columns or list(map(list, zip(*sheet.rows, strict=True)))
            chunks = (
                _columns_xml([c[first : first + _CHUNK_ROWS] for c in columns], 2 + first, strings)
                for first in range(0, sheet.row_count(), _CHUNK_ROWS)
            )
            _write_member(target, info.filename, [head], chunks, [marker + tail])
        _write_member(target, _STRINGS_PART, [], _strings_xml(strings), [])
    return out.getvalue()


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


def _write_member(target: zipfile.ZipFile, name: str, head: list, chunks, tail: list) -> None:
    """One zip member of ``head``, then the bytes ``chunks`` yields, then ``tail``: each chunk
    is compressed by a worker thread while the next one is encoded (zlib and the CRC release
    the interpreter lock, so the two overlap on a second core)."""
    with target.open(name, "w") as stream, ThreadPoolExecutor(max_workers=1) as pool:
        for part in head:
            stream.write(part)
        pending = None
        for chunk in chunks:
            if pending is not None:
                pending.result()
            pending = pool.submit(stream.write, chunk)
        if pending is not None:
            pending.result()
        for part in tail:
            stream.write(part)


def _strings_xml(strings: dict[str, int]):
    """The shared strings part, in pieces (texts in index order: a dict keeps insertion)."""
    yield f'<sst xmlns="{_MAIN_NS}" uniqueCount="{len(strings)}">'.encode()
    texts = list(strings)
    for first in range(0, len(texts), _CHUNK_ROWS):
        part = texts[first : first + _CHUNK_ROWS]
        if _plain_text(part, escapes=True):
            body = "\x00".join(part)
            if "&" in body or "<" in body or ">" in body:
                body = body.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            yield ("<si><t>" + body.replace("\x00", "</t></si><si><t>") + "</t></si>").encode()
        else:
            yield "".join([f"<si>{_text_xml(t)}</si>" for t in part]).encode("utf-8")
    yield b"</sst>"


def _text_xml(text: str) -> str:
    if not text.isprintable():
        text = ILLEGAL_CHARACTERS_RE.sub("", text)
    if "&" in text or "<" in text or ">" in text:
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
    return f"<t{space}>{text}</t>"


def _cell_xml(value: object) -> str | None:
    """One value's whole cell, text inline (None: no cell, as openpyxl writes none). The cell
    has no ``r`` reference: it is the next column of its row (:func:`_columns_xml`)."""
    if value is None:
        return None
    if isinstance(value, str):
        return f'<c t="inlineStr"><is>{_text_xml(value)}</is></c>'
    if isinstance(value, bool):
        return f'<c t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return f"<c><v>{value!r}</v></c>"  # t="n", the default cell type
    raise TypeError(f"plain sheet cell of type {type(value).__name__}")


def _column_xml(values: Sequence[object]) -> list[str | None]:
    """:func:`_cell_xml` of a column, worked out once per distinct value (type and value)."""
    memo: dict[tuple[type, object], str | None] = {}
    out = []
    for v in values:
        key = (type(v), v)
        try:
            cell = memo[key]
        except KeyError:
            cell = memo[key] = _cell_xml(v)
        except TypeError:  # an unhashable value: refused by _cell_xml
            cell = _cell_xml(v)
        out.append(cell)
    return out


# Bytes that keep an ASCII text out of ``<t>`` as it is: controls (ILLEGAL_CHARACTERS_RE's and
# the tab and line breaks that ``isprintable`` refuses), DEL, and (_NOT_PLAIN) what XML escapes.
_CONTROL = np.zeros(256, dtype=bool)
_CONTROL[:32] = _CONTROL[127] = True
_NOT_PLAIN = _CONTROL.copy()
_NOT_PLAIN[[ord("&"), ord("<"), ord(">")]] = True


def _plain_text(values: list[str], escapes: bool = False) -> bool:
    """Whether every text of a column goes into ``<t>`` as it is: printable, nothing to escape
    (``escapes``: or only ``&``, ``<`` and ``>``), no space at either end. Checked on the
    column's bytes joined by NULs, by numpy: every refused byte must be one of the ``len + 1``
    NULs around the texts, and no space may touch one. Text with non-ASCII characters is
    checked by ``str.isprintable`` instead. (A text holding a control character such as U+0001
    is not plain: it is cleaned by :func:`_text_xml`.)"""
    if not values:
        return True
    joined = "\x00" + "\x00".join(values) + "\x00"
    blob = np.frombuffer(joined.encode("utf-8"), np.uint8)
    if blob.max() >= 128:
        body = "".join(values)  # printable: no NUL in any text, so NUL can mark their ends
        return (
            body.isprintable()
            and (escapes or not any(c in body for c in "&<>"))
            and "\x00 " not in joined
            and " \x00" not in joined
        )
    refused = _CONTROL if escapes else _NOT_PLAIN
    if np.count_nonzero(refused[blob]) != len(values) + 1:
        return False
    nul = np.flatnonzero(blob == 0)
    return not ((blob[nul[1:] - 1] == 32).any() or (blob[nul[:-1] + 1] == 32).any())


def _value_texts(values: list, kinds: set[type]) -> list[str] | None:
    """The text of every number of a numeric column (``repr``, as ``str.format`` writes it), or
    None when the column is not all int / float. Floats are turned into text once per distinct
    value; zeros are left to ``repr`` (``-0.0 == 0.0`` would share one text) and so are columns
    mixing ints and floats (``1 == 1.0``)."""
    if kinds == {int}:
        return list(map(str, values))
    if kinds == {float}:
        memo = {v: repr(v) for v in set(values)}
        if 0.0 not in memo and len(memo) < len(values) // 2:
            return list(map(memo.__getitem__, values))  # NaN: its own object is the key
        return list(map(repr, values))
    if kinds <= {int, float}:
        return list(map(repr, values))
    return None


def _shared_cells(values: list[str], strings: dict[str, int]) -> list | None:
    """The cells of a text column as shared strings (``<c t="s"><v>index</v></c>``, new texts
    added to ``strings``) as pieces (see :func:`_column_parts`), or None when inline cells are
    shorter: an inline cell takes 36 bytes around its text, a shared one 20 plus the index, and
    its text's entry in the table (``<si><t>...</t></si>``) 16 around the text once per
    distinct text (the column's lengths taken as its distinct texts' mean)."""
    distinct = list(dict.fromkeys(values))
    n, d = len(values), len(distinct)
    mean = sum(map(len, distinct)) / d
    if n * (20 + len(str(len(strings) + d))) + d * (16 + mean) >= n * (36 + mean):
        return None
    if _SHARED_UNSAFE in "\x00".join(distinct):
        return None
    new = [text for text in distinct if text not in strings]
    strings.update(zip(new, range(len(strings), len(strings) + len(new)), strict=True))
    index = dict(zip(distinct, map(str, map(strings.__getitem__, distinct)), strict=True))
    return ['<c t="s"><v>', list(map(index.__getitem__, values)), "</v></c>"]


def _column_parts(values: Sequence[object], strings: dict[str, int]) -> tuple[list, list]:
    """One column's cells as pieces to lay side by side with the other columns' (constant
    strings and per-row lists), and the 0-based rows whose cell is left out (None, NaN,
    infinity: no cell, as openpyxl writes none).

    Text repeated down the column goes into the shared strings (``strings``); other text with
    nothing to escape and numbers go in as they are; any other column is turned into cell text
    once per distinct value by :func:`_column_xml`.
    """
    values = list(values)
    kinds = set(map(type, values))
    if kinds and kinds <= {str, type(None)}:
        skip: list[int] = []
        texts = values
        if type(None) in kinds:
            skip = [i for i, v in enumerate(values) if v is None]
            texts = ["" if v is None else v for v in values]
        shared = _shared_cells(texts, strings) if len(skip) < len(texts) else None
        if shared is not None:
            return shared, skip
        if _plain_text(texts):
            return ['<c t="inlineStr"><is><t>', texts, "</t></is></c>"], skip
    if kinds and kinds <= {int, float, type(None)}:
        skip = []
        if float in kinds or type(None) in kinds:
            finite = np.isfinite(np.array(values, dtype=float))  # None becomes NaN
            if not finite.all():
                skip = np.flatnonzero(~finite).tolist()
                values = [0 if v is None else v for v in values]
                kinds = kinds - {type(None)}
        texts = _value_texts(values, kinds)
        if texts is not None:
            return ["<c><v>", texts, "</v></c>"], skip
    cells = _column_xml(values)
    skip = [i for i, c in enumerate(cells) if c is None] if None in cells else []
    if skip:
        cells = ["" if c is None else c for c in cells]
    return [cells], skip


def _columns_xml(
    columns: Sequence[Sequence[object]], start: int, strings: dict[str, int] | None = None
) -> bytes:
    """Rows ``start``... of a plain sheet given column by column, as sheet XML; repeated text
    goes into ``strings`` (the shared strings, text -> index; a new table when None).

    Each column becomes pieces (:func:`_column_parts`): constant strings and per-row lists.
    The pieces of all columns, side by side, are joined once (C loops: no per-cell Python
    code). A cell carries no ``r`` reference (it is the next column of its row), except the
    cell after one left out (no cell is written for None, NaN or infinity, as openpyxl does):
    the columns around a gap are joined into whole cells first, the left-out ones emptied and
    the next ones given their reference.
    """
    if not columns or not len(columns[0]):
        return b""
    strings = {} if strings is None else strings
    n = len(columns[0])
    pieces: list = ['<row r="', list(map(str, range(start, start + n))), '">']
    gap: list[int] = []  # rows where the previous column has no cell
    for c, values in enumerate(columns):
        parts, skip = _column_parts(values, strings)
        if skip or gap:
            cells = list(map("".join, zip(*_lanes(parts), strict=False)))
            for i in skip:
                cells[i] = ""
            letter = get_column_letter(c + 1)
            for i in gap:
                if cells[i]:
                    cells[i] = f'<c r="{letter}{start + i}"{cells[i][2:]}'
            parts = [cells]
        pieces.extend(parts)
        gap = skip
    pieces.append("</row>")
    merged: list = []  # adjacent constant strings as one
    for piece in pieces:
        if isinstance(piece, str) and merged and isinstance(merged[-1], str):
            merged[-1] += piece
        else:
            merged.append(piece)
    text = "".join(map("".join, zip(*_lanes(merged), strict=False)))
    return text.encode("utf-8")


def _lanes(pieces: list) -> list:
    """Pieces as iterables to zip: a constant repeats on every row."""
    return [repeat(p) if isinstance(p, str) else p for p in pieces]


def write_xlsx(path: str | Path, sheets: Iterable[Sheet]) -> None:
    """Build the workbook in memory, then replace ``path`` atomically."""
    write_file(path, workbook_bytes(sheets))
