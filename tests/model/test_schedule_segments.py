"""Cabling schedule per segment on a generated cross-connect pod: patch cord / trunk / patch cord,
labels at both ends, the channel id grouping them; direct designs unchanged byte for byte."""

from __future__ import annotations

import csv
from collections import Counter, defaultdict

import pytest

from cli import run_cli
from model.design.entities import Tray
from model.design.structured_edit import place_panel, route_via
from model.engine.routed_links import RoutedLinks
from model.files.design_file import save_design
from model.generators.generate import generate
from model.outputs.schedule import SCHEDULE_COLUMNS, schedule_rows
from model.structured.channels import CONNECTOR_FAMILY
from model.structured.layout import place_panels, set_cabling, structured_layout
from tests.builders import device, empty_hall, link, rack

POD = dict(
    nodes=31, node_type="dgx-h100", switch="qm9700", su_nodes=31, reserve_ports=1, name="pod"
)


def expand(ports: str) -> list[int]:
    """ "R1-R3,R7" -> [1, 2, 3, 7] (a trunk end's rear ports)."""
    out = []
    for part in ports.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo[1:]), int((hi or lo)[1:]) + 1)
    return out


@pytest.fixture(scope="module")
def pod():
    direct = generate("rail-optimized", **POD)
    direct_rows = schedule_rows(direct, RoutedLinks(direct))
    design = generate("rail-optimized", **POD)
    set_cabling(design, "cross-connect")
    place_panels(design)  # as generate --cabling does: panel devices at the rack tops
    plant = RoutedLinks(design)
    return design, plant, structured_layout(plant), schedule_rows(design, plant), direct_rows


def test_each_paneled_channel_is_listed_as_cord_trunk_cord(pod):
    design, plant, layout, rows, direct_rows = pod
    structured = layout.structured_links()
    assert structured
    by_link = defaultdict(list)
    for row in rows:
        by_link[row.link_id].append(row)
    expected_rows = swaps = 0
    cords = Counter(c.link_id for c in layout.cords)
    listed_trunks = set()
    for whole in direct_rows:  # the schedule's order: a shared trunk under its first channel
        link_id = whole.link_id
        if link_id not in structured:
            continue
        channel = layout.channels[link_id]
        kinds = [e.kind for e in channel.elements]
        assert kinds == ["cord", "panel", "trunk", "panel", "cord"]
        trunk_id = channel.elements[2].object_id
        n = cords[link_id] // 2  # fibres per port (1 for SR4)
        new_trunk = trunk_id not in listed_trunks
        listed_trunks.add(trunk_id)
        got = by_link[link_id]
        assert [r.medium_kind for r in got] == ["patch-cord"] * n + ["trunk"] * new_trunk + [
            "patch-cord"
        ] * n
        expected_rows += 2 * n + new_trunk
        cord_a, cord_b = got[0], got[-1]
        # Labels at both ends: device port to panel front, panel rear to panel rear, and back,
        # from the end the one-row schedule lists first.
        assert (cord_a.a_device, cord_a.a_port) == (whole.a_device, whole.a_port)
        assert (cord_b.b_device, cord_b.b_port) == (whole.b_device, whole.b_port)
        assert cord_a.b_rack == cord_a.a_rack and cord_b.a_rack == cord_b.b_rack
        panels = {d.name for d in design.devices.values() if d.role == "patch-panel"}
        assert cord_a.b_device in panels and cord_b.a_device in panels  # placed panels
        assert cord_a.label == (
            f"{cord_a.a_rack}-U{cord_a.a_u}-{cord_a.a_port} to {cord_a.b_device}:{cord_a.b_port}"
        )
        if new_trunk:
            trunk_row = got[n]
            assert trunk_row.cable_id == trunk_id
            assert (trunk_row.a_device, trunk_row.b_device) == (cord_a.b_device, cord_b.a_device)
            assert int(cord_a.b_port) in expand(trunk_row.a_port)  # its leg's rear port
            assert int(cord_b.a_port) in expand(trunk_row.b_port)
            trunk = next(t for t in layout.trunks if t.id == trunk_id)
            assert trunk_row.ordered_length_m == trunk.ordered_m
            assert trunk_row.label == (
                f"{trunk_row.a_device}:{trunk_row.a_port} to "
                f"{trunk_row.b_device}:{trunk_row.b_port}"
            )
        # Cord lengths are the channel's (its elements run from the link's A end).
        swapped = whole.a_device != design.devices[design.links[link_id].a.device].name
        first, last = (4, 0) if swapped else (0, 4)
        assert cord_a.ordered_length_m == channel.elements[first].length_m
        assert cord_b.ordered_length_m == channel.elements[last].length_m
        assert cord_a.cable_id == f"{link_id}:cord-{'b' if swapped else 'a'}"
        swaps += swapped
    assert listed_trunks == {t.id for t in layout.trunks}
    assert 0 < swaps < len(structured)  # both orientations were checked
    others = [r for r in direct_rows if r.link_id not in structured]
    assert len(rows) == len(others) + expected_rows
    # Links that stay direct keep their rows exactly.
    assert [r for r in rows if r.link_id not in structured] == others


