"""Multi-plane Spectrum-X and switch port modes: each NIC split across independent planes, each
plane a full rail-optimized fabric of its own; port modes named and checked (issue 14 item 4)."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from cli import run_cli
from model.analysis import analyze
from model.cabling import CablePlant
from model.catalog import builtin_catalog
from model.fileio import load_design
from model.generate import nvl72, preview, rail_optimized
from model.generators.plans import GenerateError, port_modes


def _report(design):
    plant = CablePlant(design)
    plant.refresh()
    try:
        return analyze(design, plant)
    finally:
        plant.close()


def _plane(device_id: str) -> str:
    return device_id.split("-", 1)[0]


def test_gb300_su_on_two_planes_is_two_independent_fabrics():
    racks, trays, nics, planes = 8, 18, 4, 2
    design = nvl72(racks=racks, platform="gb300", planes=planes)
    # Each ConnectX-8 800G port runs as 2 x 400G, one per plane (NV-NETOP-MP).
    endpoints_per_plane = racks * trays * nics
    radix_400g = 64 * 2  # SN5610: 64 x 800G broken out to 400G
    roles = Counter(d.role for d in design.devices.values())
    per_plane = Counter(
        (_plane(d.id), d.role) for d in design.devices.values() if d.role in ("leaf", "spine")
    )
    # Both planes are the same fabric, each at least the leaves its endpoints need.
    for role in ("leaf", "spine"):
        assert per_plane[("plane1", role)] == per_plane[("plane2", role)] == roles[role] // 2
    assert roles["leaf"] // planes >= math.ceil(endpoints_per_plane / (radix_400g // 2))
    assert {d.type for d in design.devices.values() if d.role in ("leaf", "spine")} == {"sn5610"}
    leaf_of: dict[tuple[str, str], str] = {}
    for link in design.links.values():
        a, b = design.devices[link.a.device], design.devices[link.b.device]
        if a.role == "gpu-server" and b.role == "leaf":
            nic, split = link.a.port.split("/")
            leaf_of[(a.id, link.a.port)] = b.id
            assert _plane(b.id) == f"plane{split}"  # split i of every NIC on plane i
        if a.role in ("leaf", "spine") and b.role in ("leaf", "spine"):
            assert _plane(a.id) == _plane(b.id)  # no link joins two planes
    assert len(leaf_of) == planes * endpoints_per_plane
    report = _report(design)
    assert [w.code for w in report.warnings if w.severity != "info"] == []
    out = report.to_json()
    assert out["fabrics"]["compute"]["planes"] == planes
    # A GPU keeps its 800G: 2 planes x 400G.
    assert out["bandwidth_per_gpu_gbps"]["scale_out"] == 800.0
    counts = preview("nvl72", racks=racks, platform="gb300", planes=planes)
    assert counts["planes"] == planes
    assert counts["switches"]["leaf"] == roles["leaf"]
    assert counts["links"]["node-leaf"] == planes * endpoints_per_plane


def test_a_single_plane_fabric_counts_one_plane():
    out = _report(nvl72(racks=1, platform="gb300")).to_json()
    assert out["fabrics"]["compute"]["planes"] == 1


def test_multi_plane_needs_nics_that_split():
    with pytest.raises(GenerateError, match="cannot be split 2 ways"):
        rail_optimized(nodes=32, node_type="dgx-h100", switch="sn5610", su_nodes=32, planes=2)
    with pytest.raises(GenerateError, match="--planes must be a whole number"):
        preview("nvl72", racks=1, platform="gb300", planes=0)


def test_quantum_x800_port_modes():
    assert port_modes(builtin_catalog().device_types["q3400"]) == {
        "144x800G": 800.0,
        "288x400G": 400.0,
    }
    named = preview("nvl72", racks=8, platform="gb300", port_mode="144x800G")
    assert named["switches"] == preview("nvl72", racks=8, platform="gb300")["switches"]
    with pytest.raises(GenerateError, match="runs 400G ports, but the nodes' NICs run at 800G"):
        preview("nvl72", racks=8, platform="gb300", port_mode="288x400G")
    with pytest.raises(GenerateError, match="not a mode of 'q3400'; choose auto or one of"):
        preview("nvl72", racks=8, platform="gb300", port_mode="72x1600G")
    # The 2-lane 400G split has no NIC or medium at 200G lanes in the catalog: said, not built.
    with pytest.raises(GenerateError, match="no medium in the catalog joins"):
        preview("nvl72", racks=8, switch="q3400", port_mode="288x400G")


def test_cli_generates_a_two_plane_fabric(tmp_path, capsys):
    out = tmp_path / "planes.hall.json"
    args = ["generate", "nvl72", "--racks", "1", "--platform", "gb300", "--planes", "2"]
    assert run_cli([*args, "--port-mode", "128x400G", "-o", str(out)]) == 0
    assert "2 planes" in load_design(out).name
    capsys.readouterr()
    design = load_design(out)
    assert {d.id.split("-")[0] for d in design.devices.values() if d.role == "leaf"} == {
        "plane1",
        "plane2",
    }
    assert (
        run_cli(
            [
                "generate",
                "leaf-spine",
                "--nodes",
                "4",
                "--node-type",
                "dgx-b300",
                "--switch",
                "sn5610",
                "--planes",
                "2",
                "-o",
                str(out),
            ]
        )
        == 2
    )
    assert "does not take --planes" in capsys.readouterr().err
