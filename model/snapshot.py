"""Immutable snapshots of a design and its cable plant, for work on another thread.

The analysis runs on a worker thread while the editor goes on editing the live design and
refreshing the live plant on the GUI thread. The worker must therefore read objects nobody
changes: :func:`snapshot` copies the design and the plant as they are at one revision. The
copy is shallow where that is safe: design records (msgspec structs) and the catalog are never
mutated in place (edits replace them), so the dicts holding them are copied and the records
shared; the indexes of sets, the plant's per-link arrays and its attachment arrays are mutated
in place by edits and refreshes, so they are copied too.

A snapshot is a plain :class:`~model.design.Design` / :class:`~model.cabling.CablePlant` that
follows nothing: it has no listeners, no pending changes and is never refreshed. Its
``plant_identity`` is the live plant's, so caches keyed by plant (tray fill) carry over from
one snapshot to the next. One object is shared on purpose: the plant's tray graph, which a
refresh replaces rather than changes (its distance cache only gains rows for attachment
nodes, and every node a route of the snapshot's links uses was cached before the copy).
"""

from __future__ import annotations

import copy
import dataclasses

import numpy as np

from model.cabling import CablePlant
from model.changes import ChangeNotifier
from model.design import Design


def snapshot(design: Design, plant: CablePlant | None) -> tuple[Design, CablePlant | None]:
    """Copies of ``design`` and its up-to-date ``plant`` that later edits do not change.

    Call on the thread that edits the design, after ``plant.refresh()``; the copies may then be
    read anywhere. Raises ValueError if the plant has edits it has not applied yet.
    """
    frozen = freeze_design(design)
    return frozen, (freeze_plant(plant, frozen) if plant is not None else None)


def freeze_design(design: Design) -> Design:
    """A copy of ``design`` at its current revision, with no listeners."""
    snap = Design.__new__(Design)
    for name, value in design.__dict__.items():
        setattr(snap, name, _copy_container(value))
    snap._changes = ChangeNotifier()
    return snap


def freeze_plant(plant: CablePlant, design: Design) -> CablePlant:
    """A copy of the refreshed ``plant`` reading ``design`` (a snapshot of the plant's design)."""
    if plant._pending:
        raise ValueError("the cable plant has unapplied edits: refresh() it before a snapshot")
    snap = copy.copy(plant)
    for name, value in plant.__dict__.items():
        if name in ("design", "_graph", "_subscription", "_pending"):
            continue
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            value = dataclasses.replace(
                value,
                **{
                    f.name: _copy_container(getattr(value, f.name))
                    for f in dataclasses.fields(value)
                    if f.init
                },
            )
        setattr(snap, name, _copy_container(value))
    snap.design = design
    snap._pending = []
    snap._subscription = _Detached()
    snap.plant_identity = getattr(plant, "plant_identity", id(plant))
    return snap


def _copy_container(value):
    """One level of copying: containers and arrays copied, their elements shared (immutable),
    except sets inside a dict (the design's indexes), which edits change in place."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, dict):
        if value and isinstance(next(iter(value.values())), set):
            return {k: set(v) for k, v in value.items()}
        return dict(value)
    if isinstance(value, list):
        return list(value)
    if isinstance(value, set):
        return set(value)
    return value


class _Detached:
    """The subscription of a snapshot: it follows nothing, so closing it does nothing."""

    def close(self) -> None:
        pass
