"""Rails sharing a leaf at the Clos minimum (issue 39) where no published table fixes one rail a
leaf: Vera Rubin NVL72 at 1-3 racks, MI355X and Helios halls (AMD gives NIC counts, no leaf per
rail); and one switch where every NIC fits it. NVIDIA's SuperPOD-built nodes keep rail leaves."""

from __future__ import annotations

import math

import pytest

from model.analysis import analyze
from model.generators.generate import generate, preview

SN6810_DOWN, SN6810_RADIX = 64, 128  # Spectrum-6 SN6810 at 800G, non-blocking


@pytest.mark.parametrize("racks, leaves", [(1, 3), (2, 5), (3, 7)])
def test_vera_rubin_small_halls_build_the_fewest_leaves(racks, leaves):
    """18 trays x 8 ConnectX-9 ports a rack: 144 / 288 / 432 ports need ceil(ports / 64) = 3 /
    5 / 7 leaves, all 8 rails a leaf (8 trays each); one rail a leaf built 8 at each size."""
    counts = preview("nvl72", racks=racks, platform="vera-rubin")
    ports = 18 * 8 * racks
    assert leaves == math.ceil(ports / SN6810_DOWN)
    assert counts["switches"]["leaf"] == leaves
    assert counts["switches"]["spine"] == math.ceil(ports / SN6810_RADIX)
    assert counts["links"]["node-leaf"] == ports <= counts["links"]["leaf-spine"]


def test_a_small_mi355x_cluster_is_one_switch():
    """16 MI355X nodes x 8 Pollara 400 = 128 ports: one Tomahawk 5 at 128 x 400G holds them all
    (it built 8 rail leaves of 16 ports and 2 spines). Non-blocking: bisection is half the NICs."""
    params = dict(nodes=16, node_type="mi355x-dlc-orv3", switch="tomahawk5-64x800", su_nodes=16)
    counts = preview("rail-optimized", **params)
    assert counts["tiers"] == 1
    assert counts["switches"] == {"leaf": 1, "spine": 0}
    assert counts["links"] == {"node-leaf": 128, "leaf-spine": 0}
    report = analyze(generate("rail-optimized", **params)).to_json()
    assert report["bisection_gbps"] == 128 * 400 / 2
    assert not [w for w in report["warnings"] if w["severity"] == "error"]


def test_nvidia_superpod_nodes_keep_one_rail_a_leaf():
    """DGX H100 (NV-SP-H100: one QM9700 leaf per rail per SU of 32 nodes) is left as its table
    builds, though 2 rails would share a 64-port leaf at 16 nodes an SU."""
    counts = preview("rail-optimized", nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=16)
    assert counts["switches"]["leaf"] == 8 * 2  # 8 rails x 2 SUs


def test_gb200_and_gb300_at_one_rack_keep_one_rail_a_leaf():
    for platform in ("gb200", "gb300"):
        assert preview("nvl72", racks=1, platform=platform)["switches"]["leaf"] == 4
