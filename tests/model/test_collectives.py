"""Collectives from link loads: NCCL's patterns routed over generated fabrics, NCCL's latencies.

Hand computations on DGX H100 (8 GPUs per NVLink domain, 450 GB/s NVLink and 8 x 400 Gb/s NICs
per server, domain-facts 6a/6b); nccl-tests doc/PERFORMANCE.md: a ring all-reduce of S bytes on
n ranks moves 2(n-1)/n x S per rank; NCCL src/graph/tuning.cc (commit 5067397c) for latencies.
"""

from __future__ import annotations

import pytest

from model.analysis.allreduce import job_allreduce
from model.analysis.collectives import Collectives, after_failure
from model.analysis.jobs import named_job
from model.generators.generate import rail_optimized

GIB = 2**30
NVLINK = 450e9  # bytes/s per GPU per direction (3,600 Gb/s)
NIC = 50e9  # bytes/s per 400G NIC per direction


@pytest.fixture(scope="module")
def superpod():
    # 128 DGX H100 = 1,024 GPUs, rail-optimized 2 tiers of QM9700, non-blocking (4-SU SuperPOD).
    return Collectives(
        rail_optimized(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    )


def two_sus(ratio: int) -> Collectives:
    # Two SUs of 32 DGX H100; at 2:1 each rail leaf has 32 ports down and 16 up, at 3:1 11.
    design = rail_optimized(
        nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=ratio
    )
    return Collectives(design)


@pytest.mark.parametrize("gpus", [8, 64, 1024])
def test_ring_allreduce_at_one_gib_is_the_nccl_ring_formula(superpod, gpus):
    """nccl-tests PERFORMANCE.md: t = 2(n-1)/n x S / B. In one server B is a GPU's NVLink; across
    servers each ring hop that leaves a server goes through one of its 8 NICs (one ring per
    rail), so B = 8 x 50 GB/s per server, and the 7 NVLink hops of 8 run at the same time."""
    e = superpod.estimate(superpod.job(gpus), "all-reduce", GIB, "ring", "Simple")
    ring = 2 * (gpus - 1) / gpus
    expected = ring * GIB / NVLINK if gpus == 8 else ring * GIB / (8 * NIC)
    assert e.bandwidth_s == pytest.approx(expected, rel=1e-9)
    assert e.limited_by == ("scale-up" if gpus == 8 else "server-leaf")
    assert e.latency_bound == (gpus == 1024)  # ring/Simple: 2 x 1,023 steps of 3-14 µs
    if gpus > 8:  # every server-leaf link equally busy: each carries one hop per direction
        assert e.bottleneck_count == gpus


@pytest.mark.parametrize("ratio", [1, 2, 3])
def test_a_ring_over_two_sus_barely_feels_the_oversubscription(ratio):
    """Issue 37: the old model made a 264-GPU ring over two SUs at 2:1 take 10.70 ms against
    5.35 ms for 256 GPUs in one SU. Topology-ordered, each rail's ring leaves the first SU once
    and comes back once: one hop of f S / 8 split over the leaf's 16 (2:1) or 11 (3:1) uplinks,
    while every NIC carries f S / 8. So the NICs stay the busiest links and the transfer time is
    the one-SU time x (2 x 263/264) / (2 x 255/256)."""
    c = two_sus(ratio)
    one_su = c.estimate(c.job(256), "all-reduce", GIB, "ring")
    two = c.estimate(c.job(264), "all-reduce", GIB, "ring")
    assert two.time_s == pytest.approx(one_su.time_s, rel=0.10)
    assert two.limited_by == one_su.limited_by == "server-leaf"
    simple = [c.estimate(c.job(g), "all-reduce", GIB, "ring", "Simple") for g in (256, 264)]
    assert simple[1].bandwidth_s / simple[0].bandwidth_s == pytest.approx(
        (263 / 264) / (255 / 256), rel=1e-9
    )


def test_all_to_all_across_sus_costs_what_the_uplinks_carry():
    """Each GPU sends S/n to every other (n = 512 over 2 SUs). A NIC sends (n - 8)/n x S; a leaf's
    32 NICs send half of all their bytes to the other SU: 32 x 256/512 x S = 16 S up. At 1:1 that
    crosses 32 uplinks (S/2 each: the NICs limit), at 2:1 16 (S each: a tie with the NICs,
    1.016x the 1:1 time), at 3:1 12 (4/3 S each). The issue's "about 2x at 2:1" needs nearly
    all bytes to leave the SU: with 16 SUs 15/16 do, and at 2:1 the uplinks carry
    32 x 15/16 x S / 16 = 1.875 S against (n - 8)/n x S per NIC: 1.88x the 1:1 time."""
    times, uplinks = {}, {}
    for ratio in (1, 2, 3):
        c = two_sus(ratio)
        e = c.estimate(c.default_job, "all-to-all", GIB)
        times[ratio] = e.bandwidth_s
        assert e.algorithm == "ring" and e.protocol == "Simple"
        leaf = next(d for d in c.design.devices if "leaf" in d)
        uplinks[ratio] = sum(
            leaf in (k.a.device, k.b.device) and "spine" in k.a.device + k.b.device
            for k in c.design.links.values()
        )
    # the generator cables 32, 16 and 12 uplinks (3:1 rounds 32/3 up to an even spread)
    assert uplinks == {1: 32, 2: 16, 3: 12}
    nic = 504 / 512 * GIB / NIC
    assert times[1] == pytest.approx(nic, rel=1e-9)
    assert times[2] == pytest.approx(GIB / NIC, rel=1e-9)
    assert times[3] == pytest.approx(16 / 12 * GIB / NIC, rel=1e-9)
    many = rail_optimized(
        nodes=512, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=2
    )
    c = Collectives(many)
    e = c.estimate(c.default_job, "all-to-all", GIB)
    assert e.limited_by == "leaf-spine"
    assert e.bandwidth_s == pytest.approx(32 * 15 / 16 * GIB / 16 / NIC, rel=1e-9)
    n = 4096
    assert e.bandwidth_s / ((n - 8) / n * GIB / NIC) == pytest.approx(1.875 * n / (n - 8))


def test_a_one_kib_all_reduce_costs_nccls_latency(superpod):
    """tuning.cc on 128 nodes x 8 GPUs: tree/LL = base 6.8 + 2 x ((8 - 1) x 0.6 NVLink +
    log2(128) x 5.0 network) = 85.2 µs, the fastest pair (ring/LL: 6.6 + 1,792 x 1.0 +
    254 x 2.7 = 2,484.4 µs). Not the 5 ns of a bandwidth-only model."""
    e = superpod.estimate(superpod.default_job, "all-reduce", 1024)
    assert (e.algorithm, e.protocol) == ("tree", "LL")
    assert e.latency_s == pytest.approx(85.2e-6, rel=1e-9)
    assert 10e-6 < e.time_s < 100e-6 and e.latency_bound
    ring = superpod.estimate(superpod.default_job, "all-reduce", 1024, "ring", "LL")
    assert ring.latency_s == pytest.approx(2484.4e-6, rel=1e-9)


def test_nvls_inside_one_server_and_nvls_tree_across(superpod):
    """tuning.cc: NVLS all-reduce bus bandwidth = 2 x 0.85 (Hopper) x NVLink; algBW = busBW x
    n / 2(n-1); latency 25 µs (NVLink hop). Across 128 servers NCCL's default pick for 1 GiB
    is NVLS-tree: the double binary tree's 2S per server over its 8 NICs, + 25 + 2 x 7 x 20.9."""
    one = superpod.estimate(superpod.job(8), "all-reduce", GIB)
    assert (one.algorithm, one.latency_s) == ("nvls", pytest.approx(25e-6))
    assert one.bandwidth_s == pytest.approx(2 * 7 / 8 * GIB / (2 * 0.85 * NVLINK), rel=1e-9)
    e = superpod.estimate(superpod.default_job, "all-reduce", GIB)
    assert e.algorithm == "nvls-tree" and e.latency_s == pytest.approx((25 + 14 * 20.9) * 1e-6)
    assert e.bandwidth_s == pytest.approx(2 * GIB / (8 * NIC), rel=1e-3)


def test_a_failed_spine_slows_the_all_to_all_by_the_uplinks_lost():
    """Two SUs at 2:1: 16 leaves x 16 uplinks over 4 spines. Without spine01 a leaf keeps 12
    uplinks for its 16 S: 4/3 S each, 4/3 of the time with all spines (S per uplink)."""
    design = two_sus(2).design
    spines = sorted(d for d in design.devices if "spine" in d)
    base = after_failure(design, [], "all-to-all", GIB)
    hit = after_failure(design, [spines[0]], "all-to-all", GIB)
    assert hit.bandwidth_s / base.bandwidth_s == pytest.approx(4 / 3, rel=1e-9)
    assert hit.limited_by == "leaf-spine" and hit.gpus == 512
    with pytest.raises(ValueError, match="neither a device nor a link"):
        after_failure(design, ["nope"])


def test_jobs_by_su_rack_and_server_and_the_largest_piece():
    c = two_sus(2)
    design = c.design
    su2 = named_job(c.fabric, design, ["su:2"])
    assert su2.gpus == 256
    rack = next(iter(design.racks))
    in_rack = [
        d for d, dev in design.devices.items() if dev.rack == rack and dev.role == "gpu-server"
    ]
    if in_rack:
        assert named_job(c.fabric, design, [rack]).gpus == 8 * len(in_rack)
    with pytest.raises(ValueError, match="not a GPU server, a rack or an SU"):
        named_job(c.fabric, design, ["spine01"])
    # Every leaf of rail 1 gone in both SUs: the servers still reach each other on rails 2-8.
    assert c.default_job.gpus == 512 and c.default_job.label == "whole hall"


def test_job_allreduce_reads_the_settings():
    design = two_sus(1).design
    e = job_allreduce(design, 64, algorithm="ring", message_mb=1024, protocol="Simple")
    assert e.gpus == 64 and e.algorithm == "ring"
    assert e.bandwidth_s == pytest.approx(2 * 63 / 64 * 1.024e9 / (8 * NIC), rel=1e-9)


def test_collective_cli_and_its_allreduce_alias(tmp_path, capsys):
    import json

    from cli import run_cli
    from model.files.design_file import save_design

    path = tmp_path / "two.hall.json"
    save_design(two_sus(2).design, path)
    argv = ["collective", str(path), "--collective", "all-to-all", "--json"]
    assert run_cli(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["gpus"] == 512 and out["limited_by"] == "leaf-spine"
    assert out["bottleneck_links"] and out["curve"][-1]["gpus"] == 512
    assert run_cli(["allreduce", str(path), "--gpus", "264", "--algorithm", "ring"]) == 0
    assert "busiest links (server-leaf)" in capsys.readouterr().out
    assert run_cli(["collective", str(path), "--job", "spine01"]) == 2
    assert "not a GPU server" in capsys.readouterr().err
    assert run_cli(["allreduce", str(path), "--gpus", "100000"]) == 2
    assert run_cli(["collective", str(path), "--fail", "nope"]) == 2
    assert "neither a device nor a link" in capsys.readouterr().err


def test_collnet_reduces_in_the_switches_when_asked():
    """IB SHARP on Quantum-2 (NCCL's CollNet, off unless asked: NCCL_COLLNET_ENABLE=0). Per rail
    a server's NIC sends S/8 up and gets S/8 back; each leaf reduces its 32 servers' streams into
    one S/8, spread over its 16 uplinks (2:1): 1/16 of a NIC's bytes each. Inside the server
    NCCL's CollNet-direct moves 2 x 7/8 S per GPU over NVLink at 0.85 efficiency (Hopper), which
    limits; latency 2 x (3.7 + 7 x 0.4) + 31 = 44 µs (tuning.cc)."""
    from model.analysis.link_loads import collnet_loads, job_nics

    c = two_sus(2)
    job = c.default_job
    assert c.estimate(job, "all-reduce", GIB).algorithm != "collnet"  # not by default
    e = c.estimate(job, "all-reduce", GIB, "collnet")
    assert e.latency_s == pytest.approx(44e-6, rel=1e-9)
    assert e.bandwidth_s == pytest.approx(2 * 7 / 8 * GIB / (0.85 * NVLINK), rel=1e-9)
    assert e.limited_by == "scale-up"
    loads = collnet_loads(c.fabric, job_nics(c.fabric, job))
    tiers = c.topo.link_tier
    server = max(u for u, t in zip(loads.up, tiers, strict=True) if t == "server-leaf")
    uplink = max(u for u, t in zip(loads.up, tiers, strict=True) if t == "leaf-spine")
    assert (server, uplink) == (pytest.approx(1.0), pytest.approx(1 / 16))
    spectrum = Collectives(
        rail_optimized(nodes=64, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=32)
    )
    with pytest.raises(ValueError, match="IB SHARP"):
        spectrum.estimate(spectrum.default_job, "all-reduce", GIB, "collnet")


def test_trees_are_nccls_in_order_btree_and_its_mirror():
    """src/graph/trees.cc, ncclGetBtree's illustration for 14 ranks: 0 -> 8 -> {4, 12},
    4 -> {2, 6}, 12 -> {10, 13}, 2 -> {1, 3} ... (13's parent 12: 13's lowest bit moved up is
    out of range, so it is cleared). Subtrees are runs of consecutive ranks, so on two SUs in
    topology order the trees of each rail cross between the SUs on a few edges: the default
    all-reduce (NVLS-tree) of 64 DGX is the same at 1:1, 2:1 and 3:1 (NIC-bound), where the old
    heap order (parent (c - 1) // 2) hung all 32 servers of SU 2 below SU 1 and slowed 3:1 by
    1.32x."""
    import numpy as np

    from model.analysis.link_loads import btree_parent

    parents = dict(zip(range(1, 14), btree_parent(np.arange(1, 14), 14).tolist(), strict=True))
    assert parents == {
        1: 2, 2: 4, 3: 2, 4: 8, 5: 6, 6: 4, 7: 6, 8: 0, 9: 10, 10: 12, 11: 10, 12: 8, 13: 12
    }  # fmt: skip
    times = {}
    for ratio in (1, 2, 3):
        c = two_sus(ratio)
        e = c.estimate(c.default_job, "all-reduce", GIB)
        assert e.algorithm == "nvls-tree" and e.limited_by == "server-leaf"
        times[ratio] = e.time_s
    assert times[2] == times[1] and times[3] == times[1]
