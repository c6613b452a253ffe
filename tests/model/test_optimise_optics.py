"""The optics strategy per switch tier as an optimiser dimension (issue 42, item 1).

A Tomahawk-5 pod at the lowest-power media policy, where linear (LPO) modules draw 8.5 W
against a DSP module's 15 W: optimising for power picks linear for the leaf tier, and the
delta the optimiser reports is the analysis's own difference. A Quantum-X800 pod may go
co-packaged (its switch has a catalog twin), and that is a switch change, priced with the
switch; a Tomahawk-5 tier cannot (no twin), and the report says so.
"""

from __future__ import annotations

import msgspec
import pytest

from model.analysis import analyze
from model.analysis.optics import tier_strategy
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.optimise.front import PRESETS
from model.optimise.optics_moves import tier_options
from model.optimise.optimise import optimise


def _analysis(design) -> dict:
    plant = RoutedLinks(design)
    out = analyze(design, plant).to_json()
    plant.close()
    return out


def _th5_pod():
    design = generate("leaf-spine", nodes=4, node_type="dgx-h100", switch="tomahawk5-64x800")
    design.set_settings(msgspec.structs.replace(design.settings, media_policy="lowest-power"))
    return design


@pytest.fixture(scope="module")
def th5_power():
    design = _th5_pod()
    result = optimise(design, PRESETS["power"], iterations=20, seed=3, vary_optics=True)
    return design, result


def test_tier_options_follow_the_catalog():
    th5 = tier_options(_th5_pod())
    assert th5.options == {"leaf": ("pluggable", "linear"), "spine": ("pluggable", "linear")}
    assert any("co-packaged skipped" in s and "tomahawk5-64x800" in s for s in th5.skipped)
    xdr = tier_options(generate("leaf-spine", nodes=4, node_type="dgx-b300", switch="q3400"))
    assert xdr.options["leaf"] == ("pluggable", "co-packaged")
    assert any("linear skipped" in s and "q3400" in s for s in xdr.skipped)


def test_power_objective_picks_linear_for_the_leaf_tier(th5_power):
    design, result = th5_power
    assert result.changed
    assert tier_strategy(design)["leaf"] == "pluggable"  # the input is never touched
    assert tier_strategy(result.design)["leaf"] == "linear"
    optics = result.report["optics"]
    assert optics["after"]["leaf"] == "linear"
    (leaf,) = [w for w in optics["why"] if w["tier"] == "leaf"]
    assert leaf["optics_power_w_delta"] < 0
    assert leaf["sentence"].startswith("Leaf tier pluggable -> linear: 32 modules now linear")


def test_optics_delta_is_the_analysis_difference(th5_power):
    design, result = th5_power
    before, after = _analysis(design), _analysis(result.design)
    terms = result.report["terms"]
    assert terms["optics_power_w"]["delta"] == pytest.approx(
        after["power_w"]["total"] - before["power_w"]["total"], abs=1e-6
    )
    assert terms["cost_usd"]["delta"] == pytest.approx(
        after["cost_usd"]["total"] - before["cost_usd"]["total"], abs=0.005
    )
    assert terms["failures_per_day"]["delta"] == pytest.approx(
        after["reliability"]["failures_per_day"] - before["reliability"]["failures_per_day"]
    )
    assert terms["optics_power_w"]["delta"] < 0
    limits = {"RACK_OVER_POWER", "NO_MEDIUM_REACHES", "NO_TRAY_PATH", "RACK_OVERLAP"}
    assert not [w for w in after["warnings"] if w["code"] in limits]


def test_without_vary_optics_no_tier_changes():
    result = optimise(_th5_pod(), PRESETS["power"], iterations=20, seed=3)
    assert "optics" not in result.report
    assert set(tier_strategy(result.design).values()) == {"pluggable"}


def test_co_packaged_is_a_switch_change_priced_with_the_switch():
    design = generate("leaf-spine", nodes=4, node_type="dgx-b300", switch="q3400")
    result = optimise(design, PRESETS["power"], iterations=10, seed=0, vary_optics=True)
    leaves = [d for d in result.design.devices.values() if d.role == "leaf"]
    assert {d.type for d in leaves} == {"q3450-ld"}
    before, after = _analysis(design), _analysis(result.design)
    # The switches' price is in the delta: each twin costs $50,000 more than its Q3400-RA.
    assert after["cost_usd"]["switches"] > before["cost_usd"]["switches"]
    assert result.report["terms"]["cost_usd"]["delta"] == pytest.approx(
        after["cost_usd"]["total"] - before["cost_usd"]["total"], abs=0.005
    )
    assert result.report["terms"]["optics_power_w"]["delta"] == pytest.approx(
        after["power_w"]["total"] - before["power_w"]["total"], abs=1e-6
    )
    why = {w["tier"]: w for w in result.report["optics"]["why"]}
    assert why["leaf"]["lasers"]["after"] < why["leaf"]["lasers"]["before"]
    assert "laser sources" in why["leaf"]["sentence"]
