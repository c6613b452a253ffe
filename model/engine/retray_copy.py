"""A tray edit re-routed off the editing thread: a private copy of the plant re-routed, then adopted.

A corner dragged on the busiest tray of the XL hall re-routes ~190k links and chooses their
cages' media again: 0.5-0.7 s of CPU in ``RoutedLinks.refresh`` (measured: the distance rows
carried over ~45 %, routing and media ~40 %, the new graph and the racks' attachments the
rest), which held the editor's GUI thread for as long. The editor therefore hands a tray-only
edit to its analysis worker:

1. on the GUI thread, a snapshot of the plant *with* its unapplied tray edits
   (``Snapshotter.take(pending_trays=True)``; its tray graph has caches of its own);
2. on the worker, :func:`retray`: a writable copy of that snapshot applies the edits
   (the same ``refresh`` as on the GUI thread, so the same lengths, media and route names);
3. back on the GUI thread, :func:`adopt`: the live plant takes the copy's state when its
   unapplied edits still begin with those the copy applied (nothing refreshed it meanwhile),
   not a re-route: the copy's re-routed columns as they are (read-only, shared with the
   analysis of the copy, :func:`frozen`; the live plant copies one before it writes it), its
   other arrays' values into its own arrays, its other attributes by reference; edits that
   came after stay pending.

Where the plant must be current at once, :func:`refresh_in_steps` applies its edits in runs of
tray edits and of other edits, each as a refresh after it would have (a rack moved while a tray
edit waited would otherwise make one refresh of both kinds: a full rebuild).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Set as AbstractSet

import numpy as np

from model.design.changes import TRAY_KINDS, Change
from model.design.design import Design
from model.engine.link_table import INPUT_COLUMNS, OUTPUT_COLUMNS, ROUTED_WHOLE_COLUMNS
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import freeze_plant

# Attributes a plant keeps as its own whatever state it takes: its design, its queue of edits
# (the design's subscription appends to that very list), its identity, and its count of input
# fills (a snapshot shares input columns unread while it stands: the copy fills none).
_OWN = frozenset({"design", "_pending", "_subscription", "plant_identity", "inputs_filled"})
# The row tables and the rows' inputs (ends, drops, ports, cages, pins): a tray edit adds, drops
# and renumbers no row and changes no input, so the copy reads the snapshot's (read-only, never
# written) and the live plant keeps its own. Copying and then freeing the 393k-entry index and
# id list at XL cost the GUI thread ~65 ms when the copy was adopted; the 17 input columns
# were copied on the worker twice (thawed here, frozen again for its analysis).
# The device numbering of the cage keys is an input too (only an input fill adds a device):
# its 21k-entry dict and list were ~0.5 ms of copying on the worker per XL drop, and again for
# the analysis's frozen copy.
_KEPT = frozenset(
    {"index", "link_ids", *INPUT_COLUMNS, "_dev_no", "cage_device_ids", "_last_dev_no"}
)
# Read by the re-route and then replaced (the drops attached to the new tray graph), never
# written in place on a tray edit: the snapshot's own (read-only), not thawed (~0.3 ms at XL).
_REPLACED = frozenset({"_att"})


def pending_tray_edits(plant: RoutedLinks) -> tuple[Change, ...]:
    """The plant's unapplied edits when they are all edits of the trays alone, else ``()``."""
    pending = tuple(plant._pending)
    return pending if pending and all(c.kinds <= TRAY_KINDS for c in pending) else ()


def refresh_in_steps(plant: RoutedLinks) -> set[str]:
    """``plant.refresh()``, one run of tray-only edits and one run of other edits at a time:
    ids of the links any step changed."""
    pending = plant._pending
    changed: set[str] = set()
    while pending:
        trays = pending[0].kinds <= TRAY_KINDS
        k = next(
            (i for i, c in enumerate(pending) if (c.kinds <= TRAY_KINDS) != trays), len(pending)
        )
        rest = pending[k:]
        del pending[k:]
        changed |= plant.refresh()
        pending[:0] = rest  # refresh() emptied the list in place; the subscription keeps it
    return changed


