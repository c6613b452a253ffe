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
from itertools import repeat
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


class JoinedColumn(Sequence[str]):
    """One text column whose cell in row ``k`` is its parts joined: part ``j`` is
    ``values[codes[k]]`` of the ``j``-th (values, codes) pair, each a table of texts and a code
    per row. The CSV writer lays the parts side by side in its rows and checks each part's
    texts once (a row is joined on its own only when it needs quotes or a formula prefix):
    a schedule's labels (``{rack}-U{u}-`` + port + `` to {panel}:`` + port) and cable ids
    (link + ``:cord-a``) are then never made one text per row (~0.9 M each at zoned XL). Any
    other reader sees a plain sequence of the joined texts, made when read."""

    __slots__ = ("parts", "n")

    def __init__(self, parts: Sequence[tuple[Sequence[str], np.ndarray]]) -> None:
        self.n = len(parts[0][1]) if parts else 0
        self.parts = [(_object_array(values), codes) for values, codes in parts]

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts(slice(None)))

    def __getitem__(self, at):
        if isinstance(at, slice):
            return self.texts(at)
        return "".join(values[codes[at]] for values, codes in self.parts)

    def texts(self, rows: slice | np.ndarray) -> list[str]:
        """The joined texts of ``rows``."""
        lists = [values[codes[rows]].tolist() for values, codes in self.parts]
        if len(lists) == 1:
            return lists[0]
        return list(map("".join, zip(*lists, strict=True)))

    def pieces(self, spreadsheet_safe: bool, suffix: str) -> tuple[list, np.ndarray, list[str]]:
        """What the CSV writer lays out: each part's texts (the last followed by ``suffix``)
        and codes, then the rows written whole and their cells (few: those holding a quote).

        A cell's formula prefix and quotes go on its first and last parts: those parts' texts
        are listed with each prefix and closing quote they need and a row's codes pick the
        right one, so a row that needs quotes (a trunk's ``R1-R3,R7``: ~100k rows at zoned XL)
        is not joined and quoted on its own. The parts are texts (a TypeError says otherwise).
        """
        quote = np.zeros(self.n, dtype=bool)
        formula = np.zeros(self.n, dtype=bool)
        doubled = np.zeros(self.n, dtype=bool)  # a quote inside: doubled, the row made whole
        undecided = np.ones(self.n, dtype=bool)  # no text yet: the next part starts the cell
        decided = not spreadsheet_safe  # every row's first character known
        for values, codes in self.parts:
            # each flag gathered per row only when some text has it (most have none)
            needs_quotes, has_quote, starts, empty = _text_flags(values.tolist(), spreadsheet_safe)
            if needs_quotes.any():
                quote |= needs_quotes[codes]
            if has_quote.any():
                doubled |= has_quote[codes]
            if not decided:
                if starts.any():
                    formula |= undecided & starts[codes]
                if empty.any():
                    undecided &= empty[codes]
                else:
                    decided = True
        out = list(self.parts)
        (first, first_codes), (last, last_codes) = out[0], out[-1]
        prefix = formula + 2 * quote  # an index into _PREFIXES per row
        none = np.zeros(self.n, dtype=bool)
        if len(out) == 1:
            out[0] = _variants(first, first_codes, prefix, quote, suffix)
        else:
            out[0] = _variants(first, first_codes, prefix, none, "")
            out[-1] = _variants(last, last_codes, none.view(np.int8), quote, suffix)
        rows = np.flatnonzero(doubled)
        cells = self.texts(rows)
        for k in np.flatnonzero(formula[rows]).tolist():
            cells[k] = "'" + cells[k]
        for k in np.flatnonzero(quote[rows]).tolist():
            cells[k] = _quoted(cells[k])
        return out, rows, cells


_PREFIXES = ("", "'", '"', "\"'")  # none, a formula's, a quote, both


def _variants(values, codes, prefix: np.ndarray, closing: np.ndarray, suffix: str) -> tuple:
    """``values`` followed by ``suffix``, and ``codes``; where a row's ``prefix`` (an index
    into ``_PREFIXES``) or ``closing`` (a closing quote before the suffix) say so, that row's
    text with them instead, made once per distinct (value, prefix, closing) of those rows."""
    texts = values + suffix if suffix else values
    if not (prefix.any() or closing.any()):
        return texts, codes
    rows = np.flatnonzero((prefix > 0) | closing)
    keys = (codes[rows].astype(np.int64) * 4 + prefix[rows]) * 2 + closing[rows]
    distinct, inverse = np.unique(keys, return_inverse=True)
    extra = np.empty(len(distinct), dtype=object)
    extra[:] = [
        _PREFIXES[(k >> 1) & 3] + values[k >> 3] + ('"' if k & 1 else "") + suffix
        for k in distinct.tolist()
    ]
    moved = codes.astype(np.int64)
    moved[rows] = len(texts) + inverse.reshape(-1)
    return np.concatenate([texts, extra]), moved


