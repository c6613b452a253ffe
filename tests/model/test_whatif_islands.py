"""Failures that partition the fabric are islands; NVLink switch trays and PDUs can fail."""

from __future__ import annotations

import json

import pytest

from cli import run_cli
from model.analysis.failure_elements import POWER_ASSUMPTION
from model.analysis.islands import islands
from model.analysis.n_minus_one import n_minus_one
from model.analysis.topology import infer_topology
from model.analysis.whatif import WhatIf
from model.files.design_file import save_design
from model.generators.generate import nvl72, rail_optimized


def _four_su_pod():
    """The 4-SU DGX H100 SuperPOD (domain-facts 6c): 128 DGX, 32 rail leaves, 16 spines."""
    return rail_optimized(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32)


def test_the_rack_of_every_spine_of_a_4_su_pod_leaves_four_islands_of_256_gpus():
    """The generator racks the pod's 16 spines together. Without them each SU's 8 rail leaves
    meet only through the SU's 32 servers (NVLink inside each DGX joins its 8 NICs): 4 islands
    of 32 x 8 = 256 GPUs. No GPU lost its own NIC link, so none is cut off (the old figure was
    992 of 1,024: every leaf but one counted as off the fabric); the largest job that still runs
    has 256 GPUs, and a balanced cut along the islands carries nothing."""
    design = _four_su_pod()
    spines = [d for d in design.devices.values() if d.role == "spine"]
    racks = {d.rack for d in spines}
    assert len(spines) == 16 and len(racks) == 1
    r = WhatIf(design).run([racks.pop()])
    assert r["islands"]["count"] == 4
    assert r["islands"]["gpus"] == [256, 256, 256, 256]
    assert r["largest_job_gpus"] == 256
    assert r["largest_job_lost_gpus"] == 1024 - 256
    assert r["gpus_without_scale_out"] == 0
    assert r["gpus_disconnected"] == 0
    assert r["after"]["bisection_gbps"] == 0
    assert r["before"]["islands"]["count"] == 1
    assert r["before"]["islands"]["largest_job_gpus"] == 1024


def test_losing_the_spines_of_one_pod_keeps_each_su_whole():
    """3 tiers, 2 pods of 4 SUs (32 HGX x 8 NICs per SU): losing pod 1's 32 spines leaves pod 2
    as one island of 1,024 GPUs and each SU of pod 1 as an island of 256: every server still
    reaches its SU, no GPU is cut off."""
    design = rail_optimized(
        nodes=256, node_type="hgx-h100-8x400", switch="qm9700", su_nodes=32, tiers=3
    )
    spines = [d.id for d in design.devices.values() if d.id.startswith("pod1-spine")]
    assert len(spines) == 32
    r = WhatIf(design).run(spines)
    assert r["islands"]["gpus"] == [1024, 256, 256, 256, 256]
    assert r["gpus_disconnected"] == 0 and r["gpus_without_scale_out"] == 0
    off = set(r["blast_radius"]["servers_off_largest_island"])
    assert len(off) == 128 and all(s.startswith(("su1-", "su2-", "su3-", "su4-")) for s in off)


def test_a_server_without_any_nic_link_has_no_scale_out_path():
    """Failing every NIC link of one DGX (8 links) leaves its 8 GPUs an island of their own
    with no scale-out switch; the other 1,016 GPUs stay one job."""
    design = _four_su_pod()
    node = "su1-node01"
    links = [lid for lid, link in design.links.items() if node in (link.a.device, link.b.device)]
    r = WhatIf(design).run(links)
    assert r["gpus_without_scale_out"] == 8
    assert r["islands"]["gpus"] == [1016, 8]
    assert r["largest_job_gpus"] == 1016


