"""Generated designs size their trays for the cables routed in them (and pass their own fill check)."""

from __future__ import annotations

import msgspec
import pytest

from model.analysis import analyze
from model.design.limits import MIN_TRAY_SIZE_M
from model.engine.routed_links import RoutedLinks
from model.generators.placement import standard_tray_size
from tests.benchmarks.workloads import build


def overfilled(design) -> dict[str, str]:
    report = analyze(design, RoutedLinks(design))
    return {w.objects[0]: w.message for w in report.warnings if w.code == "TRAY_OVERFILLED"}


@pytest.mark.parametrize("size", ["S", "L"])
def test_generated_workloads_pass_their_own_tray_fill_check(size):
    design = build(size)
    assert overfilled(design) == {}
    report = analyze(design, RoutedLinks(design))
    assert 0 < max(report.tray_fill.values()) <= 0.5


def test_a_narrowed_tray_is_reported_overfilled():
    design = build("S")
    report = analyze(design, RoutedLinks(design))
    busiest = max(report.tray_fill, key=report.tray_fill.get)
    tray = design.trays[busiest]
    # Fibre is thin: narrow it a lot, to the smallest tray the loader and edit API accept.
    narrow = msgspec.structs.replace(tray, width_m=MIN_TRAY_SIZE_M, depth_m=MIN_TRAY_SIZE_M * 5)
    design.update_trays([narrow])
    found = overfilled(design)
    assert list(found) == [busiest] and f"Tray {tray.name} is" in found[busiest]


def test_the_l_spine_row_gets_a_bank_of_parallel_trays():
    trays = {t.name: t for t in build("L").trays.values()}
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
