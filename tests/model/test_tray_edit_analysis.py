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


def _corner_moved(design, plant, rng) -> None:
    """A corner of a tray some route follows moved by up to 1.5 m (as a drag drops it)."""
    keys = plant.route_keys()
    used = sorted(
        {t for k in np.unique(keys[keys >= 0]).tolist() for t, _, _ in plant.tray_spans(k)}
    )
    tray_id = rng.choice(used)
    points = list(design.trays[tray_id].points)
    k = rng.randrange(len(points))
    x, y = points[k]
    points[k] = (round(x + rng.uniform(-1.5, 1.5), 3), round(y + rng.uniform(-1.5, 1.5), 3))
    design.set_tray_points(tray_id, points)


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
