"""Issue 37 item 7 ("everywhere it shows") and its "done when", on the architect's two-SU hall.

Two SUs of 32 DGX H100 on QM9700 rail leaves at 1:1, 2:1, 3:1 (32, 16, 12 uplinks per leaf).
The sweep's rows carry the bisection (102,400 / 51,200 / 38,400 Gb/s: the SU-to-SU cut), the
default job's all-reduce (within 10 %: a topology-ordered tree crosses the uplinks only where an
edge leaves the SU) and its all-to-all (PXN: half of each leaf's bytes climb, S per uplink at
2:1 and 4/3 S at 3:1 against a NIC's 504/512 S, so 512/504 = 1.016x and 4/3 x 512/504 = 1.354x
the 1:1 wire time). ``analyze --json`` names the links that limit each collective, the cut,
the routing, the reliability forecast, and the bottleneck sentence names the all-reduce's links.
"""

from __future__ import annotations

import pytest

from model.analysis import analyze
from model.generators.generate import rail_optimized
from model.studies.compare import KPI_COLUMNS
from model.studies.sweep import columns, evaluate

BASE = dict(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)


@pytest.fixture(scope="module")
def rows():
    return {r: evaluate("rail-optimized", BASE | {"oversubscription": r}) for r in (1, 2, 3)}


def test_the_sweep_shows_bisection_falling_all_reduce_steady_all_to_all_slowed(rows):
    header = columns({"oversubscription": [1, 2, 3]}, BASE)
    for name in ("bisection_gbps", "bisection_method", "allreduce_time_s", "alltoall_time_s"):
        assert name in header and name in KPI_COLUMNS
    assert [rows[r]["bisection_gbps"] for r in (1, 2, 3)] == [102_400, 51_200, 38_400]
    ar = {r: rows[r]["allreduce_time_s"] for r in (1, 2, 3)}
    assert ar[2] == pytest.approx(ar[1], rel=0.10) and ar[3] == pytest.approx(ar[1], rel=0.10)
    a2a = {r: rows[r]["alltoall_time_s"] for r in (1, 2, 3)}
    assert a2a[1] < a2a[2] < a2a[3]
    assert a2a[3] / a2a[1] == pytest.approx(4 / 3 * 512 / 504, rel=0.01)


def test_a_sweep_can_vary_the_routing():
    """ECMP hashing on the same IB hall (forced): the all-to-all's expected busiest uplink
    carries more than the even split; the all-reduce's trees do not collide."""
    adaptive = evaluate("rail-optimized", BASE | {"oversubscription": 2, "routing": "adaptive"})
    hashed = evaluate("rail-optimized", BASE | {"oversubscription": 2, "routing": "ecmp-hash"})
    assert hashed["alltoall_time_s"] > 1.15 * adaptive["alltoall_time_s"]
    assert hashed["allreduce_time_s"] == pytest.approx(adaptive["allreduce_time_s"], rel=1e-9)
    wrong = evaluate("rail-optimized", BASE | {"routing": "round-robin"})
    assert wrong["error"] and wrong["alltoall_time_s"] is None


def test_analyze_json_names_the_limiting_links_the_cut_and_the_forecast():
    design = rail_optimized(**BASE, oversubscription=2)
    j = analyze(design).to_json()
    figures = j["collectives"]
    default = figures["default_job"]
    assert set(default) == {
        "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast"
    }  # fmt: skip
    assert set(figures["curves"]) == set(default)
    assert figures["routing"].startswith("adaptive") and figures["pxn"].startswith("on")
    leaf_spine = {
        k.id
        for k in design.links.values()
        if {"leaf" in k.a.device, "spine" in k.b.device} == {True}
        or {"spine" in k.a.device, "leaf" in k.b.device} == {True}
    }
    a2a = default["all-to-all"]
    assert a2a["limited_by"] == "leaf-spine"
    assert a2a["bottleneck_links"] and set(a2a["bottleneck_links"]) <= leaf_spine
    assert a2a["bottleneck_count"] == 16 * 16  # 16 rail leaves x 16 uplinks, equally busy
    ar = default["all-reduce"]
    sentence = figures["bottleneck"]
    assert ar["bottleneck_links"][0] in sentence and "All-reduce" in sentence
    assert "All-to-all" in sentence and a2a["bottleneck_links"][0] in sentence
    assert j["bisection"]["cut"]["capacity_gbps"] == 51_200
    assert j["reliability"]["failures_per_day"] > 0
