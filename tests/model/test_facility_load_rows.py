"""The facility table's figures: per feed / panel and per cooling unit, load and share at maximum
draw and with one side (power) or one other unit (cooling) failed, hand-computed."""

from __future__ import annotations

import pytest

from model.design.entities import Cdu, Cooling, Power, PowerFeed, PowerPanel
from model.facility.cooling import cooling_use
from model.facility.load_rows import load_rows
from model.facility.power_checks import power_feed_use
from tests.builders import device, empty_hall, rack

TRAY = "gb200-compute-tray"


def _dc(oid: str, kw: float, side: str = "A") -> PowerFeed:
    """A DC feed of ``kw`` kW: 800 V x (kw * 1.25) A."""
    return PowerFeed(id=oid, side=side, current="dc", voltage_v=800.0, current_a=kw * 1.25)


def _panel(oid: str, feed: str, kw: float) -> PowerPanel:
    return PowerPanel(
        id=oid, feed=feed, points=[(1.0, 1.0)], current="dc", voltage_v=800.0, current_a=kw * 1.25
    )


def _power_hall(redundancy: str, feeds, panels, racks: dict[str, tuple[str, ...]]):
    design = empty_hall(20.0, 10.0)
    for i, rack_id in enumerate(racks):
        rack(design, rack_id, 1.0 + 0.7 * i, 3.0)
    design.set_power(Power(redundancy=redundancy, feeds=tuple(feeds), panels=tuple(panels)))
    design.set_rack_pdus(racks)
    return design


def test_a_2n_feed_at_40_pct_carries_80_pct_with_the_other_side_failed():
    # Two racks of 40 kW, each with a PDU on side A (PA, 200 kW) and on side B (PB, 200 kW),
    # 100 kW feeds: normally 20 + 20 = 40 kW on each side (40 % of a feed, 20 % of a panel);
    # with side B failed side A carries both racks whole: 80 kW (80 %, and 40 % of PA).
    design = _power_hall(
        "2N",
        [_dc("FA", 100), _dc("FB", 100, "B")],
        [_panel("PA", "FA", 200), _panel("PB", "FB", 200)],
        {"r1": ("PA", "PB"), "r2": ("PA", "PB")},
    )
    use = {u["id"]: u for u in power_feed_use(design, {"r1": 40_000.0, "r2": 40_000.0})}
    fa, pb = use["FA"], use["PB"]
    assert (fa["side"], fa["rating_kw"], fa["max_draw_kw"], fa["max_draw_pct"]) == (
        "A", 100.0, 40.0, 40.0
    )  # fmt: skip
    assert (fa["one_side_failed_kw"], fa["one_side_failed_pct"]) == (80.0, 80.0)
    assert (pb["side"], pb["max_draw_pct"], pb["one_side_failed_pct"]) == ("B", 20.0, 40.0)


def test_one_side_failed_is_asked_of_an_n_hall_too_and_none_when_the_side_is_alone():
    # N redundancy, A and B feeds but each rack single-corded: the worst over the failures N
    # must survive is normal operation; with side B failed FA still carries only r1.
    design = _power_hall(
        "N",
        [_dc("FA", 100), _dc("FB", 100, "B")],
        [_panel("PA", "FA", 100), _panel("PB", "FB", 100)],
        {"r1": ("PA",), "r2": ("PB",)},
    )
    use = {u["id"]: u for u in power_feed_use(design, {"r1": 30_000.0, "r2": 50_000.0})}
    assert use["FB"]["worst_failure_kw"] == 50.0 and use["FB"]["one_side_failed_kw"] == 50.0
    # Every feed on side A: side A failing takes each of them down; nothing to report.
    alone = _power_hall("N", [_dc("FA", 100)], [_panel("PA", "FA", 100)], {"r1": ("PA",)})
    (fa, pa) = power_feed_use(alone, {"r1": 30_000.0})
    assert fa["one_side_failed_kw"] is None and fa["one_side_failed_pct"] is None
    assert pa["max_draw_pct"] == 30.0


def _cooled_hall(redundancy: str):
    design = empty_hall(20.0, 10.0)
    for i in range(2):
        rack(design, f"r{i + 1}", 1.0 + 0.7 * i, 3.0, type_id="rack-nvl72")
        for t in range(2):
            device(design, f"r{i + 1}t{t}", f"r{i + 1}", 10 + t, TRAY)
    cdus = (
        Cdu(id="C1", point=(5.0, 5.0), capacity_kw=50.0),
        Cdu(id="C2", point=(6.0, 5.0), capacity_kw=50.0),
    )
    design.set_cooling(Cooling(redundancy=redundancy, cdus=cdus))
    design.set_rack_cooling({"r1": ["C1", "C2"], "r2": ["C1", "C2"]})
    trays_w = design.catalog.device_types[TRAY].power_max_w
    return design, {r: 2 * trays_w for r in design.racks}


@pytest.mark.parametrize("redundancy", ["N", "N+1"])
def test_a_cdu_carries_the_liquid_heat_of_both_when_the_other_fails(redundancy):
    design, max_w = _cooled_hall(redundancy)
    # Liquid heat: 2 racks x 2 trays x 6,850 W x 0.94 = 25,756 W; shared by two CDUs, 12.878 kW
    # each (25.8 % of 50 kW); with the other failed one carries all 25.756 kW (51.5 %).
    c1 = {u["id"]: u for u in cooling_use(design, max_w)["units"]}["C1"]
    assert (c1["max_draw_kw"], c1["max_draw_pct"]) == (12.878, 25.8)
    assert (c1["one_failed_kw"], c1["one_failed_pct"]) == (25.756, 51.5)
    # The worst over the failures to survive: N survives none, N+1 each unit alone.
    assert c1["worst_failure_kw"] == (12.878 if redundancy == "N" else 25.756)


def test_the_table_rows_are_the_reports_figures_feeds_first_then_cooling():
    design, max_w = _cooled_hall("N")
    design.set_power(
        Power(
            redundancy="2N",
            feeds=(_dc("FA", 100), _dc("FB", 100, "B")),
            panels=(_panel("PA", "FA", 100), _panel("PB", "FB", 100)),
        )
    )
    design.set_rack_pdus({"r1": ("PA", "PB"), "r2": ("PA", "PB")})
    rows = load_rows(power_feed_use(design, max_w), cooling_use(design, max_w))
    assert [(r.id, r.kind, r.failure) for r in rows] == [
        ("FA", "feed", "one side failed"),
        ("FB", "feed", "one side failed"),
        ("PA", "busway", "one side failed"),
        ("PB", "busway", "one side failed"),
        ("C1", "CDU (in-row)", "one unit failed"),
        ("C2", "CDU (in-row)", "one unit failed"),
    ]
    # 2 racks x 13,700 W = 27.4 kW: 13.7 kW per side normally (13.7 %), 27.4 % with one failed.
    fa = rows[0]
    assert (fa.max_draw_kw, fa.max_draw_pct, fa.failed_kw, fa.failed_pct) == (
        13.7, 13.7, 27.4, 27.4
    )  # fmt: skip
    assert fa.band == "ok" and rows[4].band == "ok"
    hot = load_rows(power_feed_use(design, {"r1": 45_000.0, "r2": 45_000.0}), {})
    assert hot[0].failed_pct == 90.0 and hot[0].band == "high"  # 90 kW of 100 with B failed
