"""Sheet XML of a plain sheet given column by column: each column encoded once, chunks gathered.

A column is looked at once, whole (:class:`_Column`): its kind (text, whole numbers, decimals,
booleans, mixed), whether its text is repeated enough to go into the shared strings, whether
it is plain (nothing to escape). Each distinct value is then turned into its whole cell, as
bytes, once (``<c t="s"><v>7</v></c>``, ``<c><v>2.5</v></c>``), and a chunk of rows is the
cells gathered by value (``map`` over a dict: a C loop) and laid side by side with the other
columns' by slice assignment, then joined once, as text (a ``str`` join of millions of pieces
took a fifth of the time of a ``bytes`` join of the same pieces) and encoded once. Text seen
once (an id, a label: a column whose first rows are mostly distinct text) is not worth a
dict: it always goes inline, and a chunk of it that is plain goes into the join as it is,
between the tags every row repeats; a chunk that is not (a character to escape, a value that
is not text) is made value by value. A run of columns may come as :class:`CodedColumns` (the
schedule's distinct rows and a code per row, what its CSV takes): each distinct row's cells
are then made and joined once and gathered by code (:class:`_CodedGroup`), with the choices
and the shared strings the full columns would get, so the bytes are the same.

Cells follow ECMA-376 Part 1, 18.3.1.4 and 18.4, as compactly as the format allows: repeated
text as a shared string, other text inline, numbers with the default cell type, and no ``r``
reference on a cell (it is the next column of its row) except after a left-out one (no cell is
written for None, NaN or infinity, as openpyxl writes none). The choice between shared and
inline text is made per column over all its rows; the values read back are the same either way.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from typing import cast

import numpy as np

from model.outputs.writers.csv_writer import CodedColumns

# The control characters XML 1.0 forbids (all below U+0020 but tab, LF and CR): what openpyxl
# removes from a cell's text (openpyxl.cell.cell.ILLEGAL_CHARACTERS_RE, the same pattern; a
# test holds them equal). Kept here so that encoding a plain sheet does not import openpyxl
# (~0.1 s), which the workbook's small sheets need only later.
ILLEGAL_CHARACTERS_RE = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")


def column_letter(column: int) -> str:
    """The letters of a 1-based column number (1: ``A``, 27: ``AA``), as a spreadsheet names it."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
# openpyxl (and Excel) drop "x005F_" from a shared string read back (the escape of "_xHHHH_"),
# not from an inline one: such a text stays inline, so that it reads back as written.
_SHARED_UNSAFE = "x005F_"
_INLINE_HEAD, _INLINE_TAIL = b'<c t="inlineStr"><is><t>', b"</t></is></c>"
_INLINE_SEP = _INLINE_TAIL + b"\x00" + _INLINE_HEAD
_JOIN = b"".join
_SAMPLE_ROWS = 4096  # first rows of a text column judged for how repeated it is


def text_xml(text: str) -> str:
    """``<t>`` of a text: controls removed, ``&<>`` escaped, edge spaces preserved."""
    if not text.isprintable():
        text = ILLEGAL_CHARACTERS_RE.sub("", text)
    if "&" in text or "<" in text or ">" in text:
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
    return f"<t{space}>{text}</t>"


def cell_xml(value: object) -> str | None:
    """One value's whole cell, text inline (None: no cell, as openpyxl writes none)."""
    if value is None:
        return None
    if isinstance(value, str):
        return f'<c t="inlineStr"><is>{text_xml(value)}</is></c>'
    if isinstance(value, bool):
        return f'<c t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return f"<c><v>{value!r}</v></c>"  # t="n", the default cell type
    raise TypeError(f"plain sheet cell of type {type(value).__name__}")


def cell_bytes(value: object) -> bytes:
    """:func:`cell_xml` as bytes, empty for no cell."""
    cell = cell_xml(value)
    return b"" if cell is None else cell.encode()


