"""A tray edit re-routed on a copy (model/engine/retray_copy.py): the live plant that adopts the
copy equals a fresh routing of the edited design, and a copy that missed an edit is refused."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest

from model.engine.link_table import INPUT_COLUMNS, OUTPUT_COLUMNS
from model.engine.retray_copy import adopt, pending_tray_edits, refresh_in_steps, retray
from model.engine.retray_copy import frozen as retray_frozen
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.test_tray_reroute import _assert_same_plant
from tests.model.tray_drags import corner_moved


@pytest.mark.parametrize("seed", [1, 2])
def test_retray_on_a_worker_copy_then_adopted_equals_a_fresh_plant(seed):
    design = synthetic_hall(1024)
    live = RoutedLinks(design)
    reference = RoutedLinks(design)  # refreshed on this thread, as before
    snaps = Snapshotter(design, live)
    snaps.take()
    rng = random.Random(seed)
    before = live.routed_m.copy()
    corner_moved(design, live, rng)
    corner_moved(design, live, rng)  # two drags before the worker runs: applied together
    applied = pending_tray_edits(live)
    assert len(applied) == 2
    _, snap = snaps.take(pending_trays=True)
    out = {}
    worker = threading.Thread(target=lambda: out.update(result=retray(snap)))
    worker.start()
    worker.join()
    worked, changed = out["result"]
    np.testing.assert_array_equal(live.routed_m, before)  # the live plant waited meanwhile
    assert changed  # a corner of a tray in use moved: some lengths change
    assert adopt(live, worked, applied)
    assert not live.has_unapplied_edits
    _assert_same_plant(live, RoutedLinks(design))
    assert changed == reference.refresh()
    _assert_same_plant(live, reference)
    # the live plant goes on incrementally from the adopted state, route ids and all
    rack = next(iter(design.racks.values()))
    design.move_racks({rack.id: (rack.x + 1.2, rack.y)})
    assert live.refresh() == reference.refresh()
    _assert_same_plant(live, reference)


def test_edits_made_while_the_copy_was_rerouted_stay_pending_on_top_of_it():
    design = synthetic_hall(512)
    live, reference = RoutedLinks(design), RoutedLinks(design)
    rng = random.Random(7)
    corner_moved(design, live, rng)
    applied = pending_tray_edits(live)
    _, snap = Snapshotter(design, live).take(pending_trays=True)
    worked, changed = retray(snap)
    corner_moved(design, live, rng)  # a second drag while the first was re-routed
    rack = next(iter(design.racks.values()))
    design.move_racks({rack.id: (rack.x + 0.6, rack.y)})  # and a rack moved
    assert adopt(live, worked, applied)
    assert len(live._pending) == 2  # the second drag and the move, applied next
    live._full = _no_full_rebuild  # in steps: the trays in place, then the rack
    assert changed | refresh_in_steps(live) >= reference.refresh()
    _assert_same_figures(live, reference)


def test_a_copy_is_refused_once_the_plant_was_refreshed_here():
    design = synthetic_hall(512)
    live = RoutedLinks(design)
    corner_moved(design, live, random.Random(5))
    applied = pending_tray_edits(live)
    _, snap = Snapshotter(design, live).take(pending_trays=True)
    worked, _ = retray(snap)
    live.refresh()  # something needed the plant at once (a measurement)
    routed = live.routed_m.copy()
    assert not adopt(live, worked, applied)
    np.testing.assert_array_equal(live.routed_m, routed)
    _assert_same_plant(live, RoutedLinks(design))


def test_refresh_in_steps_applies_tray_runs_in_place_and_racks_incrementally():
    design = synthetic_hall(512)
    live, reference = RoutedLinks(design), RoutedLinks(design)
    rng = random.Random(11)
    corner_moved(design, live, rng)
    rack = next(iter(design.racks.values()))
    design.move_racks({rack.id: (rack.x + 1.2, rack.y)})
    corner_moved(design, live, rng)
    live._full = _no_full_rebuild  # one refresh of both kinds would rebuild everything
    refresh_in_steps(live)
    assert not live.has_unapplied_edits
    reference.refresh()  # all at once: the full rebuild
    _assert_same_figures(live, reference)


def _no_full_rebuild() -> None:
    raise AssertionError("the whole plant was rebuilt")


def _assert_same_figures(live: RoutedLinks, other: RoutedLinks) -> None:
    """Every link's length pieces, medium and flags, and the trays its route follows (route
    ids are named in another order after an incremental edit)."""
    assert live.link_ids == other.link_ids
    for name in OUTPUT_COLUMNS:
        if name != "_route_key":
            np.testing.assert_array_equal(getattr(live, name), getattr(other, name), err_msg=name)
    for link_id in live.link_ids[::97]:
        assert live.link_tray_spans(link_id) == other.link_tray_spans(link_id)


def test_only_tray_edits_are_handed_over():
    design = synthetic_hall(512)
    live = RoutedLinks(design)
    corner_moved(design, live, random.Random(3))
    rack = next(iter(design.racks.values()))
    design.move_racks({rack.id: (rack.x + 0.6, rack.y)})
    assert pending_tray_edits(live) == ()
    with pytest.raises(ValueError, match="unapplied edits"):
        Snapshotter(design, live).take(pending_trays=True)


def test_the_inputs_are_read_where_they_are_not_copied_again():
    """A tray edit changes no row's inputs: the worker's copy reads the snapshot's input
    columns, its frozen copy for the analysis shares them, the live plant keeps its own (still
    writable: a later edit refills them in place), and a later edit of the inputs (a device's
    link removed and added back) gives the figures of a fresh plant."""
    design = synthetic_hall(256)
    live = RoutedLinks(design)
    own = {name: getattr(live, name) for name in INPUT_COLUMNS}
    assert live.index  # built, as the editor's plant has it
    corner_moved(design, live, random.Random(9))
    applied = pending_tray_edits(live)
    snap_design, snap = Snapshotter(design, live).take(pending_trays=True)
    worked, _ = retray(snap)
    frozen = retray_frozen(worked, snap_design)
    for name in INPUT_COLUMNS:
        assert getattr(worked, name) is getattr(snap, name), name
        assert getattr(frozen, name) is getattr(snap, name), name
        assert not getattr(frozen, name).flags.writeable
    # the row tables too (never written: copying them was most of the frozen copy's time)
    assert "index" in snap.__dict__
    assert frozen.index is snap.index and frozen.link_ids is snap.link_ids
    # the columns the re-route wrote are shared with the analysis, read-only; the live plant
    # takes them as they are (read-only) and copies one before it writes it in a later edit:
    # the analysis must not see that edit
    routed = frozen.routed_m.copy()
    assert frozen.routed_m is worked.routed_m and not frozen.routed_m.flags.writeable
    assert adopt(live, worked, applied)
    for name in OUTPUT_COLUMNS:
        assert getattr(live, name) is getattr(frozen, name), name
        assert not getattr(live, name).flags.writeable
    np.testing.assert_array_equal(live.routed_m, routed)
    for name in INPUT_COLUMNS:
        assert getattr(live, name) is own[name], name
        assert getattr(live, name).flags.writeable
    link = next(iter(design.links.values()))
    design.remove_links([link.id])
    design.add_links([link])
    live.refresh()
    np.testing.assert_array_equal(frozen.routed_m, routed)
    for name in OUTPUT_COLUMNS:  # the live plant's own again, the analysis's left as they were
        assert getattr(live, name) is not getattr(frozen, name), name
        assert getattr(live, name).flags.writeable
    fresh = RoutedLinks(design)
    rows = np.array([live.index[i] for i in fresh.link_ids])
    for name in ("routed_m", "length_m", "ordered_m", "medium_index", "status", *INPUT_COLUMNS):
        if name not in ("cage_a", "cage_b"):  # device numbers follow the order devices came
            np.testing.assert_array_equal(getattr(live, name)[rows], getattr(fresh, name))
