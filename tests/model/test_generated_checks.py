"""Generated designs pass their own checks: no warning or error (info allowed) on any template,
at several sizes and ratios, with the compute fabric alone and with every network."""

from __future__ import annotations

import pytest

from model.analysis import analyze
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from tests.model.generate_checks import assert_links_valid

RAIL = [
    (16, "dgx-h100", "qm9700", 16),
    (31, "dgx-h100", "qm9700", 31),
    (64, "dgx-b200", "qm9700", 32),
    (72, "dgx-b300", "q3400", 72),
    (40, "hgx-h100-8x400", "sn5600", 40),
    (100, "dgx-h100", "qm9700", 32),
    (24, "hgx-h100-8x400", "tomahawk5-64x800", 24),
    (32, "hgx-h100-8x400", "sn5610", 32),
]
CASES = (
    [
        ("rail-optimized", dict(nodes=n, node_type=t, switch=s, su_nodes=m, oversubscription=r))
        for n, t, s, m in RAIL
        for r in (1, 3)
    ]
    + [
        ("rail-optimized", dict(nodes=300, node_type="dgx-h100", switch="qm9700", su_nodes=32)),
        (
            "rail-optimized",
            dict(nodes=300, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers=3),
        ),
    ]
    + [
        ("leaf-spine", dict(nodes=n, node_type=t, switch=s, oversubscription=r))
        for n, t, s in [
            (8, "dgx-h100", "qm9700"),
            (21, "hgx-h100-8x400", "qm9700"),
            (30, "hgx-h100-8x400", "sn5600"),
        ]
        for r in (1, 2, 3)
    ]
    + [("fat-tree", dict(k=k)) for k in (4, 8)]
    + [("nvl72", dict(racks=r)) for r in (1, 2, 8)]
    + [("nvl72", dict(racks=r, platform="gb300")) for r in (1, 8)]
    # GB200 NVL72 at 2 SUs (two rails a leaf); 5 and 16 SUs below
    + [("nvl72", dict(racks=16))]
    # multi-plane Spectrum-X: each ConnectX-8 800G as 2 x 400G planes
    + [("nvl72", dict(racks=r, platform="gb300", planes=2)) for r in (1, 8)]
    + [
        (
            "rail-optimized",
            dict(nodes=n, node_type="dgx-b300", switch="sn5610", su_nodes=m, planes=2),
        )
        for n, m in ((32, 32), (144, 72))
    ]
    # port modes named explicitly
    + [
        ("nvl72", dict(racks=8, platform="gb300", port_mode="144x800G")),
        (
            "rail-optimized",
            dict(
                nodes=40,
                node_type="hgx-h100-8x400",
                switch="sn5610",
                su_nodes=40,
                port_mode="128x400G",
            ),
        ),
    ]
)


def _id(case):
    template, params = case
    return template + "-" + "-".join(str(v) for v in params.values())


@pytest.mark.parametrize("fabrics", ["compute", "all"])
@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_generated_design_has_no_warning(case, fabrics):
    template, params = case
    design = generate(template, fabrics=fabrics, **params)
    assert_links_valid(design)
    plant = RoutedLinks(design)
    plant.refresh()
    try:
        findings = [w for w in analyze(design, plant).warnings if w.severity != "info"]
    finally:
        plant.close()
    assert [f"{w.code}: {w.message}" for w in findings] == []


def test_gb200_16_su_has_no_warning():
    # 2,304 trays, 3 tiers: rails sharing leaves, pods spanning SUs, core groups that are full.
    design = generate("nvl72", racks=128)
    assert_links_valid(design)
    plant = RoutedLinks(design)
    plant.refresh()
    try:
        findings = [w for w in analyze(design, plant).warnings if w.severity != "info"]
    finally:
        plant.close()
    assert [f"{w.code}: {w.message}" for w in findings] == []


@pytest.mark.parametrize("racks", [40, 128])
def test_gb200_5_and_16_su_with_every_network_have_no_finding(racks):
    # Every network of a 128-rack hall (64k links) builds in about a second now (it took ~2 min:
    # a free-port scan over every device per port). The generator gives a tray bank enough
    # parallel trays for the cables' weight, and the analysis weighs a bank against as many
    # trays' load class (model.plant.tray_products.trays_in_bank).
    design = generate("nvl72", racks=racks, fabrics="all")
    assert_links_valid(design)
    plant = RoutedLinks(design)
    plant.refresh()
    try:
        report = analyze(design, plant)
    finally:
        plant.close()
    findings = [w for w in report.warnings if w.severity != "info"]
    assert [f"{w.code}: {w.message}" for w in findings] == []
