"""export-netbox -> import-netbox keeps every link's medium and port speed (#40 item 3): an 800G
SR8/FR8 channel does not come back as a 400G SR4/FR4 one, so the BOM keeps all its cords and
trunk legs, in direct, cross-connect and zoned halls, 400G, 800G and twin-port 2x400G cages."""

from __future__ import annotations

from collections import Counter

import pytest

from model.analysis.analyzer import analyze
from model.asbuilt.netbox_import import import_netbox
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.outputs.bom import bom_lines
from model.outputs.netbox.export import netbox_tables
from model.outputs.schedule import schedule_rows
from model.structured.layout import place_panels, set_cabling, structured_layout
from tests.model.netbox_lists import write_lists
from tests.model.test_structured_layout import two_rack_hall


def _facts(design):
    """(medium and port speed per link by its ends' names, BOM lines, the analysis' cables)."""
    plant = RoutedLinks(design)
    try:
        media = Counter()
        for k in design.links.values():
            ends = []
            for ref in (k.a, k.b):
                port = design.ports(ref.device)[ref.port]
                ends.append((design.devices[ref.device].name, ref.port, port.speed_gbps))
            medium = plant.medium(k.id)
            media[(tuple(sorted(ends)), medium.id if medium else None)] += 1
        # The facility (PDUs, busway, CRAHs) is not the network's round trip: the import
        # leaves rack PDUs out (they have no U), a separate gap
        bom = Counter(
            {
                (x.category, x.part, x.length_m): x.quantity
                for x in bom_lines(design, plant)
                if x.category != "Power and cooling"
            }
        )
        cables = analyze(design, plant).plant["cables"]
        return media, bom, cables
    finally:
        plant.close()


def _round_trip(design, folder):
    plant = RoutedLinks(design)
    try:
        export = netbox_tables(design, schedule_rows(design, plant), plant)
    finally:
        plant.close()
    return import_netbox(write_lists(export, folder))


def _assert_kept(design, tmp_path):
    before = _facts(design)
    back = _round_trip(design, tmp_path / "lists")
    media, bom, cables = _facts(back.design)
    assert media == before[0]
    assert bom == before[1]
    assert cables == before[2]
    return before, back


@pytest.mark.parametrize("medium", ["sr8-800g", "fr8-800g", "sr4-400g", "fr4-400g"])
@pytest.mark.parametrize("cabling", ["direct", "cross-connect", "zones"])
def test_a_pinned_medium_comes_back_with_its_cords_and_trunk_legs(tmp_path, medium, cabling):
    design = two_rack_hall(30.0, medium, nics=4)  # links pinned to ``medium``
    set_cabling(design, cabling)
    if cabling != "direct":
        place_panels(design)
    (media, bom, _), back = _assert_kept(design, tmp_path)
    assert {m for (_, m) in media} == {medium}
    # An SR8 port's second trunk leg has no cord in NetBox: not "left out", its trunk is back
    assert back.left_out == []
    if medium == "sr8-800g" and cabling != "direct":
        # Two MPO cords per end and two trunk legs per port: what SR4 would have halved
        cords = sum(q for (cat, part, _), q in bom.items() if cat == "Fibres")
        assert cords == 4 * 2 * 2


@pytest.mark.parametrize(
    ("params", "cabling"),
    [
        (dict(node_type="dgx-h100", switch="qm9700"), "cross-connect"),  # twin-port 2x400G
        (dict(node_type="dgx-b300", switch="q3400"), "direct"),  # 800G XDR
        (dict(node_type="dgx-b300", switch="q3400"), "cross-connect"),
        (dict(node_type="dgx-h100", switch="qm9700"), "zones"),
        (dict(node_type="dgx-b300", switch="q3400"), "zones"),
    ],
)
def test_a_generated_hall_keeps_its_media_bom_and_cable_counts(tmp_path, params, cabling):
    design = generate("rail-optimized", nodes=16, su_nodes=16, **params)
    if cabling != "direct":
        set_cabling(design, cabling)
        place_panels(design)
    _assert_kept(design, tmp_path)


def _schedule(design) -> Counter:
    plant = RoutedLinks(design)
    try:
        rows = schedule_rows(design, plant)
    finally:
        plant.close()
    return Counter((r.label, r.medium_kind, r.ordered_length_m) for r in rows)


def _virtual(design) -> dict:
    plant = RoutedLinks(design)
    try:
        return structured_layout(plant, panels_only=True).virtual_panels
    finally:
        plant.close()


@pytest.mark.parametrize("leaf_panels_left", [None, 0, 2])
def test_panels_no_rack_had_room_for_come_back_with_their_links_routes(tmp_path, leaf_panels_left):
    """Exported without a rack position (virtual panels), they were listed as left out. With
    some of the leaf rack's panels placed, its links come back half routed by hand (the placed
    panels named) and half by the style (the virtual ones): the layout must not give the named
    panels' ports to the style's links too (the 13 virtual panels of a 256-node hall were lost
    so)."""
    design = generate(
        "rail-optimized", nodes=16, su_nodes=16, node_type="dgx-h100", switch="qm9700"
    )
    set_cabling(design, "cross-connect")
    if leaf_panels_left is not None:  # every rack's panels placed, the leaf rack's cut to a few
        place_panels(design)
        leaf_rack = design.devices["su1-leaf-rail1"].rack
        panels = sorted(
            (d for d in design.devices.values() if d.rack == leaf_rack and d.role == "patch-panel"),
            key=lambda d: -d.u,
        )
        assert len(panels) > leaf_panels_left
        design.remove_devices([d.id for d in panels[leaf_panels_left:]])
    virtual = _virtual(design)
    assert virtual
    _, back = _assert_kept(design, tmp_path)
    assert not [x for x in back.left_out if x.startswith("device")]
    assert _virtual(back.design) == virtual
    assert _schedule(back.design) == _schedule(design)  # every cord and leg by label and length
    (note,) = [n for n in back.notes if "no rack had room for" in n]
    assert note.startswith(f"{sum(virtual.values())} panels")


def test_a_virtual_panel_the_imported_channels_do_not_need_is_listed_as_left_out(tmp_path):
    design = two_rack_hall(30.0, "sr4-400g", nics=4)  # no panel placed: one virtual per rack
    plant = RoutedLinks(design)
    try:
        export = netbox_tables(design, schedule_rows(design, plant), plant)
    finally:
        plant.close()
    folder = write_lists(export, tmp_path / "lists")
    devices = folder / "netbox_devices.csv"
    rows = devices.read_text().splitlines()
    (r1_panel,) = [r for r in rows if r.startswith("R1-PP1,")]
    devices.write_text("\n".join([*rows, r1_panel.replace("R1-PP1", "R1-PP2", 1)]) + "\n")
    result = import_netbox(folder)
    assert [x for x in result.left_out if x.startswith("device")] == [
        "device R1-PP2: a panel-mpo-1u-72 panel of rack r1 without a rack position, which "
        "the imported design's channels do not need"
    ]
    assert any(n.startswith("2 panels no rack had room for") for n in result.notes)
