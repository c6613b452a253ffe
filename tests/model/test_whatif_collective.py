"""What-if and N-1 report the default job's collective after the failure, on the job that runs.

Hand reasoning on generated fabrics (domain-facts 6a-6c: DGX H100 has 8 x 400G NICs and 450 GB/s
NVLink per GPU; a GB200 NVL72 compute tray has one 3,200 Gb/s link to each of 9 NVLink switch
trays); the collectives themselves are :mod:`model.analysis.collectives`'s (tested there).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from cli import run_cli
from model.analysis.collectives import Collectives
from model.analysis.failure_collective import FailureCollective
from model.analysis.n_minus_one import n_minus_one
from model.analysis.whatif import WhatIf
from model.files.design_file import save_design
from model.generators.generate import nvl72, rail_optimized

GIB = 2**30


def _four_su_pod():
    return rail_optimized(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32)


def test_after_the_spines_rack_fails_the_all_reduce_runs_on_one_su_as_if_nothing_failed():
    """Losing the rack of all 16 spines of the 4-SU pod leaves four islands of 256 GPUs
    (test_whatif_islands). The largest job that still runs is one SU; its rings and trees stay
    under the SU's rail leaves and never used a spine, so its all-reduce after the failure is
    exactly the same 256 GPUs' all-reduce on the intact fabric. Before, the job was the whole
    hall (1,024 GPUs)."""
    design = _four_su_pod()
    rack = next(d.rack for d in design.devices.values() if d.role == "spine")
    r = WhatIf(design).run([rack])
    c = r["collective"]
    assert c["before"]["job"] == "whole hall" and c["before"]["gpus"] == 1024
    assert c["after"]["gpus"] == 256
    assert c["after"]["job"] == "largest job that still runs (256 of 1,024 GPUs)"
    intact = Collectives(design)
    size = design.settings.allreduce_message_mb * 1e6
    same = intact.estimate(intact.job(256), "all-reduce", size)
    assert c["after"]["time_s"] == pytest.approx(same.time_s, rel=1e-12)
    assert c["after"]["algorithm"] == same.algorithm and not c["after"]["unreachable"]
    assert c["slowdown"] == pytest.approx(same.time_s / c["before"]["time_s"])


def test_a_failed_spine_slows_the_all_to_all_of_the_whole_job_by_four_thirds():
    """Two SUs of 32 DGX at 2:1: each rail leaf has 16 uplinks over 4 spines (4 to each) and,
    with PXN, sends 16 S of its 32 NICs' all-to-all bytes up. Without one spine it keeps 12
    uplinks: 4/3 S each against S, so 4/3 of the time, and the busiest links are leaf-spine
    links. No GPU is lost: the job after is still the whole hall."""
    design = rail_optimized(
        nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=2
    )
    w = WhatIf(design)
    spine = sorted(d for d, dev in design.devices.items() if dev.role == "spine")[0]
    failed = w.resolve([spine])
    state = w.after_state(failed)
    fc = FailureCollective(design, w.topo, "all-to-all", GIB)
    after = fc.after(
        (failed.devices, failed.links), state.islands.largest_job_servers(), state.scale_up
    )
    assert after.gpus == fc.before.gpus == 512 and after.job == "whole hall"
    assert after.bandwidth_s / fc.before.bandwidth_s == pytest.approx(4 / 3, rel=1e-9)
    assert after.limited_by == "leaf-spine" and after.bottleneck_links
    assert all(spine not in design.links[i].a.device + design.links[i].b.device
               for i in after.bottleneck_links)  # fmt: skip


def test_a_lost_nvlink_tray_slows_an_nvlink_bound_all_reduce_by_nine_eighths():
    """An NVL72 rack with 8 of 9 NVLink switch trays has 6,400 Gb/s per GPU instead of 7,200.
    A 1 GiB all-reduce of that rack's 72 GPUs (one NVLink domain: NVLS through the NVSwitch,
    no network) is NVLink-bound, so its transfer time grows by 7,200 / 6,400 = 9/8, its latency
    unchanged."""
    design = nvl72(racks=2)
    w = WhatIf(design)
    topo = w.topo
    tray = next(d for d in design.devices.values() if d.role == "nvlink-switch")
    servers = np.array(
        sorted(
            topo.device_index[d.id]
            for d in design.devices_in_rack(tray.rack)
            if topo.is_gpu_server[topo.device_index[d.id]]
        )
    )
    failed = w.resolve([tray.id])
    fc = FailureCollective(design, topo, "all-reduce", GIB)
    none = (np.zeros_like(failed.devices), np.zeros_like(failed.links))
    before = fc.after(none, servers, w.before_state().scale_up)
    after = fc.after((failed.devices, failed.links), servers, w.after_state(failed).scale_up)
    assert before.gpus == after.gpus == 72 and after.limited_by == "scale-up"
    assert after.algorithm == "nvls"
    assert after.bandwidth_s / before.bandwidth_s == pytest.approx(9 / 8, rel=1e-9)
    assert after.latency_s == before.latency_s


def test_n_minus_one_ranks_on_the_collective_and_reports_it(tmp_path, capsys):
    """Every ranked case carries the all-reduce of the largest job after it. Two SUs at 2:1,
    NCCL's NVLS-tree over 64 DGX (NIC-bound: each NIC carries its rail's tree edges, 5.12 ms
    of transfer at 1,024 MB, + 275.8 µs of latency):

    * a spine or a leaf-spine link: the in-order trees (trees.cc) leave an SU on a few edges,
      the uplinks left still outrun the NICs: 1.00x;
    * a server-leaf link (or a rail leaf): the servers that lost rail r's NIC run rail r's
      channels on their next NIC, which then carries two rails' edges: the transfer doubles,
      10.24 ms + 275.8 µs = 1.95x;
    * a rack of one SU's servers: the job left is the other SU, its all-reduce that SU's.
    The ranking puts the rack first in its tier by the GPUs lost, and the text names times."""
    design = rail_optimized(
        nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=2
    )
    r = n_minus_one(WhatIf(design))
    tiers = {t["tier"]: t["worst"] for t in r["tiers"]}
    before = r["collective_before"]["time_s"]
    latency = 275.8e-6
    assert before == pytest.approx(2 * 1.024e9 / (8 * 50e9) + latency)  # 2S over 8 NICs
    for name in ("spine", "link leaf-spine"):
        assert tiers[name]["collective_time_s"] == pytest.approx(before, rel=1e-9), name
        assert tiers[name]["collective_slowdown"] == pytest.approx(1.0)
    for name in ("leaf", "link server-leaf"):
        assert tiers[name]["collective_time_s"] == pytest.approx(2 * 5.12e-3 + latency), name
    rack = tiers["rack"]
    assert rack["largest_job_lost_gpus"] == 256
    intact = Collectives(design)
    size = design.settings.allreduce_message_mb * 1e6
    one_su = intact.estimate(intact.job(256), "all-reduce", size)
    assert rack["collective_time_s"] == pytest.approx(one_su.time_s, rel=1e-9)
    path = tmp_path / "two.hall.json"
    save_design(design, path)
    assert run_cli(["whatif", str(path), "--n-1"]) == 0
    assert "its all-reduce" in capsys.readouterr().out
    spine = sorted(d for d, dev in design.devices.items() if dev.role == "spine")[0]
    assert run_cli(["whatif", str(path), "--fail", spine, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["collective"]["after"]["job"] == "whole hall"
    assert out["collective"]["slowdown"] == pytest.approx(1.0)
    assert run_cli(["whatif", str(path), "--fail", spine]) == 0
    text = capsys.readouterr().out
    assert "All-reduce of" in text and "after" in text and "(1.00x)" in text


def test_a_failure_that_leaves_no_job_says_so(tmp_path, capsys):
    """Every rack of a 1-GPU fat-tree failed: no two GPUs are left together, so there is no
    collective after; the text says that instead of a time (and the JSON's after has 0 GPUs)."""
    from model.generators.generate import fat_tree

    design = fat_tree(k=4)
    path = tmp_path / "ft.hall.json"
    save_design(design, path)
    racks = ",".join(design.racks)
    assert run_cli(["whatif", str(path), "--fail", racks]) == 0
    assert "after: no job of two or more GPUs still runs (0 GPUs left together)" in (
        capsys.readouterr().out
    )
    assert run_cli(["whatif", str(path), "--fail", racks, "--json"]) == 0
    after = json.loads(capsys.readouterr().out)["collective"]["after"]
    assert after["gpus"] == 0 and after["algorithm"] == "none"
