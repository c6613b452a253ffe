"""Multi-plane Spectrum-X and switch port modes: each NIC split across independent planes, each
plane a full rail-optimized fabric of its own; port modes named and checked (issue 14 item 4)."""

from __future__ import annotations

import math
from collections import Counter

import msgspec
import pytest

from cli import run_cli
from model.analysis import analyze
from model.catalog.components import CatalogFile, builtin_catalog
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.generators.generate import nvl72, preview, rail_optimized
from model.generators.plans import GenerateError, port_modes, usable_port_modes


def _report(design):
    plant = RoutedLinks(design)
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
    with pytest.raises(GenerateError, match="not a mode of 'q3400'; choose auto or one of"):
        preview("nvl72", racks=8, platform="gb300", port_mode="72x1600G")


def test_a_port_mode_no_nic_can_use_is_refused_with_the_reason_and_not_offered():
    # The Q3400's 1:2 split runs 400G on 2 x 200G lanes; every 400G NIC of the catalog
    # (ConnectX-7, ConnectX-8 split for multi-plane) runs 4 x 100G, so nothing can be cabled.
    catalog = builtin_catalog()
    q3400 = catalog.device_types["q3400"]
    assert "288x400G" in port_modes(q3400)
    assert usable_port_modes(catalog, q3400) == {"144x800G": 800.0}
    for kw in (dict(platform="gb300"), dict(switch="q3400")):  # 800G NICs, then 400G NICs
        with pytest.raises(GenerateError) as refused:
            preview("nvl72", racks=8, port_mode="288x400G", **kw)
        message = str(refused.value)
        assert "288x400G of 'q3400' runs 400G ports on 2 x 200G lanes" in message
        assert "its 400G NICs run 100G lanes" in message
        assert message.endswith("choose auto or one of 144x800G")
    # A NIC that runs 400G on 2 x 200G lanes (and a medium for it) brings the mode to life:
    # the test is of the catalog, not of the mode's name.
    tray = catalog.device_types["gb300-compute-tray"]
    nic = next(g for g in tray.port_groups if g.role == "compute")
    split = msgspec.structs.replace(nic.breakouts[0], lanes=2)
    # (a NIC of its own: ConnectX-8 has no 400G InfiniBand mode, model.catalog.nics)
    two_lane = msgspec.structs.replace(nic, breakouts=(split,), nic="")
    groups = tuple(two_lane if g is nic else g for g in tray.port_groups)
    custom = msgspec.structs.replace(tray, id="cx8-2lane-tray", port_groups=groups)
    extended = catalog.extended(CatalogFile(device_types=[custom]))
    # (the catalog's medium is there: dr2-400g-xdr, 400G on 2 x 200G lanes; the NIC is not)
    assert "288x400G" in usable_port_modes(extended, q3400)
    counts = preview(
        "rail-optimized",
        catalog=extended,
        nodes=18,
        node_type="cx8-2lane-tray",
        switch="q3400",
        su_nodes=18,
        planes=2,
        port_mode="288x400G",
    )
    assert counts["links"]["node-leaf"] == 18 * 4 * 2


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


@pytest.mark.parametrize(
    ("asked", "advice", "taken"),
    [
        # ConnectX-8 whole on Ethernet: 800G is InfiniBand only; split it in two
        (dict(switch="sn5600"), "--planes 2", dict(switch="sn5600", planes=2)),
        # ConnectX-8 split on InfiniBand: 400G is Ethernet only; run it whole
        (dict(switch="q3400", planes=2), "leave --planes out", dict(switch="q3400")),
    ],
)
def test_a_refused_nic_mode_offers_only_advice_the_generator_then_takes(asked, advice, taken):
    common = dict(nodes=32, node_type="dgx-b300", su_nodes=32)
    with pytest.raises(GenerateError, match=advice):
        rail_optimized(**common, **asked)
    assert rail_optimized(**common, **taken).links


def test_a_nic_that_splits_only_two_ways_is_not_told_to_use_itself():
    with pytest.raises(GenerateError) as refused:
        rail_optimized(nodes=32, node_type="dgx-b300", switch="q3400", su_nodes=32, planes=4)
    assert "they split 2 ways" in str(refused.value)
    assert "NICs such as ConnectX-8 (dgx-b300" not in str(refused.value)