def test_panel_ports_are_unique_and_each_trunk_end_lists_its_legs_ports(pod):
    design, plant, layout, rows, _ = pod
    fronts = Counter()
    for row in rows:
        if row.medium_kind == "patch-cord":
            end = "b" if row.b_cage == "" and row.b_module == "" else "a"
            fronts[(getattr(row, f"{end}_device"), getattr(row, f"{end}_port"))] += 1
    assert set(fronts.values()) == {1}  # no panel port is used twice
    rear = Counter()
    for row in rows:
        if row.medium_kind == "trunk":
            for device, ports in ((row.a_device, row.a_port), (row.b_device, row.b_port)):
                rear.update((device, p) for p in expand(ports))
    assert set(rear.values()) == {1}
    assert {(d, int(p)) for d, p in fronts} == set(rear)  # every front has its rear
    legs = sum(t.legs for t in layout.trunks)
    assert len(rear) == 2 * legs


def test_a_direct_design_schedule_is_unchanged(pod, tmp_path):
    direct = generate("rail-optimized", **POD)
    path = tmp_path / "pod.hall.json"
    save_design(direct, path)
    out = tmp_path / "a.csv"
    assert run_cli(["schedule", str(path), "-o", str(out)]) == 0
    with out.open(newline="") as f:
        lines = list(csv.reader(f))
    assert tuple(lines[0]) == SCHEDULE_COLUMNS
    assert len(lines) - 1 == len(pod[4])
    assert all(row.medium_kind not in ("patch-cord", "trunk") for row in pod[4])


def test_cli_schedule_of_a_cross_connect_design_lists_segments(tmp_path):
    design = generate("rail-optimized", **POD)
    set_cabling(design, "cross-connect")
    path = tmp_path / "x.hall.json"
    save_design(design, path)
    out = tmp_path / "x.csv"
    assert run_cli(["schedule", str(path), "-o", str(out)]) == 0
    with out.open(newline="") as f:
        lines = list(csv.DictReader(f))
    kinds = Counter(r["medium_kind"] for r in lines)
    layout = structured_layout(RoutedLinks(design))
    assert kinds["trunk"] == len(layout.trunks)
    assert kinds["patch-cord"] == len(layout.cords)


def test_duplex_channels_list_cassette_ports_and_one_row_per_shared_trunk():
    design = empty_hall(width_m=72.0)
    rack(design, "r1", 1.5, 3.0)
    rack(design, "n1", 12.0, 3.0)
    design.add_trays([Tray(id="t-row", points=[(0.6, 3.0), (71.4, 3.0)])])
    device(design, "a1", "r1", 2, "dgx-h100")
    device(design, "leaf1", "n1", 20, "qm9700", role="leaf")
    for nic in range(1, 9):
        link(design, f"l-{nic}", ("a1", f"nic{nic}"), ("leaf1", f"p{nic}"), medium="fr4-400g")
    set_cabling(design, "cross-connect")
    plant = RoutedLinks(design)
    layout = structured_layout(plant)
    assert all(CONNECTOR_FAMILY[c.connector] == "LC" for c in layout.channels.values())
    rows = schedule_rows(design, plant)
    trunks = [r for r in rows if r.medium_kind == "trunk"]
    assert [r.cable_id for r in trunks] == [t.id for t in layout.trunks]  # one row per trunk
    cords = [r for r in rows if r.medium_kind == "patch-cord"]
    assert len(cords) == len(layout.cords)
    first = [r for r in rows if r.link_id == "l-1"]
    assert [r.medium_kind for r in first] == ["patch-cord", "trunk", "patch-cord"]
    # Near LC port 1 of the first cassette meets far port 6 (mirrored ports, method B).
    # The schedule lists N1 first (it sorts first), so l-1 runs from the leaf's end.
    assert (first[0].b_device, first[0].b_port) == ("cassette-n1-1", "6")
    assert (first[2].a_device, first[2].a_port) == ("cassette-r1-1", "1")
    assert first[1].a_port == first[1].b_port == "R"


