"""The per-segment schedule's columns kept as codes: each cell source a list of values and a code
per row, the table handed to the writers as coded column runs (formatted once per distinct row).

A segment row's rack, U, device, port, speed, medium, lengths, parts, modules and route come
from few distinct values (a device, a patch point, a port number, a rounded length): the rows
are filled with integer codes into per-column value lists (:class:`CodedOut`), never with one
Python object per cell, and the CSV and XLSX writers take the same column runs as the link
table's (:meth:`model.outputs.schedule._LinkColumns.coded_columns`), which they format once per
distinct row: the same bytes as the full columns (the writers' contract), without ~13 lists of
~0.9 M cells at zoned XL being made, scattered and formatted cell by cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from model.common.arrays import unique_inverse
from model.outputs.schedule_columns import SCHEDULE_COLUMNS, coded, objects
from model.outputs.writers.csv_writer import JoinedColumn

# The columns kept as codes; the others (one value per row, or nearly) stay object arrays.
PER_ROW = ("a_cage", "b_cage")
# The columns kept as parts joined per row (JoinedColumn), each part coded: a label's heads
# (one per device or patch point) and ports, a cable id's link and suffix (``:cord-a``).
JOINED = {"cable_id": 2, "label": 4}
CODED = tuple(name for name in SCHEDULE_COLUMNS if name not in PER_ROW and name not in JOINED)
CODE32_MAX = int(np.iinfo(np.int32).max)  # the last value index an int32 code holds


class Coded:
    """Cells as ``values[codes[k]]`` (codes never negative); ``coded[rows]`` the cells at rows."""

    __slots__ = ("values", "codes")

    def __init__(self, values: list, codes: np.ndarray) -> None:
        self.values, self.codes = values, codes

    def __getitem__(self, rows: np.ndarray) -> Coded:
        return Coded(self.values, self.codes[rows])

    def cells(self) -> np.ndarray:
        """The cells as an object array."""
        return objects(self.values, len(self.values))[self.codes]


def from_codes(values: Sequence, codes: np.ndarray) -> Coded:
    """A column given as (values, codes), a code -1 counting from the end, as :class:`Coded`."""
    values = values if isinstance(values, list) else list(values)
    return Coded(values, np.where(codes < 0, codes + len(values), codes))


def as_coded(cells, n: int) -> Coded:
    """``cells`` (a :class:`Coded`, an object array of ``n`` cells, or one value for all) as
    :class:`Coded`."""
    if isinstance(cells, Coded):
        return cells
    if isinstance(cells, np.ndarray):
        return Coded(cells.tolist(), np.arange(len(cells), dtype=np.int64))
    return Coded([cells], np.zeros(n, dtype=np.int64))


def pick(turned: np.ndarray, x, y):
    """``y`` where ``turned``, else ``x``: object arrays by ``np.where``, else as :class:`Coded`
    (both value lists, ``y``'s codes shifted past ``x``'s)."""
    if not isinstance(x, Coded) and not isinstance(y, Coded):
        if not isinstance(x, np.ndarray) and not isinstance(y, np.ndarray) and x == y:
            return x  # one value for all (np.where would make a numpy text array of it)
        return np.where(turned, y, x)
    n = len(turned)
    cx, cy = as_coded(x, n), as_coded(y, n)
    return Coded(cx.values + cy.values, np.where(turned, cy.codes + len(cx.values), cx.codes))


def texts(values: np.ndarray) -> Coded:
    """Integers as their decimal text, each distinct value formatted once (ranked by a count,
    not a sort: port numbers span a few hundred values over ~0.8 M cords at zoned XL)."""
    if not len(values):
        return Coded([], np.zeros(0, dtype=np.int64))
    uniq, inverse = unique_inverse(values)
    return Coded([str(v) for v in uniq.tolist()], inverse)


class Joined(NamedTuple):
    """A joined column's cells (:data:`JOINED`) as their parts, each a :class:`Coded`, an
    object array or one value: a row's cell is its parts joined."""

    parts: tuple


def _part(name: str, j: int) -> str:
    """The name of part ``j`` of joined column ``name`` in :class:`CodedOut`."""
    return f"{name}:{j}"


