"""The bundled examples are generated designs: they load, validate and equal a fresh generation."""

from __future__ import annotations

from pathlib import Path

import pytest

from model.files.design_file import design_to_bytes, load_design
from model.generators.generate import generate
from tests.model.generate_checks import assert_links_valid, assert_placement_valid

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"

REGENERATE = {
    "small-pod.hall.json": (
        "rail-optimized",
        dict(
            nodes=31,
            node_type="dgx-h100",
            switch="qm9700",
            su_nodes=31,
            reserve_ports=1,
            name="Small pod: one DGX H100 SuperPOD scalable unit (example)",
        ),
    ),
    "superpod-4su.hall.json": (
        "rail-optimized",
        dict(
            nodes=128,
            node_type="dgx-h100",
            switch="qm9700",
            su_nodes=32,
            name="DGX H100 SuperPOD, 4 scalable units (example)",
        ),
    ),
    "nvl72-su.hall.json": (
        "nvl72",
        dict(racks=8, name="GB200 NVL72 scalable unit, 8 racks (example)"),
    ),
}


@pytest.mark.parametrize("file_name", sorted(REGENERATE))
def test_example_is_what_the_generator_makes(file_name):
    path = EXAMPLES / file_name
    design = load_design(path)
    assert_links_valid(design)
    assert_placement_valid(design)
    template, params = REGENERATE[file_name]
    assert design_to_bytes(generate(template, **params)) == path.read_bytes()
    assert path.stat().st_size < 5_000_000


def test_small_pod_is_one_superpod_su():
    # NV-SP-H100 1 SU: 31 DGX H100, 8 leaves / 4 spines, 256 leaf-spine cables (the reference's
    # 252 node-leaf count adds 4 UFM links to our 248; the reserved leaf port is left for them).
    design = load_design(EXAMPLES / "small-pod.hall.json")
    roles = [d.role for d in design.devices.values()]
    assert (roles.count("gpu-server"), roles.count("leaf"), roles.count("spine")) == (31, 8, 4)
    assert len(design.links) == 248 + 256
