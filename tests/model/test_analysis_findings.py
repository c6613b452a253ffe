"""``analysis_findings`` (what the BOM's Warnings sheet reads) equals the full report's warnings,
without the figures only the report shows; ``Analyzer.findings`` keeps the next report right."""

from __future__ import annotations

import msgspec
import pytest

from model.analysis import Analyzer, analysis_findings, analyze
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from tests.analysis_fabrics import FakePlant, clos
from tests.builders import small_pod


def _pinned_out_of_reach():
    design = small_pod()
    design.update_links(
        [msgspec.structs.replace(design.links["l-1"], medium="dac-400g", length_override_m=20.0)]
    )
    return design


def _cross_connected():
    design = generate(
        "rail-optimized", nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32
    )
    apply_cabling(design, "cross-connect")
    return design


@pytest.mark.parametrize("make", [_pinned_out_of_reach, _cross_connected, small_pod])
def test_findings_are_the_reports_warnings(make):
    design = make()
    plant = RoutedLinks(design)
    findings = analysis_findings(design, plant)
    assert findings == analyze(design, plant).warnings
    if make is _pinned_out_of_reach:
        assert "PINNED_MEDIUM_OUT_OF_REACH" in {f.code for f in findings}


def test_findings_without_a_plant_are_the_reports_warnings():
    design = clos()
    assert analysis_findings(design) == analyze(design).warnings


def test_a_report_after_findings_sees_the_rack_moves_they_took():
    """``findings()`` takes the pending changes (a rack move among them): the report after it
    re-evaluates what a move changes (the bisection's floor halves) as a fresh analysis does."""
    design = clos()
    plant = FakePlant(design)
    analyzer = Analyzer(design, plant)
    analyzer.report()
    design.move_racks({"r2": (5.0, 5.0)})
    assert analyzer.findings() == analyze(design, plant).warnings
    assert analyzer.report().to_json() == analyze(design, plant).to_json()
    analyzer.close()