# ASCII bytes that may stand in ``<t>`` as they are: printable ones (not the controls that
# ILLEGAL_CHARACTERS_RE removes nor the tab and line breaks ``isprintable`` refuses, nor DEL),
# and (_PLAIN) not what XML escapes.
_PRINTABLE = bytes(range(32, 127))
_PLAIN = _PRINTABLE.translate(None, b"&<>")


def plain_text(values: list[str], escapes: bool = False) -> bool:
    """Whether every text of a column goes into ``<t>`` as it is: printable, nothing to escape
    (``escapes``: or only ``&``, ``<`` and ``>``), no space at either end. Checked on the
    column's text joined by NULs: with the allowed bytes deleted (``bytes.translate``), only
    the ``len + 1`` NULs around the texts may be left, and no space may touch one. Text with
    non-ASCII characters is checked by ``str.isprintable`` instead. (A text holding a control
    character such as U+0001 is not plain: it is cleaned by :func:`text_xml`.)"""
    return _plain_joined("\x00".join(values), len(values), escapes) if values else True


def _plain_joined(body: str, count: int, escapes: bool = False) -> bool:
    """:func:`plain_text` of ``count`` texts given joined by NULs (``body``)."""
    if not body.isascii():
        if body[:1] == " " or body[-1:] == " " or "\x00 " in body or " \x00" in body:
            return False
        # Printable: no NUL inside a text (the count of NULs is the count of separators).
        if body.count("\x00") != count - 1 or not body.replace("\x00", "").isprintable():
            return False
        return escapes or not any(c in body for c in "&<>")
    data = body.encode("ascii")
    if data.translate(None, _PRINTABLE if escapes else _PLAIN) != b"\x00" * (count - 1):
        return False
    return b" " not in data or not _space_at_an_edge(data)


def _space_at_an_edge(data: bytes) -> bool:
    """Whether one of the texts ``data`` holds joined by NULs (none inside a text) starts or
    ends with a space: read in the bytes either side of each NUL. Why not ``"\x00 " in body``:
    that search stops at every NUL, one per text; the two searches took ~60 % of the plain
    check of a zoned XL schedule sheet (0.14 s of 0.24), this takes a few milliseconds."""
    if data[:1] == b" " or data[-1:] == b" ":
        return True
    codes = np.frombuffer(data, dtype=np.uint8)
    at = np.flatnonzero(codes == 0)
    # A NUL first or last reads the other end's byte, no space (checked above)
    after = np.minimum(at + 1, len(codes) - 1)
    return bool((codes[at - 1] == 32).any() or (codes[after] == 32).any())


def _inline_plain_cells(part: list) -> list[bytes] | None:
    """The inline cells of ``part``, made by one ``join`` and one ``split`` when every value is
    plain text (:func:`plain_text`); None when not (the caller makes them one by one)."""
    if not part:
        return []
    try:
        body = "\x00".join(part)
    except TypeError:  # a value that is not text
        return None
    if not _plain_joined(body, len(part)):
        return None
    joined = _INLINE_HEAD + body.encode().replace(b"\x00", _INLINE_SEP)
    return (joined + _INLINE_TAIL).split(b"\x00")


def _shared_pays(n: int, distinct: list[str], table_size: int) -> bool:
    """Whether shared cells are shorter than inline ones: an inline cell takes 36 bytes around
    its text, a shared one 20 plus the index, and its text's entry in the table
    (``<si><t>...</t></si>``) 16 around the text once per distinct text."""
    d = len(distinct)
    mean = sum(map(len, distinct)) / d
    if n * (20 + len(str(table_size + d))) + d * (16 + mean) >= n * (36 + mean):
        return False
    return _SHARED_UNSAFE not in "\x00".join(distinct)


