"""Design as code: a 3-way merge by object id equals applying both edits; real conflicts are listed by object; the semantic diff names moves, re-routes and flips."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from model.design.entities import Device
from model.engine.routed_links import RoutedLinks
from model.files.design_file import DesignFileError, design_to_bytes, read_design_bytes
from model.versioning.design_text import design_lines
from model.versioning.merge import merge_designs
from model.versioning.semantic_diff import semantic_diff

EXAMPLE = Path(__file__).parents[2] / "resources" / "examples" / "small-pod.hall.json"


def _base():
    return read_design_bytes(EXAMPLE.read_bytes(), "base")


def _edited(*edits) -> bytes:
    design = _base()
    for edit in edits:
        edit(design)
    return design_to_bytes(design)


def _rotate_a05(d):
    d.rotate_racks({"A05": 180})


def _move_a09(d):
    d.move_racks({"A09": (7.6, 2.4)})


def _label_l1(label):
    return lambda d: d.update_links([msgspec.structs.replace(d.links["l-1"], label=label)])


def _pin_l1(d):
    d.update_links([msgspec.structs.replace(d.links["l-1"], length_override_m=12.0)])


def _remove_l2(d):
    d.remove_links(["l-2"])


def _switch(device_id):
    def add(d):
        d.add_devices(
            [Device(id=device_id, name=device_id, type="qm9700", rack="B01", u=40, role="leaf")]
        )

    return add


def test_two_non_conflicting_edits_merge_to_both_applied():
    base = design_to_bytes(_base())
    ours = _edited(_rotate_a05, _label_l1("rail1"), _switch("x-ours"))
    theirs = _edited(_move_a09, _pin_l1, _remove_l2)
    result = merge_designs(base, ours, theirs)
    assert result.clean, [c.sentence() for c in result.conflicts]
    both = _edited(
        _rotate_a05, _label_l1("rail1"), _switch("x-ours"), _move_a09, _pin_l1, _remove_l2
    )
    assert result.data == both
    # The same link edited on two different fields by the two sides keeps both fields.
    link = read_design_bytes(result.data, "merged").links["l-1"]
    assert (link.label, link.length_override_m) == ("rail1", 12.0)
    assert result.from_theirs == {"racks": 1, "links": 2}


def test_merge_is_symmetric_for_non_conflicting_edits():
    base = design_to_bytes(_base())
    ours, theirs = _edited(_rotate_a05), _edited(_move_a09, _remove_l2)
    one, other = merge_designs(base, ours, theirs), merge_designs(base, theirs, ours)
    assert one.clean and other.clean
    assert one.data == other.data


def test_a_field_changed_on_both_sides_is_a_conflict_of_that_object_keeping_ours():
    base = design_to_bytes(_base())
    result = merge_designs(
        base, _edited(_label_l1("ours")), _edited(_label_l1("theirs"), _move_a09)
    )
    assert [(c.kind, c.id, c.field) for c in result.conflicts] == [("links", "l-1", "label")]
    assert (result.conflicts[0].ours, result.conflicts[0].theirs) == ("ours", "theirs")
    merged = read_design_bytes(result.data, "merged")
    assert merged.links["l-1"].label == "ours"
    assert merged.racks["A09"].x == 7.6  # the rest of theirs is still merged


def test_delete_against_change_is_a_conflict():
    base = design_to_bytes(_base())
    result = merge_designs(
        base,
        _edited(_remove_l2),
        _edited(
            lambda d: d.update_links([msgspec.structs.replace(d.links["l-2"], medium="sr4-400g")])
        ),
    )
    assert [(c.kind, c.id, c.field) for c in result.conflicts] == [("links", "l-2", None)]
    assert "deleted in ours" in result.conflicts[0].reason


def test_two_devices_added_on_the_same_rack_units_are_a_conflict_the_loader_names():
    # Different ids, so the record merge takes both: the loader refuses the second one.
    base = design_to_bytes(_base())
    result = merge_designs(base, _edited(_switch("x-ours")), _edited(_switch("x-theirs")))
    assert len(result.conflicts) == 1
    conflict = result.conflicts[0]
    assert (conflict.kind, conflict.id) == ("devices", "x-theirs")
    assert "merged design refuses" in conflict.reason
    with pytest.raises(DesignFileError):  # written as merged, so the clash is visible in the file
        read_design_bytes(result.data, "merged")


def test_an_unreadable_side_is_refused_naming_that_file():
    base = design_to_bytes(_base())
    with pytest.raises(DesignFileError, match="THEIRS"):
        merge_designs(base, base, b'{"format": "hallwright", "schema_version": 99}')


def test_semantic_diff_names_the_moved_rack_its_rerouted_links_and_the_bom_delta():
    a = _base()
    b = read_design_bytes(_edited(_move_a09), "b")
    plant_a, plant_b = RoutedLinks(a), RoutedLinks(b)
    plant_a.refresh()
    plant_b.refresh()
    result = semantic_diff(a, plant_a, b, plant_b)
    diff = result["diff"]
    assert diff["racks_moved"] == ["A09"]
    rerouted = {r["id"] for r in diff["links_rerouted"]}
    assert rerouted and rerouted <= a.links_of_racks(["A09"])
    for r in diff["links_rerouted"]:  # moved 0.7 m further along the row: every link is longer
        assert r["to_m"] > r["from_m"]
    assert diff["records_changed"]["racks"] == [{"id": "A09", "fields": ["x"]}]
    assert not diff["devices_moved"] and not diff["links_added"]
    assert not result["identical"]
    same = semantic_diff(a, plant_a, _base(), plant_a)
    assert same["identical"]


def test_textconv_lines_change_only_for_the_moved_rack_and_its_links():
    a, b = _base(), read_design_bytes(_edited(_move_a09), "b")
    plant_a, plant_b = RoutedLinks(a), RoutedLinks(b)
    plant_a.refresh()
    plant_b.refresh()
    before, after = design_lines(a, plant_a), design_lines(b, plant_b)
    records = len(a.trays) + len(a.racks) + len(a.devices) + len(a.links)
    assert len(before) == len(after) > records  # one line per object, plus settings and hall
    changed = {x.split()[1] for x, y in zip(before, after, strict=True) if x != y}
    assert "A09" in changed
    assert changed - {"A09"} <= a.links_of_racks(["A09"])


def _obstacle(obstacle_id, x):
    from model.design.entities import Obstacle

    def add(d):
        square = [(x, 0.2), (x + 0.4, 0.2), (x + 0.4, 0.6), (x, 0.6)]
        d.set_obstacles([*d.hall.obstacles, Obstacle(id=obstacle_id, polygon=square)])

    return add


def test_obstacles_placed_by_each_side_both_stay():
    base = design_to_bytes(_base())
    result = merge_designs(base, _edited(_obstacle("col-1", 0.3)), _edited(_obstacle("col-2", 8.2)))
    assert result.clean, [c.sentence() for c in result.conflicts]
    merged = read_design_bytes(result.data, "merged")
    assert [o.id for o in merged.hall.obstacles] == ["col-1", "col-2"]
    assert result.data == _edited(_obstacle("col-1", 0.3), _obstacle("col-2", 8.2))


def test_a_base_of_an_older_schema_is_migrated_before_the_merge():
    golden = Path(__file__).parents[1] / "data" / "golden-v2.hall.json"
    base = golden.read_bytes()  # schema version 2, as committed before the upgrade

    def edited(*edits):
        design = read_design_bytes(base, "v2")
        for edit in edits:
            edit(design)
        return design_to_bytes(design)

    first = sorted(read_design_bytes(base, "v2").links)[0]
    label = lambda d: d.update_links([msgspec.structs.replace(d.links[first], label="x")])  # noqa: E731
    rack = sorted(read_design_bytes(base, "v2").racks)[0]
    rotate = lambda d: d.rotate_racks({rack: 180})  # noqa: E731
    result = merge_designs(base, edited(label), edited(rotate))
    assert result.clean, [c.sentence() for c in result.conflicts]
    assert result.data == edited(label, rotate)
