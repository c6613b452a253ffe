"""Fill-only tray updates move the recounted links' cables between interval ends kept per tray
(no sweep of every span of the trays they touch), with the figures of a fresh fill-only build
bit for bit after every rack move, and a full sweep's to the last bits."""

from __future__ import annotations

import random

import numpy as np
import pytest

from model.analysis import tray_fill
from model.analysis.tray_fill import TrayFill
from model.analysis.tray_levels import TrayLevels, net_cables
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate, rail_optimized
from model.optimise.moves import network_racks, search_space


def _hall(name: str):
    if name == "S":
        return generate("leaf-spine", nodes=16, node_type="dgx-h100", switch="qm9700")
    # L-like: the L workload's HGX nodes and SN5600 tiers, with a core tier (4 SUs of 16).
    return rail_optimized(
        nodes=64, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=16, tiers=3
    )


@pytest.mark.parametrize("hall", ["S", "L-like"])
def test_fill_only_update_moves_cables_on_the_touched_trays_and_equals_a_fresh_build(
    monkeypatch, hall
):
    design = _hall(hall)
    movable = network_racks(design)
    free, _ = search_space(design, movable, set(), True, False)
    plant = RoutedLinks(design)
    fill = TrayFill()
    fill.update(design, plant, None, loads=False)
    swept: list[int] = []
    touched: list[int] = []
    real_sweep, real_add = tray_fill.peak_along, TrayLevels.add

    def counting_sweep(*args):
        swept.append(1)
        return real_sweep(*args)

    def counting_add(self, *args, **kwargs):
        trays = real_add(self, *args, **kwargs)
        touched.append(len(trays))
        return trays

    monkeypatch.setattr(tray_fill, "peak_along", counting_sweep)
    monkeypatch.setattr(TrayLevels, "add", counting_add)
    rng = random.Random(3)
    partial = moved = 0
    for _ in range(12):
        rack_id = rng.choice(movable)
        here = (design.racks[rack_id].x, design.racks[rack_id].y)
        places = [p for p in free[rack_id] if p != here]
        try:
            design.move_racks({rack_id: rng.choice(places)})
        except Exception:  # a place another moved rack took since: not a candidate
            continue
        swept.clear()
        touched.clear()
        got = fill.update(design, plant, plant.refresh(), loads=False)
        assert not swept  # the delta sweeps no span
        moved += 1
        partial += len(touched) == 1 and 0 < touched[0] < len(design.trays)
        fresh = TrayFill()
        want = fresh.update(design, plant, None, loads=False)
        assert got == want  # the same counts give the same floats
        assert fill.peak_at == fresh.peak_at
        assert max(got.values()) > 0
        swept_fill = TrayFill()
        full = swept_fill.update(design, plant, None)  # the analysis's sweep, loads and all
        assert got == pytest.approx(full, abs=1e-12)
        for tray_id, (x, y) in swept_fill.peak_at.items():
            assert fill.peak_at[tray_id] == pytest.approx((x, y), abs=1e-9), tray_id
    assert moved >= 8
    # A move touches the trays of one rack's routes: on several, fewer than the hall's (a
    # small hall, where a leaf's routes often reach every tray).
    assert partial >= 3


def _levels_of(tables: TrayLevels) -> list[list[tuple[float, float]]]:
    """Per tray: (bound, level) where the level changes (kept bounds with equal counts on both
    sides dropped), the figures a fresh table and a kept one must share."""
    out = []
    for k in range(len(tables.tray_ids)):
        level = tables.levels(k)
        keep = np.r_[True, np.any(tables.counts[k][1:] != tables.counts[k][:-1], axis=1)]
        out.append(list(zip(tables.bounds[k][keep].tolist(), level[keep].tolist(), strict=True)))
    return out


