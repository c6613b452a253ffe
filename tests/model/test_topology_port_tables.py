"""The topology reads each link end's port from its own device's port table: a device that
breaks out a port group has its own table, devices that break out nothing share their type's
(looked up once per type)."""

from __future__ import annotations

import numpy as np
import pytest

from model.analysis.topology import infer_topology
from tests.builders import device, empty_hall, link, rack


@pytest.mark.parametrize("broken_first", [False, True], ids=["plain first", "broken out first"])
def test_switches_of_one_type_with_and_without_breakout_keep_their_own_ports(broken_first):
    design = empty_hall()
    rack(design, "n1", 2.1, 3.0)
    order = [("sw-split", {"p": 2}), ("sw-plain", None)]
    for k, (device_id, breakout) in enumerate(order if broken_first else order[::-1]):
        device(design, device_id, "n1", 20 + 2 * k, "sn5600", role="leaf", breakout=breakout)
    # 800G ports of the plain switch to 400G halves of the split one: each end its own speed
    link(design, "l-1", ("sw-plain", "p1"), ("sw-split", "p1/1"))
    link(design, "l-2", ("sw-split", "p2/2"), ("sw-plain", "p3"))
    topo = infer_topology(design)
    for side, speed in (("a", topo.speed_a), ("b", topo.speed_b)):
        ends = [getattr(design.links[i], side) for i in topo.link_ids]
        expected = [design.ports(end.device)[end.port].speed_gbps for end in ends]
        assert np.array_equal(speed, np.array(expected, dtype=float))
    assert sorted(set(topo.speed_a) | set(topo.speed_b)) == [400.0, 800.0]
