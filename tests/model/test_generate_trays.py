"""Generated designs size their trays for the cables routed in them (and pass their own fill check)."""

from __future__ import annotations

import functools

import msgspec
import pytest

from model.analysis import analyze
from model.design.limits import MIN_TRAY_SIZE_M
from model.engine.routed_links import RoutedLinks
from model.generators.placement import standard_tray_size
from tests.benchmarks.workloads import build


def overfilled(report) -> dict[str, str]:
    return {w.objects[0]: w.message for w in report.warnings if w.code == "TRAY_OVERFILLED"}


@functools.lru_cache(maxsize=1)
def workload(size: str):
    """``build(size)`` for the tests that only read it: the L hall's fill check and its spine
    row's trays share one build."""
    return build(size)


@pytest.fixture(autouse=True, scope="module")
def _workload_let_go():
    yield
    workload.cache_clear()  # not held for the rest of the process


@pytest.mark.parametrize("size", ["S", "L"])
def test_generated_workloads_pass_their_own_tray_fill_check(size):
    report = analyze(workload(size), RoutedLinks(workload(size)))
    assert overfilled(report) == {}
    assert 0 < max(report.tray_fill.values()) <= 0.5


def test_a_narrowed_tray_is_reported_overfilled():
    design = build("S")
    report = analyze(design, RoutedLinks(design))
    busiest = max(report.tray_fill, key=report.tray_fill.get)
    tray = design.trays[busiest]
    # Fibre is thin: narrow it a lot, to the smallest tray the loader and edit API accept.
    narrow = msgspec.structs.replace(tray, width_m=MIN_TRAY_SIZE_M, depth_m=MIN_TRAY_SIZE_M * 5)
    design.update_trays([narrow])
    found = overfilled(analyze(design, RoutedLinks(design)))
    assert list(found) == [busiest] and f"Tray {tray.name} is" in found[busiest]


def test_the_l_spine_row_gets_a_bank_of_parallel_trays():
    trays = {t.name: t for t in workload("L").trays.values()}
    bank = [t for name, t in trays.items() if "(2 x 0.9 m)" in name]
    assert bank and all(t.width_m == pytest.approx(1.8) and t.depth_m == 0.15 for t in bank)


@pytest.mark.parametrize(
    ("area", "size"),
    [
        (0.0, (0.3, 0.1, 1)),
        (0.03, (0.3, 0.1, 1)),
        (0.031, (0.3, 0.15, 1)),
        (0.05, (0.6, 0.1, 1)),
        (0.09, (0.6, 0.15, 1)),
        (0.1, (0.9, 0.15, 1)),
        (0.2, (0.9, 0.15, 2)),
        (10.0, (0.9, 0.15, 5)),
    ],
)
def test_standard_tray_size_is_the_smallest_that_holds_the_area(area, size):
    assert standard_tray_size(area) == size


def test_a_cross_tray_is_drawn_halfway_between_each_two_while_they_are_far_enough_apart():
    """Where even the largest bank is short (XL), the generator draws cross trays halfway
    between the ones it has, never closer than MIN_CROSS_TRAY_PITCH_M."""
    from model.generators.generate import rail_optimized
    from model.generators.placement import MIN_CROSS_TRAY_PITCH_M, _midway_cross_trays

    design = rail_optimized(nodes=600, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    xs = sorted(t.points[0][0] for t in design.trays.values() if t.id.startswith("t-cross-"))
    extra = _midway_cross_trays(design)
    assert len(xs) >= 3 and len(extra) == len(xs) - 1
    mids = sorted(t.points[0][0] for t in extra)
    assert mids == pytest.approx([(a + b) / 2 for a, b in zip(xs, xs[1:], strict=False)])
    first = next(t for t in design.trays.values() if t.id.startswith("t-cross-"))
    assert all(t.points[0][1] == first.points[0][1] for t in extra)
    assert not {t.id for t in extra} & set(design.trays)
    # Halving again and again stops at the floor pitch.
    while extra:
        design.add_trays(extra)
        extra = _midway_cross_trays(design)
    xs = sorted(t.points[0][0] for t in design.trays.values() if t.id.startswith("t-cross-"))
    gaps = [b - a for a, b in zip(xs, xs[1:], strict=False)]
    assert min(gaps) >= MIN_CROSS_TRAY_PITCH_M - 1e-6  # never closer than the floor
    assert max(gaps) < 2 * MIN_CROSS_TRAY_PITCH_M


def test_sizing_with_a_plant_kept_over_tray_edits_equals_sizing_afresh():
    """plan_trays and widen_trays route a hall once and size it again after each round of tray
    edits: the kept plant is refreshed first and sizes as a fresh routing does (here the cross
    trays removed but one, which then carries every cable between rows)."""
    import numpy as np

    from model.generators.placement import size_trays_report

    design = build("S")
    plant = RoutedLinks(design)
    fresh = None
    try:
        before_m = plant.routed_m.copy()
        cross = sorted(
            (t for t in design.trays.values() if t.id.startswith("t-cross-")),
            key=lambda t: t.points[0][0],
        )
        design.remove_trays([t.id for t in cross[:-1]])
        kept = size_trays_report(design, plant)
        fresh = RoutedLinks(design)
        assert kept == size_trays_report(design, fresh)
        assert not np.array_equal(fresh.routed_m, before_m)  # the edit moved cables
        assert np.array_equal(plant.routed_m, fresh.routed_m)
    finally:
        plant.close()
        if fresh is not None:
            fresh.close()
