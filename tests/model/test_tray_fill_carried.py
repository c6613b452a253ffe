"""A tray edit's tray fill carries the per-(route, medium) counts over to the plant's new route
generation (each row keeps its route id; only the rows whose medium changed are recounted) and
learns the routes' intervals again: after random corner drags, its figures are a full count's of
the same plant bit for bit, and a tray edit that moves rows on or off the trays counts afresh."""

from __future__ import annotations

import random

import numpy as np
import pytest

from model.analysis.tray_fill import TrayFill
from model.analysis.tray_fill_loads import carried_counts
from model.engine.routed_links import RoutedLinks
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.test_tray_edit_analysis import _Worker
from tests.model.tray_drags import corner_moved


def _full_counts(monkeypatch) -> list[int]:
    """Calls of TrayFill._full (every row counted) from here on."""
    calls: list[int] = []
    real = TrayFill._full

    def counted(self, plant):
        calls.append(1)
        return real(self, plant)

    monkeypatch.setattr(TrayFill, "_full", counted)
    return calls


def _assert_full_count(fill: TrayFill, got: dict, design, plant) -> None:
    fresh = TrayFill()
    want = fresh.update(design, plant, None)
    assert got == want  # same floats, not approximately
    assert fill.peak_at == fresh.peak_at
    assert fill.loads == fresh.loads
    assert sorted(k for k, c in fill._counts.items() if c) == sorted(fresh._counts)
    assert all(fill._counts[k] == c for k, c in fresh._counts.items())


@pytest.mark.parametrize("seed", [2, 7, 13])
def test_tray_drags_carry_the_counts_and_equal_a_full_count(monkeypatch, seed):
    design = synthetic_hall(512)
    live = RoutedLinks(design)
    worker = _Worker(design, live)
    fill = worker.analyzer._trays
    full = _full_counts(monkeypatch)
    rng = random.Random(seed)
    carried = media_changed = 0
    for _ in range(6):
        corner_moved(design, live, rng)
        if rng.random() < 0.4:
            corner_moved(design, live, rng)  # two drags handed to one job
        before = (worker.analyzer.plant.route_keys().copy(), fill._row_medium.copy())
        report, frozen = worker.drop()
        same_routes = np.array_equal(frozen.route_keys(), before[0])
        # Carried exactly when every row kept its route id (else numbered afresh: all counted)
        assert (not full) == same_routes
        carried += same_routes
        if same_routes:
            media_changed += int((np.asarray(frozen.medium_index) != before[1]).sum())
        _assert_full_count(fill, report.tray_fill, worker.analyzer.design, frozen)
        full.clear()  # the full count compared with
    assert carried >= 2
    assert media_changed  # some carried drag flipped a medium: those rows were recounted


class _Renumbered:
    """A plant's rows and media with its route ids renumbered (as a new naming can give)."""

    def __init__(self, plant) -> None:
        self.link_ids, self.media = plant.link_ids, plant.media
        keys = np.asarray(plant.route_keys())
        self.keys = np.where(keys >= 0, keys.max() - keys, -1)

    def route_keys(self) -> np.ndarray:
        return self.keys


def test_counts_are_carried_only_over_the_same_route_ids():
    design = synthetic_hall(256)
    plant = RoutedLinks(design)
    fill = TrayFill()
    fill.update(design, plant, None)
    state = fill._plant_state
    assert state is not None
    later = (state[0], state[1] + 1, state[2])
    assert not carried_counts(fill, _Renumbered(plant), later)
    assert not carried_counts(fill, plant, (state[0], state[1] + 1, ("another medium",)))
    assert fill._plant_state == state
    assert carried_counts(fill, plant, later)
    assert fill._plant_state == later
