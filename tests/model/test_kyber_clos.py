"""Kyber (Rubin Ultra NVL576) scale-out at the Clos minimum (issue 39): a canister carries 72
NICs, so one rail of an 8-rack SU (32 canisters) fills half of a 64-downlink leaf and two rails
share each leaf. Hand counts: 4 canisters x 72 = 288 NIC ports a rack, 64 down and 64 up per
128-port leaf at 1:1, 128 leaf uplinks a spine."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from model.catalog.components import builtin_catalog
from model.generators.generate import generate, preview
from model.generators.network_ports import converged_servers

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


def test_kyber_keeps_separate_storage_and_inband_fabrics_and_says_what_it_leaves_free():
    """No source read gives Kyber's storage or in-band networks (TOMS-KYBER, SEMI-GTC26 give
    the rack), so it is not moved onto the NVL72 RAs' converged fabric: storage and in-band
    SN5600 fabrics as before, two ports each of the canister's 36 BlueField-4, and a note
    saying the other 32 are left free (it said nothing)."""
    cat = builtin_catalog()
    assert not converged_servers(cat, [("c", "kyber-nvl576-canister")])
    assert converged_servers(cat, [("t", "vr-nvl72-compute-tray")])
    design = generate("nvl72", racks=1, platform="rubin-ultra", fabrics="all")
    fabrics = Counter((d.fabric, d.type) for d in design.devices.values())
    assert fabrics[("inband", "sn5600")] and fabrics[("storage", "sn5600")]
    notes = [n for n in design.generation_notes if "kyber-nvl576-canister" in n]
    assert notes == [
        "4 kyber-nvl576-canister: 4 of each one's 36 storage/in-band ports cabled (the "
        "reference architecture's two storage and two in-band a node); no source read says "
        "what the other 32 carry, so they are left free"
    ]
