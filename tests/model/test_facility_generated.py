"""Generated halls carry their facility (2N busways, N+1 CDUs and CRAHs per row, a floor rating)
and pass its checks at maximum draw."""

from __future__ import annotations

import pytest

from model.analysis.analyzer import analyze
from model.facility.cooling import cooling_findings
from model.facility.floor_load import floor_findings
from model.facility.power_checks import power_findings
from model.generators.facility_plan import AI_FLOOR_RATING_KG_M2, FLOOR_RATING_KG_M2
from model.generators.generate import apply_cabling, generate
from model.generators.plans import GenerateError

FACILITY_CODES = {
    "POWER_OVER_CAPACITY",
    "RACK_NOT_REDUNDANT",
    "RACK_PDU_NO_PANEL",
    "COOLING_OVER_CAPACITY",
    "COOLANT_FLOW_SHORT",
    "RACK_NO_COOLANT",
    "RACK_COOLING_NOT_REDUNDANT",
    "RACK_COOLING_UNKNOWN",
    "FLOOR_OVERLOAD",
}


@pytest.mark.parametrize(
    ("template", "params"),
    [
        ("nvl72", {"racks": 16}),
        ("nvl72", {"racks": 16, "platform": "gb300"}),
        (
            "rail-optimized",
            {"nodes": 128, "node_type": "dgx-b300", "switch": "q3400", "su_nodes": 64},
        ),
    ],
    ids=["gb200", "gb300", "b300"],
)
def test_generated_gb200_gb300_and_b300_halls_pass_their_facility_checks(template, params):
    design = generate(template, **params)
    power = design.hall.power
    assert power.redundancy == "2N" and design.hall.cooling.redundancy == "N+1"
    assert design.hall.floor_rating_kg_m2 == pytest.approx(FLOOR_RATING_KG_M2)
    # Every rack on both sides and on its row's cooling units.
    sides = {p.id: {f.id: f.side for f in power.feeds}[p.feed] for p in power.panels}
    for rack in design.racks.values():
        assert {sides[p] for p in rack.pdus} == {"A", "B"}, rack.id
        assert rack.cooling, rack.id
    report = analyze(design)
    assert [w.message for w in report.warnings if w.code in FACILITY_CODES] == []
    figures = report.to_json()
    assert {"power_feeds", "cooling", "floor_load"} <= set(figures)
    assert all(f["utilisation_pct"] <= 100 for f in figures["power_feeds"])
    assert all(u["utilisation_pct"] <= 100 for u in figures["cooling"]["units"])


def test_nvl72_racks_have_8_power_shelves_and_both_cdus_of_their_row():
    design = generate("nvl72", racks=8)
    nvl = [r for r in design.racks.values() if r.type == "rack-nvl72"]
    assert nvl and all(len(r.pdus) == 8 for r in nvl)
    cdus = {c.id for c in design.hall.cooling.cdus}
    assert all(len([u for u in r.cooling if u in cdus]) == 2 for r in nvl)


def test_a_heavier_row_than_its_cdu_is_caught_by_the_checks():
    """The checks see what the generator sized: a row's CDUs cut to half fail at max draw."""
    import msgspec

    design = generate("nvl72", racks=8)
    cooling = design.hall.cooling
    halved = tuple(msgspec.structs.replace(c, capacity_kw=c.capacity_kw / 4) for c in cooling.cdus)
    design.set_cooling(msgspec.structs.replace(cooling, cdus=halved))
    codes = {
        f.code
        for f in cooling_findings(
            design, {r: v[1] for r, v in analyze(design).rack_power_w.items()}
        )
    }
    assert "COOLING_OVER_CAPACITY" in codes


def test_facility_is_asked_for_or_left_out():
    plain = generate("leaf-spine", nodes=8, node_type="dgx-h100", switch="qm9700")
    assert plain.hall.power.feeds == () and plain.hall.floor_rating_kg_m2 is None
    fed = generate("leaf-spine", nodes=8, node_type="dgx-h100", switch="qm9700", facility="yes")
    assert fed.hall.power.feeds and fed.hall.cooling.crahs and not fed.hall.cooling.cdus
    mx = {r: v[1] for r, v in analyze(fed).rack_power_w.items()}
    assert power_findings(fed, mx) == [] and floor_findings(fed) == []
    assert generate("nvl72", racks=8, facility="no").hall.power.feeds == ()
    with pytest.raises(GenerateError, match="--facility"):
        generate("nvl72", racks=8, facility="maybe")


@pytest.mark.parametrize(
    ("params", "cabling", "rating_kg_m2"),
    [
        ({"racks": 8, "platform": "vera-rubin"}, "direct", FLOOR_RATING_KG_M2),
        # 1,844 kg with its patch panels on 0.72 m2: 2,561 kg/m2 > 2,549 (8 FLOOR_OVERLOAD before)
        ({"racks": 8, "platform": "vera-rubin"}, "cross-connect", AI_FLOOR_RATING_KG_M2),
        # A Kyber rack: 2,500 kg on 0.72 m2, 3,472 kg/m2 (1 FLOOR_OVERLOAD before, even direct)
        ({"racks": 1, "platform": "rubin-ultra"}, "direct", AI_FLOOR_RATING_KG_M2),
    ],
    ids=["vr-direct", "vr-cross-connect", "kyber"],
)
def test_a_generated_floor_is_rated_for_the_racks_it_holds(params, cabling, rating_kg_m2):
    """The standard 25 kN/m2 where every rack fits it, an AI hall's 50 kN/m2 (SIPOCH-FLOOR)
    where a rack, with the panels its cabling puts in it, is heavier."""
    design = apply_cabling(generate("nvl72", fabrics="all", **params), cabling)
    assert design.hall.floor_rating_kg_m2 == pytest.approx(rating_kg_m2)
    assert floor_findings(design) == []
    # A raised rating is an assumption the architect must check: said once, naming a rack.
    said = [n for n in design.generation_notes if n.startswith("floor rated")]
    if rating_kg_m2 == AI_FLOOR_RATING_KG_M2:
        assert len(said) == 1 and "50 kN/m2" in said[0] and " rack " in said[0]
    else:
        assert said == []