class _Column:
    """One column, looked at whole; :meth:`cells` gives the cells (bytes) of a row range and
    the rows in it that have no cell."""

    def __init__(
        self,
        values: Sequence[object],
        strings: dict[str, int],
        rows: int | None = None,
        sample: list | None = None,
    ) -> None:
        """``rows`` and ``sample`` (a coded column, :class:`_CodedGroup`): ``values`` is then
        one value per distinct row in order of first use, not one per row; ``rows`` the count
        of rows and ``sample`` the column's first rows, which decide as the full column would."""
        self.values = values if isinstance(values, list) else list(values)
        self.rows = len(self.values) if rows is None else rows
        self.sample = self.values[:_SAMPLE_ROWS] if sample is None else sample
        self.cell_of: dict | None = None  # distinct value -> its whole cell (b"": none)
        self.inline_plain = False  # mostly distinct text: inline, plain chunks by join and split
        self.skips = False  # some rows have no cell
        self.zeros = False  # floats with a zero: -0.0 == 0.0 share a key, each has its text
        if self._mostly_distinct_text():
            self.inline_plain = True
            return
        distinct = dict.fromkeys(self.values)
        kinds = set(map(type, distinct))
        if kinds <= {str, type(None)}:  # exact: no other value equals a text
            self._text(list(distinct), type(None) in kinds, strings)
            return
        kinds = set(map(type, self.values))  # 1 == 1.0 == True: one key of the distinct
        if kinds <= {int, type(None)} or kinds <= {bool, type(None)}:
            self._mapped(distinct)
        elif kinds <= {float, type(None)}:
            self.zeros = 0.0 in distinct
            self._mapped(distinct)
        # else mixed kinds: each value turned into its cell (cell_of stays None)

    def _mostly_distinct_text(self) -> bool:
        """Whether the column is mostly distinct text, judged on its first rows (all text, over
        a quarter of them distinct): an id, a label, a cage name. Such a column goes inline: a
        table of its texts would save a few bytes a cell and cost more time to build than those
        bytes cost to compress. Whether its text is plain is judged per chunk (:meth:`encode`)."""
        sample = self.sample
        if not sample or len(set(map(type, sample))) != 1 or type(sample[0]) is not str:
            return False
        return len(set(sample)) * 4 > len(sample)

    def _text(self, distinct: list, skips: bool, strings: dict[str, int]) -> None:
        self.skips = skips
        texts = [t for t in distinct if t is not None] if skips else distinct
        if texts and _shared_pays(self.rows, texts, len(strings)):
            new = [t for t in texts if t not in strings]
            strings.update(zip(new, range(len(strings), len(strings) + len(new)), strict=True))
            self.cell_of = {t: b'<c t="s"><v>%d</v></c>' % strings[t] for t in texts}
        elif plain_text(texts):
            self.cell_of = {t: _INLINE_HEAD + t.encode() + _INLINE_TAIL for t in texts}
        else:
            self.cell_of = {t: cell_bytes(t) for t in texts}
        if skips:
            self.cell_of[None] = b""

    def _mapped(self, distinct) -> None:
        self.cell_of = {}
        for v in distinct:
            cell = cell_xml(v)
            self.cell_of[v] = b"" if cell is None else cell.encode()
            self.skips = self.skips or cell is None

    def cells(self, first: int, last: int) -> tuple[list[bytes], list[int]]:
        return self.encode(self.values[first:last])

    def encode(self, part: list) -> tuple[list[bytes], list[int]]:
        """The cells of the values ``part`` (of this column), and the positions with none."""
        if self.inline_plain:
            cells = _inline_plain_cells(part)
            if cells is not None:
                return cells, []
        if self.cell_of is None:  # mixed kinds, or inline text not plain: cell by cell
            cells = [b"" if c is None else c.encode() for c in map(cell_xml, part)]
        else:
            cells = list(map(self.cell_of.__getitem__, part))
        if self.zeros:
            for i in np.flatnonzero(np.array(part, dtype=float) == 0.0).tolist():
                cells[i] = cell_bytes(part[i])
        if self.cell_of is not None and not self.skips:
            return cells, []
        return cells, [i for i, c in enumerate(cells) if not c]


