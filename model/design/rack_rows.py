"""Racks grouped into rows for the elevation sheets: by the letters their names start with."""

from __future__ import annotations

import re
from functools import lru_cache

from model.design.design import Design
from model.design.entities import Rack

_PREFIX = re.compile(r"[A-Za-z]+")
_NUMBER = re.compile(r"(\d+)")
ROW_TOLERANCE_M = 0.5


@lru_cache(maxsize=1 << 16)  # the canvas regroups 4,500 racks after every move: names repeat
def _natural(name: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part.lower() for part in _NUMBER.split(name))


def rack_rows(design: Design) -> list[tuple[str, list[Rack]]]:
    """(row label, racks left to right) for every row, in name order.

    Racks named A01..A18 form row "A". When any rack name does not start with letters, rows are
    taken from the floor instead: racks whose centres lie within ``ROW_TOLERANCE_M`` in y."""
    racks = list(design.racks.values())
    if not racks:
        return []
    matches = [_PREFIX.match(rack.name) for rack in racks]
    prefixes = [m.group(0).upper() for m in matches if m is not None]
    if len(prefixes) == len(racks):
        rows: dict[str, list[Rack]] = {}
        for rack, prefix in zip(racks, prefixes, strict=True):
            rows.setdefault(prefix, []).append(rack)
        return [
            (label, sorted(rows[label], key=lambda r: _natural(r.name)))
            for label in sorted(rows, key=lambda s: (len(s), s))
        ]
    by_y: list[list[Rack]] = []
    for rack in sorted(racks, key=lambda r: r.y):
        if by_y and rack.y - by_y[-1][0].y <= ROW_TOLERANCE_M:
            by_y[-1].append(rack)
        else:
            by_y.append([rack])
    return [(f"y = {row[0].y:g} m", sorted(row, key=lambda r: r.x)) for row in by_y]
