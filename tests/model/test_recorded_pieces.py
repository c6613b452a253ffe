"""Structured links keep their cords' and trunks' recorded lengths (``Link.as_built_pieces_m``):
through export-netbox -> import-netbox the BOM and the schedule stay what they were (#40 item 3),
and the file, the edit API and the channel view treat the record as the loader's rules say."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from model.asbuilt.lengths import apply_lengths
from model.asbuilt.netbox_import import import_netbox
from model.design.design import DesignError
from model.design.structured_edit import route_via
from model.engine.routed_links import RoutedLinks
from model.files.design_file import DesignFileError, design_to_bytes, read_design_bytes
from model.generators.generate import generate
from model.outputs.bom import bom_lines
from model.outputs.netbox.export import netbox_tables
from model.outputs.schedule import schedule_rows
from model.structured.channel_view import channel_view
from model.structured.layout import place_panels, set_cabling, structured_layout
from tests.model.netbox_lists import write_lists
from tests.model.test_loader_link_entries import _hall, _index, _with
from tests.model.test_structured_layout import two_rack_hall


def _pieces_bom(design) -> Counter:
    """The BOM's cords and trunks: (category, part, length) -> quantity."""
    lines = bom_lines(design, RoutedLinks(design))
    return Counter(
        {
            (x.category, x.part, x.length_m): x.quantity
            for x in lines
            if x.category in ("Fibres", "Trunks")
        }
    )


def _schedule(design) -> tuple[Counter, list]:
    """The cabling schedule's cables: (label, kind, ordered length) counted, and every row."""
    rows = schedule_rows(design, RoutedLinks(design))
    return Counter((r.label, r.medium_kind, r.ordered_length_m) for r in rows), rows


def _export(design):
    plant = RoutedLinks(design)
    return netbox_tables(design, schedule_rows(design, plant), plant)


def _cable_lengths(export) -> Counter:
    """The NetBox cables' (label, length) counted: every cord and trunk leg."""
    header = list(export.tables["08_cables"].header)
    label, length = header.index("label"), header.index("length")
    return Counter((r[label], r[length]) for r in export.rows("08_cables"))


def _round_trip(design, folder):
    return import_netbox(write_lists(_export(design), folder)).design


@pytest.fixture(scope="module")
def cross_connected():
    design = generate(
        "rail-optimized", nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32
    )
    set_cabling(design, "cross-connect")
    place_panels(design)
    return design


@pytest.fixture(scope="module")
def zoned():
    """An end-of-row leaf-spine pod in zones: 192 of its 2,048 channels pass a third panel."""
    design = generate(
        "leaf-spine", nodes=128, node_type="dgx-h100", switch="qm9700", placement="end-of-row"
    )
    set_cabling(design, "zones")
    place_panels(design)
    return design


@pytest.mark.parametrize("pod", ["cross_connected", "zoned"])
def test_a_round_trip_keeps_the_boms_cords_and_trunks(request, tmp_path, pod):
    design = request.getfixturevalue(pod)
    back = _round_trip(design, tmp_path / "lists")
    assert all(k.as_built_pieces_m for k in back.links.values())
    if pod == "zoned":  # the three-panel channels came back with two trunks each
        assert sum(len(k.as_built_pieces_m) == 4 for k in back.links.values()) == 192
    before = _pieces_bom(design)
    assert before == _pieces_bom(back)
    ordered, _ = _schedule(design)
    ordered_back, rows = _schedule(back)
    assert ordered == ordered_back
    # The cut sheet's length of a cord or trunk leg is now the recorded one, not an estimate
    pieces = [r for r in rows if r.medium_kind in ("patch-cord", "mmf-trunk", "smf-trunk")]
    assert pieces and all(r.length_m == r.ordered_length_m for r in pieces)
    # Exported again, NetBox gets the lengths it held
    assert _cable_lengths(_export(back)) == _cable_lengths(_export(design))
    # Without the record the cords were estimated again from the summed as-built length:
    # the BOM's cord lengths moved (what the issue saw), so this test can tell the two apart.
    back.update_links(
        msgspec.structs.replace(k, as_built_pieces_m=()) for k in list(back.links.values())
    )
    assert _pieces_bom(back) != before


def test_the_layout_takes_a_recorded_trunk_and_cord_and_says_which_are_recorded(tmp_path):
    design, p1, p2 = _hall()
    layout = structured_layout(RoutedLinks(design))
    laid = layout.channels["l-1"]
    cord_a, _, trunk, _, cord_b = laid.elements
    assert not any(t.recorded for t in layout.trunks)
    assert "as laid" in channel_view(design, laid, layout=layout).length_text
    link = design.links["l-1"]
    design.update_links([msgspec.structs.replace(link, as_built_pieces_m=(10.0, 50.0, None))])
    layout = structured_layout(RoutedLinks(design))
    channel = layout.channels["l-1"]
    got_a, _, got_trunk, _, got_b = channel.elements
    assert (got_a.length_m, got_trunk.length_m, got_b.length_m) == (10.0, 50.0, cord_b.length_m)
    assert (cord_a.length_m, trunk.length_m) != (10.0, 50.0)
    (recorded,) = [t for t in layout.trunks if t.recorded]
    assert recorded.ordered_m == 50.0 and "l-1" in recorded.links
    words = channel_view(design, channel, layout=layout).length_text
    assert words == (
        f"{channel.length_m:g} m: cord A 10 m recorded, trunk 1 50 m recorded, "
        f"cord B {cord_b.length_m:g} m estimated"
    )
    # The BOM orders the recorded trunk at its length
    assert _pieces_bom(design)[("Trunks", recorded.part, 50.0)] == 1


