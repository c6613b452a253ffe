"""Kyber (Rubin Ultra NVL576) scale-out at the Clos minimum (issue 39): a canister carries 72
NICs, so one rail of an 8-rack SU (32 canisters) fills half of a 64-downlink leaf and two rails
share each leaf. Hand counts: 4 canisters x 72 = 288 NIC ports a rack, 64 down and 64 up per
128-port leaf at 1:1, 128 leaf uplinks a spine."""

from __future__ import annotations

import math

import pytest

from model.generators.generate import preview

PORTS_PER_RACK = 4 * 72  # 4 canisters (TOMS-KYBER) x 72 ConnectX-9 ports (catalog, estimate)
DOWN, RADIX = 64, 128  # Spectrum-6 SN6810 at 800G, non-blocking


@pytest.mark.parametrize("racks", [8, 16])
def test_two_tier_kyber_fabrics_build_the_fewest_leaves_and_spines(racks):
    counts = preview("nvl72", racks=racks, platform="rubin-ultra")
    leaves = PORTS_PER_RACK * racks // DOWN  # 8 racks: 36 (was 72, one rail a leaf)
    spines = math.ceil(leaves * DOWN / RADIX)  # 8 racks: 18
    switches = counts["switches"]
    assert (switches["leaf"], switches["spine"]) == (leaves, spines)
    assert counts["links"]["node-leaf"] == PORTS_PER_RACK * racks
    assert counts["links"]["leaf-spine"] == leaves * DOWN


def test_a_32_rack_kyber_hall_takes_three_tiers_at_the_minimum():
    counts = preview("nvl72", racks=32, platform="rubin-ultra")
    leaves = PORTS_PER_RACK * 32 // DOWN  # 144 > 128 leaves a two-tier spine reaches
    spines = leaves * DOWN // (RADIX // 2)  # a pod spine: half its ports down
    cores = spines * (RADIX // 2) // RADIX
    assert {k: counts["switches"][k] for k in ("leaf", "spine", "core")} == {
        "leaf": leaves,
        "spine": spines,
        "core": cores,
    }  # 360 switches where one rail a leaf built 504 (288 + 144 + 72)


def test_one_kyber_rack_shares_its_leaves_too():
    switches = preview("nvl72", racks=1, platform="rubin-ultra")["switches"]
    # 288 ports need at least ceil(288 / 64) = 5 leaves; rail groups divide the 72 rails, so
    # 12 rails (48 ports) a leaf: 6 leaves, where one rail a leaf built 72.
    assert switches["leaf"] == 6 and switches["spine"] == math.ceil(288 / RADIX)
