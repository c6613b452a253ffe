"""Rubin Ultra NVL576 in Kyber racks (issue 39; domain-facts §9): 144 packages (576 dies) per
rack in 4 canisters of 18 blades, ~600 kW at 800 V DC (TOMS-KYBER); the generator's
``rubin-ultra`` platform, and the facility analysis seeing the rack against its DC feed and its
cooling. Switch blades (8 per rack), NVLink rate and scale-out NICs are estimates."""

from __future__ import annotations

import pytest

from model.analysis import analyze
from model.catalog.components import builtin_catalog
from model.engine.routed_links import RoutedLinks
from model.facility.cooling import rack_liquid_w
from model.facility.power_checks import power_findings
from model.generators.generate import generate, preview

KYBER_PACKAGES = 144  # 576 dies, 4 per package (TOMS-KYBER)
KYBER_CANISTERS, KYBER_BLADES_PER_CANISTER = 4, 18  # "4 pods x 18 blades" (TOMS-KYBER)
KYBER_RACK_KW = 600  # TOMS-KYBER
KYBER_DC_V = 800  # TOMS-KYBER


@pytest.fixture(scope="module")
def kyber():
    design = generate("nvl72", racks=2, platform="rubin-ultra")
    plant = RoutedLinks(design)
    plant.refresh()
    return design, analyze(design, plant)


def test_the_catalog_gives_the_kyber_rack_its_sourced_figures():
    cat = builtin_catalog()
    rack = cat.rack_type("rack-kyber-nvl576")
    assert rack.power_budget_kw == KYBER_RACK_KW
    assert (rack.feed_current, rack.feed_voltage_v) == ("dc", KYBER_DC_V)
    canister = cat.device_type("kyber-nvl576-canister")
    assert KYBER_CANISTERS * canister.gpu_count == KYBER_PACKAGES
    assert canister.gpus.scale_up_domain_gpus == KYBER_PACKAGES
    assert "18 compute blades" in canister.model
    # Scale-out NICs in OSFP cages at 4 x 200G lanes (ConnectX-9); the scale-up on the in-rack link.
    nic = canister.port_group("nic")
    assert (nic.form_factor, nic.lane_rate_gbps, nic.nic) == ("OSFP", 200, "connectx-9")
    assert canister.port_group("nvl").form_factor == "nvlink7-backplane"


def test_a_generated_kyber_hall_is_its_racks_on_800_v_dc(kyber):
    design, report = kyber
    counts = preview("nvl72", racks=2, platform="rubin-ultra")
    assert counts["gpus"] == 2 * KYBER_PACKAGES
    assert counts["switches"]["nvlink-switch"] == 2 * 8
    assert design.gpu_count() == 2 * KYBER_PACKAGES
    kyber_racks = [r for r in design.racks.values() if r.type == "rack-kyber-nvl576"]
    assert len(kyber_racks) == 2
    panels = {p.id: p for p in design.hall.power.panels}
    for rack in kyber_racks:
        typical, maximum, budget = report.rack_power_w[rack.id]
        # Near the ~600 kW the source gives, within the rack's budget.
        assert 0.9 * KYBER_RACK_KW * 1000 <= maximum <= budget == KYBER_RACK_KW * 1000
        assert {(panels[p].current, panels[p].voltage_v) for p in rack.pdus} == {("dc", 800.0)}
        # Liquid cooled: its canisters and blades give ~98 % of their heat to the CDUs.
        assert rack_liquid_w(design, [rack.id])[rack.id] > 0.9 * maximum
        assert any(unit.startswith("cdu") for unit in rack.cooling)
    # No error: feeds, busways and CDUs carry the racks at maximum draw.
    assert [w.message for w in report.warnings if w.severity == "error"] == []


def test_a_kyber_rack_on_an_ac_busway_is_an_error():
    design = generate("nvl72", racks=1, platform="rubin-ultra")
    rack = next(r for r in design.racks.values() if r.type == "rack-kyber-nvl576")
    assert power_findings(design, {rack.id: 0.0}) == []
    ac = next(p for p in design.hall.power.panels if p.current == "ac")
    design.set_rack_pdus({rack.id: [ac.id, ac.id]})
    found = [f for f in power_findings(design, {}) if f.code == "RACK_FEED_MISMATCH"]
    assert [f.objects for f in found] == [(rack.id, ac.id)]
    assert "800 V DC" in found[0].message and "415 V AC" in found[0].message
