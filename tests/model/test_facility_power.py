"""Power distribution: records, edit API, file round trip and the checks at maximum draw."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from model.design.design import DesignError
from model.design.entities import Power, PowerFeed, PowerPanel
from model.facility.power_checks import power_feed_use, power_findings
from model.facility.power_paths import capacity_w
from model.files.design_file import load_design, save_design
from tests.builders import empty_hall, rack

DATA = Path(__file__).parent.parent / "data"


def _dc(oid: str, kw: float, side: str = "A") -> PowerFeed:
    """A DC feed of ``kw`` kW: 800 V x (kw * 1.25) A."""
    return PowerFeed(id=oid, side=side, current="dc", voltage_v=800.0, current_a=kw * 1.25)


def _panel(oid: str, feed: str, kw: float = 1000.0) -> PowerPanel:
    return PowerPanel(
        id=oid, feed=feed, points=[(1.0, 1.0)], current="dc", voltage_v=800.0, current_a=kw * 1.25
    )


def _hall(redundancy, feeds, panels, racks: dict[str, tuple[str, ...]]):
    design = empty_hall(20.0, 10.0)
    for i, rack_id in enumerate(racks):
        rack(design, rack_id, 1.0 + 0.7 * i, 3.0)
    design.set_power(Power(redundancy=redundancy, feeds=tuple(feeds), panels=tuple(panels)))
    design.set_rack_pdus(racks)
    return design


def _codes(findings):
    return sorted((f.code, f.objects) for f in findings)


def test_capacity_of_three_phase_ac_and_800_v_dc():
    ac = PowerFeed(id="f", voltage_v=415.0, current_a=400.0)  # 3-phase: sqrt(3) V I
    assert capacity_w(ac) == pytest.approx(math.sqrt(3) * 415 * 400)  # 287.5 kW
    assert capacity_w(_dc("d", 100.0)) == pytest.approx(100_000.0)  # 800 V x 125 A


def test_n_feed_over_capacity_at_max_draw_is_an_error_naming_the_feed():
    design = _hall("N", [_dc("FA", 100)], [_panel("P1", "FA")], {"r1": ("P1",), "r2": ("P1",)})
    found = power_findings(design, {"r1": 60_000.0, "r2": 60_000.0})  # 120 kW on a 100 kW feed
    assert _codes(found) == [("POWER_OVER_CAPACITY", ("FA",))]
    assert "FA carries 120.0 kW" in found[0].message and "100.0 kW rating" in found[0].message
    assert power_findings(design, {"r1": 50_000.0, "r2": 50_000.0}) == []  # 100 kW: at rating
    # N asks for no redundancy: single-corded racks are no warning.


def test_2n_each_side_carries_every_rack_when_the_other_fails():
    feeds = [_dc("FA", 100), _dc("FB", 100, "B")]
    panels = [_panel("PA", "FA"), _panel("PB", "FB")]
    two = {"r1": ("PA", "PB"), "r2": ("PA", "PB")}
    design = _hall("2N", feeds, panels, two)
    # 2 x 40 kW: 40 kW per side normally, 80 kW on the side left: within 100 kW.
    assert power_findings(design, {"r1": 40_000.0, "r2": 40_000.0}) == []
    use = {u["id"]: u for u in power_feed_use(design, {"r1": 40_000.0, "r2": 40_000.0})}
    assert use["FA"]["max_draw_kw"] == 40.0 and use["FA"]["worst_failure_kw"] == 80.0
    three = _hall("2N", feeds, panels, {**two, "r3": ("PA", "PB")})
    found = power_findings(three, dict.fromkeys(("r1", "r2", "r3"), 40_000.0))  # 120 kW per side
    assert _codes(found) == [("POWER_OVER_CAPACITY", ("FA",)), ("POWER_OVER_CAPACITY", ("FB",))]
    assert "with side B failed" in found[0].message  # FA is over when side B is gone


def test_n_plus_1_every_single_feed_failure_is_checked():
    # A ring of 3 feeds, each rack on two of them; 40 kW per rack, 20 kW per PDU normally.
    # F1 failing: r1 all on F2, r3 all on F3; F2 = 40 + 20 (r2) = 60 kW.
    feeds = [_dc("F1", 50), _dc("F2", 50), _dc("F3", 50)]
    panels = [_panel("P1", "F1"), _panel("P2", "F2"), _panel("P3", "F3")]
    racks = {"r1": ("P1", "P2"), "r2": ("P2", "P3"), "r3": ("P3", "P1")}
    draw = dict.fromkeys(racks, 40_000.0)
    found = power_findings(_hall("N+1", feeds, panels, racks), draw)
    assert [f.objects for f in found] == [("F1",), ("F2",), ("F3",)]
    assert "carries 60.0 kW" in found[0].message
    roomy = [_dc("F1", 60), _dc("F2", 60), _dc("F3", 60)]
    assert power_findings(_hall("N+1", roomy, panels, racks), draw) == []
    # Under N the same 50 kW feeds carry 40 kW each: no finding.
    assert power_findings(_hall("N", feeds, panels, racks), draw) == []


def test_a_panel_over_capacity_is_named():
    design = _hall("N", [_dc("FA", 500)], [_panel("P1", "FA", 50)], {"r1": ("P1",)})
    found = power_findings(design, {"r1": 60_000.0})
    assert _codes(found) == [("POWER_OVER_CAPACITY", ("P1",))]
    assert found[0].message.startswith("Power busway P1")


def test_a_single_corded_rack_in_a_2n_hall_is_a_warning():
    feeds = [_dc("FA", 100), _dc("FB", 100, "B")]
    panels = [_panel("PA", "FA"), _panel("PB", "FB")]
    design = _hall("2N", feeds, panels, {"r1": ("PA", "PB"), "r2": ("PA", "PA")})
    found = power_findings(design, {"r1": 10_000.0, "r2": 10_000.0})
    assert _codes(found) == [("RACK_NOT_REDUNDANT", ("r2",))]
    assert found[0].severity == "warning" and "with side A failed" in found[0].message


def test_no_feeds_means_nothing_checked():
    design = empty_hall()
    rack(design, "r1", 1.0, 3.0)
    assert power_findings(design, {"r1": 1e9}) == [] and power_feed_use(design, {}) == []


def test_the_edit_api_refuses_what_the_loader_refuses():
    design = empty_hall()
    rack(design, "r1", 1.0, 3.0)
    with pytest.raises(DesignError, match="no feed of the hall"):
        design.set_power(Power(feeds=(_dc("FA", 100),), panels=(_panel("P1", "FX"),)))
    with pytest.raises(DesignError, match="used twice"):
        design.set_power(Power(feeds=(_dc("FA", 100), _dc("FA", 50))))
    with pytest.raises(DesignError, match="voltage_v"):
        design.set_power(Power(feeds=(PowerFeed(id="F", voltage_v=float("nan")),)))
    assert design.hall.power == Power()  # nothing changed by the refusals
    design.set_power(Power(feeds=(_dc("FA", 100),), panels=(_panel("P1", "FA"),)))
    with pytest.raises(DesignError, match="'PX'"):
        design.set_rack_pdus({"r1": ("P1", "PX")})
    with pytest.raises(DesignError, match="no rack"):
        design.set_rack_pdus({"nope": ("P1",)})
    assert design.racks["r1"].pdus == ()


def test_a_pdu_on_a_removed_panel_is_an_error_naming_the_rack():
    design = _hall("N", [_dc("FA", 100)], [_panel("P1", "FA")], {"r1": ("P1",)})
    design.set_power(Power(redundancy="N", feeds=(_dc("FA", 100),)))  # panel removed
    found = power_findings(design, {"r1": 1000.0})
    assert _codes(found) == [("RACK_PDU_NO_PANEL", ("r1",))]


def test_save_load_round_trip_of_the_power_records(tmp_path):
    feeds = [_dc("FA", 100), PowerFeed(id="FB", side="B", source="utility")]
    design = _hall("N+1", feeds, [_panel("PA", "FA"), _panel("PB", "FB")], {"r1": ("PA", "PB")})
    path = tmp_path / "p.hall.json"
    save_design(design, path)
    back = load_design(path)
    assert back.hall.power == design.hall.power and back.racks["r1"].pdus == ("PA", "PB")
    save_design(back, tmp_path / "again.hall.json")
    assert (tmp_path / "again.hall.json").read_bytes() == path.read_bytes()


# The golden files of the schemas before the facility (v4's states one: tests/model/test_fileio).
@pytest.mark.parametrize(
    "golden", ["golden-v1.hall.json", "golden-v2.hall.json", "golden-v3.hall.json"]
)
def test_golden_files_load_without_power_and_save_without_it(tmp_path, golden):
    design = load_design(DATA / golden)
    assert design.hall.power == Power()
    assert all(r.pdus == () for r in design.racks.values())
    save_design(design, tmp_path / "g.hall.json")
    assert b"power" not in (tmp_path / "g.hall.json").read_bytes().replace(b"power_budget", b"")
