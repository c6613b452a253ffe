"""Generated fabrics have the counts their formulas give (derived here, independently of the code).

Notation: K leaf radix at the NIC speed, R oversubscription (down:up), P reserved leaf ports,
C compute NICs per node (= rails), M nodes per scalable unit (SU), N nodes.
  leaf uplinks at most U = floor(K / (R + 1)); downlink capacity d = R U - P (ports left are
  spares); leaves per rail per SU ceil(M / d); SUs ceil(N / M); leaves L = SUs * C * ceil(M / d).
  Uplinks cabled u: at least ceil(ceil(M / lpr) / R) (sized to the downlinks in use), the first
  such count whose even spread needs only ceil(L u / K) spines.
  2 tiers: spines S = the smallest divisor of u with S * K >= L * u.
  3 tiers: pod spines use K/2 ports down, K/2 up; a pod is a run of K/2 leaves (pods span SUs
  when an SU's leaves do not divide K/2); spines per pod Sp = smallest divisor of u with
  Sp * K/2 >= pod leaves * u; full pods floor(L / (K/2)); the leaves left over are smaller pods
  on the fewest spines in all, a pod of S spines (S a divisor of u, at least 2) holding
  S * (K/2) / u leaves; cores: every core full, i.e. the spines' uplinks / K, when that is
  whole (else one group per spine position, the textbook divisor).
"""

from __future__ import annotations

import functools
import math

import pytest

from model.engine.routed_links import RoutedLinks
from model.generators.generate import fat_tree, generate, leaf_spine, nvl72, preview, rail_optimized
from model.generators.plans import GenerateError
from tests.model.generate_checks import assert_links_valid, tier_counts


def smallest_divisor(n: int, at_least: float) -> int:
    return min(s for s in range(1, n + 1) if n % s == 0 and s >= at_least)


def spines_for(u, leaves, ports):
    return smallest_divisor(u, max(leaves * u / ports, 2))


def uplinks_for(need, most, leaves, ports):
    # at least 2 uplinks over at least 2 spines (no single point of failure)
    for u in range(max(need, 2), most + 1):
        if spines_for(u, leaves, ports) == max(math.ceil(leaves * u / ports), 2):
            return u
    # no count reaches the port minimum: the fewest spines
    return min(range(max(need, 2), most + 1), key=lambda u: (spines_for(u, leaves, ports), u))


def rail_formula(N, C, M, K, R=1, P=0, tiers=None):
    # A rail of one SU that needs several leaves may share its leaves with other rails, r rails
    # of d // r nodes a leaf, when that builds fewer switches (then the fewest rails a leaf).
    most = K // (R + 1)
    d = R * most - P
    if math.ceil(min(M, N) / d) == 1:
        return rail_formula_shared(N, C, M, K, R, P, tiers, 1)
    options = []
    for r in (r for r in range(1, C + 1) if C % r == 0):
        counts = rail_formula_shared(N, C, M, K, R, P, tiers, r)
        options.append((counts["leaf"] + counts["spine"] + counts.get("core", 0), r, counts))
    return min(options, key=lambda o: o[:2])[2]


