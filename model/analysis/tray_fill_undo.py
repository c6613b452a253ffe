"""A fill-only tray-fill update taken back as it was written: the optimiser's refused moves.

The optimiser refuses most candidate moves at their tray fill (~85 % at XL) and moves the
racks back; the plant puts its rows back as saved (:mod:`model.engine.move_undo`). Counted
again, the move back would cost the tray fill as much as the move did (the recount of the
moved links' rows, their cables taken out of the new routes' spans and put back into the old
ones, every touched tray measured again). What the update wrote is known, though: the rows'
(route, medium) as counted before, the per-(route, medium) counts it changed, each touched
tray's interval bounds and cables (:class:`~model.analysis.tray_levels.TrayLevels` replaces
a tray's arrays, never writes into them, so the old arrays are the saved state), the trays'
peaks and ratios. :func:`take_back` writes them back, so the counter is then bit for bit what
it was before the update.

Kept as they are: the spans learnt for the move's new routes (facts about route ids, which
keep their meaning within the plant's route generation, as the plant keeps the routes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice

import numpy as np


@dataclass
class FillUndo:
    """What one fill-only update of a :class:`~model.analysis.tray_fill.TrayFill` changed."""

    rows: np.ndarray  # plant rows recounted
    route: np.ndarray  # their route ids as counted before
    medium: np.ndarray  # their medium indexes as counted before
    counts: dict  # (route, medium) -> count before (None: a key added), filled by the recount
    keys: int  # number of count keys before (keys added since are taken out again)
    peak_at: dict  # the counter's public figures before the update (objects, not copies)
    loads: dict
    structured: object  # its trunk load
    # Filled by the fill-only report (_fill_delta), when it brought the kept levels up to date:
    columns: int = -1  # the levels' media columns before (-1: the levels were not updated)
    trays: list = field(default_factory=list)  # (tray no, bounds, counts, peak) as they were
    ratios: dict = field(default_factory=dict)  # touched tray id -> fill ratio before
    places: dict = field(default_factory=dict)  # touched tray id -> peak place before (or None)


def recorded(keys: int, rows: np.ndarray, recounted: tuple, figures: tuple) -> FillUndo:
    """The record of an update about to recount ``rows`` (``recounted``: their (route, medium)
    as counted and as now) in counts of ``keys`` keys; ``figures``: the counter's peak places,
    loads and trunk load before it. The recount keeps each count it changes, as it was."""
    return FillUndo(rows, recounted[0], recounted[1], {}, keys, *figures)


@contextmanager
def keeping(undo: FillUndo | None, levels) -> Iterator[Callable]:
    """While the kept ``levels`` (TrayLevels) take a move's cables: with an ``undo`` record,
    each tray's arrays and peak as they were (the levels' journal), then, given the touched
    tray numbers, their fill ratios and peak places before they are measured again."""

    def ratios(trays, out: dict, peak_at: dict) -> None:
        if undo is not None:
            names = [levels.tray_ids[k] for k in trays.tolist()]
            undo.ratios = {t: out[t] for t in names}
            undo.places = {t: peak_at.get(t) for t in names}

    if undo is not None:
        undo.columns, levels.journal = len(levels.column_of), undo.trays
    try:
        yield ratios
    finally:
        levels.journal = None


def take_back(fill) -> bool:
    """Put back what the last ``undoable`` update of ``fill`` (a TrayFill) wrote, bit for bit:
    rows, counts, levels, ratios, figures (its plant rows must be back as they were:
    :mod:`model.engine.move_undo`); False when that update kept nothing."""
    undo, fill.undo = fill.undo, None
    if undo is None:
        return False
    fill._row_route[undo.rows] = undo.route
    fill._row_medium[undo.rows] = undo.medium
    counts = fill._counts
    for key, n in undo.counts.items():
        if n is not None:
            counts[key] = n
    # Keys are only appended: those added by the update are the last ones, so taking them out
    # leaves the Counter's order (which the kept key array follows) as it was.
    for key in list(islice(counts, undo.keys, None)):
        del counts[key]
    kept = fill._pair_rows
    if kept is not None and len(kept[1]) > undo.keys:
        fill._pair_rows = (kept[0], kept[1][: undo.keys])
    fill.peak_at, fill.loads, fill._structured = undo.peak_at, undo.loads, undo.structured
    if undo.columns < 0:
        return True
    state = fill._fill_state
    assert state is not None  # the update that recorded levels kept them
    levels, out, peak_at = state
    for k, bounds, held, peak in undo.trays:
        levels.bounds[k], levels.counts[k] = bounds, held
        if peak is None:
            levels.peaks.pop(k, None)
        else:
            levels.peaks[k] = peak
    for medium in list(islice(levels.column_of, undo.columns, None)):
        del levels.column_of[medium]
    out.update(undo.ratios)
    for tray_id, place in undo.places.items():
        if place is None:
            peak_at.pop(tray_id, None)
        else:
            peak_at[tray_id] = place
    return True
