"""BOM lines: grouping by part and ordered length, transceiver counting, totals, trays."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from model.bom import (
    bom_lines,
    bom_totals,
    cable_counts,
    module_groups,
    schedule_rows,
    transceiver_modules,
    tray_metres,
    unorderable_links,
)
from model.entities import Tray
from tests.builders import device, link, rack, small_pod
from tests.model.bom_test_helpers import assert_close, plant_of


@pytest.fixture
def pod_and_plant():
    design = small_pod()
    return design, plant_of(design)


def _by(lines, category):
    return [ln for ln in lines if ln.category == category]


def test_equipment_lines_count_racks_servers_switches_by_type(pod_and_plant):
    design, plant = pod_and_plant
    lines = bom_lines(design, plant)
    assert [(ln.part, ln.quantity) for ln in _by(lines, "Racks")] == [("rack-48u-600x1200", 3)]
    assert [(ln.part, ln.quantity) for ln in _by(lines, "Servers")] == [("dgx-h100", 4)]
    assert [(ln.part, ln.quantity) for ln in _by(lines, "Switches")] == [("qm9700", 2)]
    dgx = design.catalog.device_types["dgx-h100"]
    server = _by(lines, "Servers")[0]
    assert server.unit_power_w == dgx.power_typical_w
    assert server.total_power_w == 4 * dgx.power_typical_w
    assert server.total_price_usd == 4 * dgx.price_usd
    assert server.source == dgx.source


def test_cables_are_grouped_per_medium_and_ordered_length(pod_and_plant):
    design, plant = pod_and_plant
    expected = Counter()
    for i in range(len(plant.link_ids)):
        m = int(plant.medium_index[i])
        if m >= 0 and plant.media[m].kind != "backplane":
            expected[(plant.media[m].id, round(float(plant.ordered_m[i]), 3))] += 1
    cables = _by(bom_lines(design, plant), "Cables")
    assert {(ln.part, ln.length_m): ln.quantity for ln in cables} == dict(expected)
    assert sum(ln.quantity for ln in cables) == len(design.links)
    for ln in cables:
        medium = design.catalog.media_types[ln.part]
        assert ln.length_m in medium.orderable_lengths_m or medium.length_step_m > 0
        assert_close(
            ln.unit_price_usd, medium.cable_price_usd + medium.cable_price_per_m_usd * ln.length_m
        )
        assert_close(ln.total_price_usd, ln.unit_price_usd * ln.quantity)


def test_cables_of_different_lengths_land_on_separate_lines():
    design = small_pod()
    # Typed lengths of 0.7 m and 1.2 m round up to the DAC's 1 m and 1.5 m; two of each.
    for link_id, length in (("l-1", 0.7), ("l-2", 0.7), ("l-3", 1.2), ("l-4", 1.2)):
        old = design.links[link_id]
        design.update_links(
            [msgspec.structs.replace(old, medium="dac-400g", length_override_m=length)]
        )
    plant = plant_of(design)
    counts = cable_counts(plant)
    assert counts[("dac-400g", 1.0)] == 2
    assert counts[("dac-400g", 1.5)] == 2
    dac = [ln for ln in bom_lines(design, plant) if ln.part == "dac-400g"]
    assert [(ln.length_m, ln.quantity) for ln in dac] == [(1.0, 2), (1.5, 2)]
    # Passive DAC: no transceiver line; its end power is on the cable line.
    assert all(ln.category == "Cables" for ln in dac)
    assert dac[0].unit_power_w == pytest.approx(0.2)


def test_twin_port_cages_count_one_module_per_cage():
    design = small_pod()
    for link_id in list(design.links):
        design.update_links(
            [
                msgspec.structs.replace(
                    design.links[link_id], medium="sr4-400g", length_override_m=10.0
                )
            ]
        )
    plant = plant_of(design)
    # 4 DGX x 8 NICs on 4 twin-port cages each = 16; leaves: 32 ports on 16 twin-port cages.
    assert transceiver_modules(design, plant) == {("sr4-400g", 2): 32}
    sr4 = design.catalog.media_types["sr4-400g"]
    line = next(ln for ln in bom_lines(design, plant) if ln.category == "Transceivers")
    assert line.quantity == 32
    assert line.unit_power_w == 2 * sr4.power_per_end_w
    assert line.unit_price_usd == 2 * sr4.price_per_end_usd
    # Total module power equals every end at the catalog's per-end power.
    assert_close(line.total_power_w, 2 * len(design.links) * sr4.power_per_end_w)


def test_scattered_ports_on_twin_cages_need_a_module_per_cage():
    design = small_pod()
    design.remove_links(["l-2", "l-4"])  # a1 keeps nic1 and nic3: two different cages
    for link_id in list(design.links):
        design.update_links(
            [
                msgspec.structs.replace(
                    design.links[link_id], medium="sr4-400g", length_override_m=10.0
                )
            ]
        )
    modules = transceiver_modules(design, plant_of(design))
    # a1 still uses all 4 cages (nic1 | nic3 | nic5-6 | nic7-8): 4 servers x 4 = 16; leaf1:
    # p1 | p3 | p5..p16 in 6 cages = 8; leaf2: 8. ceil(ends / 2) would say 15 + 7 + 8 = 30,
    # one module short at a1 and at leaf1.
    assert modules == {("sr4-400g", 2): 16 + 8 + 8}


def test_single_port_cages_count_one_module_per_end():
    design = small_pod()
    rack(design, "r3", 3.3, 3.0)
    device(design, "h1", "r3", 2, "hgx-h100-8x400")
    device(design, "s1", "r3", 20, "sn5400")
    link(design, "x-1", ("h1", "fe1"), ("s1", "p1"))  # QSFP28 100G vs QSFP-DD 400G: no medium
    link(design, "x-2", ("h1", "bmc1"), ("s1", "mgmt1"))
    plant = plant_of(design)
    assert "x-1" in unorderable_links(plant)
    lines = bom_lines(design, plant)
    utp = [ln for ln in lines if ln.part == "utp-1g"]
    assert sum(ln.quantity for ln in utp) == 1
    assert not any(ln.part == "utp-1g" for ln in lines if ln.category == "Transceivers")


def test_totals_add_up_and_trays_are_metres_by_cross_section(pod_and_plant):
    design, plant = pod_and_plant
    design.add_trays(
        [
            Tray(
                id="t-uf",
                points=[(0.0, 0.0), (3.0, 0.0), (3.0, 4.0)],
                under_floor=True,
                elevation_m=-0.3,
                width_m=0.3,
            )
        ]
    )
    lines = bom_lines(design, plant)
    totals = bom_totals(lines)
    assert_close(totals.power_w, sum(ln.total_power_w or 0 for ln in lines))
    assert_close(totals.price_usd, sum(ln.total_price_usd or 0 for ln in lines))
    trays = {ln.part: ln for ln in _by(lines, "Trays")}
    assert trays["tray-600x150"].quantity == pytest.approx(10.8 + 3.0)
    assert trays["tray-300x150-uf"].quantity == pytest.approx(7.0)
    assert trays["tray-300x150-uf"].unit == "m"
    assert tray_metres(design)[(True, 0.3, 0.15)] == pytest.approx(7.0)


def test_every_line_names_a_source(pod_and_plant):
    design, plant = pod_and_plant
    assert all(ln.source for ln in bom_lines(design, plant))


def test_backplane_links_are_neither_ordered_nor_scheduled():
    design = small_pod()
    rack(design, "nvl", 4.5, 3.0, type_id="rack-nvl72")
    device(design, "ct1", "nvl", 10, "gb200-compute-tray")
    device(design, "sw1", "nvl", 20, "gb200-nvlink-switch-tray")
    link(design, "nv-1", ("ct1", "nvl1"), ("sw1", "nvl1"))
    plant = plant_of(design)
    i = plant.index["nv-1"]
    assert plant.media[int(plant.medium_index[i])].kind == "backplane"
    assert not any(ln.part == "nvlink-backplane" for ln in bom_lines(design, plant))
    assert "nv-1" not in {row.cable_id for row in schedule_rows(design, plant)}
    assert "nv-1" not in unorderable_links(plant)


def test_a_broken_out_port_uses_one_module_for_its_sub_ports():
    design = small_pod()
    rack(design, "r3", 3.3, 3.0)
    device(design, "h1", "r3", 2, "hgx-h100-8x400")
    device(design, "h2", "r3", 10, "hgx-h100-8x400")
    device(design, "sw", "r3", 30, "sn5600", role="leaf", breakout={"p": 2})
    link(design, "x-1", ("h1", "nic1"), ("sw", "p1/1"), medium="dr4-400g")
    link(design, "x-2", ("h2", "nic1"), ("sw", "p1/2"), medium="dr4-400g")
    link(design, "x-3", ("h2", "nic2"), ("sw", "p2/1"), medium="dr4-400g")
    plant = plant_of(design)
    groups = {k: v for k, v in module_groups(design, plant).items() if k[0] == "dr4-400g"}
    # Servers: 3 single-port modules. Switch: p1 is one 2 x 400G module with both halves used,
    # p2 one with a half unused.
    assert groups == {("dr4-400g", 1, 1): 3, ("dr4-400g", 2, 2): 1, ("dr4-400g", 2, 1): 1}
    dr4 = design.catalog.media_types["dr4-400g"]
    lines = [
        ln
        for ln in bom_lines(design, plant)
        if ln.part == "dr4-400g" and ln.category == "Transceivers"
    ]
    assert sum(ln.total_power_w for ln in lines) == pytest.approx(6 * dr4.power_per_end_w)
    assert sum(ln.total_price_usd for ln in lines) == pytest.approx(7 * dr4.price_per_end_usd)
