"""Panels as rack devices on generated pods, zones (TIA-942 HDA), via routing and skew."""

from __future__ import annotations

import math
from collections import Counter

import msgspec
import pytest

from cli import run_cli
from model.analysis import analyze
from model.design.entities import Tray
from model.design.structured_edit import panels_in_rack, place_panel, remove_panels, route_via
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.outputs.bom import bom_lines
from model.structured.channel_checks import channel_findings, skew_findings
from model.structured.channels import loss_budget
from model.structured.layout import (
    StructuredLayout,
    panel_usage,
    place_panels,
    set_cabling,
    structured_layout,
)
from model.structured.polarity import check_polarity
from tests.builders import device, empty_hall, link, rack

POD_ARGS = ["rail-optimized", "--nodes", "31", "--node-type", "dgx-h100", "--switch", "qm9700"]
POD_ARGS += ["--su-nodes", "31", "--reserve-ports", "1"]


@pytest.fixture(scope="module")
def generated_pod(tmp_path_factory):
    out = tmp_path_factory.mktemp("pod") / "pod.hall.json"
    assert run_cli(["generate", *POD_ARGS, "-o", str(out), "--cabling", "cross-connect"]) == 0
    design = load_design(out)
    return design, RoutedLinks(design)


def test_generated_pod_has_its_panels_at_the_top_of_the_racks(generated_pod):
    design, plant = generated_pod
    layout = structured_layout(plant)
    assert layout.virtual_panels == {}  # every port is on a placed panel ...
    assert not [f for f in layout.findings if f.code == "PANELS_NOT_PLACED"]
    ports = Counter()
    for trunk in layout.trunks:
        ports[trunk.panel_a] += trunk.legs
        ports[trunk.panel_b] += trunk.legs
    for rack_id, record in design.racks.items():
        panels = panels_in_rack(design, rack_id)
        taken = set()
        for d in design.devices_in_rack(rack_id):
            taken.update(range(d.u, d.u + design.device_type(d).u_height))
        for panel in panels:  # ... at the top: every U above a panel is taken
            assert set(range(panel.u, record.height_u + 1)) <= taken
        used = sum(ports[p.id] for p in panels)
        assert len(panels) == math.ceil(used / 72)
    usage = panel_usage(plant)
    assert usage and all(used <= of == 72 for used, of in usage.values())
    assert sum(u for u, _ in usage.values()) == sum(ports.values())


def test_generated_pod_bom_counts_trunks_cassettes_cords_and_panels(generated_pod):
    design, plant = generated_pod
    layout = structured_layout(plant)
    n = len(layout.structured_links())
    lines = bom_lines(design, plant)
    qty = Counter()
    for ln in lines:
        qty[ln.category] += ln.quantity
    assert len(layout.cords) == 2 * n
    assert qty["Fibres"] == 2 * n  # the cords, on the lines of their fibre part and length
    assert qty["Trunks"] == len(layout.trunks)
    trunk_lines = [ln for ln in lines if ln.category == "Trunks"]
    assert all(ln.length_m and "OM4 trunk" in ln.description for ln in trunk_lines)
    by_part = Counter()
    for t in layout.trunks:
        by_part[(t.part, t.ordered_m)] += 1
    assert sum(by_part.values()) == sum(ln.quantity for ln in trunk_lines)
    placed = sum(1 for d in design.devices.values() if d.role == "patch-panel")
    assert qty["Panels"] == placed  # the placed panel devices; SR4 needs no cassette
    assert "cassette" not in " ".join(ln.description for ln in lines)
    assert channel_findings(layout.channels.values()) == []


