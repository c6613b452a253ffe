"""Which racks of the rack field overlap another: those it draws one by one, in stacking order.

Pure numpy over the racks' scene bounds (rows of left, top, right, bottom), no Qt: see
:meth:`gui.canvas.rack_field.RackField.paint` for why the others may be drawn grouped.
"""

from __future__ import annotations

import numpy as np

# The racks' bounds are their footprints grown by this (RackItem's margin for its edge); two
# footprints overlap when their bounds shrunk by it (and a float's rounding) still do.
_FOOTPRINT_INSET_M = 0.0201
# Above this many candidate pairs (racks heaped in one place), every rack counts as overlapping:
# drawn one by one, in stacking order, as ever (bounded time and memory for any file).
_MAX_PAIRS = 2_000_000


def overlapping(boxes: np.ndarray) -> np.ndarray:
    """Per row of ``boxes`` (left, top, right, bottom bounds), whether its footprint overlaps
    another row's by more than touching: a sweep over the boxes sorted by left edge, each
    compared with those that start before it ends."""
    n = len(boxes)
    out = np.zeros(n, dtype=bool)
    if n < 2:
        return out
    inner = boxes + np.array([1, 1, -1, -1]) * _FOOTPRINT_INSET_M
    order = np.argsort(inner[:, 0], kind="stable")
    b = inner[order]
    ends = np.searchsorted(b[:, 0], b[:, 2], side="left")  # rows starting before this one ends
    counts = np.maximum(ends - np.arange(1, n + 1), 0)
    total = int(counts.sum())
    if total > _MAX_PAIRS:
        out[:] = True
        return out
    first = np.repeat(np.arange(n), counts)
    # second = first + 1, first + 2, ... for each first's run
    starts = np.cumsum(counts) - counts
    second = first + 1 + (np.arange(total) - np.repeat(starts, counts))
    meet = (
        (b[second, 0] < b[first, 2]) & (b[first, 1] < b[second, 3]) & (b[second, 1] < b[first, 3])
    )
    out[order[first[meet]]] = True
    out[order[second[meet]]] = True
    return out


def overlapping_row(boxes: np.ndarray, row: int) -> np.ndarray:
    """Per row of ``boxes``: whether it is ``row`` or a row whose footprint ``row``'s overlaps,
    when ``row``'s overlaps any (else all False)."""
    inner = boxes + np.array([1, 1, -1, -1]) * _FOOTPRINT_INSET_M
    b = inner[row]
    meet = (inner[:, 0] < b[2]) & (b[0] < inner[:, 2]) & (inner[:, 1] < b[3]) & (b[1] < inner[:, 3])
    meet[row] = False
    if meet.any():
        meet[row] = True
    return meet
