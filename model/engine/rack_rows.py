"""The plant rows of each rack's links, found per rack or for every rack in one sort.

A row's drop points are its ends' rack numbers (``2 * rack + face``, current once its inputs
are read), so a rack's rows are one pass over the drop columns: the design's link ids of the
rack's devices, looked up one by one, were ~5-14 ms per rack at XL, paid by every rack an
optimiser run moves, and their first use built the design's device -> links table (~1.2 s).
The optimiser asks for hundreds of racks (one pass was ~2.4 ms per new rack at XL under load);
once its plant asked (``RoutedLinks.index_rack_rows``), every rack's rows are found in one sort
(~36-50 ms at XL) at the first rack asked. The editor, moving a rack or two after each other
edit, keeps the pass per rack. Either is kept per rack while only racks move.
"""

from __future__ import annotations

import numpy as np

from model.engine.link_table import EngineState


def rows_of_racks(plant: EngineState, rack_ids: list[str]) -> np.ndarray:
    """Rows of the links of these racks (each rack's ascending), kept per rack in
    ``plant._rack_rows`` while only racks move (a rack moved to and fro by the optimiser has
    its rows found once)."""
    known = plant._rack_rows
    if plant._rack_rows_whole and any(r not in known for r in rack_ids):
        index_all_racks(plant)
    parts = []
    for rack_id in rack_ids:
        rows = known.get(rack_id)
        if rows is None:
            number = plant._rack_row.get(rack_id)
            if number is None:  # never placed: no device, so no link
                rows = np.zeros(0, dtype=np.int64)
            else:
                rows = np.flatnonzero(
                    ((plant.drop_a >> 1) == number) | ((plant.drop_b >> 1) == number)
                )
            known[rack_id] = rows
        parts.append(rows)
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def index_all_racks(plant: EngineState) -> None:
    """Every placed rack's rows, sorted as the pass per rack finds them: both ends of each row
    in row order, a row within one rack counted once, then a stable sort by rack (a radix sort
    on 16-bit rack numbers), so each rack's rows stay ascending."""
    n = len(plant.drop_a)
    rack_a, rack_b = plant.drop_a >> 1, plant.drop_b >> 1
    keys = np.stack([rack_a, rack_b], axis=1).ravel()
    rows = np.repeat(np.arange(n, dtype=np.int64), 2)
    keep = np.ones(2 * n, dtype=bool)
    keep[1::2] = rack_a != rack_b
    keys, rows = keys[keep], rows[keep]
    racks = len(plant._rack_row)
    narrow = np.int16 if racks < 2**15 else np.int64
    order = np.argsort(keys.astype(narrow), kind="stable")
    keys, rows = keys[order], rows[order]
    bounds = np.searchsorted(keys, np.arange(racks + 1)).tolist()
    known = plant._rack_rows
    for rack_id, number in plant._rack_row.items():
        if rack_id not in known:  # a rack kept since the last clear keeps its array
            known[rack_id] = rows[bounds[number] : bounds[number + 1]]
