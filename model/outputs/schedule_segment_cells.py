"""Cells of the per-segment schedule (:mod:`model.outputs.schedule_segments`): lengths rounded
as the schedule writes them, routes read from the other end, the link table's columns at the
paneled rows, a device end's fields and labels, and the rows of a segment filled into the
output columns (:class:`~model.outputs.schedule_segment_table.CodedOut`) with their labels
A end to B end."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from model.common.arrays import unique_inverse
from model.outputs.schedule_columns import SCHEDULE_COLUMNS, objects
from model.outputs.schedule_segment_table import (
    PER_ROW,
    Coded,
    CodedOut,
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
    row into them (int64: a product of two codes may pass int32, CodedOut's code type)."""
    at: dict = {}
    code_of = np.fromiter(
        (at.setdefault(v, len(at)) for v in coded.values), np.int64, len(coded.values)
    )
    return list(at), code_of[coded.codes]


def deduplicated(coded: Coded) -> Coded:
    """The same cells with each distinct value once in the value list."""
    return Coded(*by_value(coded))


def device_end(cells: LinkCells, swapped: np.ndarray, side: str) -> tuple:
    """The fields (label, rack, U, name, port, cage, module) of one end of the paneled rows'
    links (``side`` "a": the link's A end): the schedule row's end, its other end where the
    schedule turned the link round. The label is ``{rack}-U{u}-{port}``, made once per
    distinct rack and U (:func:`end_labels`) and only for this end: made for both ends at
    once, the other's ~0.4 M texts were held through this one's cords (~25 MB at zoned XL,
    at the schedule's peak). The label and cage are object arrays, the others
    :class:`Coded`."""
    x, y = ("a", "b") if side == "a" else ("b", "a")
    rack, u, device, port, cage, module = (
        pick(swapped, cells[f"{x}_{k}"], cells[f"{y}_{k}"])
        for k in ("rack", "u", "device", "port", "cage", "module")
    )
    return (end_labels(rack, u, port), rack, u, device, port, cage, module)


def end_labels(rack: Coded, u: Coded, port: Coded) -> np.ndarray:
    """``{rack}-U{u}-{port}`` per row, an object array: the ``{rack}-U{u}-`` prefix made once
    per distinct (rack, U), then joined to the port by one object-array ``+`` (the ends'
    ports are nearly one per row: a text per distinct end would be one per row)."""
    size = max(len(u.values), 1)
    uniq, inverse = unique_inverse(rack.codes.astype(np.int64) * size + u.codes)
    prefixes = [
        f"{rack.values[r]}-U{int(u.values[v])}-"
        for r, v in (divmod(k, size) for k in uniq.tolist())
    ]
    ports = objects(port.values, len(port.values))
    return objects(prefixes, len(prefixes))[inverse] + ports[port.codes]


def fill(out, at: np.ndarray, values: dict, pre_a: tuple, pre_b: tuple, turned) -> None:
    """Rows at ``at`` of the ``out`` columns (:class:`CodedOut`, or a list of object arrays in
    ``SCHEDULE_COLUMNS`` order): ``values`` (column -> cells), their ends ``pre_a`` to
    ``pre_b`` (label, rack, U, name, port, cage, module), from ``pre_b`` where ``turned``
    (the schedule lists the link from its B end), labelled A end to B end."""
    label = joined(pick(turned, pre_a[0], pre_b[0]), " to ", pick(turned, pre_b[0], pre_a[0]))
    # Turned round, a row whose A end's label makes a " to " before its own (one holding a
    # space: "go to", "x to y") is split where the row's label splits first.
    at_turned = np.flatnonzero(turned)
    labels = pre_a[0][at_turned].tolist()
    for k in [k for k, a in enumerate(labels) if " " in a]:
        a, i = labels[k], at_turned[k]
        if f"{a} to ".find(" to ") != len(a):
            a_label, _, b_label = f"{a} to {pre_b[0][i]}".partition(" to ")
            label[i] = f"{b_label} to {a_label}"
    column = {name: j for j, name in enumerate(SCHEDULE_COLUMNS)}

    def put(name: str, cells) -> None:
        if isinstance(out, CodedOut):
            out.put(name, at, cells)
        else:
            out[column[name]][at] = cells.cells() if isinstance(cells, Coded) else cells

    if len(values) + 1 + 2 * len(pre_a[1:]) != len(SCHEDULE_COLUMNS):  # kept under python -O
        raise AssertionError("the segment rows do not fill every schedule column")
    for name, cells in {**values, "label": label}.items():
        put(name, cells)
    # Each end's field picked as it is put: the 14 picked columns held at once were ~40 MB
    # of codes per ~0.4 M cords at zoned XL, at the schedule's peak.
    for name, a, b in zip(_END + ("cage", "module"), pre_a[1:], pre_b[1:], strict=True):
        put(f"a_{name}", pick(turned, a, b))
        put(f"b_{name}", pick(turned, b, a))


def joined(first: np.ndarray, separator: str, second: np.ndarray) -> np.ndarray:
    """``first + separator + second`` (object arrays of text), each cell joined once: the
    sum of object arrays makes a text per row of ``first + separator`` first (~30 MB of
    texts made and dropped per ~0.4 M cords at zoned XL, at the schedule's peak)."""
    return objects(
        map(separator.join, zip(first.tolist(), second.tolist(), strict=True)), len(first)
    )


def rounded_coded(values: list) -> Coded:
    """:func:`rounded` as :class:`Coded`: each distinct value rounded once and coded, when
    every one is a nonzero float or None (as keys 1 == 1.0 and 0.0 == -0.0, though they round
    to different things; NaN: each NaN object its own key), else per value."""
    distinct = dict.fromkeys(values)
    if not all(v is None or (type(v) is float and v != 0.0) for v in distinct):
        return as_coded(rounded(values), len(values))
    at = {v: k for k, v in enumerate(distinct)}
    codes = np.fromiter(map(at.__getitem__, values), np.int64, len(values))
    return Coded([num(v) for v in distinct], codes)
