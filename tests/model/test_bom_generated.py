"""BOM on generated fabrics: quantities match the design and the analysis counts (transceivers,
cables by kind, switches)."""

from __future__ import annotations

from collections import Counter

import pytest

from model.analysis import analyze
from model.bom import bom_lines, schedule_rows, transceiver_modules, unorderable_links
from model.generate import generate
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
KINDS = ("dac", "acc", "aec", "aoc", "mmf", "smf")


@pytest.fixture(scope="module", params=sorted(FABRICS))
def fabric(request):
    template, params = FABRICS[request.param]
    design = generate(template, **params)
    return design, plant_of(design)


def _qty(lines, category):
    return sum(ln.quantity for ln in lines if ln.category == category)


def test_equipment_quantities_match_the_design(fabric):
    design, plant = fabric
    lines = bom_lines(design, plant)
    types = design.catalog.device_types
    by_category = Counter(types[d.type].category for d in design.devices.values())
    assert _qty(lines, "Racks") == len(design.racks)
    assert _qty(lines, "Switches") == by_category["switch"] + by_category["nvlink-switch"]
    assert _qty(lines, "Servers") == by_category["server"] + by_category["storage"]


def test_every_link_is_one_cable_to_order_or_a_reported_problem(fabric):
    design, plant = fabric
    backplane = sum(
        1
        for i in range(len(plant.link_ids))
        if plant.medium_index[i] >= 0
        and plant.media[int(plant.medium_index[i])].kind == "backplane"
    )
    cables = _qty(bom_lines(design, plant), "Cables")
    assert cables + len(unorderable_links(plant)) + backplane == len(design.links)
    rows = schedule_rows(design, plant)
    assert len(rows) == len(design.links) - backplane
    assert len({r.label for r in rows}) == len(rows)
    reach = {m.id: m.reach_m for m in design.catalog.media_types.values()}
    for row in rows:
        if row.ordered_length_m is not None:
            assert row.length_m <= reach[row.medium] + 1e-9


def test_bom_quantities_equal_the_analysis_counts(fabric):
    design, plant = fabric
    report = analyze(design, plant).to_json()
    lines = bom_lines(design, plant)
    assert _qty(lines, "Transceivers") == report["transceivers"]["total"]
    assert sum(transceiver_modules(design, plant).values()) == report["transceivers"]["total"]
    trx_power = sum(ln.total_power_w for ln in lines if ln.category == "Transceivers")
    assert trx_power == pytest.approx(report["transceivers"]["power_w"])
    by_kind = Counter()
    media = design.catalog.media_types
    for ln in lines:
        if ln.category == "Cables":
            by_kind[media[ln.part].kind] += ln.quantity
    for kind in KINDS:
        assert by_kind[kind] == report["links"]["by_kind"].get(kind, 0), kind
    types = design.catalog.device_types
    scale_out = sum(1 for d in design.devices.values() if types[d.type].category == "switch")
    assert scale_out == report["switches"]["total"]


def test_analysis_agrees_on_broken_out_ports():
    design = generate(
        "rail-optimized", nodes=64, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=32
    )
    assert any(d.breakout for d in design.devices.values())
    plant = plant_of(design)
    report = analyze(design, plant).to_json()
    assert sum(transceiver_modules(design, plant).values()) == report["transceivers"]["total"]