class CodedOut:
    """The segment table's columns being filled: the coded ones as value lists and a code per
    row (each source's values appended, its codes shifted past those before), the others as
    object arrays."""

    def __init__(self, n: int) -> None:
        self.n = n
        coded = [*CODED, *(_part(name, j) for name, size in JOINED.items() for j in range(size))]
        self.values: dict[str, list] = {name: [] for name in coded}
        # int32 codes: 17 columns of ~0.9 M rows at zoned XL are 60 MB less than int64 ones.
        # A code indexes its column's values (not its rows), so a column whose values pass
        # int32 becomes int64 then (:meth:`put`).
        self.codes = {name: np.zeros(n, dtype=np.int32) for name in coded}
        self.cells = {name: np.empty(n, dtype=object) for name in PER_ROW}
        # Per coded column, the value lists put whole (by identity: a list held here) and
        # where they start: the link table's ids and figures, read at each kind of row, are
        # then in the column's values once (~0.4 M link ids at zoned XL, not ~1.2 M).
        self._placed: dict[str, dict[int, tuple[list, int, int]]] = {name: {} for name in coded}

    def put(self, name: str, at: np.ndarray, cells) -> None:
        """Rows ``at`` of column ``name``: a :class:`Coded`, an object array or one value; for
        a joined column (``JOINED``) also :class:`Joined` parts (a whole text is its first
        part, the others empty)."""
        if name in self.cells:
            self.cells[name][at] = cells.cells() if isinstance(cells, Coded) else cells
            return
        if name in JOINED:
            parts = cells.parts if isinstance(cells, Joined) else (cells,)
            for j in range(JOINED[name]):
                self.put(_part(name, j), at, parts[j] if j < len(parts) else "")
            return
        got = as_coded(cells, len(at))
        values = self.values[name]
        placed = self._placed[name].get(id(got.values))
        if placed is not None and placed[0] is got.values and placed[2] == len(got.values):
            self.codes[name][at] = got.codes + placed[1]
            return
        if len(values) + len(got.values) > CODE32_MAX and self.codes[name].dtype != np.int64:
            self.codes[name] = self.codes[name].astype(np.int64)
        self.codes[name][at] = got.codes + len(values)
        self._placed[name][id(got.values)] = (got.values, len(values), len(got.values))
        values.extend(got.values)

    def joined(self, name: str) -> JoinedColumn:
        """Joined column ``name`` (``JOINED``) as its parts."""
        return JoinedColumn(
            [(self.values[_part(name, j)], self.codes[_part(name, j)]) for j in range(JOINED[name])]
        )

    def column(self, name: str) -> tuple[list, np.ndarray]:
        """Column ``name`` as (values, code per row) (a per-row column: its cells, 0..n-1)."""
        if name in self.cells or name in JOINED:
            return self.full(name), np.arange(self.n, dtype=np.int64)
        if name not in self.values:  # the device ids: not kept for segment rows
            return [], np.zeros(0, dtype=np.int64)
        return self.values[name], self.codes[name]

    def full(self, name: str) -> list:
        """Column ``name`` as one value per row."""
        if name in self.cells:
            return self.cells[name].tolist()
        if name in JOINED:
            return self.joined(name).texts(slice(None))
        values = self.values[name]
        return objects(values, len(values))[self.codes[name]].tolist() if self.n else []

    def writer_columns(self) -> list:
        """The columns as the CSV and XLSX writers take them: the link table's runs
        (an end's rack, U and device; a port; the plant figures; the parts; the route) as
        :class:`~model.outputs.writers.csv_writer.CodedColumns`, the cable id, link id and
        label as :class:`~model.outputs.writers.csv_writer.JoinedColumn` (a plain sequence
        to the XLSX writer), the cages as lists."""
        col = self.column
        return [
            self.joined("cable_id"),
            self.full("link_id"),
            self.joined("label"),
            coded([col(f"a_{k}") for k in ("rack", "u", "device")]),
            coded([col("a_port")]),
            coded([col(f"b_{k}") for k in ("rack", "u", "device")]),
            coded([col("b_port")]),
            coded([col(k) for k in SCHEDULE_COLUMNS[11:16]]),
            self.full("a_cage"),
            self.full("b_cage"),
            coded([col(k) for k in ("a_module", "b_module", "part")]),
            coded([col("route")]),
        ]

    def unordered(self) -> int:
        """Rows with no ordered length."""
        values, codes = self.values["ordered_length_m"], self.codes["ordered_length_m"]
        none_at = [k for k, v in enumerate(values) if v is None]
        return int(np.isin(codes, none_at).sum()) if none_at else 0