def retray(snap: RoutedLinks) -> tuple[RoutedLinks, AbstractSet[str]]:
    """A writable copy of ``snap`` (a snapshot taken with its pending tray edits) with those
    edits applied and every route named: (the copy, ids of the links whose length, ordered
    length or medium changed). Runs on any thread: it reads ``snap`` only, but for the output
    columns ``snap`` handed over writeable (its own copies, which the copy takes and writes;
    ``snap`` is then spent: its handed-over columns are read only through the copy; the
    Snapshotter may still compare ``snap``'s other columns as an earlier snapshot).

    The ids are a :class:`~model.engine.changed_rows.ChangedRows` over the snapshot's id list
    (never changed): named only if a listener reads them (~52 ms of the worker's CPU at XL
    for the 190k links a corner drag re-routes, which the analysis and the plan never read)."""
    work = RoutedLinks.__new__(RoutedLinks)
    for name, value in snap.__dict__.items():
        shared = name in _KEPT or name in _REPLACED or name in ROUTED_WHOLE_COLUMNS  # read-only
        setattr(work, name, value if shared else _thawed(value))
    work._pending = list(snap._pending)
    changed = work.refresh(lazy_ids=True)
    work.route_keys()  # named here, off the GUI thread (a tray edit names every route again)
    return work, changed


def frozen(worked: RoutedLinks, design: Design) -> RoutedLinks:
    """The analysis's read-only copy of ``worked`` (from :func:`retray`) reading ``design``:
    its row tables and inputs are its snapshot's, shared (copying the 393k-entry index and id
    list again was ~25-45 ms of the worker's CPU at XL per drop); so are the arrays the
    re-route wrote, made read-only here: ``worked`` is written no more, and :func:`adopt`
    copies them into the live plant's own arrays (copying them here, for the live plant to
    take, was ~15 ms of the worker's CPU at XL, between the re-route and the analysis).
    Containers and the attachments are copied: the live plant takes and edits those."""
    arrays = {n for n, v in worked.__dict__.items() if type(v) is np.ndarray and n not in _KEPT}
    for name in arrays:
        worked.__dict__[name].flags.writeable = False
    return freeze_plant(worked, design, kept=_KEPT | arrays)


def adopt(live: RoutedLinks, worked: RoutedLinks, applied: tuple[Change, ...]) -> bool:
    """Make ``live`` the re-routed ``worked`` (from :func:`retray`) when ``live``'s unapplied
    edits begin with ``applied`` (those after stay pending); False (nothing done) when
    ``live`` was refreshed meanwhile. GUI thread (the thread that edits the design)."""
    pending = live._pending
    head = pending[: len(applied)]
    if len(head) != len(applied) or any(a is not b for a, b in zip(head, applied, strict=True)):
        return False
    held = live.__dict__
    for name, value in worked.__dict__.items():
        if name in _OWN or name in _KEPT:
            continue
        if name in OUTPUT_COLUMNS and type(value) is np.ndarray and not value.flags.writeable:
            # The re-routed columns, read-only (frozen), perhaps the analysis's too: taken as
            # they are (their values copied into the live plant's arrays were ~5 ms of the GUI
            # thread per XL drop); the live plant copies one before it writes it
            # (own_output_columns), and the next snapshot copies them for its worker as before.
            held[name] = value
            continue
        if type(value) is np.ndarray:  # perhaps the analysis's too (frozen): values copied
            mine = held.get(name)
            if (
                type(mine) is np.ndarray
                and mine.shape == value.shape
                and mine.dtype == value.dtype
                and mine.flags.writeable
            ):
                np.copyto(mine, value)  # into the live plant's own array: no allocation
            else:
                held[name] = value.copy()
        else:
            held[name] = value
    del pending[: len(applied)]  # in place: the design's subscription appends to this list
    return True


def _thawed(value):
    """A writable copy of one attribute of a snapshot: arrays copied (except an array the
    snapshot left writeable, handed to this copy alone: model.engine.snapshot._hand_over),
    containers one level (their elements are immutable or replaced, never changed in place),
    dataclasses of arrays (the attachments) field by field."""
    if isinstance(value, np.ndarray):
        return value if value.flags.writeable else value.copy()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(
            value,
            **{
                f.name: _thawed(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init
            },
        )
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    if isinstance(value, set):
        return set(value)
    return value
