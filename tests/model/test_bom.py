"""BOM lines: one line per orderable part number, modules per cage, spares, totals, trays."""

from __future__ import annotations

import msgspec
import pytest

from model.design.entities import Settings, Tray
from model.outputs.bom import bom_lines, bom_totals, tray_metres, unorderable_links
from model.outputs.bom_parts import QUOTE, SPARES_CLASS, cited_sources
from model.outputs.schedule import schedule_rows
from model.plant.physical_plant import build_plant
from tests.builders import device, link, rack, small_pod
from tests.model.bom_test_helpers import assert_close, plant_of


@pytest.fixture
def pod_and_plant():
    design = small_pod()
    return design, plant_of(design)


def _by(lines, category):
    return [ln for ln in lines if ln.category == category]


def _pin(design, medium, length_m, ids=None):
    for link_id in ids or list(design.links):
        design.update_links(
            [
                msgspec.structs.replace(
                    design.links[link_id], medium=medium, length_override_m=length_m
                )
            ]
        )


def test_equipment_lines_count_racks_servers_switches_by_type(pod_and_plant):
    design, plant = pod_and_plant
    lines = bom_lines(design, plant)
    assert [(ln.part, ln.quantity) for ln in _by(lines, "Racks")] == [("rack-48u-600x1200", 3)]
    assert [(ln.part, ln.quantity) for ln in _by(lines, "GPU servers")] == [("dgx-h100", 4)]
    assert [(ln.part, ln.quantity) for ln in _by(lines, "Switches")] == [("qm9700", 2)]
    dgx = design.catalog.device_types["dgx-h100"]
    server = _by(lines, "GPU servers")[0]
    # The switch by the number its source publishes (the DGX SuperPOD RA's MQM9700-NS2F); no
    # source of the catalog publishes DGX or rack order codes: quote, never a catalog id
    assert [ln.part_number for ln in _by(lines, "Switches")] == ["MQM9700-NS2F"]
    assert {ln.part_number for ln in lines if ln.category == "Racks"} == {QUOTE}
    assert server.part_number == QUOTE
    assert server.vendor == "NVIDIA"
    assert server.unit_power_w == dgx.power_typical_w
    assert server.unit_power_w_max == dgx.power_max_w
    assert server.total_power_w_max == 4 * dgx.power_max_w
    assert server.total_price_usd == 4 * dgx.price_usd
    assert server.source == cited_sources(dgx.source)
    assert "http" in server.source and "NV-" not in server.source


def test_every_module_cable_and_fibre_line_is_an_orderable_part_number(pod_and_plant):
    design, plant = pod_and_plant
    media_ids = set(design.catalog.media_types)
    for ln in bom_lines(design, plant):
        if ln.category in ("Modules", "Cables", "Fibres", "Trays"):
            number = ln.part_number
            assert number and number not in media_ids and "{len}" not in number
            assert not number.startswith("EST-") and number != ln.part
            assert ln.vendor and ln.source


def test_twin_port_cages_count_one_module_per_cage_finned_or_flat():
    design = small_pod()
    _pin(design, "sr4-400g", 10.0)
    plant = plant_of(design)
    lines = _by(bom_lines(design, plant), "Modules")
    # 4 DGX x 8 NICs on 4 twin-port (flat) cages = 16; leaves: 32 ports on 16 finned cages.
    assert {ln.part_number: ln.quantity for ln in lines} == {
        "980-9I51A-00NS00": 16,
        "980-9I510-00NS00": 16,
    }
    part = design.catalog.module_parts["mma4z00-ns-fin"]
    finned = next(ln for ln in lines if ln.part_number == part.part_number)
    assert (finned.unit_power_w, finned.unit_power_w_max) == (part.power_w, part.power_w_max)
    fibres = _by(bom_lines(design, plant), "Fibres")
    assert [(ln.part_number, ln.quantity) for ln in fibres] == [
        ("980-9I570-00N010", len(design.links))
    ]


def test_scattered_ports_on_twin_cages_need_a_module_per_cage():
    design = small_pod()
    design.remove_links(["l-2", "l-4"])  # a1 keeps nic1 and nic3: two different cages
    _pin(design, "sr4-400g", 10.0)
    lines = _by(bom_lines(design, plant_of(design)), "Modules")
    # a1 uses all 4 cages (nic1 | nic3 | nic5-6 | nic7-8): 4 servers x 4 = 16; leaf1:
    # p1 | p3 | p5..p16 in 8 cages; leaf2: 8. Twin-port power is the same half used or not.
    assert sum(ln.quantity for ln in lines) == 16 + 8 + 8


def test_cables_of_different_lengths_land_on_separate_lines():
    design = small_pod()
    # nic1+nic2 -> p1+p2 share a twin-port DAC: typed 0.7 m (both) and 1.2 m (both).
    _pin(design, "dac-400g", 0.7, ["l-1", "l-2"])
    _pin(design, "dac-400g", 1.2, ["l-3", "l-4"])
    plant = plant_of(design)
    dac = [ln for ln in bom_lines(design, plant) if ln.part_number.startswith("MCP4Y10")]
    assert [(ln.part_number, ln.length_m, ln.quantity) for ln in dac] == [
        ("MCP4Y10-N001", 1.0, 1),
        ("MCP4Y10-N01A", 1.5, 1),
    ]
    assert dac[0].unit_power_w == pytest.approx(0.2)  # both ends of the cable
    assert dac[1].unit_price_usd > dac[0].unit_price_usd  # longer costs more


