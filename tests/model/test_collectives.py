"""All-reduce after NCCL's model: pipelined phases, busBW, and placement-aware oversubscription.

Hand computations on DGX H100 (8 GPUs per NVLink domain, 3,600 Gb/s NVLink and 400 Gb/s NIC per
GPU per direction, domain-facts 6a/6b); nccl-tests: busBW = algBW x 2(n-1)/n (NCCL-PERF).
"""

from __future__ import annotations

import pytest

from model.analysis.allreduce import job_allreduce
from model.analysis.collectives import nccl_allreduce
from model.generators.generate import rail_optimized

GIB = 2**30
UP, NIC = 3600e9, 400e9  # bit/s per GPU per direction


@pytest.fixture(scope="module")
def superpod():
    # 128 DGX H100 = 1,024 GPUs, rail-optimized 2 tiers of QM9700, non-blocking (4-SU SuperPOD).
    return rail_optimized(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32)


@pytest.mark.parametrize("gpus", [8, 64, 1024])
def test_ring_allreduce_on_dgx_h100_by_hand(superpod, gpus):
    bits = GIB * 8
    a = job_allreduce(superpod, gpus, algorithm="ring", message_mb=GIB / 1e6)
    ring = 2 * (gpus - 1) / gpus
    if gpus == 8:  # one NVLink domain: the ring is all NVLink
        expected = ring * bits / UP
    else:  # 7 of 8 hops on NVLink, one per server leaves through its 8 NICs; pipelined
        expected = max(ring * bits * 7 / 8 / UP, ring * bits / (8 * NIC))
    assert a.time_s == pytest.approx(expected, rel=1e-9)
    # nccl-tests' own bus bandwidth of that time: the narrowest per-rank bandwidth.
    busbw = GIB / a.time_s * ring * 8
    assert a.busbw_gbps * 1e9 == pytest.approx(busbw, rel=1e-9)
    assert a.busbw_gbps * 1e9 == pytest.approx(UP if gpus == 8 else 8 * NIC, rel=1e-9)


@pytest.mark.parametrize("gpus", [8, 64, 1024])
def test_hierarchical_allreduce_on_dgx_h100_by_hand(superpod, gpus):
    bits = GIB * 8
    a = job_allreduce(superpod, gpus, algorithm="hierarchical", message_mb=GIB / 1e6)
    n = gpus // 8
    t_up = 2 * 7 / 8 * bits / UP
    t_out = 2 * (n - 1) / n * bits / 8 / NIC
    assert a.time_s == pytest.approx(max(t_up, t_out), rel=1e-9)  # phases overlap, not add
    assert a.limited_by == ("scale-up" if t_up >= t_out else "nic")
    if gpus == 1024:
        # The summed model this replaces gave t_up + t_out (9.5 ms for 1 GiB).
        assert a.time_s == pytest.approx(t_out) and a.time_s < 0.6 * (t_up + t_out)


def test_tree_moves_the_whole_message_each_way():
    bits = GIB * 8
    p = nccl_allreduce(GIB, 64, 8, UP / 1e9, NIC / 1e9, "tree")
    assert p.t_out_s == pytest.approx(2 * bits / (8 * NIC))
    assert p.t_up_s == pytest.approx(2 * bits / UP)
    assert p.time_s == max(p.t_up_s, p.t_out_s)


@pytest.fixture(scope="module")
def oversubscribed():
    # Two SUs of 48 DGX H100; each rail leaf has 48 down and 16 up: 3:1.
    return rail_optimized(
        nodes=96, node_type="dgx-h100", switch="qm9700", su_nodes=48, oversubscription=3
    )


def test_an_oversubscribed_tier_the_rings_do_not_cross_costs_nothing(oversubscribed):
    bits = 1024e6 * 8
    a = job_allreduce(oversubscribed, 384, "first", "ring", 1024)  # one SU: one leaf per rail
    assert a.tiers_crossed == []
    assert a.scale_out_gbps == 400
    ring = 2 * 383 / 384
    assert a.time_s == pytest.approx(max(ring * bits * 7 / 8 / UP, ring * bits / (8 * NIC)))


def test_an_oversubscribed_tier_the_rings_cross_slows_them(oversubscribed):
    bits = 1024e6 * 8
    a = job_allreduce(oversubscribed, 768, "first", "ring", 1024)  # two SUs: rings join leaves
    assert a.tiers_crossed == ["leaf"]
    assert a.scale_out_gbps == pytest.approx(400 / 3)
    ring = 2 * 767 / 768
    assert a.time_s == pytest.approx(ring * bits / (8 * NIC / 3))
    assert a.limited_by == "leaf"


def test_placement_decides_the_crossing(oversubscribed):
    # 48 servers taken one from each SU in turn cross the leaf tier; by SU they do not.
    servers = [d.id for d in oversubscribed.devices.values() if d.role == "gpu-server"]
    interleaved = [s for pair in zip(servers[:48], servers[48:], strict=True) for s in pair]
    a = job_allreduce(oversubscribed, 384, interleaved, "ring", 1024)
    assert a.tiers_crossed == ["leaf"] and a.placement == "list"
    assert job_allreduce(oversubscribed, 384, "by-su", "ring", 1024).tiers_crossed == []
    with pytest.raises(ValueError, match="not a GPU server"):
        job_allreduce(oversubscribed, 16, ["spine01", "x"], "ring", 1024)


def test_allreduce_cli_reports_the_job_and_refuses_bad_input(oversubscribed, tmp_path, capsys):
    import json

    from cli import run_cli
    from model.files.design_file import save_design

    path = tmp_path / "os.hall.json"
    save_design(oversubscribed, path)
    argv = ["allreduce", str(path), "--gpus", "384", "--algorithm", "ring", "--json"]
    assert run_cli(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tiers_crossed"] == [] and out["gpus"] == 384
    assert out["busbw_gbps"] == pytest.approx(8 * 400)
    assert [p["gpus"] for p in out["curve"]][-1] == 384
    assert run_cli(["allreduce", str(path), "--servers", "su1-node01,su2-node01"]) == 0
    assert "tiers crossed: leaf" in capsys.readouterr().out
    assert run_cli(["allreduce", str(path), "--servers", "spine01"]) == 2
    assert "not a GPU server" in capsys.readouterr().err
    assert run_cli(["allreduce", str(path), "--gpus", "100000"]) == 2
