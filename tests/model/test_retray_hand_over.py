"""A tray-pending snapshot hands its own copies of the output columns to the worker's re-route
(model/engine/snapshot.py _hand_over, model/engine/retray_copy.py _thawed): copied once, not
twice, and never an array another snapshot or a published analysis still reads."""

from __future__ import annotations

import random

import numpy as np

from model.engine.link_table import OUTPUT_COLUMNS, ROUTED_WHOLE_COLUMNS
from model.engine.retray_copy import adopt, pending_tray_edits, retray
from model.engine.retray_copy import frozen as retray_frozen
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.test_tray_reroute import _assert_same_plant
from tests.model.tray_drags import corner_moved


def _columns(plant: RoutedLinks) -> dict[str, np.ndarray]:
    return {n: getattr(plant, n) for n in OUTPUT_COLUMNS if n in plant.__dict__}


def test_drops_in_a_row_write_the_handed_columns_once_and_leave_published_copies_alone():
    # As the analysis runner does it: a snapshot with the pending tray edits, the re-route on
    # it, the analysis's frozen copy (kept, as a published result keeps it), the live plant
    # adopting the copy, the Snapshotter told. Each published copy must keep its values
    # through the later drops, whichever arrays the later snapshots reuse or hand over.
    design = synthetic_hall(512)
    live = RoutedLinks(design)
    snaps = Snapshotter(design, live)
    published = [(_columns(snaps.take()[1]), None)]
    rng = random.Random(5)
    handed_over = shared_whole = 0
    for _ in range(6):
        corner_moved(design, live, rng)
        applied = pending_tray_edits(live)
        snap_design, snap = snaps.take(pending_trays=True)
        handed = {n for n, a in _columns(snap).items() if a.flags.writeable}
        assert handed <= set(OUTPUT_COLUMNS)  # inputs and row tables are never handed over
        before = _columns(snap)
        worked, _ = retray(snap)
        for name, array in _columns(worked).items():
            if name in ROUTED_WHOLE_COLUMNS:
                # shared read-only, unless the re-route routed some rows whole: then its own
                assert (array is before[name]) != array.flags.writeable, name
                shared_whole += array is before[name]
                continue
            # a handed column is written where it is; any other is a copy of the worker's own
            assert (array is before[name]) == (name in handed), name
        frozen = retray_frozen(worked, snap_design)
        assert not any(a.flags.writeable for a in _columns(frozen).values())
        handed_over += len(handed)
        assert adopt(live, worked, applied)
        snaps.adopted()
        published.append((_columns(frozen), {n: a.copy() for n, a in _columns(frozen).items()}))
        for columns, values in published[1:]:
            for name, array in columns.items():
                np.testing.assert_array_equal(array, values[name], err_msg=name)
        _assert_same_plant(live, RoutedLinks(design))
    assert handed_over  # the path is taken: some drops' columns were written where copied
    assert shared_whole  # and some drops routed no row whole: those columns were not copied


def test_a_column_shared_with_the_published_snapshot_is_copied_not_written():
    # The first drop after an analysis: the live plant's columns are still the published
    # snapshot's bits, which the pending snapshot shares (read-only) rather than copies. The
    # re-route must copy those, leaving the published snapshot as it was.
    design = synthetic_hall(256)
    live = RoutedLinks(design)
    snaps = Snapshotter(design, live)
    _, first = snaps.take()
    values = {n: a.copy() for n, a in _columns(first).items()}
    corner_moved(design, live, random.Random(3))
    _, snap = snaps.take(pending_trays=True)
    shared = {n for n, a in _columns(snap).items() if a is getattr(first, n)}
    assert shared  # nothing was free to copy into: the published arrays are shared
    assert not any(_columns(snap)[n].flags.writeable for n in shared)
    worked, changed = retray(snap)
    assert changed
    for name in shared - ROUTED_WHOLE_COLUMNS:  # those are copied only when written
        assert getattr(worked, name) is not getattr(first, name), name
    for name, array in _columns(first).items():
        np.testing.assert_array_equal(array, values[name], err_msg=name)


def test_edits_on_the_live_plant_after_an_adopted_drop_leave_its_analysis_alone():
    # The live plant takes the re-routed columns the analysis reads (read-only). Every kind of
    # refresh on the GUI thread after that (a rack move, a tray edit refreshed in place, a link
    # removed and added back) must write copies of its own: the published analysis keeps its
    # values, and the live plant equals a fresh one.
    design = synthetic_hall(512)
    live = RoutedLinks(design)
    snaps = Snapshotter(design, live)
    snaps.take()
    rng = random.Random(11)
    published = []
    for step in range(6):
        corner_moved(design, live, rng)
        applied = pending_tray_edits(live)
        snap_design, snap = snaps.take(pending_trays=True)
        worked, _ = retray(snap)
        frozen = retray_frozen(worked, snap_design)
        assert adopt(live, worked, applied)
        snaps.adopted()
        assert all(live.__dict__[n] is a for n, a in _columns(frozen).items())
        published.append((_columns(frozen), {n: a.copy() for n, a in _columns(frozen).items()}))
        if step % 3 == 0:
            rack = design.racks[rng.choice(sorted(design.racks))]
            design.move_racks({rack.id: (rack.x + 0.6, rack.y)})
        elif step % 3 == 1:
            corner_moved(design, live, rng)  # refreshed here, not handed to a worker
        else:
            link = design.links[rng.choice(sorted(design.links))]
            design.remove_links([link.id])
            design.add_links([link])
        live.refresh()
        # its own now, but a column a tray edit wrote nowhere (still the analysis's, unwritten)
        for name, array in _columns(live).items():
            assert array.flags.writeable or name in ROUTED_WHOLE_COLUMNS, name
        for columns, values in published:
            for name, array in columns.items():
                np.testing.assert_array_equal(array, values[name], err_msg=name)
        _assert_same_routes(live, RoutedLinks(design))


def _assert_same_routes(live: RoutedLinks, fresh: RoutedLinks) -> None:
    """The columns and each link's tray spans of a fresh plant, link by link (a link removed
    and added back takes another row; route ids are numbered in the order routes were named,
    and the cage-graph components in the order of their rows)."""
    rows = np.array([live.index[i] for i in fresh.link_ids])
    for name in OUTPUT_COLUMNS:
        if name not in ("_route_key", "component"):
            np.testing.assert_array_equal(
                getattr(live, name)[rows], getattr(fresh, name), err_msg=name
            )
    keys = live.route_keys()[rows].tolist()
    spans = [live.tray_spans(k) if k >= 0 else () for k in keys]
    assert spans == [fresh.tray_spans(k) if k >= 0 else () for k in fresh.route_keys().tolist()]
