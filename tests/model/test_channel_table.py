"""A layout's channels and cords as columns: the same channels and checks as one by one."""

from __future__ import annotations

import csv
import math
from collections import Counter

import msgspec
import pytest

from cli import run_cli
from model.design.structured_edit import place_panel, route_via
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design, save_design
from model.structured.channel_checks import channel_checks, table_checks
from model.structured.channel_table import ChannelTable, Cord
from model.structured.channel_view import PlanObject, channel_objects, patch_point_rack
from model.structured.channels import loss_budget
from model.structured.layout import place_panels, structured_layout
from model.structured.link_polarity import set_polarity
from tests.builders import rack
from tests.model.test_structured_layout import two_rack_hall

POD = ["rail-optimized", "--nodes", "31", "--node-type", "dgx-h100", "--switch", "qm9700"]
POD += ["--su-nodes", "31", "--reserve-ports", "1"]


@pytest.fixture(scope="module", params=["cross-connect", "zones"])
def pod_file(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("pod") / "pod.hall.json"
    assert run_cli(["generate", *POD, "-o", str(out), "--cabling", request.param]) == 0
    return out


def _mixed(path):
    """The pod with one server's links on duplex optics (LC cassettes, one port per channel)
    and polarity records that break some channels (a cord, a trunk, a cassette port)."""
    design = load_design(path)
    server = sorted(d.id for d in design.devices.values() if d.role == "gpu-server")[0]
    duplex = sorted(design.links_of_device(server))
    design.update_links(
        [msgspec.structs.replace(design.links[i], medium="fr4-400g") for i in duplex]
    )
    place_panels(design)
    others = sorted(set(design.links) - set(duplex))
    set_polarity(design, others[0], "trunk-1", "A")
    set_polarity(design, others[1], "cord-1", "A")
    set_polarity(design, duplex[0], "cassette-2", "B@3")
    set_polarity(design, duplex[1], "cord-2", "AA")
    return design


def _checks_agree(layout):
    channels = list(layout.channels.values())
    assert table_checks(layout.channels) == channel_checks(channels)


def test_checks_on_the_columns_equal_the_checks_of_every_channel_made(pod_file):
    design = _mixed(pod_file)
    layout = structured_layout(RoutedLinks(design))
    summary, findings = table_checks(layout.channels)
    assert summary["polarity_errors"] >= 3  # the records above are checked, and count
    assert {f.code for f in findings} >= {"POLARITY_MISMATCH"}
    _checks_agree(layout)


def test_checks_on_the_columns_find_every_channel_over_its_reach_or_budget():
    design = two_rack_hall(42.0, "sr4-400g", nics=4)  # 50 m OM4 paneled reach exceeded
    layout = structured_layout(RoutedLinks(design))
    summary, findings = table_checks(layout.channels)
    assert [f.code for f in findings] == ["CHANNEL_REACH_EXCEEDED"] * 4
    assert summary["total"] == 4
    _checks_agree(layout)
    direct = two_rack_hall(42.0, "sr4-400g", nics=4)
    direct.set_settings(msgspec.structs.replace(direct.settings, cabling="direct"))
    _checks_agree(structured_layout(RoutedLinks(direct)))  # direct channels: one group


def test_a_channel_is_made_from_its_leg_with_its_own_cords_port_and_record(pod_file):
    design = _mixed(pod_file)
    layout = structured_layout(RoutedLinks(design))
    table = layout.channels
    assert isinstance(table, ChannelTable) and list(table) == list(table.fibres)
    for row, link_id in enumerate(table.link_ids):
        channel = table[link_id]
        cord_a = channel.elements[0]
        assert (cord_a.object_id, cord_a.length_m) == (f"{link_id}:cord-a", table.cord_a_m[row])
        assert channel.elements[-1].length_m == table.cord_b_m[row]
        cassettes = [e for e in channel.elements if e.kind == "cassette"]
        if cassettes and link_id not in table.records:
            near, far = cassettes
            assert near.port == table.ports[row] + 1 and far.port == 6 - table.ports[row]
    assert set(layout.structured_links()) == set(table.link_ids)
    assert table.records  # read when the layout was made, only for links through panels


def test_the_cords_as_columns_read_as_cords(pod_file):
    layout = structured_layout(RoutedLinks(load_design(pod_file)))
    cords = layout.cords
    made = list(cords)
    assert len(made) == len(cords) == 2 * len(cords.link_ids) > 0
    assert made[0] == cords[0] and made[-1] == cords[-1] and made[3] == cords[3]
    assert cords[1:3] == made[1:3]
    assert [(c.end, c.quantity) for c in made[:2]] == [("a", 1), ("b", 1)]
    assert isinstance(made[0], Cord)
    assert [c.ordered_m for c in made[::2]] == cords.a_ordered and cords.parts[0] == made[
        0
    ].fibre_part
    with pytest.raises(IndexError):
        cords[len(cords)]


def test_plan_objects_read_off_the_legs_are_those_of_every_channel_made(pod_file):
    design = _mixed(pod_file)
    layout = structured_layout(RoutedLinks(design))
    trunks = {t.id: t for t in layout.trunks}
    expected = {}  # the channels made one by one, each element placed where it is
    for channel in layout.channels.values():
        if not channel.panels:
            continue
        for i, e in enumerate(channel.elements):
            if e.kind == "cord":
                place = PlanObject("cord", link_id=channel.link_id)
            elif e.kind == "trunk":
                place = PlanObject("trunk", rack_id=trunks[e.object_id].rack_a)
            else:
                place = PlanObject(e.kind, rack_id=patch_point_rack(design, trunks, channel, i))
            expected.setdefault(e.object_id, place)
    got = channel_objects(layout, design)
    assert got == expected
    assert {p.kind for p in got.values()} >= {"cord", "trunk", "panel", "cassette"}


def test_the_pieces_as_columns_are_each_links_pieces(pod_file):
    plant = RoutedLinks(load_design(pod_file))
    plant.refresh()
    columns = list(zip(*plant.pieces_columns(), strict=True))
    assert len(columns) == len(plant.link_ids) > 0
    for link_id in plant.link_ids:
        assert columns[plant.index[link_id]] == plant.pieces_m(link_id)


def test_each_fibre_of_a_twin_mpo_link_has_its_length_and_single_fibre_links_none():
    design = two_rack_hall(12.0, "sr8-800g", nics=4)  # 2 MPO per port: 2 legs, 2 cord pairs
    layout = structured_layout(RoutedLinks(design))
    pairs = Counter(layout.cords.link_ids)
    assert set(pairs.values()) == {2}
    assert set(layout.leg_lengths_m) == set(pairs)
    ordered = {t.id: t.ordered_m for t in layout.trunks}
    for link_id, lengths in layout.leg_lengths_m.items():
        # Each fibre: its cords + the trunks of its own leg, in the order the legs were laid.
        legs = [leg for leg in layout.legs if link_id in leg.links]
        rows = [k for k, lid in enumerate(layout.cords.link_ids) if lid == link_id]
        expected = [
            layout.cords.a_ordered[row]
            + sum(ordered[t] for t in leg.trunks)
            + layout.cords.b_ordered[row]
            for leg, row in zip(legs, rows, strict=True)
        ]
        assert lengths == pytest.approx(expected)
    single = two_rack_hall(12.0, "sr4-400g", nics=4)
    assert structured_layout(RoutedLinks(single)).leg_lengths_m == {}


def test_a_cord_too_long_to_order_leaves_the_summary_finite_on_both_paths():
    # l-1 routed via a panel ~68 m away: its A cord is longer than any MM MPO cord (50 m), so
    # its channel's length and loss are unknown (NaN); the summary leaves it out on both paths.
    design = two_rack_hall(12.0, "sr4-400g", nics=2)
    rack(design, "far", 70.0, 3.0)
    far = place_panel(design, "far", "panel-mpo-1u-72")
    near = place_panel(design, "n1", "panel-mpo-1u-72")
    route_via(design, "l-1", [far.id, near.id])
    layout = structured_layout(RoutedLinks(design))
    assert math.isnan(layout.channels["l-1"].length_m)
    (finding,) = [f for f in layout.findings if f.code == "CORD_NOT_ORDERABLE"]
    assert finding.severity == "error" and finding.objects == ("l-1", "l-1:cord-a")
    assert "longest 50 m" in finding.message
    summary, _ = table_checks(layout.channels)
    assert math.isfinite(summary["max_loss_db"]) and math.isfinite(summary["min_margin_db"])
    assert summary["max_loss_db"] == round(loss_budget(layout.channels["l-2"]).loss_db, 3)
    _checks_agree(layout)


def test_every_command_handles_a_cord_too_long_to_order(tmp_path):
    design = two_rack_hall(12.0, "sr4-400g", nics=2)
    rack(design, "far", 70.0, 3.0)
    route_via(
        design,
        "l-1",
        [
            place_panel(design, "far", "panel-mpo-1u-72").id,
            place_panel(design, "n1", "panel-mpo-1u-72").id,
        ],
    )
    path = tmp_path / "far.hall.json"
    save_design(design, path)
    for command in (
        ["analyze", "--json"],
        ["bom", "-o", str(tmp_path / "bom.csv")],
        ["schedule", "-o", str(tmp_path / "schedule.csv")],
        ["export-netbox", "-o", str(tmp_path / "netbox")],
    ):
        assert run_cli([command[0], str(path), *command[1:]]) in (0, 1), command
    with (tmp_path / "bom.csv").open(newline="") as file:
        bom = list(csv.reader(file))
    assert not [c for row in bom for c in row if c.lower() == "nan"]  # the cord is not bought
    cord_a = [r for r in (tmp_path / "schedule.csv").read_text().splitlines() if "l-1:cord-a" in r]
    assert len(cord_a) == 1 and ",71.578,," in cord_a[0]  # its length, no ordered length, no part


def test_a_trunks_only_layout_has_the_full_layouts_trunks_and_panels(pod_file):
    plant = RoutedLinks(_mixed(pod_file))
    full = structured_layout(plant)
    trunks = structured_layout(plant, trunks_only=True)
    assert trunks.trunks == full.trunks and trunks.findings == [
        f for f in full.findings if f.code != "CORD_NOT_ORDERABLE"
    ]
    assert (trunks.virtual_panels, trunks.panel_use, trunks.cassettes) == (
        full.virtual_panels,
        full.panel_use,
        full.cassettes,
    )
    assert not trunks.channels and not trunks.cords and not trunks.legs
