"""BOM on generated fabrics: quantities equal the physical plant and the analysis (modules,
cables by part and kind, cost), every used cage has one valid plug under every policy."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from model.analysis import analyze
from model.catalog.parts import part_number_for
from model.engine.media import POLICIES
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.outputs.bom import bom_lines, bom_totals, unorderable_links
from model.outputs.schedule import schedule_rows
from model.plant.physical_plant import build_plant
from tests.model.bom_test_helpers import plant_of

FABRICS = {
    "superpod-2su": (
        "rail-optimized",
        dict(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32),
    ),
    "leaf-spine-3to1": (
        "leaf-spine",
        dict(nodes=48, node_type="dgx-h100", switch="qm9700", oversubscription=3),
    ),
    "fat-tree-k8": ("fat-tree", dict(k=8)),
    "nvl72-4": ("nvl72", dict(racks=4, switch="qm9700")),
}


@pytest.fixture(scope="module", params=sorted(FABRICS))
def fabric(request):
    template, params = FABRICS[request.param]
    design = generate(template, **params)
    return design, plant_of(design)


def _qty(lines, category):
    return sum(ln.quantity for ln in lines if ln.category == category)


def _catalog_number(design, line) -> str:
    """The catalog's own part number of a BOM line (``EST-...`` where the BOM says quote), as
    the analysis's ``plant.by_part`` names it."""
    catalog = design.catalog
    parts = {**catalog.module_parts, **catalog.cable_parts, **catalog.fibre_parts}
    return part_number_for(parts[line.part].part_number, line.length_m)


def test_equipment_quantities_match_the_design(fabric):
    design, plant = fabric
    lines = bom_lines(design, plant)
    types = design.catalog.device_types
    by_category = Counter(types[d.type].category for d in design.devices.values())
    assert _qty(lines, "Racks") == len(design.racks)
    assert _qty(lines, "Switches") == by_category["switch"] + by_category["nvlink-switch"]
    servers = ("GPU servers", "Storage appliances", "Management servers")
    assert sum(_qty(lines, c) for c in servers) == by_category["server"] + by_category["storage"]
    # "GPU servers" are those with GPUs: not storage, head nodes or UFM appliances
    with_gpus = sum(1 for d in design.devices.values() if types[d.type].gpu_count > 0)
    assert _qty(lines, "GPU servers") == with_gpus
    assert _qty(lines, "Storage appliances") == by_category["storage"]


def test_bom_quantities_equal_the_plant_and_the_cost_equals_the_analysis(fabric):
    design, plant = fabric
    report = analyze(design, plant).to_json()
    summary = report["plant"]
    lines = bom_lines(design, plant)
    assert _qty(lines, "Modules") == summary["modules"]["total"] == report["transceivers"]["total"]
    assert _qty(lines, "Cables") + _qty(lines, "Fibres") == summary["cables"]["total"]
    by_part = Counter()
    for ln in lines:
        if ln.category in ("Modules",):
            by_part[_catalog_number(design, ln)] += ln.quantity
    assert dict(by_part) == summary["modules"]["by_part"]
    cable_parts = Counter()
    for ln in lines:
        if ln.category in ("Cables", "Fibres"):
            cable_parts[_catalog_number(design, ln)] += ln.quantity
    assert dict(cable_parts) == summary["cables"]["by_part"]
    trx_power = sum(ln.total_power_w for ln in lines if ln.category == "Modules")
    assert trx_power == pytest.approx(report["power_w"]["transceivers"])
    trx_max = sum(ln.total_power_w_max for ln in lines if ln.category == "Modules")
    assert trx_max == pytest.approx(report["power_w_max"]["transceivers"])
    assert bom_totals(lines).price_usd == pytest.approx(report["cost_usd"]["total"])
    assert set(report["power_w"]) == set(report["power_w_max"])


@pytest.mark.parametrize("policy", POLICIES)
def test_every_used_cage_has_one_valid_plug_under_every_policy(fabric, policy):
    design, _ = fabric
    plant = RoutedLinks(design, policy)
    phys = build_plant(plant)
    assert phys.cages_invalid == 0, [f.message for f in phys.findings[:3]]
    assert phys.summary()["cages"]["used"] > 0


def test_every_link_is_on_a_part_or_a_reported_problem(fabric):
    design, plant = fabric
    backplane = sum(
        1
        for i in range(len(plant.link_ids))
        if plant.medium_index[i] >= 0
        and plant.media[int(plant.medium_index[i])].kind == "backplane"
    )
    rows = schedule_rows(design, plant)
    assert len(rows) == len(design.links) - backplane
    assert len({r.label for r in rows}) == len(rows)
    without_part = [r.link_id for r in rows if not r.part]
    assert sorted(without_part) == sorted(unorderable_links(plant))
    for row in rows:
        if row.medium_kind in ("mmf", "smf"):
            assert row.a_module and row.b_module
        elif row.part:
            assert not row.a_module and not row.b_module


def test_analysis_agrees_on_broken_out_ports():
    design = generate(
        "rail-optimized", nodes=64, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=32
    )
    assert any(d.breakout for d in design.devices.values())
    plant = plant_of(design)
    report = analyze(design, plant).to_json()
    assert _qty(bom_lines(design, plant), "Modules") == report["transceivers"]["total"]
    assert report["plant"]["cages"]["invalid"] == 0


_PLANT_REUSE = {
    "leaf-spine": ("leaf-spine", dict(nodes=48, node_type="dgx-h100", switch="qm9700"), None),
    "fat-tree-k8-all": ("fat-tree", dict(k=8, fabrics="all"), None),
    "rail-cross-connect-all": (
        "rail-optimized",
        dict(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, fabrics="all"),
        "cross-connect",
    ),
    "nvl72-all-zones": ("nvl72", dict(racks=4, fabrics="all"), "zones"),
}


@pytest.mark.parametrize("name", sorted(_PLANT_REUSE))
def test_the_analysis_of_the_boms_plant_equals_the_analysis_of_its_own(name):
    """``bom -o .xlsx`` hands the analysis (its Warnings sheet) the physical plant it built for
    the BOM lines and the schedule: the report is the one the analysis builds for itself."""
    from model.analysis.topology import infer_topology
    from model.design.fabrics import plant_fabric_rows
    from model.generators.generate import apply_cabling
    from model.outputs.bom import export_findings

    template, params, cabling = _PLANT_REUSE[name]
    design = generate(template, **params)
    if cabling:
        apply_cabling(design, cabling)
    plant = RoutedLinks(design)
    phys = build_plant(plant, with_links=True, fabric_rows=plant_fabric_rows(design, plant))
    own = analyze(design, plant)
    given = analyze(design, plant, phys)
    assert given.to_json() == own.to_json()
    assert given.warnings == own.warnings
    assert export_findings(design, plant, phys) == export_findings(design, plant)
    # The BOM's own recipe: one topology for the plant's fabric split and the analysis.
    topology = infer_topology(design)
    rows = plant_fabric_rows(design, plant, topology.fabric)
    expected = plant_fabric_rows(design, plant)
    assert rows[0] == expected[0] and np.array_equal(rows[1], expected[1])
    shared = analyze(design, plant, phys, topology)
    assert shared.to_json() == own.to_json() and shared.warnings == own.warnings
