"""Tier membership (model.analysis.tier_layers): switches by level, links by their upper end, NVLink in
scale-up, storage and management in no tier; racks in their switches' tiers."""

from __future__ import annotations

from collections import Counter

from model.analysis.tier_layers import TIERS, rack_tiers, tier_membership, tier_order
from model.analysis.topology import infer_topology
from model.generators.generate import nvl72, rail_optimized
from tests.builders import small_pod


def test_three_tier_fabric_links_are_in_the_tier_of_their_upper_end():
    design = rail_optimized(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers=3)
    links, switches = tier_membership(design)
    topo = infer_topology(design)
    level = dict(zip(topo.device_ids, topo.level.tolist(), strict=True))
    names = {1: "leaf", 2: "spine", 3: "core"}
    for link_id, tier in links.items():
        link = design.links[link_id]
        assert tier == names[max(level[link.a.device], level[link.b.device])]
    assert set(links.values()) == {"leaf", "spine", "core"} and len(links) == len(design.links)
    assert Counter(switches.values()) == Counter(names[level[d]] for d in switches)
    servers = {d.rack for d in design.devices.values() if d.role == "gpu-server"}
    racks = rack_tiers(design, switches)
    assert not servers & racks.keys()  # a server rack is in no tier
    assert all(tiers <= {"leaf", "spine", "core"} for tiers in racks.values())


def test_nvlink_links_and_switches_are_the_scale_up_tier():
    design = nvl72(racks=2)
    links, switches = tier_membership(design)
    nvlink = {d.id for d in design.devices.values() if d.role == "nvlink-switch"}
    assert nvlink and {switches[d] for d in nvlink} == {"scale-up"}
    scale_up = {lk for lk, t in links.items() if t == "scale-up"}
    assert scale_up and all(
        {design.links[lk].a.device, design.links[lk].b.device} & nvlink for lk in scale_up
    )


def test_storage_and_uncabled_switches_are_in_no_tier():
    design = rail_optimized(
        nodes=31, node_type="dgx-h100", switch="qm9700", su_nodes=31, fabrics="all"
    )
    links, switches = tier_membership(design)
    storage = [d for d in design.devices.values() if d.fabric == "storage"]
    assert storage and not any(d.id in switches for d in storage)
    assert len(links) < len(design.links)  # storage, in-band, OOB links: no tier
    pod = small_pod()
    links, switches = tier_membership(pod)
    assert set(switches.values()) == {"leaf"} and set(links.values()) == {"leaf"}


def test_tiers_sort_bottom_up_with_scale_up_last():
    assert sorted(["scale-up", "core", "tier4", "leaf", "spine"], key=tier_order) == [
        "leaf",
        "spine",
        "core",
        "tier4",
        "scale-up",
    ]
    assert TIERS == ("leaf", "spine", "core", "scale-up")
