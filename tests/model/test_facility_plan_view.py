"""The figures the power and cooling layer and the inspector show come from the facility model."""

from __future__ import annotations

import pytest

from model.analysis.analyzer import analyze
from model.facility.plan_view import facility_view, load_band, rack_facility_rows
from model.generators.generate import nvl72


def test_bands_split_at_80_and_100_pct():
    assert [load_band(p) for p in (0, 79.9, 80, 100, 100.1)] == [
        "ok",
        "ok",
        "high",
        "high",
        "over",
    ]


def test_view_units_carry_the_analysis_figures_and_the_racks_they_serve():
    design = nvl72(racks=2)
    report = analyze(design)
    max_w = {r: v[1] for r, v in report.rack_power_w.items()}
    view = facility_view(design, max_w)
    figures = report.to_json()
    worst = {u["id"]: u["utilisation_pct"] for u in figures["power_feeds"]}
    worst |= {u["id"]: u["utilisation_pct"] for u in figures["cooling"]["units"]}
    for unit in view.units:
        assert unit.utilisation_pct == worst[unit.id] and unit.band == load_band(worst[unit.id])
    busways = [u for u in view.units if u.kind == "busway"]
    assert {u.side for u in busways} == {"A", "B"}
    assert all(set(u.racks) <= set(design.racks) and u.racks for u in view.units)
    assert view.rating_kg_m2 == design.hall.floor_rating_kg_m2
    assert max(view.tiles_kg_m2.values()) == pytest.approx(1360 / 0.72)  # a full NVL72 tile


def test_inspector_rows_only_for_a_hall_with_a_facility():
    design = nvl72(racks=2)
    rack = next(r for r in design.racks.values() if r.type == "rack-nvl72")
    rows = dict(rack_facility_rows(design, rack.id, 130_000.0))
    assert rows["Feeds"].count("side A") == 4 and rows["Feeds"].count("side B") == 4
    assert "kW to liquid" in rows["Coolant"] and "1,360 kg, 1,889 kg/m2" in rows["Floor"]
    plain = nvl72(racks=2, facility="no")
    assert rack_facility_rows(plain, rack.id, 130_000.0) == []


def test_the_terminal_report_sums_the_facility_up_only_when_there_is_one():
    text = analyze(nvl72(racks=2)).to_text()
    assert "Power paths: 4 feeds, 4 panels/busways; worst" in text  # two rows, A and B
    assert "Cooling (N+1):" in text and "Floor: heaviest rack 1,360 kg = 1,889 kg/m2" in text
    plain = analyze(nvl72(racks=2, facility="no")).to_text()
    assert "Power paths" not in plain and "Cooling (" not in plain and "Floor:" not in plain


def test_tiles_of_a_hall_without_a_rating_are_unrated_not_fine():
    view = facility_view(nvl72(racks=2, facility="no"), {})
    assert view.units == [] and view.tiles_kg_m2
    assert {view.tile_band(kg) for kg in view.tiles_kg_m2.values()} == {"unrated"}
    rated = facility_view(nvl72(racks=2), {})
    assert rated.tile_band(1889.0) == "ok" and rated.tile_band(2600.0) == "over"
