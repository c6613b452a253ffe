"""Every network of a hall: fabric membership, per-fabric analysis, generators of all four networks.

Counts for the 4-SU DGX H100 SuperPOD are derived here from port demand (the rules written in
model/generators/networks.py's docstring and the reference architecture, NV-SP-H100 in
domain-facts §6c and §8c), not read from the implementation.
"""

from __future__ import annotations

import math

import pytest

from model.analysis import analyze
from model.design.entities import FABRICS
from model.design.fabrics import device_fabric, link_fabric, link_fabric_map
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate, leaf_spine, rail_optimized
from model.generators.plans import GenerateError
from model.outputs.bom import bom_lines
from tests.model.generate_checks import assert_links_valid, assert_placement_valid


def _report(design):
    plant = RoutedLinks(design)
    plant.refresh()
    try:
        return analyze(design, plant), plant
    finally:
        pass


@pytest.fixture(scope="module")
def superpod():
    design = rail_optimized(
        nodes=127, node_type="dgx-h100", switch="qm9700", su_nodes=32, fabrics="all"
    )
    report, plant = _report(design)
    yield design, report, plant
    plant.close()


def _most_down(radix: int, up) -> int:
    return max(d for d in range(1, radix) if d + up(d) <= radix)


def _leaf_plan(endpoints: int, radix: int, up) -> list[int]:
    """Downlinks per leaf when ``endpoints`` ports are spread evenly over the fewest leaves."""
    n = math.ceil(endpoints / _most_down(radix, up))
    per = math.ceil(endpoints / n)
    return [min(per, endpoints - i * per) for i in range(n)]


def test_4su_superpod_counts_per_fabric(superpod):
    design, report, _ = superpod
    fabrics = report.to_json()["fabrics"]
    nodes, ufm, heads = 127, 2, 4  # 4 BCM management servers (NV-SP-H100-T7)
    # Compute (NV-SP-H100, §6c): 32 leaves + 16 spines; 1,020 node-leaf cables (1,016 NICs + the
    # UFM appliances' 4 ports) and 1,024 leaf-spine.
    assert fabrics["compute"]["switches"]["total"] == 32 + 16
    assert fabrics["compute"]["links"]["total"] == 1016 + 2 * ufm + 1024
    assert report.to_json()["links"]["by_tier"]["server-leaf"] == 1016
    assert report.to_json()["switches"]["by_tier"] == {"leaf": 32, "spine": 16, "core": 0}
    # Storage: 2 ports per DGX + 2 per storage UFM; node leaves near 4:3; appliances for
    # >= 40 GB/s per node on 4 x 400G each, 1:1 on their leaves; spines hold every uplink.
    node_ports = nodes * 2 + ufm * 2
    node_leaves = _leaf_plan(node_ports, 64, lambda d: math.ceil(3 * d / 4))
    appliances = math.ceil(nodes * 320 / (4 * 400))
    app_leaves = _leaf_plan(appliances * 4, 64, lambda d: d)
    uplinks = sum(math.ceil(3 * d / 4) for d in node_leaves) + sum(app_leaves)
    spines = math.ceil(uplinks / 64)
    assert fabrics["storage"]["switches"]["total"] == len(node_leaves) + len(app_leaves) + spines
    assert fabrics["storage"]["links"]["total"] == node_ports + appliances * 4 + uplinks
    # In-band: 2 ports per DGX, 2 per head node, 1 per UFM; uplinks ceil(d / 4) >= 2 to 2 spines.
    inband_ports = nodes * 2 + heads * 2 + 2 * ufm
    inband_leaves = _leaf_plan(inband_ports, 64, lambda d: max(2, math.ceil(d / 4)))
    inband_up = sum(max(2, math.ceil(d / 4)) for d in inband_leaves)
    assert fabrics["inband"]["switches"]["total"] == len(inband_leaves) + 2
    assert fabrics["inband"]["links"]["total"] == inband_ports + inband_up
    # OOB: a BMC per server / appliance / UFM / head node, a management port per switch, and
    # every rack PDU (the RA's Table 8 cables all of them: 3 per DGX rack, 2 in any other).
    switches = 48 + fabrics["storage"]["switches"]["total"] + len(inband_leaves) + 2
    bmcs = nodes + appliances + 2 * ufm + heads
    dgx_racks = {d.rack for d in design.devices.values() if d.type == "dgx-h100"}
    pdus = sum(3 if r in dgx_racks else 2 for r in design.racks)
    assert sum(1 for d in design.devices.values() if d.type == "pdu-1u-metered") == pdus
    oob = fabrics["oob"]["switches"]["total"]
    # 47 ports each (one takes a neighbour's management port). This is the RA's own hall
    # (ra_layout.py): sized for the whole hall, the same count in each of the 4 SUs' network
    # racks, so it rounds up once per SU at most.
    runs = 4
    assert (
        math.ceil((bmcs + switches + pdus) / 47)
        <= oob
        <= math.ceil((bmcs + switches + pdus) / 47) + runs
    )
    # ... plus each OOB switch's own management port on its neighbour and 2 uplinks each.
    assert fabrics["oob"]["links"]["total"] == bmcs + switches + pdus + oob + 2 * oob
    assert sum(f["links"]["total"] for f in fabrics.values()) == len(design.links)
    assert sum(f["transceivers"] for f in fabrics.values()) == report.transceivers
    for f in fabrics.values():
        assert f["power_w"]["max"] >= f["power_w"]["typical"] > 0
        assert f["cost_usd"]["total"] > 0


