"""Cooling: records, edit API, each rack's liquid and air heat, CDU and CRAH checks at max draw."""

from __future__ import annotations

import pytest

from model.analysis.analyzer import analyze
from model.design.design import DesignError
from model.design.entities import Cdu, Cooling, Crah, PowerFeed
from model.facility.cooling import cooling_findings, cooling_use, flow_needed_lpm, rack_liquid_w
from tests.builders import device, empty_hall, rack

TRAY = "gb200-compute-tray"


def _hall(n_racks: int, trays_per_rack: int = 2):
    design = empty_hall(20.0, 10.0)
    for i in range(n_racks):
        rack(design, f"r{i + 1}", 1.0 + 0.7 * i, 3.0, type_id="rack-nvl72")
        for t in range(trays_per_rack):
            device(design, f"r{i + 1}t{t}", f"r{i + 1}", 10 + t, TRAY)
    return design


def _tray_liquid_w(design) -> float:
    dtype = design.catalog.device_types[TRAY]
    return dtype.power_max_w * dtype.liquid_fraction


def _max_w(design) -> dict[str, float]:
    trays = design.catalog.device_types[TRAY].power_max_w
    return {r: trays * sum(d.rack == r for d in design.devices.values()) for r in design.racks}


def _codes(findings):
    return sorted((f.code, f.objects) for f in findings)


def test_liquid_heat_is_the_trays_max_draw_times_the_catalog_share():
    design = _hall(2)
    assert design.catalog.device_types[TRAY].liquid_fraction == pytest.approx(0.94)
    # 2 trays x 6,850 W x 0.94 = 12,878 W per rack
    assert rack_liquid_w(design) == pytest.approx({"r1": 12_878.0, "r2": 12_878.0})


def test_a_cdu_at_100_pct_with_one_more_rack_added_warns():
    design = _hall(3)
    full_kw = 2 * 2 * _tray_liquid_w(design) / 1000  # two racks' liquid heat: 25.756 kW
    design.set_cooling(Cooling(cdus=(Cdu(id="CDU1", point=(5.0, 5.0), capacity_kw=full_kw),)))
    design.set_rack_cooling({"r1": ["CDU1"], "r2": ["CDU1"], "r3": []})
    found = cooling_findings(design, _max_w(design))
    # r3 is liquid-cooled with no CDU: an error naming it; the CDU itself at exactly 100 %.
    assert _codes(found) == [("RACK_NO_COOLANT", ("r3",))]
    use = cooling_use(design, _max_w(design))["units"][0]
    assert use["utilisation_pct"] == pytest.approx(100.0)
    design.set_rack_cooling({"r3": ["CDU1"]})
    found = cooling_findings(design, _max_w(design))
    assert _codes(found) == [("COOLING_OVER_CAPACITY", ("CDU1",))]
    assert "takes 38.6 kW" in found[0].message and "25.8 kW capacity" in found[0].message


def test_flow_needed_is_heat_over_water_heat_capacity_and_rise():
    # 100 kW at 10 K: 100,000 / (4,186 x 10) kg/s = 2.389 kg/s = 143.3 L/min
    assert flow_needed_lpm(100_000.0, 10.0) == pytest.approx(143.33, abs=0.01)
    design = _hall(1)
    design.set_cooling(Cooling(cdus=(Cdu(id="C", point=(5.0, 5.0), flow_lpm=10.0),)))
    design.set_rack_cooling({"r1": ["C"]})
    found = cooling_findings(design, _max_w(design))  # 12.878 kW at 10 K: 18.5 L/min
    assert _codes(found) == [("COOLANT_FLOW_SHORT", ("C",))]
    assert "18 L/min" in found[0].message or "19 L/min" in found[0].message


def test_air_heat_per_row_against_its_crah():
    design = _hall(2)
    # Air heat = max draw - liquid heat: 2 racks x 2 trays x 6,850 x 0.06 = 1,644 W
    design.set_cooling(
        Cooling(
            cdus=(Cdu(id="C", point=(5.0, 5.0)),),
            crahs=(Crah(id="AH1", point=(0.5, 8.0), capacity_kw=1.5),),
        )
    )
    design.set_rack_cooling({"r1": ["C", "AH1"], "r2": ["C", "AH1"]})
    found = cooling_findings(design, _max_w(design))
    assert _codes(found) == [("COOLING_OVER_CAPACITY", ("AH1",))]
    assert "1.6 kW" in found[0].message
    air = cooling_use(design, _max_w(design))["air_kw"]
    assert air == pytest.approx(1.644)


def test_n_plus_1_two_cdus_sharing_a_row_survive_one_failure_only_if_each_carries_it():
    design = _hall(2)
    liquid_kw = 2 * 2 * _tray_liquid_w(design) / 1000
    cdus = (
        Cdu(id="C1", point=(5.0, 5.0), capacity_kw=liquid_kw),
        Cdu(id="C2", point=(6.0, 5.0), capacity_kw=liquid_kw),
    )
    design.set_cooling(Cooling(redundancy="N+1", cdus=cdus))
    design.set_rack_cooling({"r1": ["C1", "C2"], "r2": ["C1", "C2"]})
    assert cooling_findings(design, _max_w(design)) == []
    use = {u["id"]: u for u in cooling_use(design, _max_w(design))["units"]}
    assert use["C1"]["utilisation_pct"] == 100.0  # carrying both racks with C2 failed
    # One CDU per rack: each failure takes its rack's coolant (a warning, N+1 asked).
    design.set_rack_cooling({"r1": ["C1"], "r2": ["C2"]})
    found = cooling_findings(design, _max_w(design))
    assert _codes(found) == [
        ("RACK_COOLING_NOT_REDUNDANT", ("r1",)),
        ("RACK_COOLING_NOT_REDUNDANT", ("r2",)),
    ]


def test_edit_api_refuses_unknown_units_and_duplicate_ids():
    design = _hall(1)
    design.set_cooling(Cooling(cdus=(Cdu(id="C", point=(5.0, 5.0)),)))
    with pytest.raises(DesignError, match="no cooling unit"):
        design.set_rack_cooling({"r1": ["X"]})
    with pytest.raises(DesignError, match="used twice"):
        design.set_cooling(
            Cooling(cdus=(Cdu(id="C", point=(5.0, 5.0)), Cdu(id="C", point=(6.0, 5.0))))
        )
    from model.design.entities import Power

    with pytest.raises(DesignError, match="used twice"):
        design.set_power(Power(feeds=(PowerFeed(id="C"),)))


def test_analyze_reports_cooling_only_when_the_hall_has_units():
    design = _hall(1)
    assert "cooling" not in analyze(design).to_json()
    design.set_cooling(Cooling(cdus=(Cdu(id="C", point=(5.0, 5.0)),)))
    design.set_rack_cooling({"r1": ["C"]})
    report = analyze(design).to_json()
    assert report["cooling"]["liquid_kw"] == pytest.approx(12.878)
    assert report["cooling"]["units"][0]["max_draw_kw"] == pytest.approx(12.878)
