"""Bulk connect plans: rails kept across servers, far ports by role and speed, leftovers told."""

from __future__ import annotations

from model.design.bulk_connect import groups_with_free_ports, plan_bulk_connect
from tests.builders import device, empty_hall, link, rack


def _hall(leaves: int):
    design = empty_hall()
    rack(design, "r1", 1.5, 3.0)
    rack(design, "n1", 2.1, 3.0)
    device(design, "s1", "r1", 2, "dgx-h100")
    device(design, "s2", "r1", 12, "dgx-h100")
    for i in range(leaves):
        device(design, f"leaf{i + 1}", "n1", 20 + 2 * i, "qm9700", role="leaf")
    return design


def test_eight_rails_on_one_leaf_use_eight_free_ports_in_order():
    design = _hall(1)
    plan = plan_bulk_connect(design, ["s1"], "nic", ["leaf1"])
    assert [(p.a_port, p.b_port) for p in plan.links] == [(f"nic{i}", f"p{i}") for i in range(1, 9)]
    assert not plan.unmatched
    design.add_links(plan.records(design))
    assert len(design.free_ports("s1", "compute")) == 0


def test_rails_are_kept_across_servers_on_eight_leaves():
    design = _hall(8)
    plan = plan_bulk_connect(design, ["s1", "s2"], "nic", [f"leaf{i}" for i in range(1, 9)])
    assert len(plan.links) == 16
    for p in plan.links:
        assert p.b_device == f"leaf{p.rail + 1}"  # rail k on leaf k for every server


def test_two_leaves_take_rails_in_halves_and_a_used_port_keeps_its_rail():
    design = _hall(2)
    link(design, "x", ("s1", "nic2"), ("leaf1", "p40"))
    plan = plan_bulk_connect(design, ["s1"], "nic", ["leaf1", "leaf2"])
    got = {p.a_port: p.b_device for p in plan.links}
    assert "nic2" not in got
    assert {got[f"nic{i}"] for i in (1, 3, 4)} == {"leaf1"}
    assert {got[f"nic{i}"] for i in (5, 6, 7, 8)} == {"leaf2"}


def test_ports_without_a_free_far_port_are_reported():
    design = _hall(1)
    rack(design, "r3", 2.7, 3.0)
    device(design, "big", "r3", 2, "qm9700", role="leaf")
    total = len(design.free_ports("leaf1", "compute"))  # 64 compute ports
    for i in range(1, total - 3 + 1):  # all but three of leaf1's ports are taken
        link(design, f"x{i}", ("big", f"p{i}"), ("leaf1", f"p{i}"))
    plan = plan_bulk_connect(design, ["s1"], "nic", ["leaf1"])
    assert len(plan.links) == 3 and len(plan.unmatched) == 5
    assert all("no free compute port" in why for _d, _p, why in plan.unmatched)


def test_groups_with_free_ports_counts_over_devices():
    design = _hall(1)
    groups = groups_with_free_ports(design, ["s1", "s2"])
    assert groups["nic"] == 16