def test_tray_levels_after_cables_added_and_taken_away_equal_a_fresh_build():
    """Random spans of random cables put in and taken out again, in any order: the kept table
    has every level, peak and first peak place of a table built from what remains."""
    rng = np.random.default_rng(11)
    trays = ["t0", "t1", "t2"]
    areas = np.array([3.1e-5, 1.2e-5, 7.0e-6])
    n_routes = 40
    spans = []
    for route in range(n_routes):
        for _ in range(int(rng.integers(1, 3))):
            a, b = sorted(rng.choice(np.arange(0.0, 30.0, 0.6), 2, replace=False).tolist())
            spans.append((route, int(rng.integers(-1, 3)), a, b))
    span_arrays = tuple(np.array(v) for v in zip(*spans, strict=True))
    span_arrays = (
        span_arrays[0].astype(np.int64),
        span_arrays[1].astype(np.int64),
        span_arrays[2].astype(float),
        span_arrays[3].astype(float),
    )
    counts = {(r, int(rng.integers(0, 3))): int(rng.integers(1, 9)) for r in range(n_routes)}
    kept = TrayLevels.build(
        trays, areas, span_arrays, np.array(list(counts)), np.array(list(counts.values()))
    )
    for step in range(30):
        # One to three routes' cables at once (a move's old and new routes, on several trays)
        parts = []
        for route in rng.choice(n_routes, int(rng.integers(1, 4)), replace=False).tolist():
            medium = int(rng.integers(0, 3))
            n = int(rng.integers(-counts.get((route, medium), 0), 5))
            rows = np.flatnonzero(span_arrays[0] == route)
            parts.append((rows, np.full(len(rows), medium), np.full(len(rows), n)))
            counts[(route, medium)] = counts.get((route, medium), 0) + n
        rows, media, cables = (np.concatenate(v) for v in zip(*parts, strict=True))
        kept.add(span_arrays[1][rows], span_arrays[2][rows], span_arrays[3][rows], media, cables)
        fresh = TrayLevels.build(
            trays, areas, span_arrays, np.array(list(counts)), np.array(list(counts.values()))
        )
        assert _levels_of(kept) == _levels_of(fresh), step
        for k in range(len(trays)):
            assert kept.peak(k) == fresh.peak(k), (step, k)


def test_span_buffers_grow_by_doubling_and_keep_what_earlier_views_read():
    route, s0 = np.array([0, 1]), np.array([0.5, 1.5])
    first = tray_fill._appended((route, s0), 2, (np.array([2, 3, 4]), np.array([2.5, 3.5, 4.5])))
    assert len(first[0]) == 5 and first[0].tolist() == [0, 1, 2, 3, 4]
    seen = first[1][:5]  # a view the caller holds
    second = tray_fill._appended(first, 5, (np.array([5]), np.array([5.5])))
    assert len(second[0]) == 10  # doubled: the next appends write in place
    assert second[0][:6].tolist() == [0, 1, 2, 3, 4, 5] and second[1][5] == 5.5
    third = tray_fill._appended(second, 6, (np.array([6]), np.array([6.5])))
    assert third[0] is second[0]  # room left: no copy
    assert seen.tolist() == [0.5, 1.5, 2.5, 3.5, 4.5]


def test_net_cables_counts_as_a_signed_unique_of_the_rows():
    rng = np.random.default_rng(11)
    cases = [(np.zeros(0, np.int64), np.zeros(0, np.int64)), (np.array([3, 3]), np.array([3]))]
    for _ in range(60):  # runs of a route's rows, as a moved rack's links come, and loose rows
        old = np.repeat(rng.integers(0, 40, 12), rng.integers(1, 9, 12))
        new = np.concatenate([np.repeat(rng.integers(0, 40, 6), 5), rng.integers(0, 40, 9)])
        cases.append((old, new.astype(np.int32)))
    for old, new in cases:
        code, inverse = np.unique(np.concatenate([old, new]), return_inverse=True)
        signs = np.r_[-np.ones(len(old), np.int64), np.ones(len(new), np.int64)]
        net = np.bincount(inverse.reshape(-1), signs, len(code)).astype(np.int64)
        found = net_cables(old, new)
        assert found[0].dtype == found[1].dtype == np.int64
        assert found[0].tolist() == code[net != 0].tolist()
        assert found[1].tolist() == net[net != 0].tolist()
