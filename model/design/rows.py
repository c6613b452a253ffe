"""Rows on the floor: which racks stand in a row, row-and-position names (``B07``), renumbering
by row and packing racks along a row with a spacing.

A floor row is a line of racks facing the same way: racks turned 0 or 180 degrees whose centres
lie within ``ROW_TOLERANCE_M`` in y form a row along x (racks turned 90 or 270 degrees, along y).
Rows are lettered A, B, ... in reading order (rows along x top to bottom, then rows along y left
to right) and racks numbered from 01 along the row (left to right, top to bottom), as a data
hall's row/position labels are painted on the floor.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec

from model.design.design import Design
from model.design.entities import Rack, plan_size

ROW_TOLERANCE_M = 0.5  # as model.design.rack_rows groups rows taken from the floor
_ROW_NAME = re.compile(r"([A-Za-z]+)(\d+)")


def row_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: spreadsheet column letters."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _along_x(rotation: int) -> bool:
    return rotation % 180 == 0


def floor_rows(racks: Iterable[Rack]) -> list[list[Rack]]:
    """The racks grouped into floor rows, each in order along the row, rows in reading order."""
    out: list[list[Rack]] = []
    for along_x in (True, False):
        cross = (lambda r: r.y) if along_x else (lambda r: r.x)
        along = (lambda r: r.x) if along_x else (lambda r: r.y)
        group = sorted((r for r in racks if _along_x(r.rotation) == along_x), key=cross)
        rows: list[list[Rack]] = []
        for rack in group:
            if rows and cross(rack) - cross(rows[-1][0]) <= ROW_TOLERANCE_M:
                rows[-1].append(rack)
            else:
                rows.append([rack])
        out.extend(sorted(row, key=along) for row in rows)
    return out


def _name(letter: str, number: int) -> str:
    return f"{letter}{number:02d}"


def renumber_by_row(design: Design) -> list[Rack]:
    """Every rack whose name changes when the hall's racks are named by floor row and position
    (``A01``, ``A02``, ... ``B01``): the records to hand to ``Design.update_racks`` (one edit)."""
    out = []
    for index, row in enumerate(floor_rows(design.racks.values())):
        letter = row_letter(index)
        for number, rack in enumerate(row, start=1):
            name = _name(letter, number)
            if rack.name != name:
                out.append(msgspec.structs.replace(rack, name=name))
    return out


def name_for_new_rack(design: Design, x: float, y: float, rotation: int) -> str:
    """The name of a rack placed by hand at centre (x, y): its row's letter (the letter the
    racks of the floor row it joins are named with, else the first letter no row uses) and its
    position along the row (the racks before it + 1, or the next number free in the row)."""
    along_x = _along_x(rotation)
    cross, along = (y, x) if along_x else (x, y)
    taken = {r.name.strip().casefold() for r in design.racks.values()}
    used_letters = set()
    row: list[Rack] = []
    for rack in design.racks.values():
        match = _ROW_NAME.fullmatch(rack.name.strip())
        if match:
            used_letters.add(match.group(1).upper())
        if _along_x(rack.rotation) != along_x:
            continue
        rack_cross = rack.y if along_x else rack.x
        if abs(rack_cross - cross) <= ROW_TOLERANCE_M:
            row.append(rack)
    letters = {
        m.group(1).upper() for r in row if (m := _ROW_NAME.fullmatch(r.name.strip())) is not None
    }
    if len(letters) == 1:
        letter = letters.pop()
    else:
        index = 0
        while row_letter(index) in used_letters:
            index += 1
        letter = row_letter(index)
    before = sum(1 for r in row if (r.x if along_x else r.y) < along)
    number = before + 1
    if _name(letter, number).casefold() in taken:
        numbers = [
            int(m.group(2))
            for r in row
            if (m := _ROW_NAME.fullmatch(r.name.strip())) and m.group(1).upper() == letter
        ]
        number = max(numbers, default=0) + 1
        while _name(letter, number).casefold() in taken:
            number += 1
    return _name(letter, number)


def pack_racks(
    design: Design, rack_ids: list[str], axis: str, spacing_m: float
) -> dict[str, tuple[float, float]]:
    """New centres closing the gaps between ``rack_ids`` along ``axis`` ("x" or "y") to
    ``spacing_m`` between neighbouring footprints; the first rack (in position) stays put and
    the others keep their order and their other coordinate."""
    if axis not in ("x", "y"):
        raise ValueError(f"unknown axis {axis!r}: use x or y")
    if not spacing_m >= 0:
        raise ValueError(f"spacing {spacing_m!r} m: use 0 m or more")
    if len(rack_ids) < 2:
        return {}
    k = 0 if axis == "x" else 1
    boxes = []
    for rack_id in rack_ids:
        r = design.racks[rack_id]
        w, d = plan_size(r.width_m, r.depth_m, r.rotation)
        size = (w, d)[k]
        boxes.append(((r.x, r.y)[k] - size / 2, size, rack_id))
    boxes.sort()
    out = {}
    edge = boxes[0][0]
    for _start, size, rack_id in boxes:
        r = design.racks[rack_id]
        centre = round(edge + size / 2, 6)
        new = (centre, r.y) if axis == "x" else (r.x, centre)
        if new != (r.x, r.y):
            out[rack_id] = new
        edge += size + spacing_m
    return out
