"""Each warning code is raised by a minimal design and absent from a clean one."""

from __future__ import annotations

import pytest

from model.analysis import analyze
from model.common.findings import Finding
from model.design.entities import Hall, Obstacle, Tray
from tests.analysis_fabrics import FakePlant, clos
from tests.builders import device, empty_hall, link, rack, small_pod

ALL_CODES = {
    "OVERSUBSCRIBED",
    "NO_MEDIUM_REACHES",
    "PINNED_MEDIUM_OUT_OF_REACH",
    "SPEED_MISMATCH",
    "RACK_OVER_POWER",
    "RACK_OVER_U",
    "RACK_OVERLAP",
    "RACK_OUTSIDE_HALL",
    "RACK_ON_OBSTACLE",
    "NO_TRAY_PATH",
    "TRAY_OVERFILLED",
    "UNCABLED_GPU_NIC",
    "SWITCH_OUT_OF_PORTS",
    "SINGLE_UPLINK",
    "SCALE_UP_SPLIT",
}


def codes(design, plant=None) -> dict[str, list[Finding]]:
    out: dict[str, list[Finding]] = {}
    for finding in analyze(design, plant).warnings:
        out.setdefault(finding.code, []).append(finding)
    return out


def test_clean_design_has_no_warning_at_all():
    design = small_pod()
    assert codes(design, FakePlant(design)) == {}


def test_oversubscribed_names_the_switches():
    found = codes(clos(leaves_per_pod=2, spines_per_pod=2, leaf_spine_links=1))
    (f,) = found["OVERSUBSCRIBED"]
    assert f.severity == "warning" and set(f.objects) == {"leaf0-0", "leaf0-1"}
    assert "4.00:1" in f.message


def test_oversubscription_within_target_is_fine():
    design = clos(leaves_per_pod=2, spines_per_pod=2, leaf_spine_links=1)
    design.set_settings(design.settings.__class__(oversubscription_target=4.0))
    assert "OVERSUBSCRIBED" not in codes(design)


@pytest.mark.parametrize(
    "code", ["NO_MEDIUM_REACHES", "PINNED_MEDIUM_OUT_OF_REACH", "NO_TRAY_PATH"]
)
def test_geometry_findings_pass_through(code):
    design = small_pod()
    finding = Finding(code=code, severity="error", message="m", objects=("l-1",))
    plant = FakePlant(design, extra_findings=[finding])
    assert codes(design, plant)[code] == [finding]


def test_speed_mismatch():
    design = small_pod()
    device(design, "fast", "n1", 30, "sn5600", role="leaf")
    design.remove_links(["l-1"])
    link(design, "l-x", ("a1", "nic1"), ("fast", "p1"))
    (f,) = codes(design)["SPEED_MISMATCH"]
    assert f.objects == ("l-x",) and "400G" in f.message and "800G" in f.message


def test_rack_over_power_is_an_error_at_typical_and_at_max():
    design = empty_hall()
    rack(design, "r1", 1.0, 2.0)
    for i in range(6):  # 6 x 8.0 kW typical = 48 kW > 45 kW
        device(design, f"s{i}", "r1", 1 + 8 * i, "dgx-h100")
    (f,) = codes(design)["RACK_OVER_POWER"]
    assert f.severity == "error" and f.objects == ("r1",)
    design.remove_devices(["s5"])  # 40 kW typical, 51 kW max: a rack is provisioned for its max
    (f,) = codes(design)["RACK_OVER_POWER"]
    assert f.severity == "error" and "maximum" in f.message
    design.remove_devices(["s4"])  # 32 kW typical, 40.8 kW max
    assert "RACK_OVER_POWER" not in codes(design)


def test_rack_over_u():
    design = empty_hall()
    rack(design, "r1", 1.0, 2.0)
    device(design, "s1", "r1", 45, "dgx-h100")
    (f,) = codes(design)["RACK_OVER_U"]
    assert f.objects == ("s1", "r1")