def test_4su_superpod_is_placed_valid_and_warning_free(superpod):
    design, report, _ = superpod
    assert_links_valid(design)
    assert_placement_valid(design)
    assert [w.code for w in report.warnings if w.severity != "info"] == []
    storage = {d.rack for d in design.devices.values() if d.role == "storage"}
    ufm = {d.rack for d in design.devices.values() if d.type == "ufm-appliance"}
    assert storage and ufm and not storage & ufm  # a storage row and a management row


def test_bom_lists_switches_cables_and_transceivers_per_fabric(superpod):
    design, _, plant = superpod
    lines = bom_lines(design, plant)
    per = {}
    for line in lines:
        if line.category in ("Switches", "Modules", "Cables", "Fibres"):
            for fabric in FABRICS:
                if line.fabric_quantity(fabric):
                    per.setdefault(fabric, set()).add(line.category)
    for fabric in ("compute", "storage", "inband"):
        # Integrated cables or fibres, as the plant needs (the compute rails take fibres).
        assert per[fabric] - {"Cables", "Fibres"} == {"Switches", "Modules"}, fabric
        assert per[fabric] & {"Cables", "Fibres"}, fabric
    assert {"Switches", "Cables"} <= per["oob"]
    unsplit = ("Racks", "GPU servers", "Storage appliances", "Management servers")
    assert all(
        line.by_fabric == (None,) * len(FABRICS) for line in lines if line.category in unsplit
    )
    qty = sum(ln.fabric_quantity("storage") for ln in lines if ln.category == "Switches")
    assert qty == sum(1 for d in design.devices.values() if device_fabric(design, d) == "storage")
    # One line per part: the QM9700 of compute and storage is one line, its fabrics in columns
    switches = [ln.part for ln in lines if ln.category == "Switches"]
    assert len(switches) == len(set(switches))


def test_scalar_and_vector_fabric_rules_agree(superpod):
    design, _, _ = superpod
    fabric_of = link_fabric_map(design)
    sample = list(design.links)[::37]
    assert all(link_fabric(design, lid) == fabric_of[lid] for lid in sample)


def test_compute_only_is_the_default_and_unchanged():
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    assert {device_fabric(design, d) for d in design.devices.values()} == {None, "compute"}
    assert set(link_fabric_map(design).values()) == {"compute"}


def test_fabrics_option_is_checked():
    with pytest.raises(GenerateError, match="choose compute, all"):
        generate("leaf-spine", nodes=4, node_type="dgx-h100", switch="qm9700", fabrics="dns")
    with pytest.raises(GenerateError, match="must include compute"):
        generate("leaf-spine", nodes=4, node_type="dgx-h100", switch="qm9700", fabrics="storage")


# ------------------------------------------------------------------------------ right-sizing


def _leaf_up_down(design, leaf):
    down = up = 0
    for link in design.links.values():
        if leaf not in (link.a.device, link.b.device) or link_fabric(design, link) != "compute":
            continue
        other = link.b.device if link.a.device == leaf else link.a.device
        if design.devices[other].role == "gpu-server":
            down += 1
        elif design.devices[other].role == "spine":
            up += 1
    return down, up


def test_sn5600_32_node_su_is_non_blocking_with_32_uplinks():
    # 800G ports broken out to 128 x 400G: 32 nodes use 32 downlinks, so 32 uplinks, not 64.
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="sn5600", su_nodes=32)
    assert _leaf_up_down(design, "su1-leaf-rail1") == (32, 32)
    report, plant = _report(design)
    plant.close()
    assert report.to_json()["oversubscription"]["leaf"] == 1.0
    assert [w.code for w in report.warnings if w.severity != "info"] == []


