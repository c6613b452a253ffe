"""The scale-up layer is named by its technology from the catalog (GpuSpec.scale_up_link): the
analysis' sentences and the BOM's switch-tray line say UALink for AMD Helios, Infinity Fabric
for an MI355X node, NVLink for NVIDIA's racks (issue 39)."""

from __future__ import annotations

import pytest

from model.analysis import analyze
from model.catalog.components import builtin_catalog, scale_up_name
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.outputs.bom import summary_rows


def _analysed(design):
    plant = RoutedLinks(design)
    plant.refresh()
    return plant, analyze(design, plant)


def test_the_catalog_names_each_platform_s_scale_up_technology():
    types = builtin_catalog().device_types
    assert types["helios-compute-tray"].gpus.scale_up_link == "UALink"
    assert types["mi355x-dlc-orv3"].gpus.scale_up_link == "Infinity Fabric"
    assert types["gb300-compute-tray"].gpus.scale_up_link == "NVLink"
    assert scale_up_name([types["helios-compute-tray"], types["gb200-compute-tray"]]) == (
        "NVLink / UALink"
    )
    assert scale_up_name([types["qm9700"]]) == "NVLink"  # no GPUs: the catalog's default


@pytest.mark.parametrize(
    ("template", "params", "tech", "trays"),
    [
        ("helios", {"racks": 2}, "UALink", 12),  # 6 scale-up switch trays per Helios rack
        ("nvl72", {"racks": 2}, "NVLink", 18),  # 9 NVLink switch trays per NVL72 rack
    ],
)
def test_helios_says_ualink_and_nvl72_says_nvlink(template, params, tech, trays):
    design = generate(template, **params)
    plant, report = _analysed(design)
    other = {"UALink": "NVLink", "NVLink": "UALink"}[tech]
    assert report.scale_up_name == tech
    layers = dict(report.bandwidth_layers)
    assert "scale-up" in layers
    # The per-GPU layers sentence names every layer but the bottleneck, the scale-up one by name.
    assert tech in report.bottleneck_explanation
    assert other not in report.bottleneck_explanation
    coll = report.collectives
    assert coll is not None and coll.scale_up_name == tech
    assert other not in coll.knee
    rows = summary_rows(design, plant, [], [])
    names = {name: value for name, value, _ in rows}
    assert names[f"{tech} switch trays"] == trays
    assert f"{other} switch trays" not in names


def test_mi355x_node_s_scale_up_is_infinity_fabric():
    design = generate(
        "rail-optimized",
        nodes=16,
        node_type="mi355x-dlc-orv3",
        switch="tomahawk5-64x800",
        su_nodes=16,
    )
    _, report = _analysed(design)
    assert report.scale_up_name == "Infinity Fabric"
    assert "NVLink" not in report.bottleneck_explanation