class _CodedGroup:
    """Adjacent columns given as :class:`CodedColumns` (their distinct rows and a code per
    row): each column judged as its full list would be (:class:`_Column` of its values in
    order of first use: the same choices, the same shared strings in the same order), each
    distinct row's cells made and joined once, and a chunk's rows gathered by code (a numpy
    take). A row's cell that follows a left-out one needs its ``r``: a distinct row with a gap
    inside is rare (a length known and its ordered length not) and is made per row."""

    def __init__(self, coded: CodedColumns, strings: dict[str, int], letters: list[str]):
        size = len(coded.distinct)
        codes = np.asarray(coded.codes, dtype=np.int64)
        self.codes = np.where(codes < 0, codes + size, codes)  # -1: the last row, as numpy reads
        self.letters = letters
        used = _first_use_order(self.codes, size)  # distinct rows by first use
        distinct = coded.distinct
        columns = list(zip(*map(distinct.__getitem__, used), strict=True))
        first_rows = map(distinct.__getitem__, self.codes[:_SAMPLE_ROWS].tolist())
        head = list(zip(*first_rows, strict=True))
        lanes = []
        for values, sample in zip(columns, head, strict=True):
            column = _Column(list(values), strings, len(codes), list(sample))
            lanes.append(column.encode(column.values)[0])
        # Per used distinct row and column: no cell there (an empty cell is b"")
        empty = np.stack([np.fromiter(map(len, lane), np.int64, len(used)) == 0 for lane in lanes])
        # Each used distinct row's cells as one text (a chunk is laid out and joined as text:
        # SheetRows._chunk), decoded at once (no cell holds a NUL: XML has none)
        self.joined = np.full(size, "", dtype=object)
        self.joined[used] = _as_text(list(map(_JOIN, zip(*lanes, strict=True))))
        self.lead = np.zeros(size, dtype=bool)  # the first column has a cell
        self.lead[used] = ~empty[0]
        self.tail_gap = np.zeros(size, dtype=bool)  # the last column has none
        self.tail_gap[used] = empty[-1]
        self.inner_gap = np.zeros(size, dtype=bool)  # a cell after a left-out one
        inner = (empty[:-1] & ~empty[1:]).any(axis=0)
        self.inner_gap[used] = inner
        self.parts: dict[int, tuple[str, ...]] = {
            used[i]: tuple(_as_text([lane[i] for lane in lanes]))
            for i in np.flatnonzero(inner).tolist()
        }
        self.skips = bool(self.tail_gap.any())

    def cells(self, first: int, last: int, gap: list[int], row0: int):
        """The joined cells of rows ``first:last`` (numbered from ``row0``), given the rows
        ``gap`` where the column before has no cell; and the rows where the last has none."""
        codes = self.codes[first:last]
        out = self.joined[codes].tolist()
        if self.parts:
            after_gap = set(gap)
            for i in np.flatnonzero(self.inner_gap[codes]).tolist():
                out[i] = self._with_refs(self.parts[int(codes[i])], i in after_gap, row0 + i)
        lead, inner = self.lead, self.inner_gap
        for i in gap:
            k = codes[i]
            if lead[k] and not inner[k]:
                out[i] = f'<c r="{self.letters[0]}{row0 + i}"' + out[i][2:]
        skip = np.flatnonzero(self.tail_gap[codes]).tolist() if self.skips else []
        return out, skip

    def _with_refs(self, cells: tuple[str, ...], after_gap: bool, row: int) -> str:
        out = []
        for letter, cell in zip(self.letters, cells, strict=True):
            if cell and after_gap:
                cell = f'<c r="{letter}{row}"' + cell[2:]
            out.append(cell)
            after_gap = not cell
        return "".join(out)


def _first_use_order(codes: np.ndarray, size: int) -> list[int]:
    """The codes (each in ``0..size-1``) that occur, in order of first occurrence: the first
    row of each by one unbuffered minimum (``np.minimum.at``, linear), then a sort of the
    distinct codes alone (``np.unique`` with ``return_index`` sorts every row: ~10x longer)."""
    n = len(codes)
    first = np.full(size, n, dtype=np.int64)
    np.minimum.at(first, codes, np.arange(n, dtype=np.int64))
    present = np.flatnonzero(first < n)
    return present[np.argsort(first[present], kind="stable")].tolist()


