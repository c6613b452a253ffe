"""The plug rules on hand-built cases: one plug per cage, straight and splitter cables, modules."""

from __future__ import annotations

import msgspec
import pytest

from model.engine.media import POLICIES
from model.engine.routed_links import RoutedLinks
from model.plant.physical_plant import build_plant
from tests.builders import device, empty_hall, link, rack


def one_rack(*types):
    """Rack r1 holding devices named d1, d2, ... of ``types`` from U2 up."""
    design = empty_hall()
    rack(design, "r1", 2.0, 3.0)
    u = 2
    for n, type_id in enumerate(types, start=1):
        device(design, f"d{n}", "r1", u, type_id)
        u += design.catalog.device_types[type_id].u_height
    return design


def connect(design, links, length_m):
    for link_id, a, b in links:
        link(design, link_id, a, b, length_override_m=length_m)


def media(plant):
    return {lid: plant.medium(lid).id if plant.medium(lid) else None for lid in plant.link_ids}


@pytest.mark.parametrize("policy", POLICIES)
def test_straight_twin_port_copper_only_where_both_ports_go_to_one_far_cage(policy):
    design = one_rack("dgx-h100", "qm9700")
    # nic1 + nic2 (DGX cage 1) -> p1 + p2 (leaf cage 1): one straight twin-port DAC.
    connect(design, [("a", ("d1", "nic1"), ("d2", "p1")), ("b", ("d1", "nic2"), ("d2", "p2"))], 1.2)
    # nic3 -> p3 (cage 2) but nic4 -> p5 (cage 3): cage 2 of the DGX is split.
    connect(design, [("c", ("d1", "nic3"), ("d2", "p3")), ("d", ("d1", "nic4"), ("d2", "p5"))], 1.2)
    plant = RoutedLinks(design, policy)
    got = media(plant)
    phys = build_plant(plant, with_links=True)
    if policy != "fibre-only":
        assert got["a"] == got["b"] == "dac-400g"
        cable_a, cable_b = phys.link_parts["a"][0], phys.link_parts["b"][0]
        assert cable_a == cable_b  # one assembly for both links
        assert phys.link_parts["a"][5] == "MCP4Y10-N01A"  # 1.5 m straight twin-port DAC
    assert plant.media[plant.medium_index[plant.index["c"]]].kind in ("mmf", "smf")
    assert got["c"] == got["d"]
    assert phys.cages_invalid == 0 and not phys.findings


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("length_m", [0.8, 4.0, 30.0])
def test_rails_from_a_dgx_cage_to_two_leaves_get_a_module_and_fibres(policy, length_m):
    design = one_rack("dgx-h100", "qm9700", "qm9700")
    connect(
        design,
        [("rail1", ("d1", "nic1"), ("d2", "p1")), ("rail2", ("d1", "nic2"), ("d3", "p1"))],
        length_m,
    )
    plant = RoutedLinks(design, policy)
    phys = build_plant(plant, with_links=True)
    assert {plant.medium(x).kind for x in ("rail1", "rail2")} <= {"mmf", "smf"}
    assert plant.medium("rail1") == plant.medium("rail2")  # one twin-port module: one PMD
    modules = {i.part_number: i.quantity for i in phys.of("module")}
    flat = [p for p in design.catalog.module_parts.values() if p.heatsink == "flat"]
    assert sum(modules.values()) == 3  # one DGX cage (flat) + one cage on each leaf (finned)
    assert any(p.part_number in modules for p in flat)
    assert sum(i.quantity for i in phys.of("fibre")) == 2 and not phys.of("cable")
    assert "2 different far cages" in plant.reason("rail1")
    assert phys.cages_invalid == 0


def test_a_splitter_only_where_its_catalog_entry_allows():
    # Leaf twin-port cage (p1, p2) to two single-port OSFP NICs, 2.5 m: the 26AWG splitter.
    design = one_rack("qm9700", "hgx-h100-8x400", "hgx-h100-8x400")
    connect(
        design, [("s1", ("d1", "p1"), ("d2", "nic1")), ("s2", ("d1", "p2"), ("d3", "nic1"))], 2.5
    )
    plant = RoutedLinks(design)
    assert media(plant) == {"s1": "dac-400g-splitter", "s2": "dac-400g-splitter"}
    phys = build_plant(plant, with_links=True)
    assert [(i.part_number, i.quantity) for i in phys.of("cable")] == [("MCP7Y00-N02A", 1)]
    assert phys.link_parts["s1"][0] == phys.link_parts["s2"][0]
    # The same leaf cage to two twin-port DGX cages: no splitter part joins twin-port legs.
    design = one_rack("qm9700", "dgx-h100", "dgx-h100")
    connect(
        design, [("s1", ("d1", "p1"), ("d2", "nic1")), ("s2", ("d1", "p2"), ("d3", "nic1"))], 2.5
    )
    plant = RoutedLinks(design)
    assert {plant.medium(x).kind for x in ("s1", "s2")} == {"mmf"}
    # Beyond the splitter's 3 m: modules and fibres.
    design = one_rack("qm9700", "hgx-h100-8x400", "hgx-h100-8x400")
    connect(
        design, [("s1", ("d1", "p1"), ("d2", "nic1")), ("s2", ("d1", "p2"), ("d3", "nic1"))], 3.2
    )
    assert {RoutedLinks(design).medium(x).kind for x in ("s1", "s2")} == {"mmf"}


