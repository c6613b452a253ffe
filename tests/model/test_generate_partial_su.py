"""A partial scalable unit gets the leaves its nodes fill (#43 item 2): GB200 NVL72 x 20 racks
(2 SUs of 8 racks and one of 4) had 18 leaves in its half SU, 8 of them with no tray on them;
reached only through the spines, they made the spines a middle tier short of uplinks
(OVERSUBSCRIBED 6.11:1 and 27 SWITCH_OUT_OF_PORTS)."""

from __future__ import annotations

import math

import pytest

from model.analysis.analyzer import analyze
from model.engine.routed_links import RoutedLinks
from model.generators.generate import nvl72
from model.generators.rail_plans import plan_nvl72


@pytest.fixture(scope="module")
def gb200_20_racks():
    design = nvl72(racks=20)
    plant = RoutedLinks(design)
    plant.refresh()
    try:
        return design, analyze(design, plant)
    finally:
        plant.close()


def test_a_partial_su_builds_only_the_leaves_its_trays_fill(gb200_20_racks):
    design, _ = gb200_20_racks
    ports = 20 * 18 * 4  # racks x compute trays x 400G NICs, one leaf port each
    leaves = [d.id for d in design.devices.values() if d.role == "leaf"]
    spines = [d.id for d in design.devices.values() if d.role == "spine"]
    # 32 down + 32 up per 64-port QM9700: the Clos minimum for 1,440 ports.
    assert len(leaves) == math.ceil(ports / 32) == 45
    assert len(spines) == math.ceil(len(leaves) * 32 / 64) == 23
    with_servers = {
        end.device
        for link in design.links.values()
        for end in (link.a, link.b)
        if design.devices[end.device].role == "leaf"
        and design.devices[(link.b if end is link.a else link.a).device].role == "gpu-server"
    }
    assert with_servers == set(leaves)


def test_a_partial_su_meets_its_oversubscription_target(gb200_20_racks):
    design, report = gb200_20_racks
    codes = [w.code for w in report.warnings if w.severity in ("warning", "error")]
    assert "SWITCH_OUT_OF_PORTS" not in codes and "OVERSUBSCRIBED" not in codes, codes[:5]
    assert design.settings.oversubscription_target == 1.0


@pytest.mark.parametrize("racks", [8, 16, 32])
def test_full_sus_keep_their_leaf_count(racks):
    """Whole SUs are as the reference architecture builds them: 18 leaves per 8-rack SU."""
    from model.catalog.components import builtin_catalog

    plan = plan_nvl72(builtin_catalog(), racks=racks).scale_out
    assert plan.leaves == 18 * racks // 8