def test_duplex_optics_on_the_generated_pod_order_cassettes_in_enclosures(generated_pod):
    design, _ = generated_pod
    design = load_design_copy(design)
    rack_id = "r1" if "r1" in design.racks else sorted(design.racks)[0]
    servers = [d.id for d in design.devices.values() if d.role == "gpu-server"]
    server = next(d for d in servers if design.devices[d].rack == rack_id)
    pinned = sorted(design.links_of_device(server))
    design.update_links(
        [msgspec.structs.replace(design.links[i], medium="fr4-400g") for i in pinned]
    )
    place_panels(design)
    plant = RoutedLinks(design)
    layout = structured_layout(plant)
    lc = [layout.channels[i] for i in pinned if layout.channels[i].connector == "LC duplex"]
    assert lc
    for channel in lc:
        assert [e.kind for e in channel.elements][1] == "cassette"
        assert check_polarity(channel).ok
    enclosure_trunks = [
        t for t in layout.trunks if design.devices[t.panel_a].type == "enclosure-1u-4"
    ]
    cassettes = sum(layout.cassettes.values())
    assert cassettes == 2 * sum(t.legs for t in enclosure_trunks)  # one at each end per leg
    lc_ports = Counter()
    fibres_of = Counter(layout.cords.link_ids)  # a cord pair per fibre (pair)
    for t in enclosure_trunks:
        for link_id in t.links:
            lc_ports[(t.panel_a, t.panel_b)] += fibres_of[link_id]  # a cassette port each
    assert cassettes == 2 * sum(math.ceil(n / 6) for n in lc_ports.values())  # 6 LC per cassette
    enclosures = [d for d in design.devices.values() if d.type == "enclosure-1u-4"]
    per_rack = Counter(
        design.devices[t.panel_a].rack for t in enclosure_trunks for _ in range(t.legs)
    )
    assert len(enclosures) >= max(math.ceil(n / 4) for n in per_rack.values())
    lines = bom_lines(design, plant)
    cassette_lines = [ln for ln in lines if "6 x LC duplex cassette" in ln.description]
    assert cassette_lines[0].category == "Cassettes"
    assert sum(ln.quantity for ln in cassette_lines) == cassettes


def load_design_copy(design):
    from model.files.design_file import design_to_bytes, read_design_bytes

    return read_design_bytes(design_to_bytes(design))


def zone_hall(medium: str):
    """Row A: three DGX racks, no network gear (an HDA zone); row B: the leaf rack (MDA)."""
    design = empty_hall(width_m=20.0, depth_m=10.0)
    for k, x in enumerate((1.5, 2.1, 2.7), start=1):
        rack(design, f"a{k}", x, 3.0, name=f"A0{k}")
        device(design, f"s{k}", f"a{k}", 2, "dgx-h100")
    rack(design, "b1", 10.5, 6.0, name="B01")
    device(design, "leaf1", "b1", 20, "qm9700", role="leaf")
    design.add_trays(
        [
            Tray(id="t-a", points=[(0.6, 3.0), (12.0, 3.0)]),
            Tray(id="t-b", points=[(0.6, 6.0), (12.0, 6.0)]),
            Tray(id="t-x", points=[(12.0, 3.0), (12.0, 6.0)]),
        ]
    )
    port = 0
    for k in (1, 2, 3):
        for nic in (1, 2):
            port += 1
            link(
                design, f"l-{k}{nic}", (f"s{k}", f"nic{nic}"), ("leaf1", f"p{port}"), medium=medium
            )
    set_cabling(design, "zones")
    place_panels(design)
    return design


def test_zones_pass_the_rows_hda_panel_and_multimode_breaks_the_two_panel_rule():
    design = zone_hall("sr4-400g")
    layout = structured_layout(RoutedLinks(design))
    hub = "a3"  # A03: the row end nearest the network rack
    far = layout.channels["l-11"]
    kinds = [e.kind for e in far.elements]
    assert kinds == ["cord", "panel", "trunk", "panel", "trunk", "panel", "cord"]
    racks = [design.devices[e.object_id].rack for e in far.elements if e.kind == "panel"]
    assert racks == ["a1", hub, "b1"]
    assert check_polarity(far).ok  # Type-B then Type-A trunk: one flip
    assert [e.polarity for e in far.elements if e.kind == "trunk"] == ["B", "A"]
    assert loss_budget(far).mated_pairs == ("MPO",) * 3
    assert [e.kind for e in layout.channels["l-31"].elements].count("panel") == 2  # the hub's own
    # The HDA-to-MDA segment carries every channel of the row: 6 legs bundled into a 48-fibre
    # trunk (4 legs, the largest that turns a 100 mm tray corner) and a 24-fibre one (2).
    backbone = [t for t in layout.trunks if (t.rack_a, t.rack_b) == (hub, "b1")]
    assert sorted((t.fibres, t.legs) for t in backbone) == [(24, 2), (48, 4)]
    codes = {(f.code, f.objects[0]) for f in channel_findings(layout.channels.values())}
    assert ("CHANNEL_TOO_MANY_PANELS", "l-11") in codes
    assert ("CHANNEL_TOO_MANY_PANELS", "l-31") not in codes


