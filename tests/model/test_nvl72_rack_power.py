"""GB300 NVL72 draws more than GB200 NVL72 (issue 39): each B300 draws 200 W more than a B200
(1,400 vs 1,200 W, NV-SP-B300XDR), so a 72-GPU rack draws at least 14.4 kW more, inside the
GB300 rack's ~142 kW of power shelves (NV-BCM-PSHELF, domain-facts §9)."""

from __future__ import annotations

import pytest

from model.analysis import analyze
from model.catalog.components import builtin_catalog
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate


def _compute_rack(platform: str):
    design = generate("nvl72", racks=1, platform=platform)
    plant = RoutedLinks(design)
    plant.refresh()
    report = analyze(design, plant)
    trays = {d.rack for d in design.devices.values() if d.role == "gpu-server"}
    (rack,) = trays
    return design, report, rack


def test_gb300_rack_draws_more_than_gb200_by_the_gpus_difference():
    cat = builtin_catalog()
    b200 = cat.device_types["gb200-compute-tray"].gpus.power_w_per_gpu
    b300 = cat.device_types["gb300-compute-tray"].gpus.power_w_per_gpu
    assert b300 - b200 == 200
    _, gb200, rack200 = _compute_rack("gb200")
    design, gb300, rack300 = _compute_rack("gb300")
    typ200, typ300 = gb200.rack_power_w[rack200][0], gb300.rack_power_w[rack300][0]
    # 72 GPUs x 200 W more; the trays' other parts are GB200's (the NICs' optics differ a little).
    assert typ300 - typ200 == pytest.approx(72 * 200, abs=600)
    assert typ300 > typ200
    # Within its own rack's power shelves at maximum draw, so no rack-over-power warning.
    assert design.racks[rack300].power_budget_kw == 142
    assert gb300.rack_power_w[rack300][1] <= 142_000
    assert not [w for w in gb300.warnings if "POWER" in w.code]
