"""CSV writer: a header and rows -> RFC 4180 bytes (UTF-8, CRLF), numbers as plain numbers.

``None`` and NaN are written as empty cells. ``spreadsheet_safe=True`` (the default, used for
the BOM, the schedule and the NetBox files, which people open in a spreadsheet before importing)
prefixes text cells that a spreadsheet would run as a formula (leading ``=``, ``+``, ``-``,
``@``, tab or CR: the OWASP CSV-injection list) with an apostrophe. Numbers are never text
here, so a negative number stays a number.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple, cast

import numpy as np

from model.outputs.writers import write_file

# A NUL too: spreadsheets drop it on import, so "\x00=HYPERLINK(...)" arrived as a formula
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\x00")
_FORMULA_SET = frozenset(_FORMULA_START)
_QUOTE_IF = (",", '"', "\r", "\n")  # what csv.writer's QUOTE_MINIMAL quotes for
_NEEDS_QUOTES = re.compile('[,"\r\n]')
_SAMPLE = 1024  # cells looked at to judge whether a text column has few distinct values
_JOIN_ROWS = 2048  # rows of a column-wise table joined at a time (~0.5 MB of text at XL)


class CodedColumns(NamedTuple):
    """``width`` adjacent columns of a table given as their distinct rows and a code per row:
    row ``k`` of the table holds ``distinct[codes[k]]`` (a tuple of ``width`` values). The cells
    are then formatted once per distinct row and gathered (a schedule's rack, U and device of an
    end are one per device; its medium one of three), the same text as the columns in full."""

    distinct: list[tuple]
    codes: np.ndarray
    width: int

    def __len__(self) -> int:
        return len(self.codes)

    def cells(self, spreadsheet_safe: bool = True) -> list[str]:
        """The row's cells of these columns joined by commas, one string per table row."""
        if not len(self.codes):
            return []
        return self.texts(spreadsheet_safe)[self.codes].tolist()

    def texts(self, spreadsheet_safe: bool = True, suffix: str = "") -> np.ndarray:
        """The cells of each distinct row joined by commas, then ``suffix`` (an object array
        indexed by the codes; a writer folds the separator that follows into it)."""
        parts = [
            format_column(list(col), spreadsheet_safe) for col in zip(*self.distinct, strict=True)
        ]
        joined = np.empty(len(self.distinct), dtype=object)
        joined[:] = [",".join(cells) + suffix for cells in zip(*parts, strict=True)]
        return joined

    def columns(self) -> list[list]:
        """The columns in full (one list of values per column)."""
        rows = [self.distinct[k] for k in self.codes.tolist()]
        return [list(map(itemgetter(j), rows)) for j in range(self.width)]


def _width(column: object) -> int:
    return column.width if isinstance(column, CodedColumns) else 1


