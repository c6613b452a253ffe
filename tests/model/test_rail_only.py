"""The rail-only variant of the rail-optimized generator (RAILONLY, domain-facts 8e)."""

from __future__ import annotations

import pytest

from model.analysis import analyze
from model.analysis.allreduce import job_allreduce
from model.analysis.whatif import what_if
from model.generators.generate import GenerateError, preview, rail_optimized


def test_rail_only_drops_the_spines_when_one_switch_holds_a_rail():
    design = rail_optimized(
        nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers="rail-only"
    )
    roles = [d.role for d in design.devices.values()]
    assert roles.count("leaf") == 8 and roles.count("spine") == 0
    # NIC r of every node goes to rail switch r, and nothing joins the rails.
    for link in design.links.values():
        node, switch = sorted((link.a, link.b), key=lambda e: not e.device.startswith("su1-node"))
        assert switch.device == f"su1-leaf-rail{int(node.port.removeprefix('nic'))}"
    j = analyze(design).to_json()
    assert j["hops"]["max"] == 1
    assert preview(
        "rail-optimized",
        nodes=32,
        node_type="dgx-h100",
        switch="qm9700",
        su_nodes=32,
        tiers="rail-only",
    )["switches"] == {"leaf": 8, "spine": 0}
    optimized = rail_optimized(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    assert len(design.links) == len(optimized.links) - 256  # no leaf-spine links


def test_a_rail_only_rail_switch_cuts_off_its_rank_of_every_node():
    design = rail_optimized(
        nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers="rail-only"
    )
    r = what_if(design, None, ["su1-leaf-rail4"])
    assert r["gpus_disconnected"] == 32
    assert r["after"]["scale_out_per_gpu_gbps"]["mean"] == pytest.approx(400 * 7 / 8)


def test_rail_only_rings_stay_on_their_rail():
    design = rail_optimized(
        nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers="rail-only"
    )
    a = job_allreduce(design, 256, "first", "ring", 1024, "Simple")
    # One leaf per rail: every ring hop turns at its rail's leaf, the NICs are the busiest links.
    assert a.limited_by == "server-leaf"
    assert a.bandwidth_s == pytest.approx(2 * 255 / 256 * 1.024e9 / (8 * 50e9), rel=1e-9)


def test_larger_rail_only_fabrics_are_a_clos_per_rail():
    design = rail_optimized(
        nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers="rail-only"
    )
    for link in design.links.values():
        ends = {link.a.device, link.b.device}
        spine = next((e for e in ends if "-spine" in e), None)
        if spine is None:
            continue
        leaf = next(e for e in ends if e != spine)
        assert leaf.rsplit("-", 1)[1] == spine.split("-")[0]  # suN-leaf-railR to railR-spineK
    with pytest.raises(GenerateError, match="rail"):
        rail_optimized(
            nodes=4096, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers="rail-only"
        )