def test_one_long_link_moves_the_whole_component_to_the_longer_reach_module():
    design = one_rack("dgx-h100", "qm9700", "qm9700")
    link(design, "near", ("d1", "nic1"), ("d2", "p1"), length_override_m=10.0)
    link(design, "far", ("d1", "nic2"), ("d3", "p1"), length_override_m=80.0)  # > 50 m SR4
    plant = RoutedLinks(design)
    # Both ports of the DGX cage's module carry one PMD and fibre type (§4, §7b).
    assert media(plant) == {"near": "dr4-400g", "far": "dr4-400g"}
    phys = build_plant(plant)
    assert {i.part_id for i in phys.of("fibre")} == {"fibre-mpo12-sm"}


def test_a_part_is_used_only_where_the_catalog_has_one():
    # 6 m between two twin-port NDR cages under copper-first: LACC reaches 5 m and NVIDIA sells
    # no NDR AEC or AOC (§1b), so the cages take modules, never an AEC.
    design = one_rack("qm9700", "qm9700")
    connect(design, [("u1", ("d1", "p1"), ("d2", "p1")), ("u2", ("d1", "p2"), ("d2", "p2"))], 6.0)
    plant = RoutedLinks(design, "copper-first")
    assert {plant.medium(x).kind for x in ("u1", "u2")} == {"mmf"}
    connect(design, [("v1", ("d1", "p3"), ("d2", "p3")), ("v2", ("d1", "p4"), ("d2", "p4"))], 4.5)
    plant = RoutedLinks(design, "copper-first")
    assert {plant.medium(x).id for x in ("v1", "v2")} == {"lacc-400g"}
    assert not build_plant(plant).findings


def test_a_pinned_out_of_rule_medium_warns_and_stays_pinned():
    design = one_rack("dgx-h100", "qm9700", "qm9700")
    connect(
        design,
        [("rail1", ("d1", "nic1"), ("d2", "p1")), ("rail2", ("d1", "nic2"), ("d3", "p1"))],
        1.0,
    )
    plant = RoutedLinks(design)
    design.update_links([msgspec.structs.replace(design.links["rail1"], medium="dac-400g")])
    plant.refresh()
    assert plant.medium("rail1").id == "dac-400g"  # kept, never silently changed
    assert plant.medium("rail2").kind == "mmf"
    phys = build_plant(plant)
    codes = {f.code for f in phys.findings}
    assert "CAGE_MIXED_PLUGS" in codes and phys.cages_invalid >= 1
    assert all(f.severity == "error" for f in phys.findings)


def test_a_pinned_medium_that_fits_the_rules_spreads_to_its_cages():
    design = one_rack("dgx-h100", "qm9700", "qm9700")
    connect(
        design,
        [("rail1", ("d1", "nic1"), ("d2", "p1")), ("rail2", ("d1", "nic2"), ("d3", "p1"))],
        5.0,
    )
    plant = RoutedLinks(design)
    design.update_links([msgspec.structs.replace(design.links["rail1"], medium="dr4-400g")])
    plant.refresh()
    assert media(plant) == {"rail1": "dr4-400g", "rail2": "dr4-400g"}
    assert not build_plant(plant).findings


def test_a_pinned_dac_on_a_split_cage_is_a_split_cable():
    design = one_rack("dgx-h100", "qm9700", "qm9700")
    connect(
        design,
        [("rail1", ("d1", "nic1"), ("d2", "p1")), ("rail2", ("d1", "nic2"), ("d3", "p1"))],
        1.0,
    )
    design.update_links(
        [msgspec.structs.replace(design.links[x], medium="dac-400g") for x in ("rail1", "rail2")]
    )
    phys = build_plant(RoutedLinks(design))
    assert {f.code for f in phys.findings} == {"CAGE_SPLIT_CABLE"}
    assert phys.cages_invalid == 3


def test_removing_a_rail_lets_the_cage_left_take_a_cable_and_refresh_says_so():
    design = one_rack("dgx-h100", "qm9700", "qm9700")
    connect(
        design,
        [("rail1", ("d1", "nic1"), ("d2", "p1")), ("rail2", ("d1", "nic2"), ("d3", "p1"))],
        1.0,
    )
    plant = RoutedLinks(design)
    assert plant.medium("rail1").kind == "mmf"
    design.remove_links(["rail2"])
    changed = plant.refresh()
    assert "rail1" in changed and plant.medium("rail1").kind == "dac"
    link(design, "rail2", ("d1", "nic2"), ("d3", "p1"), length_override_m=1.0)
    changed = plant.refresh()
    assert {"rail1", "rail2"} <= changed and plant.medium("rail1").kind == "mmf"
    assert not build_plant(plant).findings