def test_a_duplex_channel_through_one_placed_panel_lists_its_cassette_in_the_panel_rack():
    # One patch point and no trunk: the cassette's rack is not the end of a trunk beside it.
    # The schedule (and the xlsx BOM's schedule sheet) stopped with KeyError: None here.
    design = empty_hall(width_m=72.0)
    rack(design, "r1", 1.5, 3.0)
    rack(design, "n1", 12.0, 3.0)
    rack(design, "mid-row", 30.0, 3.0)  # a dash in the rack id: the cassette id still parses
    design.add_trays([Tray(id="t-row", points=[(0.6, 3.0), (71.4, 3.0)])])
    device(design, "a1", "r1", 2, "dgx-h100")
    device(design, "a2", "mid-row", 2, "dgx-h100")
    device(design, "leaf1", "n1", 20, "qm9700", role="leaf")
    link(design, "l-1", ("a1", "nic1"), ("leaf1", "p1"), medium="fr4-400g")
    link(design, "l-2", ("a2", "nic1"), ("leaf1", "p2"), medium="fr4-400g")
    set_cabling(design, "cross-connect")
    panel = place_panel(design, "mid-row", "panel-mpo-1u-72")
    route_via(design, "l-2", [panel.id])
    plant = RoutedLinks(design)
    rows = [r for r in schedule_rows(design, plant) if r.link_id == "l-2"]
    assert [r.medium_kind for r in rows] == ["patch-cord", "patch-cord"]
    ends = {(r.a_device, r.a_rack) for r in rows} | {(r.b_device, r.b_rack) for r in rows}
    cassettes = {end for end in ends if end[0].startswith("cassette-")}
    assert cassettes == {("cassette-mid-row-1", "MID-ROW")}


def test_the_schedule_builds_the_structured_layout_once(pod, monkeypatch):
    """The plant's BOM items and the segment rows come from one layout (it was built twice)."""
    design, plant, _, rows, _ = pod
    import model.outputs.schedule_segments as segments
    import model.plant.structured as structured_plant

    built = []

    def counted(p, catalog=None):
        built.append(p)
        return structured_layout(p, catalog)

    monkeypatch.setattr(segments, "structured_layout", counted)
    monkeypatch.setattr(structured_plant, "structured_layout", counted)
    assert schedule_rows(design, plant) == rows
    assert len(built) == 1


def _old_swap(row: tuple) -> tuple:
    """The swap the schedule made before rows were tuples (ScheduleRow, dataclass replace);
    a cord's route is turned round too since it can name racks (a patch rack's cord)."""
    from model.outputs.schedule_segment_cells import reverse_route

    a_label, _, b_label = row[2].partition(" to ")
    route = reverse_route(row[21])
    return (
        *row[:2],
        f"{b_label} to {a_label}",
        *row[7:11],
        *row[3:7],
        *row[11:16],
        row[17],
        row[16],
        row[19],
        row[18],
        row[20],
        route,
    )


@pytest.mark.parametrize(
    ("a_label", "b_label"),
    [("A01-U2-nic1", "pp1:17"), ("go to", "pp1:R1"), ("x to y", "b to c"), ("a", " to b")],
)
@pytest.mark.parametrize("kind", ["patch-cord", "trunk"])
def test_a_segment_made_from_its_b_end_is_the_old_swap(a_label, b_label, kind):
    """A row filled from its B end (the link turned round) is the row from its A end with
    the ends exchanged and the label split where the old swap split it."""
    import numpy as np

    from model.outputs.schedule_columns import objects
    from model.outputs.schedule_segment_cells import fill
    from model.outputs.schedule_segment_table import CodedOut

    a = (a_label, "A01", 2, "node", "nic1", "cage 1", "MMA")
    b = (b_label, "A09", 48, "pp9", "R1", "", "")
    unorderable = float("nan")

    def filled(turned: bool, route: str) -> tuple:
        out = CodedOut(1)
        values = dict(cable_id="trunk-1", link_id="l-1", speed_gbps=400.0, medium="sr4-400g")
        values.update(medium_kind=kind, length_m=8.9312, ordered_length_m=unorderable)
        values.update(part="P", route=route)
        ends = [tuple(objects([x], 1) for x in end) for end in (a, b)]
        fill(out, np.array([0]), values, *ends, np.array([turned]))
        return tuple(out.full(name)[0] for name in SCHEDULE_COLUMNS)

    straight = filled(False, "Cross 1 > Row A")
    assert straight[2] == f"{a_label} to {b_label}" and straight[3:7] == a[1:5]
    assert filled(True, "Row A > Cross 1") == _old_swap(straight)


def test_a_column_rounded_at_once_is_each_value_rounded():
    """The cord columns are rounded by one comprehension: the same values and types as
    rounding each (an int stays an int though 1 == 1.0, -0.0 and NaN as num makes them)."""
    import math

    from model.outputs.schedule_segment_cells import num, rounded

    values = [2.34567, 1, 1.0, 0.0, -0.0, math.nan, None, 2.34567, 3.0005, 7, 1e-4]
    got = rounded(values).tolist()
    want = [num(v) for v in values]
    assert [(type(g), repr(g)) for g in got] == [(type(w), repr(w)) for w in want]
    assert got[:2] == [2.346, 1] and type(got[1]) is int and got[5] is None
