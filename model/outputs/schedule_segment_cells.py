"""Cells of the per-segment schedule (:mod:`model.outputs.schedule_segments`): lengths rounded
as the schedule writes them, routes read from the other end, the link table's columns at the
paneled rows, a device end's fields and labels, and the rows of a segment filled into the
output columns (:class:`~model.outputs.schedule_segment_table.CodedOut`) with their labels
A end to B end."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from model.common.arrays import FirstSeen
from model.outputs.schedule_columns import SCHEDULE_COLUMNS, objects, unique_pairs
from model.outputs.schedule_segment_table import (
    PER_ROW,
    Coded,
    CodedOut,
    Joined,
    as_coded,
    from_codes,
    pick,
)

_END = ("rack", "u", "device", "port")


# value -> round(value, 3). Rounding to digits formats the float (~1 us) and a zoned XL
# schedule rounds 1.8 M lengths of a few thousand distinct values. Floats only, zero apart:
# 1 == 1.0 and 0.0 == -0.0 as keys, though they round to different things.
_ROUNDED: dict[float, float] = {}


def num(value: float | None) -> float | None:
    """A length as the schedule writes it: rounded to the millimetre, None when not known."""
    if value is None or value != value:  # NaN: not orderable
        return None
    if type(value) is not float or value == 0.0:
        return round(value, 3)
    got = _ROUNDED.get(value)
    if got is None:
        if len(_ROUNDED) >= 200_000:  # bounded: a design of all-distinct lengths
            _ROUNDED.clear()
        got = _ROUNDED[value] = round(value, 3)
    return got


def rounded(values: list) -> np.ndarray:
    """``[num(v) for v in values]`` as an object array, each distinct value rounded once (a
    zoned XL hall has 786k cord lengths of a few thousand values). A dict lookup per value
    when every distinct value is a nonzero float or None (as keys 1 == 1.0 and 0.0 == -0.0,
    though they round to different things), else a check per value."""
    distinct = set(values)
    if all(v is None or (type(v) is float and v != 0.0) for v in distinct):
        got = {v: num(v) for v in distinct}  # NaN: each NaN object is its own key
        return objects(list(map(got.__getitem__, values)), len(values))
    floats = {v: round(v, 3) for v in distinct if type(v) is float and v == v and v != 0.0}
    return objects(
        [floats[v] if type(v) is float and v in floats else num(v) for v in values],
        len(values),
    )


def reverse_route(route: str) -> str:
    return " > ".join(reversed(route.split(" > "))) if " > " in route else route


# Column ``name`` of the link table as (its values, a code per row: row k holds
# values[codes[k]]): :meth:`model.outputs.schedule.ScheduleTable.codes`.
Codes = Callable[[str], tuple[Sequence, np.ndarray]]


class LinkCells(dict):
    """The link table's columns at the paneled rows, each made on first use: a per-row column
    (``PER_ROW``) as an object array, the others as :class:`Coded`."""

    def __init__(self, codes: Codes, rows: np.ndarray) -> None:
        super().__init__()
        self.codes, self.rows = codes, rows

    def __missing__(self, name: str):
        got = self[name] = gathered_cells(self.codes, name, self.rows)
        return got


def gathered_cells(codes_of: Codes, name: str, rows: np.ndarray):
    """Column ``name`` of ``table`` at ``rows``: a per-row column (``PER_ROW``) as an object
    array (gathered by its codes), the others as :class:`Coded`."""
    values, codes = codes_of(name)
    if name in PER_ROW:
        return objects(values, len(values))[codes[rows]]
    return from_codes(values, codes[rows])


def by_value(coded: Coded) -> tuple[list, np.ndarray]:
    """``coded``'s distinct values (in order of first place in its value list) and a code per
    row into them (int64: a product of two codes may pass int32, CodedOut's code type).
    Numbered by a lookup per value at C speed (a generator of ``setdefault`` over the ~0.3 M
    values of the segment rows' racks, routes and parts was ~0.1 s at zoned XL)."""
    seen = FirstSeen()
    code_of = np.fromiter(map(seen.__getitem__, coded.values), np.int64, len(coded.values))
    return list(seen), code_of[coded.codes]


def deduplicated(coded: Coded) -> Coded:
    """The same cells with each distinct value once in the value list."""
    return Coded(*by_value(coded))


class EndLabel:
    """An end's label per row as two parts, ``head + tail``: the head one per device or patch
    point (``{rack}-U{u}-``, ``{panel}:``), the tail the port. A row's label is joined once from
    its two ends' parts (:func:`fill`): an end's label made as its own text first, then joined
    with the other's, was two more texts per cord (~0.8 M cords at zoned XL, ~0.2 s)."""

    __slots__ = ("head", "tail")

    def __init__(self, head: Coded, tail) -> None:
        self.head, self.tail = head, tail  # tail: Coded, or an object array of texts

    def __getitem__(self, rows: np.ndarray) -> EndLabel:
        return EndLabel(self.head[rows], self.tail[rows])

    def texts(self, rows: np.ndarray) -> list[str]:
        """The labels at ``rows``, one text each."""
        tail = self.tail[rows]
        tails = tail.cells() if isinstance(tail, Coded) else tail
        return [
            h + t for h, t in zip(self.head[rows].cells().tolist(), tails.tolist(), strict=True)
        ]


def device_end(cells: LinkCells, swapped: np.ndarray, side: str) -> tuple:
    """The fields (label, rack, U, name, port, cage, module) of one end of the paneled rows'
    links (``side`` "a": the link's A end): the schedule row's end, its other end where the
    schedule turned the link round. The label is ``{rack}-U{u}-{port}``, as :class:`EndLabel`
    (the ``{rack}-U{u}-`` head made once per distinct rack and U). The cage is an object
    array, the others :class:`Coded`."""
    x, y = ("a", "b") if side == "a" else ("b", "a")
    rack, u, device, port, cage, module = (
        pick(swapped, cells[f"{x}_{k}"], cells[f"{y}_{k}"])
        for k in ("rack", "u", "device", "port", "cage", "module")
    )
    return (end_label(rack, u, port), rack, u, device, port, cage, module)


def end_label(rack: Coded, u: Coded, port: Coded) -> EndLabel:
    """``{rack}-U{u}-{port}`` per row: the ``{rack}-U{u}-`` head coded per distinct (rack, U)."""
    size = max(len(u.values), 1)
    uniq, inverse = unique_pairs(rack.codes, u.codes, size)
    prefixes = [
        f"{rack.values[r]}-U{int(u.values[v])}-"
        for r, v in (divmod(k, size) for k in uniq.tolist())
    ]
    return EndLabel(Coded(prefixes, inverse), port)


def fill(out: CodedOut, at: np.ndarray, values: dict, pre_a: tuple, pre_b: tuple, turned) -> None:
    """Rows at ``at`` of the ``out`` columns: ``values`` (column -> cells), their ends ``pre_a`` to
    ``pre_b`` (label as :class:`EndLabel` or whole texts, rack, U, name, port, cage, module), from ``pre_b``
    where ``turned`` (the schedule lists the link from its B end), labelled A end to B end."""
    a, b = (_end_label(end[0]) for end in (pre_a, pre_b))
    label = _labels(turned, a, b)
    # Turned round, a row whose A end's label makes a " to " before its own (one holding a
    # space: "go to", "x to y") is split where the row's label splits first.
    at_turned = np.flatnonzero(turned & (_has_space(a.head) | _has_space(a.tail)))
    split_at, split = [], []
    if len(at_turned):
        for i, a_text, b_text in zip(
            at_turned.tolist(), a.texts(at_turned), b.texts(at_turned), strict=True
        ):
            if f"{a_text} to ".find(" to ") != len(a_text):
                a_label, _, b_label = f"{a_text} to {b_text}".partition(" to ")
                split_at.append(i)
                split.append(f"{b_label} to {a_label}")

    def put(name: str, cells) -> None:
        out.put(name, at, cells)

    if len(values) + 1 + 2 * len(pre_a[1:]) != len(SCHEDULE_COLUMNS):  # kept under python -O
        raise AssertionError("the segment rows do not fill every schedule column")
    for name, cells in {**values, "label": label}.items():
        put(name, cells)
    if split_at:  # those rows' labels as whole texts
        out.put("label", at[np.asarray(split_at, dtype=np.int64)], objects(split, len(split)))
    # Each end's field picked as it is put: the 14 picked columns held at once were ~40 MB
    # of codes per ~0.4 M cords at zoned XL, at the schedule's peak.
    for name, a, b in zip(_END + ("cage", "module"), pre_a[1:], pre_b[1:], strict=True):
        put(f"a_{name}", pick(turned, a, b))
        put(f"b_{name}", pick(turned, b, a))


def _end_label(label) -> EndLabel:
    """``label`` (an :class:`EndLabel`, or an object array of whole labels) as an EndLabel."""
    if isinstance(label, EndLabel):
        return label
    return EndLabel(Coded([""], np.zeros(len(label), dtype=np.int64)), label)


def _labels(turned: np.ndarray, a: EndLabel, b: EndLabel) -> Joined:
    """``{first} to {second}`` per row as its four parts (never joined here: the CSV writer
    lays them side by side, ~0.9 M labels at zoned XL), ``a`` first but where ``turned``, the
    `` to `` folded into the second head's few distinct values."""
    first_head, second_head = pick(turned, a.head, b.head), pick(turned, b.head, a.head)
    second_head = Coded([" to " + v for v in second_head.values], second_head.codes)
    return Joined(
        (first_head, pick(turned, a.tail, b.tail), second_head, pick(turned, b.tail, a.tail))
    )


def _has_space(cells) -> np.ndarray:
    """Per row, whether its cell (:class:`Coded`, or an object array of texts) holds a space,
    checked once per distinct value of a :class:`Coded`."""
    if isinstance(cells, Coded):
        spaced = np.array([" " in v for v in cells.values] + [False], dtype=bool)
        return spaced[cells.codes]
    return np.array([" " in v for v in cells.tolist()], dtype=bool)


def rounded_coded(values: list) -> Coded:
    """:func:`rounded` as :class:`Coded`: each distinct value rounded once and coded, when
    every one is a nonzero float or None (as keys 1 == 1.0 and 0.0 == -0.0, though they round
    to different things; NaN: each NaN object its own key), else per value. The values are
    coded in the one pass that finds the distinct ones (a second pass of lookups was ~20 ms
    per ~0.4 M cord lengths at zoned XL)."""
    seen = FirstSeen()
    codes = np.fromiter(map(seen.__getitem__, values), np.int64, len(values))
    if not all(v is None or (type(v) is float and v != 0.0) for v in seen):
        return as_coded(rounded(values), len(values))
    return Coded([num(v) for v in seen], codes)