def _cell(value: object, spreadsheet_safe: bool) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return int(value) if value.is_integer() and abs(value) < 1e15 else repr(round(value, 6))
    if isinstance(value, str) and spreadsheet_safe and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_bytes(
    header: Sequence[str], rows: Iterable[Sequence[object]], *, spreadsheet_safe: bool = True
) -> bytes:
    """The complete CSV file as bytes."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    width = len(header)
    for row in rows:
        if len(row) != width:
            raise ValueError(f"row has {len(row)} cells, header has {width}")
        writer.writerow([_cell(v, spreadsheet_safe) for v in row])
    return buffer.getvalue().encode("utf-8")


def format_column(values: Sequence[object], spreadsheet_safe: bool = True) -> list[str]:
    """One column's cells as the text :func:`csv_bytes` writes for them (quoted where needed).

    Checks are per column at C speed (a search in the joined column): a column of text with no
    formula start and nothing to quote is taken as it is. Text that needs a prefix or quotes,
    when it has few distinct values, ints with few distinct values, and floats or ints with
    empty cells are formatted once per distinct value and mapped; any other mix goes cell by cell.
    """
    if len(values) == 0:
        return []
    blob = _joined_text(values)
    kinds = {str} if blob is not None else set(map(type, values))
    if blob is not None:  # every cell is text (the join took them)
        cells = cast("list[str]", list(values))
        data, breaks = _bytes_and_breaks(blob)
        formula = spreadsheet_safe and _any_starts(data, breaks, _FORMULA_START)
        if not formula and not _lines_need_quotes(blob, len(cells), len(breaks)):
            return cells
        distinct = set(cells) if _may_repeat(cells) else cells
        if len(distinct) * 4 <= len(cells):
            memo = dict(zip(distinct, format_column(list(distinct), spreadsheet_safe), strict=True))
            return list(map(memo.__getitem__, cells))
        if formula:
            cells = ["'" + v if v[:1] in _FORMULA_SET else v for v in cells]
        elif len(breaks) == len(cells) - 1:  # no cell holds a line break
            return _quoted_lines(cells, data, breaks)
    elif kinds <= {int}:
        ints = dict.fromkeys(values)
        if len(ints) * 4 > len(values):
            return list(map(str, values))
        int_text = dict(zip(ints, map(str, ints), strict=True))  # str(int) once per value
        return list(map(int_text.__getitem__, values))
    elif kinds <= {float, type(None)} or kinds <= {int, type(None)}:
        # Equal floats (0.0 and -0.0 too) are written alike; NaN is found by identity
        number_text = {v: str(_cell(v, spreadsheet_safe)) for v in set(values)}
        return list(map(number_text.__getitem__, values))
    else:
        cells = [str(_cell(v, spreadsheet_safe)) for v in values]
    if _needs_quotes(cells):
        search = _NEEDS_QUOTES.search
        cells = [_quoted(v) if search(v) else v for v in cells]
    return cells


def _may_repeat(cells: list[str]) -> bool:
    """Whether a quarter of ``cells`` or fewer may be distinct, judged on a sample of them: a
    column of nearly one text per row (a schedule's labels, ~0.9 M at zoned XL) then skips the
    set of all its cells (~0.1 s) that would only show it is not worth formatting per value.
    Either way the cells come out the same; only the work differs."""
    if len(cells) < 4 * _SAMPLE:
        return True
    sample = cells[:: len(cells) // _SAMPLE]
    return len(set(sample)) * 2 <= len(sample)


def _joined_text(values: Sequence[object]) -> str | None:
    """The column's cells joined by line breaks, when every one is text (``str.join`` checks
    that in C; the join is what :func:`_lines_need_quotes` and :func:`_any_starts` search); None
    for any other column."""
    try:
        return "\n".join(values)  # type: ignore[arg-type]
    except TypeError:
        return None


def _bytes_and_breaks(blob: str) -> tuple[np.ndarray, np.ndarray]:
    """The UTF-8 bytes of a column's cells joined by line breaks (``blob``) and the places of
    its line breaks among them, found once for all the column's checks (no UTF-8 sequence
    holds an ASCII byte: a byte 10 is a line break). A count of the breaks in the text, the
    text with a break before it and the bytes made again for the quoting were ~30 ms more per
    column of a zoned XL schedule's 886k cells."""
    data = np.frombuffer(blob.encode("utf-8"), dtype=np.uint8)
    return data, np.flatnonzero(data == 10)


def _lines_need_quotes(blob: str, count: int, n_breaks: int) -> bool:
    """Whether some of ``count`` cells joined by line breaks into ``blob`` (``n_breaks`` of
    them) needs quotes (a cell holding a line break shows as one break too many)."""
    return any(c in blob for c in _QUOTE_IF[:3]) or n_breaks != count - 1


def _needs_quotes(cells: list[str], blob: str | None = None) -> bool:
    blob = "".join(cells) if blob is None else blob
    return any(c in blob for c in _QUOTE_IF)


def _any_starts(data: np.ndarray, breaks: np.ndarray, starts: tuple[str, ...]) -> bool:
    """Whether some cell may start with one of ``starts`` (one-character ASCII strings): the
    first byte and the byte after every line break of the joined column (``data`` and its
    ``breaks``, :func:`_bytes_and_breaks`), looked at by numpy. A cell holding a line break can
    only make this say yes wrongly, and the caller then checks cell by cell."""
    first = np.concatenate([data[:1], data[breaks[breaks < len(data) - 1] + 1]])
    return bool(np.isin(first, np.frombuffer("".join(starts).encode("ascii"), np.uint8)).any())


def _quoted_lines(cells: list[str], data: np.ndarray, breaks: np.ndarray) -> list[str]:
    """``cells`` (a copy the caller owns, joined by line breaks into the bytes ``data`` with
    line breaks at ``breaks``, none holding one) with those that hold a comma, a quote or a CR
    quoted: found in the joined column's bytes by numpy (no UTF-8 sequence holds an ASCII
    byte), not by a search per cell (a zoned XL schedule's 886k labels, a few of them with a
    trunk's ``R1-R3,R7``: ~0.4 s of CPU)."""
    special = np.flatnonzero((data == 44) | (data == 34) | (data == 13))
    for k in np.unique(np.searchsorted(breaks, special)).tolist():
        cells[k] = _quoted(cells[k])
    return cells


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def csv_column_bytes(
    header: Sequence[str], columns: Sequence[Sequence[object]], *, spreadsheet_safe: bool = True
) -> bytes:
    """The CSV of a table given column by column: the same bytes as :func:`csv_bytes` of its
    rows (``csv.writer``'s minimal quoting), each column formatted once (:func:`format_column`)
    and each line joined in C. A column may be :class:`CodedColumns` (several header columns)."""
    return b"".join(_column_pieces(header, columns, spreadsheet_safe))


