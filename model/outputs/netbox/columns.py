"""NetBox tables held column by column, and their CSV chunks written without a tuple per row.

A column is a plain list (one value per row), a :class:`Repeat` (one value on every row) or a
:class:`Lookup` (row ``i`` holds ``values[keys[i]]``: a small table of names, types or lengths
and one key per row, often the plant's numpy codes). :func:`table_chunks` gives the same bytes
as :func:`model.outputs.writers.csv_writer.csv_chunks` of the table's rows, but formats a lookup's
values once per entry of its table (:func:`~model.outputs.writers.csv_writer.format_column`: the cell
text of a value does not depend on the other cells of its column), folds the repeated columns
into the text between the cells, and lays each chunk's cells and separators in a flat list
that is joined in C. Two neighbouring lookups on the very same keys (a length and its
unit) are joined into one cell pair per table entry.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter
from typing import cast

import numpy as np

from model.outputs.writers.csv_writer import csv_chunks, format_column


@dataclass(frozen=True)
class Repeat:
    """A column holding ``value`` on each of its ``rows`` rows."""

    value: object
    rows: int

    def __len__(self) -> int:
        return self.rows

    def tolist(self) -> list:
        return [self.value] * self.rows


@dataclass(frozen=True)
class Lookup:
    """A column whose row ``i`` holds ``values[keys[i]]`` (``values`` a list or a dict;
    ``keys`` a list, or a numpy array of list positions)."""

    values: Sequence | Mapping
    keys: Sequence | np.ndarray

    def __len__(self) -> int:
        return len(self.keys)

    def tolist(self) -> list:
        return list(map(self.values.__getitem__, _plain(self.keys)))


Column = list | Repeat | Lookup
BLOCK_CHUNKS = 40  # chunks whose cells are made at a time (20k rows of CHUNK_ROWS 500)
# A lookup column's cell texts: by key (its values a dict) or by position (a list), and the
# lookup as _formatted gives it (texts, the column's keys).
_Texts = dict[object, str] | list[str]
_Lookup = tuple[_Texts, object]


@dataclass
class Table:
    """One CSV table: its header and one column per header name, all of one length."""

    header: tuple[str, ...]
    columns: list[Column]

    def __post_init__(self) -> None:
        if len(self.columns) != len(self.header):
            raise ValueError(f"{len(self.columns)} columns, header has {len(self.header)}")
        lengths = {len(c) for c in self.columns}
        if len(lengths) > 1:
            raise ValueError(f"columns of different lengths: {sorted(lengths)}")

    def __len__(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    def rows(self) -> list[tuple]:
        """The table as row tuples (for tests and the structured designs' edits)."""
        return list(zip(*(_values(c) for c in self.columns), strict=True))

    @classmethod
    def from_rows(cls, header: Sequence[str], rows: Sequence[Sequence[object]]) -> Table:
        width = len(header)
        if any(len(row) != width for row in rows):
            bad = next(row for row in rows if len(row) != width)
            raise ValueError(f"row has {len(bad)} cells, header has {width}")
        return cls(tuple(header), [list(map(itemgetter(k), rows)) for k in range(width)])


def joined(pieces: Sequence[Column]) -> Column:
    """The rows of ``pieces`` one after the other, as one column: a :class:`Repeat` when every
    piece repeats one value, a :class:`Lookup` (the tables one after the other, each piece's
    keys moved past the tables before it) when every piece is a lookup by list positions or a
    repeat, else a list. The cords and trunk legs of a zoned XL hall are 1.2 M rows: as
    lookups their cells are never made one by one, and the writer formats a value once."""
    if not pieces:
        return []
    values = {p.value for p in pieces if isinstance(p, Repeat)}
    if len(values) == 1 and all(isinstance(p, Repeat) for p in pieces):
        return Repeat(values.pop(), sum(map(len, pieces)))
    tables: list = []
    keys = []
    for piece in pieces:
        if isinstance(piece, Repeat):
            keys.append(np.full(len(piece), len(tables), dtype=np.int64))
            tables.append(piece.value)
        elif (
            isinstance(piece, Lookup)
            and not isinstance(piece.values, Mapping)
            and isinstance(piece.keys, np.ndarray)
        ):
            keys.append(piece.keys.astype(np.int64, copy=False) + len(tables))
            tables.extend(piece.values)
        else:
            cells: list = []
            for p in pieces:
                cells += _values(p)
            return cells
    return Lookup(tables, np.concatenate(keys))


def kept_rows(column: Column, keep: np.ndarray, kept: int) -> Column:
    """The rows of ``column`` where ``keep`` is true (``kept`` of them), as the same kind."""
    if isinstance(column, Repeat):
        return Repeat(column.value, kept)
    if isinstance(column, Lookup) and isinstance(column.keys, np.ndarray):
        return Lookup(column.values, column.keys[keep])
    return list(compress(_values(column), keep.tolist()))


def _plain(keys):
    return keys.tolist() if isinstance(keys, np.ndarray) else keys


def _values(column: Column) -> list:
    return column if isinstance(column, list) else column.tolist()


def table_chunks(table: Table, chunk_rows: int) -> list[bytes]:
    """``csv_chunks(table.header, table.rows(), chunk_rows)``, built from the columns."""
    return list(iter_table_chunks(table, chunk_rows))


def iter_table_chunks(table: Table, chunk_rows: int) -> Iterator[bytes]:
    """:func:`table_chunks` one chunk at a time: a chunk's bytes are made when asked for, so
    a writer can write (and free) each file while the next is made."""
    n, width = len(table), len(table.header)
    if not n or width < 2:
        yield from csv_chunks(table.header, table.rows(), chunk_rows)
        return
    head = ",".join(format_column(list(table.header), spreadsheet_safe=False))
    # Each column as ("text", cell text) when it is the same on every row, else its cells
    formatted: list[tuple[str, object]] = []
    for column in table.columns:
        piece = _formatted(column)
        if piece[0] == "lookup" and formatted and formatted[-1][0] == "lookup":
            merged = _merge(formatted[-1], piece)
            if merged is not None:
                formatted[-1] = merged
                continue
        formatted.append(piece)
    literals, cells = [""], []  # literals[j] comes before cells[j]; literals[-1] ends a row
    for k, (kind, data) in enumerate(formatted):
        if kind == "text":
            literals[-1] += cast(str, data)  # a "text" piece holds its cell text
        else:
            cells.append(_prepared(kind, data))
            literals.append("")
        if k < len(formatted) - 1:
            literals[-1] += ","
    first, last = literals[0], literals[-1] + "\r\n"
    opening = head + "\r\n" + first
    if not cells:  # every column repeated: one line, n times
        lines = [last] * n  # the one literal is the whole line
        for i in range(0, n, chunk_rows):
            yield (head + "\r\n" + "".join(lines[i : i + chunk_rows])).encode("utf-8")
        return
    # Per row: cell, literal, cell, ..., cell, separator (the row's end and the next's start).
    # A lookup's literal is put at the end of each of its texts (_folded) instead: one piece
    # a cell, not two, in the list a chunk is joined from (a zoned XL cable file's rows were
    # 22 pieces, now 12).
    pattern, places = _row_pattern(cells, [*literals[1:-1], last + first], n)
    # The row's last piece, in the last row of a chunk: the file's end (not the next row's
    # start), cut from the cell text when the literal is folded into it
    tail = pattern[-1] is None and len(first)
    # One chunk's rows laid out at a time (a flat list of every row was ~40 MB at XL), the
    # cells of BLOCK_CHUNKS chunks made at a time (every column's at once were ~150 MB at the
    # peak of a zoned XL export, 1.2 M cables)
    step = len(pattern)
    block = chunk_rows * BLOCK_CHUNKS
    for b in range(0, n, block):
        block_cells = [_block_cells(kind, data, b, min(n, b + block)) for kind, data in cells]
        for i in range(b, min(n, b + block), chunk_rows):
            rows = min(n, i + chunk_rows) - i
            flat = pattern * rows
            for place, column_cells in zip(places, block_cells, strict=True):
                flat[place::step] = column_cells[i - b : i - b + rows]
            # The last row ends the file, and the header comes first: the chunk's text made
            # by one join (not joined again)
            if pattern[-1] is not None:
                flat[-1] = last
            elif tail:
                flat[-1] = cast(str, flat[-1])[:-tail]
            flat.insert(0, opening)
            # Every None (a cell's place) now holds that cell's text.
            yield "".join(cast(list[str], flat)).encode("utf-8")


def _row_pattern(cells: list, literals: list[str], rows: int) -> tuple[list, list[int]]:
    """A row's pieces (a literal text, or None where a cell goes) and each column's place in
    them, for ``cells`` (pieces of :func:`_prepared`, each followed by its literal); a cell
    piece whose literal is folded into its texts (:func:`_folded`) is replaced in ``cells``."""
    pattern: list[str | None] = []
    places = []
    for j, literal in enumerate(literals):
        places.append(len(pattern))
        pattern.append(None)
        kind, data = cells[j]
        folded = _folded(kind, data, literal, rows)
        if folded is None:
            pattern.append(literal)
        else:
            cells[j] = folded
    return pattern, places


def _folded(kind: str, data, literal: str, rows: int) -> tuple[str, object] | None:
    """A lookup piece of :func:`_prepared` with ``literal`` at the end of each of its texts,
    when its table is small beside the ``rows`` it serves (a text made per table entry saves
    a piece per row); None otherwise (a column formatted per block, a large table)."""
    if kind == "table":
        table, keys = data
        if len(table) * 4 > rows:
            return None
        texts = np.empty(len(table), dtype=object)
        texts[:] = [text + literal for text in table.tolist()]
        return "table", (texts, keys)
    if kind == "lookup":
        text, keys = data
        if len(text) * 4 > rows:
            return None
        if isinstance(text, dict):
            return "lookup", ({k: v + literal for k, v in text.items()}, keys)
        return "lookup", ([v + literal for v in text], keys)
    return None


def _prepared(kind: str, data) -> tuple[str, object]:
    """A piece of :func:`_formatted` made ready for :func:`_block_cells`: a lookup by list
    positions in a numpy key array as an object array of its texts (made once, not per block)."""
    if kind == "lookup":
        text, keys = data
        if isinstance(keys, np.ndarray) and keys.dtype.kind in "iu" and isinstance(text, list):
            table = np.empty(len(text), dtype=object)
            table[:] = text
            return "table", (table, keys)
    return kind, data


def _block_cells(kind: str, data, first: int, last: int) -> list[str]:
    """The cell texts of rows ``first:last`` of a piece of :func:`_prepared`: a plain
    column's formatted there (a cell's text does not depend on the other cells), a lookup's
    gathered."""
    if kind == "column":
        return format_column(data[first:last])
    text, keys = data
    if kind == "table":
        return text[keys[first:last]].tolist()
    return list(map(text.__getitem__, _plain(keys[first:last])))


def _formatted(column: Column) -> tuple[str, object]:
    if isinstance(column, Repeat):
        return "text", format_column([column.value])[0]
    if isinstance(column, Lookup):
        values = column.values
        text: _Texts
        if isinstance(values, Mapping):
            text = dict(zip(values, format_column(list(values.values())), strict=True))
        else:
            text = format_column(list(values))
        entries = set(text.values() if isinstance(text, dict) else text)
        if len(entries) == 1:  # the same cell on every row
            return "text", entries.pop()
        return "lookup", (text, column.keys)
    return "column", column  # formatted a block at a time (_block_cells)


def _merge(left: tuple[str, object], right: tuple[str, object]) -> tuple[str, object] | None:
    """One lookup of "left,right" cell pairs, when both columns use the same keys object."""
    a, keys = cast(_Lookup, left[1])
    b, other = cast(_Lookup, right[1])
    if keys is not other or type(a) is not type(b) or len(a) != len(b):
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return None
        return "lookup", ({k: a[k] + "," + b[k] for k in a}, keys)
    if isinstance(a, list) and isinstance(b, list):
        return "lookup", ([x + "," + y for x, y in zip(a, b, strict=True)], keys)
    return None  # not reached: a lookup's texts are a dict or a list (_formatted)