def test_a_file_without_records_is_unchanged_and_a_record_round_trips_through_the_file():
    design, _, _ = _hall()
    assert b"as_built_pieces_m" not in design_to_bytes(design)
    link = design.links["l-1"]
    design.update_links([msgspec.structs.replace(link, as_built_pieces_m=(3.0, None, 2.0))])
    again = read_design_bytes(design_to_bytes(design))
    assert again.links["l-1"].as_built_pieces_m == (3.0, None, 2.0)


@pytest.mark.parametrize(
    ("pieces", "words"),
    [
        ([3.0, 2.0], "2 pieces: a channel is a cord, at least one trunk and a cord"),
        ([3.0, 20.0, 20.0, 2.0], "4 pieces for 2 panels"),
        ([3.0, 0.0, 2.0], "a recorded length of 0 m"),
    ],
)
def test_pieces_that_are_no_channel_are_refused_with_their_path(pieces, words):
    design, _, _ = _hall()
    data = _with(design, "l-1", as_built_pieces_m=pieces)
    with pytest.raises(DesignFileError) as err:
        read_design_bytes(data)
    assert err.value.json_path == f"$.links[{_index(data, 'l-1')}].as_built_pieces_m"
    assert words in str(err.value)
    link = design.links["l-1"]
    with pytest.raises(DesignError, match=words.split(":")[0]):  # the edit API's refusal
        design.update_links([msgspec.structs.replace(link, as_built_pieces_m=tuple(pieces))])


def test_a_negative_piece_is_refused_by_the_files_types():
    design, _, _ = _hall()
    data = _with(design, "l-1", as_built_pieces_m=[3.0, -1.0, 2.0])
    with pytest.raises(DesignFileError, match=r"as_built_pieces_m\[1\]"):
        read_design_bytes(data)


def test_routing_a_link_anew_forgets_the_old_routes_record():
    design, p1, p2 = _hall()
    link = design.links["l-1"]
    design.update_links([msgspec.structs.replace(link, as_built_pieces_m=(3.0, 20.0, 2.0))])
    route_via(design, "l-1", [p2, p1])
    assert design.links["l-1"].as_built_pieces_m == ()


@pytest.mark.parametrize("medium", ["sr8-800g", "sr4-400g"])
def test_every_cord_and_trunk_measured_at_its_ordered_length_keeps_the_bom(medium):
    """The as-built file's way in: each cord and trunk of the schedule measured at the length
    it is ordered at (SR8: two MPO legs per port, so two cords per end and two trunk legs)."""
    design = two_rack_hall(30.0, medium, nics=4)
    place_panels(design)
    plant = RoutedLinks(design)
    rows = schedule_rows(design, plant)
    pieces = [r for r in rows if r.cable_id not in design.links]
    assert pieces
    before = _pieces_bom(design)
    measured = [(n + 2, r.label, r.ordered_length_m) for n, r in enumerate(pieces)]
    errors, problems = apply_lengths(design, plant, measured)
    assert problems == [] and sum(e.cables for e in errors) == len(pieces)
    assert all(
        k.as_built_pieces_m and None not in k.as_built_pieces_m for k in design.links.values()
    )
    assert _pieces_bom(design) == before


def test_a_record_of_another_channel_shape_is_unused_and_a_finding_says_so():
    design = two_rack_hall(30.0, "sr4-400g", nics=2)
    place_panels(design)
    before = structured_layout(RoutedLinks(design))
    link_id = sorted(design.links)[0]
    link = design.links[link_id]
    assert link.via == ()  # the style's panels: two, one trunk
    record = (10.0, 20.0, 20.0, 10.0)  # a channel of two trunks
    design.update_links([msgspec.structs.replace(link, as_built_pieces_m=record)])
    layout = structured_layout(RoutedLinks(design))
    assert [e.length_m for e in layout.channels[link_id].elements] == [
        e.length_m for e in before.channels[link_id].elements
    ]
    (finding,) = [f for f in layout.findings if f.code == "RECORDED_PIECES_UNUSED"]
    assert finding.objects == (link_id,) and "4 recorded lengths" in finding.message
    assert not any(t.recorded for t in layout.trunks)


def test_a_measured_cord_of_a_link_routed_via_a_device_that_is_no_panel_is_said_not_saved():
    """Its via names 3 devices, its channel passes 2 panels: 3 pieces the file could not hold."""
    design, p1, p2 = _hall()
    link = design.links["l-1"]
    design.update_links([msgspec.structs.replace(link, via=(p1, "leaf1", p2))])
    plant = RoutedLinks(design)
    cord = next(r for r in schedule_rows(design, plant) if r.cable_id == "l-1:cord-a")
    errors, problems = apply_lengths(design, plant, [(2, cord.label, 5.0)])
    assert problems == [
        "link l-1: its measured cords and trunks: 3 pieces for 3 panels: a channel through 3 "
        "panels is 2 cords and 2 trunks"
    ]
    assert design.links["l-1"].as_built_pieces_m == ()
