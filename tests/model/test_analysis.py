"""Analysis figures: a hand-computed 5-device design, textbook Clos formulas, max-flow vs tiers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from model.analysis import analyze
from model.analysis.bisection import bisection
from model.analysis.topology import infer_topology
from model.files.design_file import save_design
from tests.analysis_fabrics import FakePlant, clos
from tests.builders import device, empty_hall, link, rack

ROOT = Path(__file__).resolve().parents[2]
M_BITS = 1024 * 8e6  # default all-reduce message, 1024 MB


def five_devices():
    """s1, s2 (DGX H100) -> leaf1, leaf2 (QM9700) -> spine (QM9700), with explicit media.

    s1 nic1-8 -> leaf1 p1-8 (DR4, 10 m); s2 nic1-8 -> leaf2 p1-8 (SR4, 20.3 m, ordered 30 m);
    leaf1 p9-12 -> spine p1-4 (DAC, 1.5 m); leaf2 p9-12 -> spine p5-8 (LACC, 3.2 m, ordered 4 m).
    """
    design = empty_hall(20.0, 10.0)
    rack(design, "r1", 1.0, 3.0)
    rack(design, "r2", 5.0, 3.0)
    rack(design, "n1", 3.0, 3.0)
    rack(design, "n2", 3.6, 3.0)
    device(design, "s1", "r1", 2, "dgx-h100")
    device(design, "s2", "r2", 2, "dgx-h100")
    device(design, "leaf1", "n1", 20, "qm9700", role="leaf")
    device(design, "leaf2", "n1", 22, "qm9700", role="leaf")
    device(design, "spine", "n2", 20, "qm9700", role="spine")
    media, lengths, ordered = {}, {}, {}
    for server, leaf, medium, length, order in (
        ("s1", "leaf1", "dr4-400g", 10.0, 10.0),
        ("s2", "leaf2", "sr4-400g", 20.3, 30.0),
    ):
        for i in range(1, 9):
            link_id = f"{server}-{i}"
            link(design, link_id, (server, f"nic{i}"), (leaf, f"p{i}"))
            media[link_id], lengths[link_id], ordered[link_id] = medium, length, order
    for leaf, first, medium, length, order in (
        ("leaf1", 1, "dac-400g", 1.5, 1.5),
        ("leaf2", 5, "lacc-400g", 3.2, 4.0),
    ):
        for i in range(4):
            link_id = f"{leaf}-up{i}"
            link(design, link_id, (leaf, f"p{9 + i}"), ("spine", f"p{first + i}"))
            media[link_id], lengths[link_id], ordered[link_id] = medium, length, order
    return design, FakePlant(design, media, lengths, ordered)


def test_five_device_design_every_number_by_hand():
    design, plant = five_devices()
    r = analyze(design, plant)
    j = r.to_json()
    assert (j["gpus"], j["servers"], j["racks"]) == (16, 2, 4)
    assert j["switches"] == {"total": 3, "by_tier": {"leaf": 2, "spine": 1, "core": 0}}
    assert j["links"]["total"] == 24
    assert j["links"]["by_tier"] == {"server-leaf": 16, "leaf-spine": 8, "spine-core": 0}
    assert j["links"]["by_kind"] == {"dac": 4, "acc": 4, "aec": 0, "aoc": 0, "mmf": 8, "smf": 8}
    # One plug per twin-port cage. DR4 8 links: 4 flat modules at s1 + 4 finned at leaf1; SR4
    # likewise at s2 / leaf2; the uplinks pair up per cage: 2 straight twin-port DACs (leaf1)
    # and 2 straight twin-port LACCs (leaf2), no module.
    assert j["transceivers"]["total"] == 8 + 8
    assert j["transceivers"]["by_kind"] == {
        "smf": {"modules": 8, "power_w": 128.0, "power_w_max": 136.0},
        "mmf": {"modules": 8, "power_w": 120.0, "power_w_max": 136.0},
    }
    assert j["plant"]["cables"]["by_kind"] == {"acc": 2, "dac": 2, "mmf-fibre": 8, "smf-fibre": 8}
    # Cages: DGX 4 nic + 4 storage + 2 frontend + 1 BMC, QM9700 32 + 1; used: s1, s2 4 each,
    # leaf1, leaf2 4 down + 2 up, spine 4.
    assert j["plant"]["cages"] == {
        "total": 2 * 11 + 3 * 33,
        "used": 4 + 4 + 6 + 6 + 4,
        "invalid": 0,
    }
    # Module power: 2xDR4 16 W (17 max), 2xSR4 15 W (17 max); cable ends: DAC 0.1 W x 2 per
    # cable, LACC 1.5 W x 2 per cable.
    assert j["transceivers"]["power_w"] == pytest.approx(128 + 120)
    assert j["power_w"]["cables"] == pytest.approx(2 * 0.2 + 2 * 3.0)
    assert j["power_w_max"]["transceivers"] == pytest.approx(136 + 136)
    assert j["power_w"]["servers"] == 2 * 8000
    assert j["power_w_max"]["servers"] == 2 * 10200
    assert j["power_w"]["switches"] == 3 * 747
    assert j["power_w"]["total"] == pytest.approx(16000 + 2241 + 248 + 6.4)
    assert j["cable_length_m"]["total"] == pytest.approx(8 * 10 + 8 * 20.3 + 4 * 1.5 + 4 * 3.2)
    assert j["cable_length_m"]["max"] == pytest.approx(20.3)
    # Cost: modules 8 x $1,250 (2xDR4) + 8 x $800 (2xSR4); fibres 8 x (35 + 1.2/m x 10 m)
    # single-mode, 8 x (40 + 1.5/m x 30 m) multimode; 2 DACs x (170 + 40/m x 1.5 m), 2 LACCs x
    # (330 + 30/m x 4 m); servers 2 x 199k, switches 3 x 35k, racks 4 x 2.5k.
    assert j["cost_usd"]["transceivers"] == 16_400
    assert j["cost_usd"]["cables"] == pytest.approx(8 * 47 + 8 * 85 + 2 * 230 + 2 * 450)
    assert j["cost_usd"]["servers"] == 398_000
    assert j["cost_usd"]["switches"] == 105_000
    assert j["cost_usd"]["racks"] == 10_000
    assert j["cost_usd"]["total"] == pytest.approx(16_400 + 2416 + 398_000 + 105_000 + 10_000)
    # Each leaf: 8 x 400 down, 4 x 400 up -> 2:1; the spine is the top tier (omitted).
    assert j["oversubscription"] == {"leaf": 2.0}
    # Halves by position: s1 (x=1) | s2 (x=5). Only leaf1's 4 uplinks cross: 1,600 Gb/s.
    assert j["bisection_gbps"] == 1600
    assert j["hops"]["max"] == 3 and j["hops"]["typical"] == 3
    assert j["bandwidth_per_gpu_gbps"]["scale_up"] == 3600
    assert j["bandwidth_per_gpu_gbps"]["scale_out"] == 400  # 8 x 400G / 8 GPUs
    assert j["bandwidth_per_gpu_gbps"]["effective"] == 200  # after the 2:1 leaf tier
    assert j["bottleneck"]["layer"] == "leaf"
    assert "2.00:1" in j["bottleneck"]["explanation"]
    # All-reduce of 1024 MB over both servers, NCCL's choice (tuning.cc): NVLS-tree. Its two
    # binary trees over 2 nodes carry S each way between s1 and s2, S/8 per rail; each leaf
    # sends its 8 rails' S up 4 uplinks: S/4 each at 50 GB/s = 5.12 ms (the NICs carry S/8).
    # NVLS inside a server: 2(16-1)/16 x S / (2 x 0.85 x 450 GB/s) = 2.51 ms runs alongside.
    # Latency 25 + 2 x log2(2) x 20.9 = 66.8 µs.
    a = j["allreduce"]
    assert (a["algorithm"], a["protocol"]) == ("nvls-tree", "Simple")
    assert a["time_s"] == pytest.approx(M_BITS / 8 / 4 / 50e9 + 66.8e-6, rel=1e-6)
    assert a["limited_by"] == "leaf-spine" and a["bottleneck_count"] == 8
    assert set(a["bottleneck_links"]) == {f"leaf{k}-up{i}" for k in (1, 2) for i in range(4)}
    assert [p["gpus"] for p in a["curve"]] == [8, 16]
    assert "leaf1-up0" in j["bottleneck"]["collective"]
    assert set(j["collectives"]["default_job"]) == {
        "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast"
    }  # fmt: skip
    # Rack power: r1 = 8,000 W + 4 flat 2xDR4 modules x 16 W (x 17 W at max).
    assert r.rack_power_w["r1"][:2] == pytest.approx((8064, 10200 + 68))
    codes = sorted(w["code"] for w in j["warnings"])
    assert codes == ["OVERSUBSCRIBED", "SINGLE_UPLINK", "SINGLE_UPLINK"]


def test_ring_allreduce_runs_at_the_narrowest_per_rank_bandwidth():
    """A ring per rail: both hops of rail r (s1 -> s2, s2 -> s1) carry 2 x 15/16 x S / 8, and
    each leaf's 8 rails go up its 4 uplinks: 2 x 15/16 x S / 4 per uplink, twice a NIC's."""
    from model.analysis.allreduce import job_allreduce

    design, _plant = five_devices()
    a = job_allreduce(design, algorithm="ring", message_mb=1024, protocol="Simple")
    assert a.bandwidth_s == pytest.approx(2 * 15 / 16 * M_BITS / 8 / 4 / 50e9, rel=1e-9)
    assert a.limited_by == "leaf-spine" and a.bottleneck_count == 8


def test_small_pod_is_non_blocking_single_tier(pod):
    j = analyze(pod).to_json()
    assert j["switches"]["by_tier"] == {"leaf": 2, "spine": 0, "core": 0}
    assert j["oversubscription"] == {}
    # 4 servers, 32 x 400G server links: bisection = 16 links x 400G.
    assert j["bisection_gbps"] == 16 * 400
    assert j["bottleneck"]["layer"] == "nic"
    assert j["hops"] == {"max": 1, "typical": 1, "disconnected_pairs": 0}
    assert j["warnings"] == []


@pytest.mark.parametrize("spines,links_per_spine,ratio", [(4, 2, 1.0), (4, 1, 2.0), (2, 1, 4.0)])
def test_leaf_spine_textbook(spines, links_per_spine, ratio):
    """Non-blocking: bisection = NIC links / 2 x 400G; s:1 leaves divide it by s."""
    design = clos(
        leaves_per_pod=4,
        servers_per_leaf=2,
        nics=4,
        spines_per_pod=spines,
        leaf_spine_links=links_per_spine,
    )
    j = analyze(design).to_json()
    host_links = 4 * 2 * 4
    assert j["oversubscription"]["leaf"] == ratio
    assert j["bisection_gbps"] == host_links / 2 * 400 / ratio
    assert j["bandwidth_per_gpu_gbps"]["effective"] == pytest.approx(4 * 400 / 8 / ratio)


def test_three_tier_fat_tree_textbook():
    design = clos(
        pods=4,
        leaves_per_pod=2,
        servers_per_leaf=2,
        nics=4,
        spines_per_pod=2,
        leaf_spine_links=4,
        cores=4,
        spine_core_links=4,
    )
    j = analyze(design).to_json()
    assert j["switches"]["by_tier"] == {"leaf": 8, "spine": 8, "core": 4}
    assert j["oversubscription"] == {"leaf": 1.0, "spine": 1.0}
    assert j["bisection_gbps"] == 4 * 2 * 2 * 4 / 2 * 400
    assert j["hops"]["max"] == 5


FABRICS = [
    dict(),
    dict(leaf_spine_links=1),
    dict(leaves_per_pod=3, servers_per_leaf=3, spines_per_pod=3, leaf_spine_links=1),
    dict(rail=True, nics=4, leaves_per_pod=4, servers_per_leaf=4, spines_per_pod=2),
    dict(pods=2, cores=2, spines_per_pod=2, spine_core_links=2),
    dict(pods=3, leaves_per_pod=2, servers_per_leaf=3, spines_per_pod=2, cores=2),
    dict(
        pods=4,
        leaves_per_pod=4,
        servers_per_leaf=2,
        nics=4,
        rail=True,
        spines_per_pod=4,
        cores=4,
        spine_core_links=2,
    ),
    dict(
        pods=4,
        leaves_per_pod=2,
        servers_per_leaf=2,
        spines_per_pod=2,
        leaf_spine_links=4,
        cores=4,
        spine_core_links=3,
    ),
]


@pytest.mark.parametrize("params", FABRICS)
def test_max_flow_and_tier_computation_agree(params):
    design = clos(**params)
    topo = infer_topology(design)
    flow = bisection(design, topo, force="max-flow")
    tier = bisection(design, topo, force="tier")
    assert tier.regular
    assert flow.gbps == pytest.approx(tier.gbps)
    assert flow.gbps > 0


def test_tier_inference_ignores_declared_roles_and_non_compute_ports(pod):
    # A management switch cabled to the servers' BMC ports is not a fabric tier.
    device(pod, "mgmt", "n1", 30, "mgmt-switch-48x1g")
    for i, server in enumerate(("a1", "a2", "b1", "b2"), start=1):
        link(pod, f"m{i}", (server, "bmc1"), ("mgmt", f"p{i}"))
    j = analyze(pod).to_json()
    assert j["switches"]["by_tier"] == {"leaf": 2, "spine": 0, "core": 0}
    assert j["links"]["by_tier"]["other"] == 4


def test_json_contract_keys(pod):
    j = analyze(pod, FakePlant(pod)).to_json()
    for key in (
        "gpus",
        "servers",
        "racks",
        "switches",
        "links",
        "transceivers",
        "cable_length_m",
        "oversubscription",
        "bisection_gbps",
        "bandwidth_per_gpu_gbps",
        "bottleneck",
        "power_w",
        "cost_usd",
        "warnings",
    ):
        assert key in j
    assert set(j["bandwidth_per_gpu_gbps"]) >= {"scale_up", "scale_out", "effective"}
    assert set(j["power_w"]) >= {"total", "servers", "switches", "transceivers"}
    assert set(j["links"]["by_kind"]) >= {"dac", "acc", "aec", "aoc", "mmf", "smf"}
    json.dumps(j, allow_nan=False)


def _cli(*args):
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "analyze", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def _in_process(capsys, *args):
    """``main.py analyze *args`` through run_cli in this process (what main.py calls): the
    interpreter and imports of a process each are ~0.5 s of CPU."""
    from cli import run_cli

    code = run_cli(["analyze", *args])
    out = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, out.out, out.err)


def test_cli_json_text_strict_and_bad_file(tmp_path, capsys):
    """The JSON run in a process of its own (exit code and stdout as a shell sees them); the
    text, --strict and bad-file runs in this one."""
    design, _ = five_devices()
    rack(design, "r9", 100.0, 100.0)  # outside the hall: an error-level warning
    path = tmp_path / "d.hall.json"
    save_design(design, path)
    out = _cli(str(path), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["gpus"] == 16 and data["bisection_gbps"] == 1600
    assert "RACK_OUTSIDE_HALL" in {w["code"] for w in data["warnings"]}
    text = _in_process(capsys, str(path))
    assert text.returncode == 0 and "Bottleneck" in text.stdout
    assert _in_process(capsys, str(path), "--strict").returncode == 1
    bad = tmp_path / "bad.hall.json"
    bad.write_text("{nope")
    out = _in_process(capsys, str(bad))
    assert out.returncode == 2 and "Traceback" not in out.stderr and out.stderr.count("\n") == 1