def test_price_grows_with_length_for_every_cable_and_fibre_part(pod_and_plant):
    design, _ = pod_and_plant
    catalog = design.catalog
    for part in [*catalog.cable_parts.values(), *catalog.fibre_parts.values()]:
        prices = [part.price_at(x) for x in part.lengths_m]
        assert all(b > a for a, b in zip(prices, prices[1:], strict=False)), part.id
    for medium in catalog.media_types.values():
        if medium.kind in ("dac", "acc", "aec", "aoc"):
            assert medium.cable_price_per_m_usd > 0, medium.id


def test_spares_are_a_column_per_category_and_not_in_the_matching_total(pod_and_plant):
    design, plant = pod_and_plant
    before = bom_totals(bom_lines(design, plant))
    design.set_settings(Settings(spares_pct={"Transceivers": 10.0, "Fibres": 5.0}))
    plant.refresh()
    lines = bom_lines(design, plant)
    for ln in lines:
        pct = {"Transceivers": 10.0, "Fibres": 5.0}.get(SPARES_CLASS[ln.category], 0.0)
        assert ln.spares == -(-int(ln.quantity * pct) // 100) if pct else ln.spares == 0
        if ln.spares:
            assert ln.spares_price_usd == pytest.approx(ln.spares * ln.unit_price_usd)
    totals = bom_totals(lines)
    assert totals.price_usd == pytest.approx(before.price_usd)
    assert totals.spares_price_usd > 0


def test_single_port_cages_and_utp():
    design = small_pod()
    rack(design, "r3", 3.3, 3.0)
    device(design, "h1", "r3", 2, "hgx-h100-8x400")
    device(design, "s1", "r3", 20, "sn5400")
    link(design, "x-1", ("h1", "fe1"), ("s1", "p1"))  # QSFP28 100G vs QSFP-DD 400G: no medium
    link(design, "x-2", ("h1", "bmc1"), ("s1", "mgmt1"))
    plant = plant_of(design)
    assert "x-1" in unorderable_links(plant)
    utp = [ln for ln in bom_lines(design, plant) if ln.part == "cat6a"]
    assert sum(ln.quantity for ln in utp) == 1 and utp[0].category == "Cables"


def test_totals_add_up_and_trays_are_products_in_sections(pod_and_plant):
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
    products = design.catalog.tray_products
    trays = {products[ln.part].part_number: ln for ln in _by(lines, "Trays")}
    metres = tray_metres(design)
    assert metres[(True, 0.3, 0.15)] == pytest.approx(7.0)
    # 0.3 x 0.15 m product: 7 m under floor + the pod's 0.6 m trays as 0.6 x 0.15 sections.
    assert trays["EST-TRAY-WM-300X150"].quantity == 3  # ceil(7 / 3)
    assert trays["EST-TRAY-WM-600X150"].quantity == -(-int((10.8 + 3.0) * 10) // 30)


def test_a_wide_tray_is_a_bank_of_standard_trays(pod_and_plant):
    design, plant = pod_and_plant
    tray = next(iter(design.trays.values()))
    design.update_trays([msgspec.structs.replace(tray, width_m=1.8)])
    products = design.catalog.tray_products
    trays = {products[ln.part].part_number: ln for ln in _by(bom_lines(design, plant), "Trays")}
    assert "EST-TRAY-WM-900X150" in trays  # 2 x 0.9 m, not one 1.8 m tray


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
    assert not any("backplane" in ln.description for ln in bom_lines(design, plant))
    assert "nv-1" not in {row.link_id for row in schedule_rows(design, plant)}
    assert "nv-1" not in unorderable_links(plant)


def test_a_broken_out_port_uses_one_module_for_its_sub_ports():
    design = small_pod()
    rack(design, "r3", 3.3, 3.0)
    device(design, "h1", "r3", 2, "hgx-h100-8x400")
    device(design, "h2", "r3", 10, "hgx-h100-8x400")
    device(design, "sw", "r3", 30, "sn5600", role="leaf", breakout={"p": 2})
    link(design, "x-1", ("h1", "nic1"), ("sw", "p1/1"), length_override_m=20.0)
    link(design, "x-2", ("h2", "nic1"), ("sw", "p1/2"), length_override_m=20.0)
    plant = plant_of(design)
    phys = build_plant(plant)
    # The switch cage p1 (2 x 400G) takes one twin-port module; each NIC one single-port module.
    modules = {i.part_number: i.quantity for i in phys.of("module") if i.part_id != "x"}
    assert modules.get("980-9I510-00NS00", 0) >= 1 and modules.get("MMA4Z00-NS400") == 2
    assert not phys.findings
