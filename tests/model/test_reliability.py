"""Reliability forecast: FIT per category from the catalog, overrides, and the LLAMA3 check."""

from __future__ import annotations

import msgspec
import pytest

from model.analysis import analyze
from model.analysis.reliability import CATEGORIES, fit_rates, reference
from model.design.entities import Settings
from model.engine.routed_links import RoutedLinks
from model.generators.generate import rail_optimized


def _report(design):
    plant = RoutedLinks(design)
    plant.refresh()
    return analyze(design, plant).to_json()


def test_every_category_has_a_rate_with_a_source():
    rates = fit_rates()
    assert set(rates) == set(CATEGORIES)
    for rate in rates.values():
        assert rate.fit > 0 and rate.source


def test_failures_per_day_is_24_per_1e9_hours_times_count_times_fit():
    design = rail_optimized(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    rel = _report(design)["reliability"]
    total = 0.0
    for name, c in rel["categories"].items():
        assert c["failures_per_day"] == pytest.approx(24e-9 * c["count"] * c["fit"]), name
        total += c["failures_per_day"]
    assert rel["failures_per_day"] == pytest.approx(total)
    assert rel["categories"]["nics"]["count"] == 32 * 8
    assert rel["categories"]["switches"]["count"] == 8 + 4  # 1 SU: 8 leaf, 4 spine (6c)
    assert rel["gpu_hours_at_risk_per_day"] == pytest.approx(total * 256 * 1.0)


def test_design_settings_override_a_rate_and_the_job():
    design = rail_optimized(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    design.set_settings(
        Settings(
            reliability_fit={"switches": 1000.0},
            reliability_job_gpus=128,
            reliability_restart_h=2.0,
        )
    )
    rel = _report(design)["reliability"]
    sw = rel["categories"]["switches"]
    assert sw["fit"] == 1000 and sw["source"] == "design setting"
    assert rel["job_gpus"] == 128
    assert rel["gpu_hours_at_risk_per_day"] == pytest.approx(
        rel["failures_per_day"] * 128 / 256 * 128 * 2.0
    )
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"reliability_fit": {"gpus": 5}}', type=Settings)


@pytest.mark.slow
def test_default_forecast_of_a_16k_gpu_hall_is_within_2x_of_llama3():
    # The L reference workload: 2,048 HGX H100 (16,384 GPUs), 3 tiers of SN5600.
    design = rail_optimized(nodes=2048, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=64)
    rel = _report(design)["reliability"]
    ref = reference()
    assert ref["gpus"] == 16384
    observed = ref["network_failures"] / ref["days"]  # switches, cables and NICs per day
    assert observed / 2 <= rel["failures_per_day"] <= observed * 2