def column_heads(columns: Sequence, n: int) -> list[list]:
    """The first ``n`` values of each column, a :class:`CodedColumns` as its columns."""
    out: list[list] = []
    for column in columns:
        if isinstance(column, CodedColumns):
            rows = [column.distinct[k] for k in column.codes[:n].tolist()]
            out.extend([row[j] for row in rows] for j in range(column.width))
        else:
            out.append(list(column[:n]))
    return out


class SheetRows:
    """The rows of a plain sheet given column by column, each column looked at once (its
    repeated text added to the shared strings ``strings``: text -> index, new texts at the
    end), its first row numbered ``start``. :meth:`chunks` gives the ``<row>`` elements of any
    row range from that alone: once made, the shared strings are known, and parts of the sheet
    may be encoded apart (in another process) and laid one after another. A column may be a
    :class:`CodedColumns` (several sheet columns, formatted once per distinct row)."""

    def __init__(self, columns: Sequence, start: int, strings: dict[str, int]) -> None:
        self.count = len(columns[0]) if columns else 0
        self.start = start
        self._encoded: list = []
        width = 0
        for values in columns if self.count else ():
            if isinstance(values, CodedColumns):
                letters = [column_letter(width + j + 1) for j in range(values.width)]
                self._encoded.append(_CodedGroup(values, strings, letters))
                width += values.width
            else:
                width += 1
                self._encoded.append(_Column(values, strings))
        self._letters = [column_letter(c + 1) for c in range(width)]

    def chunks(self, first: int, last: int, chunk_rows: int) -> Iterator[bytes]:
        """The ``<row>`` elements of rows ``first:last`` (of the columns), ``chunk_rows`` at a
        time."""
        for at in range(first, last, chunk_rows):
            yield self._chunk(at, min(at + chunk_rows, last))

    def _chunk(self, first: int, last: int) -> bytes:
        """Rows ``first:last`` as text laid out in one list and joined once, then encoded: the
        tags the same on every row (a plain inline cell's ``<c ...><t>`` around its text) are
        one piece of text repeated, a row's opening two pieces of shared texts (its number's
        thousands, its last three digits), a plain inline column's values go in
        as they are, other columns as their cells. That replaced a join of each run of inline
        columns with their tags, its check, its split into cells per row and a join of those
        bytes with the other cells: ~35 % less CPU for the XL schedule sheet's rows."""
        row0 = self.start + first
        count = last - first
        # Each piece is text on every row (a str) or one text per row (a list); a row opens
        # with the previous one's close, its number in two pieces (_row_numbers)
        pieces: list[str | list[str]] = [*_row_numbers(row0, count), '">']
        gap: list[int] = []  # rows (in the chunk) where the previous column has no cell
        c = 0  # sheet column of the next cell
        for column in self._encoded:
            if isinstance(column, _CodedGroup):
                cells, gap = column.cells(first, last, gap, row0)
                pieces.append(cells)
                c += len(column.letters)
                continue
            part = column.values[first:last]
            if column.inline_plain and not gap and _plain_part(part):
                pieces += [_INLINE_HEAD_TEXT, part, _INLINE_TAIL_TEXT]
                gap = []
            else:  # cell by cell; an ``r`` on each cell after a left-out one
                cells, skip = column.encode(part)
                text = _as_text(cells)
                for i in gap:
                    if text[i]:
                        text[i] = f'<c r="{self._letters[c]}{row0 + i}"' + text[i][2:]
                pieces.append(text)
                gap = skip
            c += 1
        return _laid_out(pieces, count, "</row>").encode("utf-8")


_INLINE_HEAD_TEXT, _INLINE_TAIL_TEXT = _INLINE_HEAD.decode(), _INLINE_TAIL.decode()


