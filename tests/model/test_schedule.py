"""Cabling schedule: one row per cable, unique labels, lengths within reach, rack-by-rack order."""

from __future__ import annotations

import msgspec

from model.outputs.bom import natural_key
from model.outputs.schedule import SCHEDULE_COLUMNS, ScheduleRow, schedule_rows
from tests.builders import device, link, rack, small_pod
from tests.model.bom_test_helpers import plant_of


def test_columns_are_exactly_the_cut_sheet_columns():
    assert SCHEDULE_COLUMNS == (
        "cable_id",
        "link_id",
        "label",
        "a_rack",
        "a_u",
        "a_device",
        "a_port",
        "b_rack",
        "b_u",
        "b_device",
        "b_port",
        "speed_gbps",
        "medium",
        "medium_kind",
        "length_m",
        "ordered_length_m",
        "a_cage",
        "b_cage",
        "a_module",
        "b_module",
        "part",
        "route",
    )
    assert ScheduleRow.__struct_fields__ == SCHEDULE_COLUMNS


def test_one_row_per_cable_with_unique_labels_and_lengths_within_reach(pod):
    plant = plant_of(pod)
    rows = schedule_rows(pod, plant)
    assert sorted(r.cable_id for r in rows) == sorted(pod.links)
    assert len({r.label for r in rows}) == len(rows)
    media = pod.catalog.media_types
    for row in rows:
        assert row.ordered_length_m is not None
        medium = media[row.medium]
        assert row.medium_kind == medium.kind
        assert row.length_m <= row.ordered_length_m + 1e-9
        assert row.ordered_length_m <= medium.reach_m
        assert row.speed_gbps == 400


def test_rows_run_rack_by_rack_in_natural_order_with_a_in_the_lower_rack():
    design = small_pod()
    for n, name in enumerate(("A10", "A2", "N1"), start=0):
        rid = ("r1", "r2", "n1")[n]
        design.update_racks([msgspec.structs.replace(design.racks[rid], name=name)])
    rows = schedule_rows(design, plant_of(design))
    keys = [(natural_key(r.a_rack), r.a_u, natural_key(r.a_port)) for r in rows]
    assert keys == sorted(keys)
    assert [r.a_rack for r in rows][:1] == ["A2"]  # A2 sorts before A10 and N1
    for row in rows:
        assert (natural_key(row.a_rack), row.a_u) <= (natural_key(row.b_rack), row.b_u)
    ports = [r.a_port for r in rows if r.a_rack == "A2" and r.a_u == 2]
    assert ports == [f"nic{i}" for i in range(1, 9)]  # nic2 before nic10-style order


def test_labels_name_both_ends_and_stay_unique_when_users_repeat_them():
    design = small_pod()
    for link_id in ("l-1", "l-2"):
        design.update_links([msgspec.structs.replace(design.links[link_id], label="SPARE")])
    rows = {r.cable_id: r for r in schedule_rows(design, plant_of(design))}
    assert rows["l-1"].label == "SPARE #l-1"
    assert rows["l-2"].label == "SPARE #l-2"
    assert rows["l-3"].label == "N1-U20-p3 to R1-U2-nic3"
    assert len({r.label for r in rows.values()}) == len(rows)


def test_same_rack_cable_and_unorderable_cable_are_listed_honestly():
    design = small_pod()
    rack(design, "r3", 3.3, 3.0)
    device(design, "h1", "r3", 2, "hgx-h100-8x400")
    device(design, "s1", "r3", 20, "sn5400")
    link(design, "x-1", ("h1", "fe1"), ("s1", "p1"))  # 100G QSFP28 to 400G QSFP-DD: no medium
    link(design, "x-2", ("h1", "bmc1"), ("s1", "mgmt1"))
    rows = {r.cable_id: r for r in schedule_rows(design, plant_of(design))}
    assert rows["x-2"].route == "(in rack)"
    assert rows["x-2"].a_u == 2 and rows["x-2"].b_u == 20
    assert rows["x-1"].ordered_length_m is None and rows["x-1"].medium == ""


def test_route_names_the_trays_followed(pod):
    rows = schedule_rows(pod, plant_of(pod))
    tray_names = {t.name or t.id for t in pod.trays.values()}
    for row in rows:
        assert row.route
        assert set(row.route.split(" > ")) <= tray_names


def test_a_pinned_medium_out_of_reach_is_listed_but_not_ordered():
    from model.outputs.bom import bom_lines, export_findings, unorderable_links

    design = small_pod()
    design.update_links(
        [msgspec.structs.replace(design.links["l-1"], medium="dac-400g", length_override_m=20.0)]
    )
    plant = plant_of(design)
    row = next(r for r in schedule_rows(design, plant) if r.cable_id == "l-1")
    assert (row.medium, row.length_m, row.ordered_length_m) == ("dac-400g", 20.0, None)
    assert unorderable_links(plant) == ["l-1"]
    assert not any(ln.part == "dac-400g" for ln in bom_lines(design, plant))
    assert "PINNED_MEDIUM_OUT_OF_REACH" in {f.code for f in export_findings(design, plant)}
