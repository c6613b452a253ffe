"""Static ECMP hashing: k flows hashed onto m equal-cost uplinks, the busiest carrying E[max].

Hand computations (balls into bins, each of the m^k hashings equally likely):

* 2 flows, 2 links: 2-0 with probability 1/2, 1-1 with 1/2: E[max] = 1.5 flows (ratio 1.5 over
  the fluid 1 flow per link); the 95th percentile is 2.
* 3 flows, 2 links: 3-0 with 2/8, 2-1 with 6/8: E[max] = 2.25, ratio 2.25 / 1.5 = 1.5.
* 4 flows, 2 links: 4-0 2/16, 3-1 8/16, 2-2 6/16: E[max] = 2.75, ratio 1.375.
* 1 flow, 16 links: every byte on one link, ratio 16.
* 16 flows, 2 links: E[max] = 8 + E|X - 8|, X ~ Bin(16, 1/2): 8 + 8 C(16, 8) / 2^16 = 9.5710.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from cli import run_cli
from model.analysis.collectives import Collectives
from model.analysis.ecmp_hash import EXACT_FLOWS, _exact, _max_load, collision_ratio
from model.files.design_file import save_design
from model.generators.generate import rail_optimized

GIB = 2**30
NIC = 50e9  # bytes/s per 400G NIC per direction


@pytest.mark.parametrize(
    ("flows", "links", "ratio"),
    [(2, 2, 1.5), (3, 2, 1.5), (4, 2, 1.375), (1, 16, 16.0), (5, 1, 1.0), (0, 8, 1.0)],
)
def test_hand_computed_collision_ratios(flows, links, ratio):
    assert collision_ratio(flows, links) == pytest.approx(ratio, rel=1e-12)


def test_the_95th_percentile_and_the_binomial_case():
    assert collision_ratio(2, 2, "p95") == pytest.approx(2.0)  # P(max = 2) = 1/2 > 5 %
    expected = 8 + 8 * math.comb(16, 8) / 2**16
    assert _exact(16, 2)[0] == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ValueError, match="quantile"):
        collision_ratio(2, 2, "median")


def test_the_exact_law_matches_enumeration_and_the_monte_carlo_above_it():
    """Every hashing of 6 flows on 3 links enumerated; past EXACT_FLOWS a seeded Monte-Carlo,
    within 0.5 % of the exact mean at the boundary and the same on every run."""
    draws = np.array(np.meshgrid(*[range(3)] * 6)).reshape(6, -1).T
    maxima = np.array([np.bincount(d, minlength=3).max() for d in draws])
    assert _exact(6, 3)[0] == pytest.approx(maxima.mean(), rel=1e-12)
    exact = _exact(EXACT_FLOWS, 16)[0]
    sampled = _max_load.__wrapped__(EXACT_FLOWS + 1, 16)[0] * EXACT_FLOWS / (EXACT_FLOWS + 1)
    assert sampled == pytest.approx(exact, rel=0.005)
    assert _max_load.__wrapped__(4096, 32) == _max_load.__wrapped__(4096, 32)


def _two_small_sus():
    # 2 SUs of 4 DGX H100 at 2:1: a rail leaf has 4 NICs below and 2 uplinks.
    return rail_optimized(
        nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=4, oversubscription=2
    )


def test_hashing_costs_the_all_to_all_its_busiest_uplink():
    """n = 64 GPUs, PXN. A rail leaf's 4 NICs each exchange 8 S/64 with each of the other SU's
    4 NICs of the rail: 16 flows of S/8 up, 2 S over 2 uplinks. Ideal (adaptive): S per uplink,
    above a NIC's 7/8 S. Hashed: E[max of 16 flows on 2 links] = 9.5710 flows of S/8."""
    design = _two_small_sus()
    ideal = Collectives(design, routing="ideal")
    hashed = Collectives(design, routing="ecmp-hash")
    a = ideal.estimate(ideal.default_job, "all-to-all", GIB, "ring", "Simple")
    b = hashed.estimate(hashed.default_job, "all-to-all", GIB, "ring", "Simple")
    assert a.bandwidth_s == pytest.approx(GIB / NIC, rel=1e-9)
    assert b.bandwidth_s == pytest.approx(9.571044921875 / 8 * GIB / NIC, rel=1e-9)
    assert a.limited_by == b.limited_by == "leaf-spine"
    assert a.routing == "ideal" and b.routing == "ecmp-hash"
    assert a.time_p95_s == a.time_s and b.time_p95_s > b.time_s


def test_one_ring_flow_per_leaf_cannot_collide():
    """A topology-ordered ring leaves each rail leaf with one flow: hashed onto one of the
    uplinks it carries the whole hop, as much as a NIC carries, never more: the time stands."""
    design = _two_small_sus()
    ideal = Collectives(design, routing="ideal")
    hashed = Collectives(design, routing="ecmp-hash")
    a = ideal.estimate(ideal.default_job, "all-reduce", GIB, "ring", "Simple")
    b = hashed.estimate(hashed.default_job, "all-reduce", GIB, "ring", "Simple")
    assert b.time_s == pytest.approx(a.time_s, rel=1e-12)
    assert b.bottleneck_count > a.bottleneck_count  # the hashed uplinks tie with the NICs


@pytest.mark.parametrize(
    ("switch", "routing"),
    [("qm9700", "adaptive"), ("sn5600", "adaptive"), ("tomahawk5-64x800", "ecmp-hash")],
)
def test_the_default_routing_follows_the_fabric(switch, routing):
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch=switch, su_nodes=32)
    c = Collectives(design)
    assert c.routing == routing and c.routing_words().startswith(routing)
    assert Collectives(design, routing="ideal").routing == "ideal"


def test_collective_cli_and_analyze_json_show_the_routing(tmp_path, capsys):
    path = tmp_path / "two.hall.json"
    save_design(_two_small_sus(), path)
    args = ["collective", str(path), "--collective", "all-to-all", "--json"]
    assert run_cli([*args, "--routing", "ecmp-hash"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["routing"] == "ecmp-hash" and out["time_p95_s"] > out["time_s"]
    assert out["routing_words"].startswith("ecmp-hash")
    assert run_cli(["collective", str(path), "--routing", "ecmp-hash"]) == 0
    text = capsys.readouterr().out
    assert "routing: ecmp-hash" in text and "95th percentile" in text
    with pytest.raises(SystemExit) as refused:  # argparse refuses it with a sentence
        run_cli(["collective", str(path), "--routing", "round-robin"])
    assert refused.value.code == 2 and "invalid choice" in capsys.readouterr().err
    assert run_cli(["analyze", str(path), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["collectives"]
    assert figures["routing"].startswith("adaptive (InfiniBand")
    assert figures["default_job"]["all-to-all"]["routing"] == "adaptive"


def test_the_bottleneck_sentence_gives_the_hashing_its_95th_percentile():
    """A design set to static ECMP hashing: analyze's sentence says so and quotes the 95th
    percentile of the all-reduce and the all-to-all beside their expected times."""
    import msgspec

    from model.analysis import analyze

    design = _two_small_sus()
    design.set_settings(msgspec.structs.replace(design.settings, routing="ecmp-hash"))
    figures = analyze(design).to_json()["collectives"]
    a2a = figures["default_job"]["all-to-all"]
    assert figures["routing"].startswith("ecmp-hash") and a2a["routing"] == "ecmp-hash"
    assert a2a["time_p95_s"] > a2a["time_s"]
    sentence = figures["bottleneck"]
    assert "Static ECMP hashing" in sentence
    assert f"the all-to-all {a2a['time_p95_s'] * 1e3:,.2f} ms" in sentence