def _plain_part(part: list) -> bool:
    """Whether every value of ``part`` is text that goes into ``<t>`` as it is
    (:func:`plain_text`); False for a value that is not text."""
    try:
        body = "\x00".join(part)
    except TypeError:  # a value that is not text
        return False
    return _plain_joined(body, len(part)) if part else True


def _laid_out(pieces: list, count: int, closing: str) -> str:
    """The ``count`` rows of ``pieces`` (texts the same on every row, and lists of one text
    per row) as one text ended by ``closing``: adjacent texts merged, every row laid out in
    one list (slice assignment) joined once."""
    row: list = []
    for piece in pieces:
        if isinstance(piece, str) and row and isinstance(row[-1], str):
            row[-1] += piece
        else:
            row.append(piece)
    width = len(row)
    # A row's texts in place; each list's slot (None here) then filled by slice assignment
    flat = [piece if isinstance(piece, str) else None for piece in row] * count
    for j, piece in enumerate(row):
        if not isinstance(piece, str):
            flat[j::width] = piece
    flat.append(closing)
    return "".join(cast(list[str], flat))


# A row number's last three digits, padded ("007") and as written alone ("7": rows below 1000)
_PADDED = [f"{k:03d}" for k in range(1000)]
_ALONE = [str(k) for k in range(1000)]


def _row_numbers(first: int, count: int) -> tuple[list[str], list[str]]:
    """The openings of rows ``first`` to ``first + count - 1``, in two pieces per row: the
    tag with the number's thousands (the previous row's close before it but on the first
    row), one text shared by a thousand rows, then the last three digits, from a table. Why:
    ``str`` of each row number was ~10 % of the CPU of a zoned XL schedule sheet's rows
    (886k numbers); these are lists repeated and sliced."""
    heads: list[str] = []
    tails: list[str] = []
    at, end = first, first + count
    while at < end:
        thousands, rest = divmod(at, 1000)
        stop = min(end, (thousands + 1) * 1000)
        if thousands:
            heads += ['</row><row r="' + str(thousands)] * (stop - at)
            tails += _PADDED[rest : rest + stop - at]
        else:
            heads += ['</row><row r="'] * (stop - at)
            tails += _ALONE[rest : rest + stop - at]
        at = stop
    if heads:
        heads[0] = heads[0].replace("</row>", "", 1)  # the chunk's first row: nothing to close
    return heads, tails


def _as_text(cells: list[bytes]) -> list[str]:
    """UTF-8 cells as text, decoded at once (a cell holds no NUL: XML has none)."""
    return b"\x00".join(cells).decode("utf-8").split("\x00") if cells else []


def column_chunks(
    columns: Sequence, start: int, strings: dict[str, int], chunk_rows: int
) -> Iterator[bytes]:
    """All rows of :class:`SheetRows` of ``columns``, ``chunk_rows`` at a time."""
    rows = SheetRows(columns, start, strings)
    return rows.chunks(0, rows.count, chunk_rows)


def columns_xml(
    columns: Sequence[Sequence[object]], start: int, strings: dict[str, int] | None = None
) -> bytes:
    """All rows of :func:`column_chunks` as one piece (a new shared strings table when None)."""
    strings = {} if strings is None else strings
    rows = len(columns[0]) if columns else 0
    return b"".join(column_chunks(columns, start, strings, max(1, rows)))


def strings_xml(strings: dict[str, int], chunk: int = 20_000) -> Iterator[bytes]:
    """The shared strings part, in pieces (texts in index order: a dict keeps insertion)."""
    yield f'<sst xmlns="{MAIN_NS}" uniqueCount="{len(strings)}">'.encode()
    texts = list(strings)
    for first in range(0, len(texts), chunk):
        part = texts[first : first + chunk]
        if plain_text(part, escapes=True):
            body = "\x00".join(part)
            if "&" in body or "<" in body or ">" in body:
                body = body.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            yield ("<si><t>" + body.replace("\x00", "</t></si><si><t>") + "</t></si>").encode()
        else:
            yield "".join([f"<si>{text_xml(t)}</si>" for t in part]).encode("utf-8")
    yield b"</sst>"
