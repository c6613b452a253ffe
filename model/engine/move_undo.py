"""A rack move's plant rows saved before it is routed and put back when the move is undone.

The optimiser refuses most candidate moves (~85 % at XL) and moves the racks back. Routed again,
the move back costs as much as the move (the racks' links and their cage components: routes,
lengths, media). The plant before the move is known, though: :func:`checkpoint` saves every
computed per-link column at the rows a refresh of the move can write (the moved racks' links
grown to whole cage components, exactly the rows ``_compute`` writes), every per-drop column
at the racks' drop points and their geometry rows; :func:`restore`, once the design has moved
the racks back, writes them back bit for bit and drops the pending move-back edit. Route ids keep
their meaning within a route generation (ids are only added), so the saved ids stay valid.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from model.common.arrays import unique_sorted
from model.design.changes import ChangeKind
from model.engine.geometry import FACE_FRONT, FACE_REAR
from model.engine.link_table import OUTPUT_COLUMNS
from model.engine.routed_links import RoutedLinks


@dataclass
class MoveCheckpoint:
    """The plant as it stood before a move of ``places``' racks (their positions then)."""

    places: dict[str, tuple[float, float, int]]  # x, y, rotation: a turn moves drop points too
    rows: np.ndarray  # plant rows the move's refresh may write
    numbers: np.ndarray  # the racks' rows in the per-rack geometry
    drops: np.ndarray  # the racks' drop points
    link_columns: dict[str, np.ndarray]  # per-link column name -> values at ``rows``
    drop_columns: dict[str, np.ndarray]  # per-drop column name -> values at ``drops``
    attachments: dict[str, np.ndarray]  # Attachments field -> values at ``drops``
    geometry: np.ndarray  # the racks' geometry rows
    sizes: tuple[int, int]  # (links, drops): a plant grown or shrunk since is not restored
    applied: int  # the plant's applied edits then: restored after the move's refresh only


def checkpoint(plant: RoutedLinks, rack_ids: list[str]) -> MoveCheckpoint | None:
    """The plant's rows a move of ``rack_ids`` can change, saved; call before the design moves
    them. None when the plant has unapplied edits or a rack was never placed (the move is then
    undone by routing it back)."""
    if plant.has_unapplied_edits:
        return None
    numbers_of = plant._rack_row
    if any(r not in numbers_of for r in rack_ids):
        return None
    racks = plant.design.racks
    rows = plant._component_rows(unique_sorted(plant._rows_of_racks(rack_ids)))
    numbers = np.array([numbers_of[r] for r in rack_ids], dtype=np.int64)
    drops = np.concatenate([2 * numbers + FACE_FRONT, 2 * numbers + FACE_REAR])
    n_links, n_drops = len(plant.link_ids), len(plant._drop_x)
    # The computed columns only: a rack that only moves changes none of its links' inputs
    # (RoutedLinks.refresh routes them again without reading them), and copying the 16 input
    # columns too was half of each XL checkpoint (~0.4 ms of ~0.8). Indexed by an array of
    # rows, a column gives a copy already: copied again, each checkpoint copied twice.
    link_columns = {name: getattr(plant, name)[rows] for name in OUTPUT_COLUMNS}
    att = plant._att
    return MoveCheckpoint(
        places={r: (racks[r].x, racks[r].y, racks[r].rotation) for r in rack_ids},
        rows=rows,
        numbers=numbers,
        drops=drops,
        link_columns=link_columns,
        drop_columns={n: getattr(plant, n)[drops] for n in ("_drop_x", "_drop_y")},
        attachments={f.name: getattr(att, f.name)[drops] for f in fields(att)},
        geometry=plant._rack_geom[numbers],
        sizes=(n_links, n_drops),
        applied=plant.applied_edits,
    )


def restore(plant: RoutedLinks, saved: MoveCheckpoint) -> bool:
    """Put the plant back as it was at ``saved`` when one refresh, of the move, applied edits
    since, and the only edits after it moved the saved racks back to where they stood; False
    (nothing written) otherwise, and the next refresh routes them back."""
    racks = plant.design.racks
    pending = plant._pending
    if (
        not pending
        or plant.applied_edits != saved.applied + 1
        or plant.last_moves != saved.places.keys()  # that refresh moved exactly these racks
        or any(c.kinds != {ChangeKind.RACKS_MOVED} for c in pending)
        or not all(set(c.ids(ChangeKind.RACKS_MOVED)) <= saved.places.keys() for c in pending)
        or any((racks[r].x, racks[r].y, racks[r].rotation) != p for r, p in saved.places.items())
        or (len(plant.link_ids), len(plant._drop_x)) != saved.sizes
    ):
        return False
    pending.clear()
    plant.deferred_media = None  # the saved rows hold the media chosen before the move
    plant._memo_reasons.clear()  # as a refresh does: media words are made again when asked
    for name, values in saved.link_columns.items():
        getattr(plant, name)[saved.rows] = values
    for name, values in saved.drop_columns.items():
        getattr(plant, name)[saved.drops] = values
    for name, values in saved.attachments.items():
        getattr(plant._att, name)[saved.drops] = values
    plant._rack_geom[saved.numbers] = saved.geometry
    plant._forget_paths(saved.drops)  # plan paths found at the moved places are stale
    return True
