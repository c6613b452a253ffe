"""Many jobs sharing the fabric: K equal jobs running one collective at once, from link loads.

DGX H100 (8 GPUs, 8 x 400G NICs, one per rail), 32 per SU, rail leaves of 32 NICs with 32 (1:1)
or 16 (2:1) uplinks; each GPU of an all-to-all sends S/n to each other GPU of its job, PXN on
(NCCL's default): NIC r of a server exchanges 8 S/n with NIC r of every other server of the job.

* Two jobs on two SUs, each in its own SU: every link of a 2-tier Clos has a leaf or a server at
  one end, and each leaf belongs to one job, so the jobs share no link at any ratio.
* Two jobs on three SUs at 2:1 (job 1 = SU 1 and half of SU 2, job 2 the rest; n = 384 each):
  in SU 2 a rail leaf holds 16 NICs of each job; each job's 16 NICs send 32 x 8 S/384 to each of
  its own 32 NICs in its other SU: 16 x 32 x 8/384 S = 32/3 S over the 16 uplinks, 2/3 S each.
  Alone that is under a NIC's 47 x 8/384 S = 47/48 S: NIC-bound. Together 4/3 S per uplink: the
  wire time rises by (4/3)/(47/48) = 64/47 = 1.3617x. At 1:1 (32 uplinks) 2/3 S: no change.
"""

from __future__ import annotations

import json

import pytest

from cli import run_cli
from model.analysis.collectives import Collectives
from model.analysis.concurrent_jobs import concurrent, split_jobs
from model.files.design_file import save_design
from model.generators.generate import rail_optimized

GIB = 2**30
NIC = 50e9  # bytes/s per 400G NIC per direction


def _hall(sus: int, ratio: int):
    return rail_optimized(
        nodes=32 * sus, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=ratio
    )


@pytest.mark.parametrize("ratio", [1, 2])
@pytest.mark.parametrize("collective", ["all-reduce", "all-to-all"])
def test_two_jobs_each_in_its_own_su_do_not_slow_each_other(ratio, collective):
    c = Collectives(_hall(2, ratio))
    r = concurrent(c, 2, collective, GIB)
    assert r.together.time_s == pytest.approx(r.alone.time_s, rel=1e-12)
    assert r.slowdown == pytest.approx(1.0)
    assert [len(j.servers) for j in split_jobs(c, 2)] == [32, 32]


def test_two_jobs_sharing_an_su_slow_each_others_all_to_all_at_2_to_1():
    c = Collectives(_hall(3, 2))
    r = concurrent(c, 2, "all-to-all", GIB, "ring")
    assert r.alone.bandwidth_s == pytest.approx(47 / 48 * GIB / NIC, rel=1e-9)
    assert r.alone.limited_by == "server-leaf"
    assert r.together.bandwidth_s == pytest.approx(4 / 3 * GIB / NIC, rel=1e-9)
    assert r.together.limited_by == "leaf-spine"
    # the shared SU's rail leaves' uplinks: 8 leaves x 16 uplinks, all equally busy
    assert r.together.bottleneck_count == 8 * 16
    assert r.together.bandwidth_s / r.alone.bandwidth_s == pytest.approx(64 / 47, rel=1e-9)


def test_at_1_to_1_the_shared_su_has_room_for_both():
    c = Collectives(_hall(3, 1))
    r = concurrent(c, 2, "all-to-all", GIB)
    assert r.together.time_s == pytest.approx(r.alone.time_s, rel=1e-12)


def test_one_job_is_the_job_alone_and_too_many_are_refused():
    c = Collectives(_hall(2, 2))
    one = concurrent(c, 1, "all-to-all", GIB)
    whole = c.estimate(c.default_job, "all-to-all", GIB)
    assert one.together.time_s == pytest.approx(whole.time_s, rel=1e-12)
    with pytest.raises(ValueError, match="between 1 and 64"):
        split_jobs(c, 65)


def test_collective_cli_jobs(tmp_path, capsys):
    path = tmp_path / "three.hall.json"
    save_design(_hall(3, 2), path)
    args = ["collective", str(path), "--collective", "all-to-all", "--jobs", "2"]
    assert run_cli([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["concurrent"]
    assert out["jobs"] == 2 and out["slowdown"] > 1.3
    assert out["together"]["limited_by"] == "leaf-spine"
    assert run_cli(args) == 0
    assert "2 jobs of 384 GPUs at once" in capsys.readouterr().out
    assert run_cli([*args, "--gpus", "64"]) == 2
    assert "--jobs" in capsys.readouterr().err
    assert run_cli(["collective", str(path), "--jobs", "0"]) == 2
    assert "between 1 and" in capsys.readouterr().err