def rail_formula_shared(N, C, M, K, R, P, tiers, r):
    most = K // (R + 1)
    d = R * most - P
    M = min(M, N)
    lpr = math.ceil(M / (d // r))
    need = math.ceil(math.ceil(M / lpr) * r / R)
    sus = math.ceil(N / M)
    L = sus * (C // r) * lpr
    if tiers != 3 and L <= K:
        u = uplinks_for(need, most, L, K)
        return {
            "leaf": L,
            "node-leaf": N * C,
            "leaf-spine": L * u,
            "spine": spines_for(u, L, K),
        }
    half = K // 2
    pod_leaves = min(half, L)
    u = uplinks_for(need, most, pod_leaves, half)
    out = {"leaf": L, "node-leaf": N * C, "leaf-spine": L * u}
    sp = spines_for(u, pod_leaves, half)
    full, rest = divmod(L, pod_leaves)
    sizes = [s for s in range(2, u + 1) if u % s == 0 and s * half // u >= 1]

    @functools.cache
    def fewest(r):  # spines for r leftover leaves
        return 0 if r <= 0 else min(s + fewest(r - s * half // u) for s in sizes)

    spines = sp * full + fewest(rest)
    pods = full + (rest > 0)
    uplinks = spines * (K - half)
    if uplinks % K == 0:
        cores = uplinks // K
    else:
        cores = sp * smallest_divisor(K - half, pods * (K - half) / K)
    out.update({"spine": spines, "core": cores, "spine-core": uplinks})
    return out


def check_rail(design, expected):
    roles, links = tier_counts(design)
    assert roles["leaf"] == expected["leaf"]
    assert roles["spine"] == expected["spine"]
    assert roles["core"] == expected.get("core", 0)
    assert links[("gpu-server", "leaf")] == expected["node-leaf"]
    assert links[("leaf", "spine")] == expected["leaf-spine"]
    assert links[("spine", "core")] == expected.get("spine-core", 0)
    assert_links_valid(design)


# ------------------------------------------------------------------------------ reference designs


def test_dgx_h100_superpod_4su_matches_the_reference_architecture():
    # NV-SP-H100: 4 SU, 32 leaves, 16 spines, 1,024 node-leaf and 1,024 leaf-spine cables.
    design = rail_optimized(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    check_rail(design, {"leaf": 32, "spine": 16, "node-leaf": 1024, "leaf-spine": 1024})
    assert rail_formula(128, 8, 32, 64) == {
        "leaf": 32,
        "spine": 16,
        "node-leaf": 1024,
        "leaf-spine": 1024,
    }
    assert design.gpu_count() == 1024
    # 8 leaves per SU, one per rail; each leaf 2 parallel links to each of the 16 spines.
    assert sum(1 for d in design.devices.values() if d.id.startswith("su1-leaf")) == 8
    spines_of = {}
    for link in design.links.values():
        if link.a.device == "su3-leaf-rail5":
            spines_of.setdefault(link.b.device, 0)
            spines_of[link.b.device] += 1
    assert len(spines_of) == 16 and set(spines_of.values()) == {2}


def test_127_node_superpod_keeps_every_leaf_uplink():
    design = rail_optimized(nodes=127, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    check_rail(design, {"leaf": 32, "spine": 16, "node-leaf": 1016, "leaf-spine": 1024})


def test_dgx_b300_xdr_one_su():
    # NV-SP-B300XDR: 72 nodes, 8 leaves / 4 spines, 576 / 576.
    design = rail_optimized(nodes=72, node_type="dgx-b300", switch="q3400", su_nodes=72)
    check_rail(design, {"leaf": 8, "spine": 4, "node-leaf": 576, "leaf-spine": 576})
    assert rail_formula(72, 8, 72, 144)["spine"] == 4


def test_rail_i_of_every_node_goes_to_its_su_rail_i_leaf():
    design = rail_optimized(nodes=64, node_type="dgx-b200", switch="qm9700", su_nodes=32)
    for link in design.links.values():
        node = design.devices[link.a.device]
        if node.role != "gpu-server":
            continue
        su = node.id.split("-")[0]
        rail = link.a.port.removeprefix("nic")
        assert link.b.device == f"{su}-leaf-rail{rail}"
    assert all(
        not design.free_ports(d.id, "compute")
        for d in design.devices.values()
        if d.role == "gpu-server"
    )


# ------------------------------------------------------------------------------ rail-optimized sizes


@pytest.mark.parametrize(
    "N,node_type,C,M,switch,K,R,P",
    [
        (32, "dgx-h100", 8, 32, "qm9700", 64, 1, 0),
        (256, "dgx-h100", 8, 32, "qm9700", 64, 1, 0),  # the largest 2-tier 64-port fabric
        (96, "dgx-h100", 8, 48, "qm9700", 64, 3, 0),  # 3:1 oversubscribed leaves
        (62, "dgx-h100", 8, 31, "qm9700", 64, 1, 1),  # 31-node SUs with a reserved port
        (40, "hgx-h100-8x400", 8, 40, "sn5600", 128, 1, 0),  # 800G switch broken out to 400G
        (512, "dgx-h100", 8, 32, "qm9700", 64, 1, 0),  # 3 tiers: 16 SUs, 4 pods
        (600, "dgx-h100", 8, 32, "qm9700", 64, 1, 0),  # 3 tiers with a partial SU and pod
    ],
)
def test_rail_optimized_counts(N, node_type, C, M, switch, K, R, P):
    expected = rail_formula(N, C, M, K, R, P)
    design = rail_optimized(
        nodes=N, node_type=node_type, switch=switch, su_nodes=M, oversubscription=R, reserve_ports=P
    )
    check_rail(design, expected)
    counts = preview(
        "rail-optimized",
        nodes=N,
        node_type=node_type,
        switch=switch,
        su_nodes=M,
        oversubscription=R,
        reserve_ports=P,
    )
    assert counts["switches"]["leaf"] == expected["leaf"]
    assert counts["links"]["leaf-spine"] == expected["leaf-spine"]
    assert counts["tiers"] == (3 if "core" in expected else 2)


def test_512_nodes_need_three_tiers_with_the_textbook_counts():
    # 16 SUs x 8 leaves = 128 leaves > 64: pods of 4 SUs (32 leaves), 32 spines per pod
    # (1 link per leaf), 4 pods; each spine position joins 2 cores (16 links each) -> 64 cores.
    assert rail_formula(512, 8, 32, 64) == {
        "leaf": 128,
        "spine": 128,
        "core": 64,
        "node-leaf": 4096,
        "leaf-spine": 4096,
        "spine-core": 4096,
    }
    with pytest.raises(ValueError, match="--tiers 3"):
        preview(
            "rail-optimized",
            nodes=512,
            node_type="dgx-h100",
            switch="qm9700",
            su_nodes=32,
            tiers="2",
        )


def test_forced_three_tiers_on_a_small_fabric():
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers="3")
    check_rail(design, rail_formula(64, 8, 32, 64, tiers=3))
    roles, _ = tier_counts(design)
    # One pod of 16 spines x 32 uplinks: 8 full cores (two spine positions share each group).
    assert roles["core"] == 8 and roles["spine"] == 16


def test_breakout_switch_runs_at_the_nic_speed():
    design = rail_optimized(nodes=2048, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=64)
    check_rail(design, rail_formula(2048, 8, 64, 128))
    leaf = design.devices["su1-leaf-rail1"]
    assert leaf.breakout == {"p": 2}
    assert design.link_at_port("su1-leaf-rail1", "p1/1") is not None


# ------------------------------------------------------------------------------ leaf-spine


@pytest.mark.parametrize(
    "N,node_type,C,switch,K,spine_switch,Ks,R",
    [
        (48, "dgx-h100", 8, "qm9700", 64, None, 64, 3),  # 3:1: 48 down / 16 up per leaf
        (100, "dgx-h100", 8, "qm9700", 64, None, 64, 3),
        (20, "hgx-h100-8x400", 8, "sn5600", 128, None, 128, 1),
        (100, "hgx-h100-8x400", 8, "sn5400", 64, "sn5600", 128, 1),
    ],
)
def test_leaf_spine_counts(N, node_type, C, switch, K, spine_switch, Ks, R):
    u = K // (R + 1)
    per_leaf = (K - u) // C
    leaves = math.ceil(N / per_leaf)
    spines = smallest_divisor(u, leaves * u / Ks)
    design = leaf_spine(
        nodes=N, node_type=node_type, switch=switch, spine_switch=spine_switch, oversubscription=R
    )
    roles, links = tier_counts(design)
    assert (roles["gpu-server"], roles["leaf"], roles["spine"]) == (N, leaves, spines)
    assert links[("gpu-server", "leaf")] == N * C
    assert links[("leaf", "spine")] == leaves * u
    assert_links_valid(design)
    # every node's NICs on one leaf; leaf down:up capacity is R:1
    for node in (d for d in design.devices.values() if d.role == "gpu-server"):
        assert len({design.links[ln].b.device for ln in design.links_of_device(node.id)}) == 1
    full_leaf = "leaf01"
    ends = [design.links[ln] for ln in design.links_of_device(full_leaf)]
    down = sum(1 for ln in ends if design.devices[ln.a.device].role == "gpu-server")
    up = sum(1 for ln in ends if ln.a.device == full_leaf)
    assert down <= R * up and up == u


def test_three_to_one_leaf_spine_oversubscription_is_three():
    design = leaf_spine(nodes=48, node_type="dgx-h100", switch="qm9700", oversubscription=3)
    for leaf in (d for d in design.devices.values() if d.role == "leaf"):
        ends = [design.links[ln] for ln in design.links_of_device(leaf.id)]
        down = sum(1 for ln in ends if ln.b.device == leaf.id)
        up = len(ends) - down
        assert down / up == 3


# ------------------------------------------------------------------------------ fat-tree


@pytest.mark.parametrize("k", [4, 6, 8, 16])
def test_fat_tree_counts(k):
    design = fat_tree(k=k)
    roles, links = tier_counts(design)
    hosts = k**3 // 4
    assert roles["gpu-server"] == hosts
    assert roles["leaf"] == roles["spine"] == k * k // 2
    assert roles["core"] == (k // 2) ** 2
    assert (
        links[("gpu-server", "leaf")]
        == links[("leaf", "spine")]
        == links[("spine", "core")]
        == hosts
    )
    assert_links_valid(design)
    # each core reaches every pod exactly once
    for core in (d.id for d in design.devices.values() if d.role == "core"):
        pods = [design.links[ln].a.device.split("-")[0] for ln in design.links_of_device(core)]
        assert len(pods) == k and len(set(pods)) == k
    assert design.custom_types.device_types  # generic switch and host travel in the file


def test_fat_tree_on_a_catalog_switch_uses_k_of_its_ports():
    design = fat_tree(k=8, switch="qm9700")
    assert {d.type for d in design.devices.values() if d.role != "gpu-server"} == {"qm9700"}
    assert len(design.custom_types.device_types) == 1  # only the generic host
    assert_links_valid(design)


# ------------------------------------------------------------------------------ NVL72


def test_nvl72_scale_up_and_scale_out_counts():
    racks = 2
    design = nvl72(racks=racks)
    roles, links = tier_counts(design)
    trays = racks * 18
    assert roles["gpu-server"] == trays and roles["nvlink-switch"] == racks * 9
    assert design.gpu_count() == racks * 72
    assert links[("gpu-server", "nvlink-switch")] == racks * 18 * 9
    # scale-out: M = 36 trays per SU, C = 4 NICs, qm9700: d = 32. At the Clos minimum (issue
    # 39): 144 endpoints on ceil(144 / 32) = 5 leaves and ceil(144 / 64) = 3 spines (8
    # switches; the even spread took 6 + 3 = 9): 4 rails share each leaf of 8 trays, and the
    # leaves' uplinks go round-robin over the 3 spines.
    assert (roles["leaf"], roles["spine"]) == (5, 3)
    assert {
        link.b.device.split("-leaf-")[1].rsplit("-", 1)[0]
        for link in design.links.values()
        if design.devices[link.b.device].role == "leaf"
    } == {"rails1-4"}
    assert links[("gpu-server", "leaf")] == trays * 4
    assert_links_valid(design)
    # every NVLink link stays inside its rack, each tray reaching all 9 switch trays once
    for link in design.links.values():
        if design.devices[link.b.device].role == "nvlink-switch":
            assert design.devices[link.a.device].rack == design.devices[link.b.device].rack
    nvl_racks = [r for r in design.racks.values() if r.type == "rack-nvl72"]
    assert len(nvl_racks) == racks
    counts = preview("nvl72", racks=racks)
    assert counts["links"]["scale-up"] == 324 and counts["gpus"] == 144


# ------------------------------------------------------------------------------ generate()


def test_generate_dispatches_by_template_name():
    design = generate("leaf-spine", nodes=4, node_type="dgx-h100", switch="qm9700")
    assert len(design.links) == 4 * 8 + 32 * 1


@pytest.mark.parametrize("node_type", [None, "dgx-h100"])
def test_fat_tree_on_a_switch_no_medium_can_cable_to_the_hosts_is_refused(node_type):
    # A Q3400 at 400G splits each 800G port in two 2 x 200G lanes; the generic host's NIC and
    # the DGX H100's ConnectX-7 run 400G on 4 x 100G, so 128 of a k = 8 tree's links would
    # have no medium (they were built, unroutable, before this check).
    with pytest.raises(GenerateError) as refused:
        fat_tree(k=8, switch="q3400", node_type=node_type)
    message = str(refused.value)
    assert "no medium in the catalog joins the 400G" in message
    assert "'q3400' (lanes at 100G and 200G)" in message


@pytest.mark.parametrize("switch", ["qm9700", "sn5600"])
def test_fat_tree_on_a_cableable_switch_has_a_medium_for_every_link(switch):
    design = fat_tree(k=8, switch=switch, node_type="dgx-h100")
    assert int((RoutedLinks(design).medium_index < 0).sum()) == 0
