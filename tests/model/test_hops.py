"""Switch hops between GPU servers: the grouped count equals a count over every server pair."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from model.analysis.hops import server_hops
from model.analysis.topology import LINK_COMPUTE, components, infer_topology
from model.generators.generate import fat_tree, leaf_spine, nvl72, rail_optimized


def _pair_by_pair(topo) -> tuple[dict[int, int], int]:
    """The definition, one server pair at a time: 1 hop when the two share a leaf, else
    2k - 1 for the lowest level k at which some leaf of each is in one group."""
    n = len(topo.device_ids)
    compute = topo.kind == LINK_COMPUTE
    a, b = topo.a[compute], topo.b[compute]
    levels = range(2, topo.top_level() + 1)
    labels = [components(n, a, b, (topo.level >= 1) & (topo.level <= k)) for k in levels]
    leaves: dict[int, set[int]] = {}
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        for srv, leaf in ((x, y), (y, x)):
            if topo.level[srv] == 0 and topo.level[leaf] == 1:
                leaves.setdefault(srv, set()).add(leaf)
    servers = np.flatnonzero(topo.is_gpu_server).tolist()
    hist: Counter[int] = Counter()
    disconnected = 0
    for i, s in enumerate(servers):
        for t in servers[i + 1 :]:
            ls, lt = leaves.get(s, set()), leaves.get(t, set())
            hops = 1 if ls & lt else None
            for k, lab in zip(levels, labels, strict=True):
                if hops is None and {int(lab[x]) for x in ls} & {int(lab[x]) for x in lt}:
                    hops = 2 * k - 1
            if hops is None:
                disconnected += 1
            else:
                hist[hops] += 1
    return dict(sorted(hist.items())), disconnected


def _cut_rail():
    """Servers cut off (no uplink at all) and servers left on only some of their leaves: sets
    of leaves that partly overlap, and pairs that are not connected."""
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    links = sorted(design.links)
    cut = [lid for k, lid in enumerate(links) if k % 7 == 0 or k % 11 == 3]
    servers = [d for d in design.devices if design.devices[d].role == "gpu-server"][:2]
    cut += [lid for s in servers for lid in design.links_of_device(s) if lid not in cut]
    design.remove_links(cut)
    return design


# Built by the test that uses it, not while pytest collects: every xdist worker collects every
# module, and these took ~0.45 s of CPU in each, also where the test then ran elsewhere.
DESIGNS = {
    "leaf-spine": lambda: leaf_spine(nodes=64, node_type="dgx-h100", switch="qm9700"),
    "fat-tree": lambda: fat_tree(k=8),
    "rail": lambda: rail_optimized(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32),
    "rail-3": lambda: rail_optimized(
        nodes=512, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=32, tiers="3"
    ),
    "nvl72": lambda: nvl72(racks=4),
    "cut": _cut_rail,
}


@pytest.mark.parametrize("name", list(DESIGNS))
def test_grouped_count_equals_every_pair(name):
    topo = infer_topology(DESIGNS[name]())
    hops = server_hops(topo)
    hist, disconnected = _pair_by_pair(topo)
    assert hops.histogram == hist
    assert hops.disconnected_pairs == disconnected
    assert sum(hist.values()) + disconnected == (lambda s: s * (s - 1) // 2)(
        int(topo.is_gpu_server.sum())
    )
    if hist and not disconnected:
        assert hops.max == max(hist)


def test_fewer_than_two_servers_have_no_hops():
    design = rail_optimized(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    servers = [d for d in design.devices if design.devices[d].role == "gpu-server"]
    for keep in (1, 0):
        design.remove_devices([s for s in servers[keep:] if s in design.devices])
        hops = server_hops(infer_topology(design))
        assert (hops.max, hops.typical, hops.disconnected_pairs, hops.histogram) == (
            None,
            None,
            0,
            {},
        )