def test_rack_overlap_outside_hall_and_on_obstacle():
    design = empty_hall()
    design.set_hall(
        Hall(
            outline=design.hall.outline,
            obstacles=[Obstacle(id="col1", polygon=[(5, 5), (5.5, 5), (5.5, 5.5), (5, 5.5)])],
        )
    )
    rack(design, "r1", 1.0, 2.0)
    rack(design, "r2", 1.3, 2.0)  # half overlapping r1
    rack(design, "r3", 1.6, 2.0)  # touches r1? no: overlaps r2 only
    rack(design, "r4", 20.0, 2.0)  # outside the 12 x 8.4 hall
    rack(design, "r5", 5.2, 5.2)  # on the column
    rack(design, "r6", 2.2, 2.0)  # touches r3 edge to edge: fine
    found = codes(design)
    assert sorted(f.objects for f in found["RACK_OVERLAP"]) == [("r1", "r2"), ("r2", "r3")]
    assert [f.objects for f in found["RACK_OUTSIDE_HALL"]] == [("r4",)]
    assert [f.objects for f in found["RACK_ON_OBSTACLE"]] == [("r5", "col1")]


def test_rotated_rack_footprint_is_used():
    design = empty_hall()
    rack(design, "r1", 1.0, 2.0, rotation=90)  # 1.2 wide along x now
    rack(design, "r2", 1.8, 2.0)  # 0.6 wide: spans 1.5-2.1, overlaps 1.5-1.6
    assert [f.objects for f in codes(design)["RACK_OVERLAP"]] == [("r1", "r2")]


def test_tray_overfilled():
    design = small_pod()
    design.add_trays([Tray(id="t1", points=[(0.5, 1.0), (3.0, 1.0)], width_m=0.05, depth_m=0.08)])
    plant = FakePlant(design)  # auto mode: every link in tray t1, 32 DACs (1.6 m) of 9.43 mm
    (f,) = codes(design, plant)["TRAY_OVERFILLED"]
    assert f.objects == ("t1",) and f.severity == "error"  # 56 % > 50 % maximum
    fill = analyze(design, plant).tray_fill["t1"]
    assert fill == pytest.approx(32 * 3.14159265 * 0.00943**2 / 4 / 0.004, rel=1e-6)  # 56 %


def test_uncabled_gpu_nic():
    design = small_pod()
    design.remove_links(["l-1", "l-2"])
    (f,) = codes(design)["UNCABLED_GPU_NIC"]
    assert f.objects == ("a1",) and "nic1, nic2" in f.message


def test_switch_out_of_ports():
    # 15 servers x 4 NICs + 4 uplinks fill all 64 ports of the leaf at 15:1.
    design = clos(
        leaves_per_pod=1, servers_per_leaf=15, nics=4, spines_per_pod=1, leaf_spine_links=4
    )
    found = codes(design)
    assert [f.objects for f in found["SWITCH_OUT_OF_PORTS"]] == [("leaf0-0",)]
    assert [f.objects for f in found["SINGLE_UPLINK"]] == [("leaf0-0",)]


def test_switch_with_room_to_grow_is_not_out_of_ports():
    assert "SWITCH_OUT_OF_PORTS" not in codes(clos(leaf_spine_links=1))


def test_single_uplink_only_when_one_upper_switch():
    assert "SINGLE_UPLINK" not in codes(clos(spines_per_pod=2, leaf_spine_links=1))
    found = codes(clos(spines_per_pod=1, leaf_spine_links=2))
    assert len(found["SINGLE_UPLINK"]) == 2


def test_scale_up_split():
    design = empty_hall()
    rack(design, "r1", 1.0, 2.0, type_id="rack-nvl72")
    rack(design, "r2", 6.0, 2.0, type_id="rack-nvl72")
    device(design, "tray1", "r1", 10, "gb200-compute-tray")
    device(design, "nvs1", "r1", 20, "gb200-nvlink-switch-tray")
    device(design, "nvs2", "r2", 20, "gb200-nvlink-switch-tray")
    link(design, "u1", ("tray1", "nvl1"), ("nvs1", "nvl1"))
    assert "SCALE_UP_SPLIT" not in codes(design)
    link(design, "u2", ("tray1", "nvl2"), ("nvs2", "nvl1"))  # 5 m away: beyond the backplane
    (f,) = codes(design)["SCALE_UP_SPLIT"]
    assert f.severity == "error" and {"r1", "r2", "u2"} <= set(f.objects)


def test_every_code_is_covered_by_this_file():
    import inspect
    import sys

    source = inspect.getsource(sys.modules[__name__])
    for code in ALL_CODES:
        assert source.count(code) >= 2, code