def _column_pieces(
    header: Sequence[str], columns: Sequence[Sequence[object]], spreadsheet_safe: bool
) -> Iterator[bytes]:
    """The bytes of :func:`csv_column_bytes` in pieces: the header line, then the rows
    ``_JOIN_ROWS`` at a time. The table is checked and its columns formatted when this is
    called; the pieces are made as they are taken.

    The rows are joined ``_JOIN_ROWS`` at a time into one flat list of cells and separators
    (no string per line, no text of the whole file beside its bytes), and a writer takes each
    piece as it comes (:func:`write_csv_columns`): at 400k rows the lines and the file's text
    were ~220 MB more of memory to touch, and the file's bytes in one buffer ~100 MB more,
    which costs more than the joins on a machine with slow first-touch page faults."""
    width = sum(map(_width, columns))
    if width != len(header):
        raise ValueError(f"{width} columns, header has {len(header)}")
    lengths = {len(c) for c in columns}
    if len(lengths) > 1:
        raise ValueError(f"columns of different lengths: {sorted(lengths)}")
    if width < 2:  # csv.writer quotes a lone empty field: leave that case to it
        columns = [
            col for c in columns for col in (c.columns() if isinstance(c, CodedColumns) else [c])
        ]
        rows = list(zip(*columns, strict=True)) if columns else []
        return iter([csv_bytes(header, rows, spreadsheet_safe=spreadsheet_safe)])
    # One row's items: each column's cell, then its separator ("," or CRLF after the last),
    # which a coded column carries at the end of its distinct texts (fewer items to join).
    pattern: list[str | None] = []
    # (position in the pattern, cells of the column, or coded texts and codes)
    slots: list[tuple[int, object]] = []
    for k, column in enumerate(columns):
        separator = "," if k < len(columns) - 1 else "\r\n"
        slot = len(pattern)
        if isinstance(column, CodedColumns):
            slots.append((slot, (column.texts(spreadsheet_safe, separator), column.codes)))
            pattern.append(None)
        else:
            slots.append((slot, format_column(column, spreadsheet_safe)))
            pattern.extend((None, separator))
    head = format_column(list(header), spreadsheet_safe=False)
    return _joined_rows((",".join(head) + "\r\n").encode("utf-8"), pattern, slots, lengths.pop())


def _joined_rows(head: bytes, pattern: list, slots: list, n: int) -> Iterator[bytes]:
    """``head``, then the ``n`` rows laid out by ``pattern`` and ``slots`` (see
    :func:`_column_pieces`), ``_JOIN_ROWS`` at a time."""
    yield head
    step = len(pattern)
    for start in range(0, n, _JOIN_ROWS):
        stop = min(n, start + _JOIN_ROWS)
        flat = pattern * (stop - start)
        for slot, cells in slots:
            if isinstance(cells, tuple):  # a coded column's texts gathered by its codes
                texts, codes = cells
                flat[slot::step] = texts[codes[start:stop]].tolist()
            else:
                flat[slot::step] = cells[start:stop]
        yield "".join(flat).encode("utf-8")


def csv_chunks(
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    chunk_rows: int,
    *,
    spreadsheet_safe: bool = True,
) -> list[bytes]:
    """``csv_bytes(header, rows[i:i + chunk_rows])`` for each chunk (one file when no rows),
    with every column formatted once for the whole table rather than per chunk."""
    if not rows:
        return [csv_bytes(header, [], spreadsheet_safe=spreadsheet_safe)]
    width = len(header)
    if set(map(len, rows)) != {width}:
        bad = next(row for row in rows if len(row) != width)
        raise ValueError(f"row has {len(bad)} cells, header has {width}")
    if width < 2:
        return [
            csv_bytes(header, rows[i : i + chunk_rows], spreadsheet_safe=spreadsheet_safe)
            for i in range(0, len(rows), chunk_rows)
        ]
    # One column at a time (zip(*rows) of 400k rows is ~4x slower)
    columns = [list(map(itemgetter(k), rows)) for k in range(width)]
    cells = [format_column(c, spreadsheet_safe) for c in columns]
    head = ",".join(format_column(list(header), spreadsheet_safe=False))
    lines = list(map(",".join, zip(*cells, strict=True)))
    return [
        "\r\n".join([head, *lines[i : i + chunk_rows], ""]).encode("utf-8")
        for i in range(0, len(lines), chunk_rows)
    ]


def write_csv(
    path: str | Path,
    header: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    spreadsheet_safe: bool = True,
) -> None:
    """Build the CSV in memory, then replace ``path`` atomically."""
    write_file(path, csv_bytes(header, rows, spreadsheet_safe=spreadsheet_safe))


def write_csv_columns(
    path: str | Path,
    header: Sequence[str],
    columns: Sequence[Sequence[object]],
    *,
    spreadsheet_safe: bool = True,
) -> None:
    """:func:`write_csv` of a table given column by column (:func:`csv_column_bytes`), each
    piece written as it is made (the file's bytes are never in memory at once)."""
    write_file(path, _column_pieces(header, columns, spreadsheet_safe))