def test_an_nvlink_switch_tray_of_an_nvl72_rack_takes_its_share_of_nvlink():
    """A GB200 NVL72 compute tray (4 GPUs) has one 3,200 Gb/s link to each of its rack's 9
    NVLink switch trays: 9 x 3,200 / 4 = 7,200 Gb/s per GPU (domain-facts NV-MC-NVLINK). With 8
    trays left: 8 x 3,200 / 4 = 6,400 Gb/s for that rack's 72 GPUs; the other rack keeps 7,200,
    so the mean over 144 GPUs is 6,800. The rack stays one NVLink domain: no island."""
    design = nvl72(racks=2)
    tray = next(d.id for d in design.devices.values() if d.role == "nvlink-switch")
    r = WhatIf(design).run([tray])
    assert r["before"]["scale_up_per_gpu_gbps"] == {"min": 7200.0, "mean": 7200.0}
    assert r["after"]["scale_up_per_gpu_gbps"] == {"min": 6400.0, "mean": 6800.0}
    assert r["after"]["bandwidth_per_gpu_gbps"]["scale_up"] == 6400.0
    assert r["islands"]["count"] == 1 and r["gpus_disconnected"] == 0


def test_n_minus_one_has_an_nvlink_switch_tier():
    design = nvl72(racks=2)
    tiers = {t["tier"]: t for t in n_minus_one(WhatIf(design))["tiers"]}
    worst = tiers["nvlink-switch"]["worst"]
    assert tiers["nvlink-switch"]["candidates"] == 18
    assert worst["equivalent"] == 18  # every tray of both racks alike
    assert worst["scale_up_per_gpu_gbps"]["min"] == 6400.0


def test_one_pdu_takes_nothing_down_under_the_stated_a_b_assumption():
    """No facility model (generated without one): a rack is assumed A/B-fed, so its A-side PDU
    failing takes no device down and the result says it is an assumption; both sides failing
    take the rack (one NVL72: 72 GPUs) down."""
    design = nvl72(racks=2, facility="no")
    rack = next(iter(design.racks))
    whatif = WhatIf(design)
    one = whatif.run([f"{rack}:pdu-a"])
    assert one["failed_devices"] == [] and one["failed_pdus"] == [f"{rack}:pdu-a"]
    assert one["after"]["gpus"] == 144 and one["largest_job_lost_gpus"] == 0
    assert one["assumptions"] == [POWER_ASSUMPTION] and "A/B-fed" in POWER_ASSUMPTION
    both = whatif.run([f"{rack}:pdu-a", f"{rack}:pdu-b"])
    assert len(both["failed_devices"]) == len(design.devices_in_rack(rack))
    assert both["after"]["gpus"] == 72


def test_islands_of_a_whole_design():
    topo = infer_topology(_four_su_pod())
    whole = islands(topo)
    assert whole.count == 1 and whole.largest_job_gpus == 1024
    assert len(whole.largest_job_servers()) == 128


def test_whatif_cli_prints_islands_and_the_assumption(tmp_path, capsys):
    design = _four_su_pod()
    rack = next(d.rack for d in design.devices.values() if d.role == "spine")
    path = tmp_path / "pod.hall.json"
    save_design(design, path)
    assert run_cli(["whatif", str(path), "--fail", rack]) == 0
    out = capsys.readouterr().out
    assert "4 islands: 256, 256, 256, 256 GPUs" in out
    assert "largest job that still runs: 256 GPUs" in out
    assert "A/B-fed" in out
    assert run_cli(["whatif", str(path), "--fail", f"{rack}:pdu-a", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["failed_devices"] == [] and data["assumptions"]


@pytest.mark.parametrize("oid", ["NOPE:pdu-a", "pdu-a"])
def test_an_unknown_pdu_is_refused_with_a_sentence(tmp_path, capsys, oid):
    path = tmp_path / "pod.hall.json"
    save_design(_four_su_pod(), path)
    assert run_cli(["whatif", str(path), "--fail", oid]) == 2
    assert "RACK:pdu-a" in capsys.readouterr().err
