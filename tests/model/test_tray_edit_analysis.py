"""A tray edit analysed as the editor's worker does it (a re-routed copy, then the incremental
analyzer) gives the report and the panels' figures of a fresh routing and a fresh analysis."""

from __future__ import annotations

import random

import numpy as np
import pytest

from model.analysis.analyzer import Analyzer
from model.engine.retray_copy import adopt, pending_tray_edits, retray
from model.engine.retray_copy import frozen as retray_frozen
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.test_tray_reroute import _assert_same_plant
from tests.model.tray_drags import nudged_corner


def _corner_moved(design, plant, rng) -> None:
    """A corner of a tray some route follows moved by up to 1.5 m (as a drag drops it)."""
    keys = plant.route_keys()
    used = sorted(
        {t for k in np.unique(keys[keys >= 0]).tolist() for t, _, _ in plant.tray_spans(k)}
    )
    tray_id = rng.choice(used)
    design.set_tray_points(tray_id, nudged_corner(design.trays[tray_id].points, rng))


class _Worker:
    """The analysis runner's steps without Qt: snapshot with the pending tray edits, re-route
    a copy, adopt it, analyse the frozen copy incrementally."""

    def __init__(self, design, live) -> None:
        self.design, self.live = design, live
        self.snaps = Snapshotter(design, live)
        snap_design, snap_plant = self.snaps.take()
        self.analyzer = Analyzer(snap_design, snap_plant, subscribe=False, refresh_plant=False)
        self.analyzer.advance(snap_design, snap_plant, [], set())
        self.changes: list = []
        design.subscribe(self.changes.append)

    def drop(self):
        applied = pending_tray_edits(self.live)
        assert applied
        snap_design, snap_plant = self.snaps.take(pending_trays=True)
        worked, changed = retray(snap_plant)
        frozen = retray_frozen(worked, snap_design)
        assert adopt(self.live, worked, applied)
        self.snaps.adopted()
        changes, self.changes[:] = list(self.changes), []
        report = self.analyzer.advance(snap_design, frozen, changes, set(changed))
        return report, frozen


@pytest.mark.parametrize("seed", [3, 11])
def test_tray_drops_analysed_on_a_copy_equal_a_fresh_analysis(seed):
    design = synthetic_hall(512)
    live = RoutedLinks(design)
    worker = _Worker(design, live)
    rng = random.Random(seed)
    for _ in range(3):
        _corner_moved(design, live, rng)
        if rng.random() < 0.5:
            _corner_moved(design, live, rng)  # two drags handed to one job
        report, frozen = worker.drop()
        fresh_plant = RoutedLinks(design)
        _assert_same_plant(live, fresh_plant)
        fresh_analyzer = Analyzer(design, fresh_plant, subscribe=False, refresh_plant=False)
        fresh = fresh_analyzer.report()
        assert report.to_json() == fresh.to_json()
        assert report.tray_fill == fresh.tray_fill
        names, codes = worker.analyzer.tier_codes()
        fresh_names, fresh_codes = fresh_analyzer.tier_codes()
        assert names == fresh_names
        np.testing.assert_array_equal(codes, fresh_codes)


def test_a_tray_drop_keeps_the_tier_codes_of_the_same_rows():
    """A tray edit starts a new route generation over the same plant rows: the tier codes
    (the links table's column, ~30 ms at XL) are not worked out again."""
    design = synthetic_hall(256)
    live = RoutedLinks(design)
    worker = _Worker(design, live)
    before = worker.analyzer.tier_codes()
    generation = live.route_generation
    _corner_moved(design, live, random.Random(5))
    worker.drop()
    assert live.route_generation != generation
    assert worker.analyzer.tier_codes() is before


class _Compared(list):
    """A list of link ids that counts the comparisons made with it."""

    compared = 0

    def __eq__(self, other):
        self.compared += 1
        return list.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]


def test_a_tray_drop_keeps_the_analyzers_plant_rows_and_a_link_edit_renews_them():
    """A tray edit's new route generation runs over the same id list: the rows stand (the same
    array, not read again from 393k ids at XL); links removed and added back renumber the
    plant's rows, and the report is again a fresh analysis's."""
    design = synthetic_hall(256)
    live = RoutedLinks(design)
    worker = _Worker(design, live)
    rows = worker.analyzer._plant_rows
    topo = worker.analyzer._topo
    topo.link_ids = _Compared(topo.link_ids)  # counts each reading of the rows
    for seed in (4, 6):
        _corner_moved(design, live, random.Random(seed))
        report, frozen = worker.drop()
        assert worker.analyzer._plant_rows is rows
        assert worker.analyzer._rows_generation[1] is frozen.link_ids
    assert topo.link_ids.compared == 0
    # a live analyzer (as analyze and the command line use it): rows moved in place
    analyzer = Analyzer(design, live)
    analyzer.report()
    kept = analyzer._plant_rows
    links = [design.links[i] for i in list(design.links)[:3]]
    design.remove_links([link.id for link in links])
    design.add_links(links)
    after = analyzer.report()
    assert analyzer._plant_rows is not kept
    fresh = Analyzer(design, RoutedLinks(design), subscribe=False, refresh_plant=False).report()
    assert after.to_json() == fresh.to_json()


def test_a_tray_drop_keeps_the_bisection_cut_and_a_rack_move_renews_it():
    """The report's bisection entry (cut_json) is kept across a tray drop (topology and cut
    stand) and equal to a fresh analysis's; a rack move re-evaluates the cut and its entry."""
    design = synthetic_hall(512)
    live = RoutedLinks(design)
    worker = _Worker(design, live)
    before = worker.analyzer._cut
    assert before is not None
    _corner_moved(design, live, random.Random(2))
    report, _frozen = worker.drop()
    assert report.bisection is before[2]
    fresh = Analyzer(design, RoutedLinks(design), subscribe=False, refresh_plant=False).report()
    assert report.bisection == fresh.bisection
    rack = next(iter(design.racks.values()))
    design.move_racks({rack.id: (rack.x + 0.6, rack.y)})
    live.refresh()
    snap_design, snap_plant = worker.snaps.take()
    changes, worker.changes[:] = list(worker.changes), []
    moved = worker.analyzer.advance(snap_design, snap_plant, changes, set())
    assert worker.analyzer._cut is not None and worker.analyzer._cut[1] is not before[1]
    fresh = Analyzer(design, RoutedLinks(design), subscribe=False, refresh_plant=False).report()
    assert moved.bisection == fresh.bisection
