"""Media choice: reach boundaries on both sides for each speed, policies, 200G/lane, reasons."""

from __future__ import annotations

import msgspec
import numpy as np
import pytest

from model.catalog.components import builtin_catalog
from model.engine.media import POLICIES, candidates, choose, ordered_lengths
from model.engine.media_words import explain

MEDIA = list(builtin_catalog().media_types.values())

# (speed, lane rate, form factor): media chosen (lowest cost) up to each one's reach.
CHAINS = {
    (400, 100, "OSFP"): ["dac-400g", "lacc-400g", "aec-400g", "sr4-400g", "dr4-400g", "fr4-400g"],
    (800, 100, "OSFP"): ["dac-800g", "lacc-800g", "aec-800g", "sr8-800g", "dr8-800g", "fr8-800g"],
    (800, 200, "OSFP"): ["lacc-800g-xdr", "aec-800g-xdr", "dr4-800g-xdr", "fr4-800g-xdr"],
    (1600, 200, "OSFP"): ["lacc-1600g", "dr8-1600g", "fr8-1600g"],
    (200, 50, "QSFP56"): ["dac-200g", "aoc-200g", "sr4-200g", "fr4-200g"],
    (200, 100, "OSFP"): ["dac-200g-100gl", "dr-200g-100gl"],
    (400, 50, "QSFP-DD"): ["sr8-400g", "dr4-400g", "fr4-400g"],
    (100, 25, "QSFP28"): ["dac-100g", "sr4-100g", "cwdm4-100g"],
}
BOUNDARIES = [
    (key, chain[k], chain[k + 1] if k + 1 < len(chain) else None)
    for key, chain in CHAINS.items()
    for k in range(len(chain))
]


def pick(key, length, policy="lowest-cost", media=MEDIA):
    speed, lane_rate, form_factor = key
    cands = candidates(media, speed, [lane_rate], [form_factor], policy)
    index, ordered = choose(media, cands, np.array([float(length)]), policy)
    return (media[index[0]].id if index[0] >= 0 else None), ordered[0]


@pytest.mark.parametrize(
    "key, medium_id, next_id", BOUNDARIES, ids=[f"{k[0]}G-{k[1]}Gl-{m}" for k, m, _ in BOUNDARIES]
)
def test_reach_boundary_both_sides(key, medium_id, next_id):
    reach = builtin_catalog().media_types[medium_id].reach_m
    chosen, ordered = pick(key, reach)
    assert chosen == medium_id and ordered == pytest.approx(reach)
    beyond, ordered_beyond = pick(key, reach + 0.01)
    assert beyond == next_id
    assert (ordered_beyond > reach) if next_id else np.isnan(ordered_beyond)


@pytest.mark.parametrize("policy", POLICIES)
def test_200g_per_lane_never_gets_passive_dac(policy):
    assert not [m.id for m in MEDIA if m.kind == "dac" and 200 in m.lane_rates_gbps]
    for key in [(800, 200, "OSFP"), (1600, 200, "OSFP"), (800, 200, "OSFP224")]:
        for length in np.linspace(0.1, 3.0, 30):
            chosen, _ = pick(key, length, policy)
            assert chosen is None or builtin_catalog().media_types[chosen].kind != "dac"


def test_ordered_length_rounds_up_to_the_next_orderable_length():
    dac = builtin_catalog().media_types["dac-400g"]
    got = ordered_lengths(dac, np.array([0.1, 0.5, 0.51, 1.49, 2.0, 2.01]))
    assert np.allclose(got, [0.5, 0.5, 1.0, 1.5, 2.0, np.nan], equal_nan=True)
    for length in (0.2, 1.2, 1.9):
        assert dac.ordered_length(length) == ordered_lengths(dac, np.array([length]))[0]


def test_no_ndr_aoc_and_aoc_price_grows_with_length():
    # NVIDIA sells no AOC at 100G/lane (§1b): an NDR link never gets one.
    assert not [m.id for m in MEDIA if m.kind == "aoc" and 100 in m.lane_rates_gbps]
    key = (400, 50, "QSFP-DD")
    assert pick(key, 3.01)[0] == "aoc-400g-50gl"
    assert pick(key, 100.0)[0] == "sr8-400g"  # the AOC's price grows with length; SR8's fibre less


def test_policies_rank_differently():
    key = (400, 100, "OSFP")
    assert pick(key, 1.0, "fibre-only")[0] == "sr4-400g"
    assert pick(key, 1.0, "lowest-power")[0] == "dac-400g"
    assert pick(key, 60.0, "lowest-power")[0] == "fr4-400g"  # 16 W beats DR4's 18 W
    # copper-first takes copper even when a (made-up) optic is cheaper
    cheap_optic = msgspec.structs.replace(
        builtin_catalog().media_types["sr4-400g"],
        id="cheap-sr4",
        price_per_end_usd=1.0,
        cable_price_usd=0.0,
        cable_price_per_m_usd=0.0,
    )
    media = [*MEDIA, cheap_optic]
    assert pick(key, 4.0, "lowest-cost", media)[0] == "cheap-sr4"
    assert pick(key, 4.0, "copper-first", media)[0] == "lacc-400g"


def test_lowest_cost_tie_broken_by_lower_power():
    lacc = builtin_catalog().media_types["lacc-400g"]
    twin = msgspec.structs.replace(lacc, id="lacc-hot", power_per_end_w=3.0)
    media = [twin, *MEDIA]  # the hotter twin comes first in catalog order
    assert pick((400, 100, "OSFP"), 4.0, "lowest-cost", media)[0] == "lacc-400g"


def test_reason_names_the_binding_reach():
    cands = candidates(MEDIA, 400, [100], ["OSFP"])
    index, _ = choose(MEDIA, cands, np.array([2.7]), "lowest-cost")
    text = explain(MEDIA, cands, 2.7, int(index[0]), "lowest-cost", 100, pinned=False)
    assert text == "2.7 m > 2.0 m passive DAC reach at 100G/lane → LACC 3.0 m"
    index, _ = choose(MEDIA, cands, np.array([1.2]), "lowest-cost")
    assert explain(MEDIA, cands, 1.2, int(index[0]), "lowest-cost", 100, False).endswith(
        "passive DAC 1.5 m (lowest cost)"
    )
    assert "no medium reaches" in explain(MEDIA, cands, 2500.0, -1, "lowest-cost", 100, False)