def test_2_to_1_on_64_ports_is_42_down_21_up_and_a_spare():
    design = leaf_spine(nodes=21, node_type="hgx-h100-8x400", switch="qm9700", oversubscription=2)
    # 42 downlinks hold 5 nodes of 8 NICs (40 used): uplinks sized to them, ceil(40 / 2) = 20.
    down, up = _leaf_up_down(design, "leaf01")
    assert (down, up) == (40, 20)
    report, plant = _report(design)
    plant.close()
    assert design.settings.oversubscription_target == 2.0
    assert report.to_json()["oversubscription"]["leaf"] == 2.0
    assert [w.code for w in report.warnings if w.severity != "info"] == []


def test_3_to_1_leaf_spine_stores_its_target_and_has_no_warning():
    design = leaf_spine(nodes=48, node_type="hgx-h100-8x400", switch="qm9700", oversubscription=3)
    assert design.settings.oversubscription_target == 3.0
    report, plant = _report(design)
    plant.close()
    assert [w.code for w in report.warnings if w.severity != "info"] == []


@pytest.mark.parametrize(
    "template,params",
    [
        (
            "rail-optimized",
            dict(nodes=31, node_type="dgx-h100", switch="qm9700", su_nodes=31, reserve_ports=1),
        ),
        ("leaf-spine", dict(nodes=11, node_type="dgx-b200", switch="qm9700")),
        ("nvl72", dict(racks=2)),
    ],
)
def test_every_network_generated_passes_its_own_checks(template, params):
    design = generate(template, fabrics="all", **params)
    assert_links_valid(design)
    report, plant = _report(design)
    plant.close()
    assert {"compute", "inband", "oob"} <= set(report.fabrics)
    assert [w.message for w in report.warnings if w.severity != "info"] == []


def test_blackwell_servers_get_in_band_on_their_bluefield_ports_at_400g():
    # DGX B200: 4 BlueField-3 ports (storage + in-band, §6a): 2 to storage, 2 to in-band, on an
    # SN5600 run as 128 x 400G (no 100G front-end port in the catalog entry).
    design = generate("leaf-spine", nodes=11, node_type="dgx-b200", switch="qm9700", fabrics="all")
    fabric_of = link_fabric_map(design)
    per_server: dict[str, dict[str, int]] = {}
    for link_id, link in design.links.items():
        for end in (link.a, link.b):
            if design.devices[end.device].role == "gpu-server" and end.port.startswith("stor"):
                counts = per_server.setdefault(end.device, {})
                counts[fabric_of[link_id]] = counts.get(fabric_of[link_id], 0) + 1
    assert len(per_server) == 11
    assert all(c == {"storage": 2, "inband": 2} for c in per_server.values())
    inband = {d.type for d in design.devices.values() if device_fabric(design, d) == "inband"}
    assert inband == {"sn5600", "sn4600c"}  # 400G for the servers, 100G for the head nodes
    assert_links_valid(design)


def test_oob_uplinks_go_on_round_the_in_band_spines_where_the_leaves_stopped():
    """Every in-band spine carries within one link of every other. The OOB uplinks used to start
    again at spine 1 after the leaves' round-robin, so the first spines ran out of ports first:
    the full XL rail fabric (16,384 nodes, every network) could not be generated at all."""
    design = rail_optimized(
        nodes=2048, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=64, fabrics="all"
    )
    load: dict[str, int] = {}
    for link in design.links.values():
        for dev in (link.a.device, link.b.device):
            if dev.startswith("inband-spine"):
                load[dev] = load.get(dev, 0) + 1
    assert len(load) >= 2
    assert max(load.values()) - min(load.values()) <= 1


def test_a_just_loaded_design_splits_by_fabric_from_the_loader_codes(tmp_path, monkeypatch):
    """The loader's end codes give every link the fabric the records give (a link pinned to
    a fabric, every network of a SuperPOD), and the split is taken from them."""
    import msgspec
    import numpy as np

    import model.design.fabrics as fabrics
    from model.files.design_file import load_design, save_design

    design = rail_optimized(
        nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, fabrics="all"
    )
    first = next(iter(design.links))
    design.update_links([msgspec.structs.replace(design.links[first], fabric="storage")])
    save_design(design, tmp_path / "all.hall.json")
    loaded = load_design(tmp_path / "all.hall.json")
    assert fabrics.loaded_link_codes(loaded) is not None
    fast = fabrics.design_link_fabrics(loaded)
    monkeypatch.setattr(fabrics, "loaded_link_codes", lambda _design: None)
    slow = fabrics.design_link_fabrics(loaded)
    assert fast.dtype == slow.dtype and np.array_equal(fast, slow)
    assert fabrics.FABRICS[int(fast[0])] == "storage"
    assert len(set(fast.tolist())) >= 4
    assert list(fabrics.link_fabric_map(loaded).values()) == [
        fabrics.link_fabric(loaded, link) for link in loaded.links.values()
    ]
