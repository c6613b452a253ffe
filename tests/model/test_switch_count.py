"""Switch counts keep every switch the analysis powers and prices: a placed switch without links
(or one only on another fabric) is counted apart from the tiers, never as zero (issue 16, bug 8)."""

from __future__ import annotations

from model.analysis import analyze
from model.analysis.devices import OTHER_FABRIC, UNCONNECTED
from tests.builders import device, empty_hall, link, rack, small_pod


def test_a_placed_unconnected_switch_is_counted_with_its_power():
    design = empty_hall()
    rack(design, "n1", 2.1, 3.0)
    device(design, "leaf1", "n1", 20, "qm9700", role="leaf")
    report = analyze(design)
    assert report.power_w["switches"] > 0
    assert report.switches_total == 1
    assert report.switches_by_tier == {}
    assert report.switches_off_tier == {UNCONNECTED: 1}
    assert report.to_json()["switches"]["total"] == 1
    assert report.to_json()["switches"]["off_tier"] == {UNCONNECTED: 1}
    assert "unconnected 1" in report.to_text()


def test_connected_switches_keep_their_tiers_and_a_spare_one_is_counted_apart():
    design = small_pod()
    device(design, "spare", "n1", 30, "qm9700", role="leaf")
    report = analyze(design)
    assert report.switches_by_tier == {"leaf": 2}
    assert report.switches_off_tier == {UNCONNECTED: 1}
    assert report.switches_total == 3


def test_a_switch_linked_only_to_another_switch_is_on_another_fabric():
    design = empty_hall()
    rack(design, "n1", 2.1, 3.0)
    device(design, "sw1", "n1", 20, "qm9700", role="leaf")
    device(design, "sw2", "n1", 22, "qm9700", role="leaf")
    link(design, "x", ("sw1", "p1"), ("sw2", "p1"))
    report = analyze(design)
    assert report.switches_off_tier == {OTHER_FABRIC: 2}
    assert report.switches_total == 2
