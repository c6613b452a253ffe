"""Fill-only tray updates re-sweep just the trays the moved links run along, with the figures
of a full sweep: each ratio and peak place equal bit for bit after every rack move."""

from __future__ import annotations

import random

import numpy as np

from model.analysis import tray_fill
from model.analysis.tray_fill import TrayFill
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.optimise.moves import network_racks, search_space


def test_fill_only_update_resweeps_the_touched_trays_and_equals_a_full_sweep(monkeypatch):
    design = generate("leaf-spine", nodes=16, node_type="dgx-h100", switch="qm9700")
    movable = network_racks(design)
    free, _ = search_space(design, movable, set(), True, False)
    plant = RoutedLinks(design)
    fill = TrayFill()
    fill.update(design, plant, None, loads=False)
    swept: list[int] = []
    real_sweep = tray_fill.peak_along

    def counting_sweep(span_route, span_tray, s0, s1, per_route):
        swept.append(len(np.unique(span_tray)))
        return real_sweep(span_route, span_tray, s0, s1, per_route)

    monkeypatch.setattr(tray_fill, "peak_along", counting_sweep)
    rng = random.Random(3)
    partial = 0
    for _ in range(10):
        rack_id = rng.choice(movable)
        here = (design.racks[rack_id].x, design.racks[rack_id].y)
        places = [p for p in free[rack_id] if p != here]
        try:
            design.move_racks({rack_id: rng.choice(places)})
        except Exception:  # a place another moved rack took since: not a candidate
            continue
        swept.clear()
        got = fill.update(design, plant, plant.refresh(), loads=False)
        full = TrayFill()
        want = full.update(design, plant, None, loads=False)
        assert got == want
        assert fill.peak_at == full.peak_at
        assert max(got.values()) > 0
        partial += bool(swept) and swept[0] < len(design.trays)
    # The delta sweeps fewer trays than the hall has on most moves (a move touches one rack's).
    assert partial >= 3


def test_spans_on_trays_equals_a_test_of_every_span_as_spans_are_appended():
    """The kept by-tray index and its unindexed tail give the rows a test of every span gives,
    while spans are appended (the tail) and after the index is built again."""
    from model.analysis.tray_spans import rows_of_values, spans_on_trays

    rng = np.random.default_rng(5)
    span_tray = rng.integers(-1, 40, 3000)
    index = None
    rebuilt = 0
    for step in range(12):
        trays = np.unique(rng.integers(0, 45, 4))
        got, index = spans_on_trays(index, span_tray, trays)
        want = np.flatnonzero(np.isin(span_tray, trays))
        assert np.array_equal(got, want), step
        rebuilt += index[0] == len(span_tray)
        span_tray = np.concatenate([span_tray, rng.integers(-1, 50, 900)])
    assert 1 < rebuilt < 12  # built again as the tail grew, not at every call
    values = np.sort(rng.integers(0, 100, 500))
    wanted = np.array([3, 50, 99, 100])
    assert np.array_equal(rows_of_values(values, wanted), np.flatnonzero(np.isin(values, wanted)))