def _object_array(values: Sequence) -> np.ndarray:
    if isinstance(values, np.ndarray) and values.dtype == object:
        return values
    out = np.empty(len(values), dtype=object)
    out[:] = values if isinstance(values, list) else list(values)
    return out


def _text_flags(
    values: list, spreadsheet_safe: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per text of ``values``: whether it holds a character that needs quotes, a quote,
    starts with a formula start, is empty; found in the texts joined by line breaks, by numpy
    (no UTF-8 sequence holds an ASCII byte), or text by text when one holds a line break."""
    blob = _joined_text(values)
    if blob is None:
        raise TypeError("a joined column's parts are texts")
    data, breaks = _bytes_and_breaks(blob)
    if len(breaks) != len(values) - 1:  # a text holds a line break
        search = _NEEDS_QUOTES.search
        return (
            np.array([search(v) is not None for v in values], dtype=bool),
            np.array(['"' in v for v in values], dtype=bool),
            np.array([v[:1] in _FORMULA_SET for v in values], dtype=bool),
            np.array([not v for v in values], dtype=bool),
        )
    n = len(values)
    needs_quotes = np.zeros(n, dtype=bool)
    has_quote = np.zeros(n, dtype=bool)
    if any(c in blob for c in _QUOTE_IF[:3]):  # a search in C first: most have none
        quotes = data == 34
        special = quotes | (data == 44) | (data == 13)
        needs_quotes[np.searchsorted(breaks, np.flatnonzero(special))] = True
        has_quote[np.searchsorted(breaks, np.flatnonzero(quotes))] = True
    begin = np.empty(n, dtype=np.int64)
    begin[:1] = 0
    begin[1:] = breaks + 1
    end = np.empty(n, dtype=np.int64)
    end[:-1] = breaks
    end[-1:] = len(data)
    empty = begin == end
    starts = np.zeros(n, dtype=bool)
    if spreadsheet_safe:
        full = np.flatnonzero(~empty)
        firsts = np.frombuffer("".join(_FORMULA_START).encode("ascii"), np.uint8)
        starts[full] = np.isin(data[begin[full]], firsts)
    return needs_quotes, has_quote, starts, empty


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
    # (first slot, parts, separator, rows, their cells): a joined column's rows written whole
    fixes: list[tuple[int, int, str, np.ndarray, list[str]]] = []
    for k, column in enumerate(columns):
        separator = "," if k < len(columns) - 1 else "\r\n"
        slot = len(pattern)
        if isinstance(column, CodedColumns):
            slots.append((slot, (column.texts(spreadsheet_safe, separator), column.codes)))
            pattern.append(None)
        elif isinstance(column, JoinedColumn):
            # The separator folded into the last part's texts, or an item of its own when
            # they are many (a link id per link: a text made per value costs more)
            apart = len(column.parts[-1][0]) * 4 > len(column)
            suffix = "" if apart else separator
            parts, whole_rows, whole = column.pieces(spreadsheet_safe, suffix)
            slots.extend((slot + j, part) for j, part in enumerate(parts))
            pattern.extend(repeat(None, len(parts)))
            pattern.extend([separator] if apart else [])
            fixes.append((slot, len(parts), suffix, whole_rows, whole))
        else:
            slots.append((slot, format_column(column, spreadsheet_safe)))
            pattern.extend((None, separator))
    head = format_column(list(header), spreadsheet_safe=False)
    head_line = (",".join(head) + "\r\n").encode("utf-8")
    return _joined_rows(head_line, pattern, slots, fixes, lengths.pop())


def _joined_rows(head: bytes, pattern: list, slots: list, fixes: list, n: int) -> Iterator[bytes]:
    """``head``, then the ``n`` rows laid out by ``pattern``, ``slots`` and ``fixes`` (see
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
        for slot, n_parts, separator, rows, whole in fixes:
            lo, hi = np.searchsorted(rows, (start, stop)).tolist()
            for row, cell in zip(rows[lo:hi].tolist(), whole[lo:hi], strict=True):
                at = (row - start) * step + slot
                flat[at : at + n_parts] = [*repeat("", n_parts - 1), separator]
                flat[at] = cell + separator if n_parts == 1 else cell
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