def test_zones_suit_single_mode_which_has_no_panel_rule():
    design = zone_hall("dr4-400g")
    layout = structured_layout(RoutedLinks(design))
    assert layout.channels["l-11"].panels == 3
    assert channel_findings(layout.channels.values()) == []
    assert layout.virtual_panels == {}


def test_a_link_routed_via_chosen_panels_uses_exactly_them():
    design = zone_hall("sr4-400g")
    set_cabling(design, "direct")
    p1 = panels_in_rack(design, "a1")[0].id
    p2 = panels_in_rack(design, "b1")[0].id
    plant = RoutedLinks(design)
    assert structured_layout(plant).structured_links() == set()
    route_via(design, "l-11", [p1, p2])
    plant.refresh()
    layout = structured_layout(plant)
    assert layout.structured_links() == {"l-11"}
    panels = [e.object_id for e in layout.channels["l-11"].elements if e.kind == "panel"]
    assert panels == [p1, p2]
    assert analyze(design, plant).to_json()["channels"]["total"] == len(layout.channels)
    remove_panels(design, [p2])
    plant.refresh()
    panels = [e.object_id for e in structured_layout(plant).channels["l-11"].elements]
    assert p2 not in panels and p1 in panels


def test_a_full_rack_keeps_virtual_panels_and_says_so():
    design = zone_hall("sr4-400g")
    set_cabling(design, "cross-connect")
    for panel in list(panels_in_rack(design, "b1")):
        remove_panels(design, [panel.id])
    top = design.racks["b1"].height_u
    free = [
        u
        for u in range(top, 0, -1)
        if not any(
            d.u <= u < d.u + design.device_type(d).u_height for d in design.devices_in_rack("b1")
        )
    ]
    for u in free:
        place_panel(design, "b1", "enclosure-1u-4", u=u)  # fill every free U
    assert place_panels(design) == 0
    layout = structured_layout(RoutedLinks(design))
    (f,) = [f for f in layout.findings if f.code == "PANELS_NOT_PLACED"]
    assert f.objects == ("b1",) and "B01" in f.message
    assert layout.panel_counts()["panel-mpo-1u-72"] == 1


def test_twin_mpo_fibres_of_different_lengths_are_flagged():
    layout = StructuredLayout("cross-connect", {})
    layout.leg_lengths_m = {"l-1": [20.0, 40.0], "l-2": [20.0, 30.0]}
    (f,) = skew_findings(layout)
    assert f.code == "TWIN_PORT_SKEW" and f.objects == ("l-1",)
    assert "90 ns" in f.message and "79 ns" in f.message  # 20 m x 4.5 ns/m


def test_generate_zones_saves_the_style_and_places_the_panels(tmp_path):
    out = tmp_path / "zones.hall.json"
    assert run_cli(["generate", *POD_ARGS, "-o", str(out), "--cabling", "zones"]) == 0
    design = load_design(out)
    assert design.settings.cabling == "zones" and design.revision == 0
    assert any(d.role == "patch-panel" for d in design.devices.values())
    layout = structured_layout(RoutedLinks(design))
    assert layout.virtual_panels == {} and layout.structured_links()


def test_a_file_whose_link_names_a_missing_panel_loads_and_the_layout_says_so(tmp_path):
    from model.files.design_file import design_to_bytes, read_design_bytes

    design = zone_hall("sr4-400g")
    p1 = panels_in_rack(design, "a1")[0].id
    route_via(design, "l-11", [p1])
    data = design_to_bytes(design).replace(f'"via":["{p1}"]'.encode(), b'"via":["pp-gone"]')
    again = read_design_bytes(data)
    layout = structured_layout(RoutedLinks(again))
    (f,) = [f for f in layout.findings if f.code == "VIA_PANEL_MISSING"]
    assert f.objects == ("l-11",) and "pp-gone" in f.message
    assert layout.channels["l-11"].panels == 3  # the zones path instead
