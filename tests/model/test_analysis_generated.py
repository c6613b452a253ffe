"""Analysis of generated fabrics against textbook and reference-architecture figures, and with
the geometry engine's real cable plant. Skipped until the generators / the cable plant are on
the branch."""

from __future__ import annotations

import msgspec
import pytest

from model.analysis import Analyzer, analyze
from model.analysis.bisection import bisection
from model.analysis.topology import infer_topology
from tests.builders import small_pod


def _generate():
    return pytest.importorskip("model.generators.generate")


def _plant(design):
    cabling = pytest.importorskip("model.engine.routed_links")
    plant = cabling.RoutedLinks(design)
    plant.refresh()
    return plant


@pytest.mark.parametrize("k", [4, 6, 8])
def test_fat_tree_is_non_blocking_with_hosts_over_2_bisection(k):
    design = _generate().fat_tree(k=k)
    j = analyze(design).to_json()
    hosts = k**3 // 4
    speed = next(
        iter(
            design.ports(
                next(d for d in design.devices.values() if design.device_type(d).gpu_count)
            ).values()
        )
    ).speed_gbps
    assert j["switches"]["by_tier"] == {"leaf": k * k // 2, "spine": k * k // 2, "core": k * k // 4}
    assert j["oversubscription"] == {"leaf": 1.0, "spine": 1.0}
    assert j["bisection_gbps"] == hosts / 2 * speed
    assert j["hops"]["max"] == 5


@pytest.mark.parametrize("ratio", [1, 3])
def test_leaf_spine_s_to_1(ratio):
    # 48 nodes x 8 NICs fill whole leaves at 1:1 (32 down) and 3:1 (48 down).
    design = _generate().leaf_spine(
        nodes=48, node_type="hgx-h100-8x400", switch="qm9700", oversubscription=ratio
    )
    j = analyze(design).to_json()
    assert j["oversubscription"]["leaf"] == ratio
    nic_links = 48 * 8
    topo = infer_topology(design)
    assert bisection(design, topo, force="tier").gbps == j["bisection_gbps"]
    # Halves that fill whole leaves cross the spines only: NIC links / 2 x 400G / s.
    assert j["bisection_gbps"] == nic_links / 2 * 400 / ratio
    assert j["bandwidth_per_gpu_gbps"]["effective"] == pytest.approx(400 / ratio)


def test_dgx_h100_superpod_4_su_matches_the_reference_architecture():
    """domain-facts 6c (NV-SP-H100 / NV-SP-B200): 4 SU = 32 leaves, 16 spines, 1,024 node-leaf
    and 1,024 leaf-spine cables for 128 nodes, non-blocking."""
    design = _generate().rail_optimized(
        nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32
    )
    j = analyze(design).to_json()
    assert j["gpus"] == 1024 and j["servers"] == 128
    assert j["switches"]["by_tier"] == {"leaf": 32, "spine": 16, "core": 0}
    assert j["links"]["by_tier"]["server-leaf"] == 1024
    assert j["links"]["by_tier"]["leaf-spine"] == 1024
    assert j["oversubscription"] == {"leaf": 1.0}
    assert j["bisection_gbps"] == 1024 * 400 / 2
    assert j["bottleneck"]["layer"] == "nic"


@pytest.mark.parametrize(
    "params",
    [
        dict(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32),
        dict(nodes=256, node_type="hgx-h100-8x400", switch="qm9700", su_nodes=32, tiers=3),
        dict(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=3),
    ],
)
def test_generated_rail_optimized_max_flow_equals_tier_computation(params):
    design = _generate().rail_optimized(**params)
    topo = infer_topology(design)
    tier = bisection(design, topo, force="tier")
    assert tier.regular
    assert bisection(design, topo, force="max-flow").gbps == pytest.approx(tier.gbps)


def test_nvl72_scale_up_domain():
    design = _generate().nvl72(racks=2)
    j = analyze(design).to_json()
    assert j["bandwidth_per_gpu_gbps"]["scale_up"] == 7200
    assert j["links"]["by_tier"]["scale-up"] > 0
    assert "SCALE_UP_SPLIT" not in {w["code"] for w in j["warnings"]}
    assert j["allreduce"]["curve"][0]["gpus"] == 72


def test_real_plant_media_counts_and_clean_pod():
    design = small_pod()
    plant = _plant(design)
    j = analyze(design, plant).to_json()
    assert sum(j["links"]["by_kind"].values()) + j["links"]["without_medium"] == 32
    assert j["cable_length_m"]["max"] > 0
    assert {w["code"] for w in j["warnings"]} == set()


def test_real_plant_no_medium_pinned_and_no_tray_path():
    design = small_pod()
    plant = _plant(design)
    design.update_links(
        [
            msgspec.structs.replace(design.links["l-1"], length_override_m=2500.0),
            msgspec.structs.replace(design.links["l-2"], medium="dac-400g", length_override_m=30.0),
        ]
    )
    design.remove_trays(["t-row", "t-cross"])
    plant.refresh()
    codes = {w.code for w in analyze(design, plant).warnings}
    assert {"NO_MEDIUM_REACHES", "PINNED_MEDIUM_OUT_OF_REACH", "NO_TRAY_PATH"} <= codes


def test_real_plant_incremental_equals_full_after_moves():
    design = small_pod()
    plant = _plant(design)
    analyzer = Analyzer(design, plant)
    analyzer.report()
    for x in (4.0, 9.0, 2.7):
        design.move_racks({"r2": (x, 3.0)})
        assert analyzer.report().to_json() == analyze(design, plant).to_json()


def test_tray_fill_is_the_peak_along_the_tray_not_the_sum():
    """8 cables run r1 -> n1 and 8 run n1 -> r2 along one tray: at no point are there 16."""
    from model.design.entities import Tray
    from tests.builders import device, empty_hall, link, rack

    design = empty_hall()
    rack(design, "r1", 1.5, 3.0)
    rack(design, "n1", 6.0, 3.0)
    rack(design, "r2", 10.5, 3.0)
    design.add_trays([Tray(id="t", points=[(0.6, 3.0), (11.4, 3.0)], width_m=0.1, depth_m=0.05)])
    device(design, "a", "r1", 2, "dgx-h100")
    device(design, "b", "r2", 2, "dgx-h100")
    device(design, "leaf", "n1", 20, "qm9700", role="leaf")
    for i in range(1, 9):
        link(design, f"a{i}", ("a", f"nic{i}"), ("leaf", f"p{i}"))
        link(design, f"b{i}", ("b", f"nic{i}"), ("leaf", f"p{8 + i}"))
    plant = _plant(design)
    assert {plant.medium(lid).id for lid in design.links} and all(
        plant.route(lid).tray_ids == ["t"] for lid in design.links
    )
    diameters = {plant.medium(lid).cable_diameter_mm for lid in design.links}
    assert len(diameters) == 1
    area = 3.141592653589793 * (diameters.pop() / 1000) ** 2 / 4
    report = analyze(design, plant)
    assert report.tray_fill["t"] == pytest.approx(8 * area / (0.1 * 0.05))
