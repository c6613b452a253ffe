"""A design's own device types through NetBox and back: power, depth and GPUs from the comments."""

from __future__ import annotations

import csv
import json

import pytest

from model.asbuilt.netbox_import import import_netbox
from model.asbuilt.netbox_rest_lists import rest_lists
from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes, load_design
from model.generators.generate import generate
from model.outputs.netbox.device_types import TYPE_MARK, parse_type_record
from model.outputs.netbox.export import netbox_tables
from model.outputs.netbox.rest_objects import desired_objects
from model.outputs.netbox.rest_push import push
from model.outputs.schedule import schedule_rows
from tests.model.netbox_fake_api import FakeNetBox
from tests.model.netbox_lists import write_lists


@pytest.fixture(scope="module")
def fat_tree():
    """A textbook k=4 fat tree: its switch and host types are the design's own (generic-*),
    the host with 1 GPU, 1,000 W typical, 1,200 W maximum."""
    return generate("fat-tree", k=4)


def _export(design):
    plant = RoutedLinks(design)
    return netbox_tables(design, schedule_rows(design, plant), plant)


def _measured(design) -> dict[str, tuple]:
    """model -> (typical W, maximum W, depth m, GPUs, GPU model) of the design's own types."""
    return {
        t.model: (t.power_typical_w, t.power_max_w, t.depth_m, t.gpu_count, t.gpus and t.gpus.model)
        for t in design.custom_types.device_types
    }


def _totals(design) -> tuple[float, int]:
    """The devices' typical power and GPUs, as the analysis counts them."""
    types = design.catalog.device_types
    devices = design.devices.values()
    return (
        sum(types[d.type].power_typical_w for d in devices),
        sum(types[d.type].gpu_count for d in devices),
    )


def test_only_the_design_s_own_types_carry_a_record(fat_tree):
    docs = {v.dtype.id: v.document() for v in _export(fat_tree).device_types}
    own = {t.id for t in fat_tree.custom_types.device_types}
    assert own and {i for i, doc in docs.items() if TYPE_MARK in str(doc["comments"])} == own
    host = next(t for t in fat_tree.custom_types.device_types if t.gpus)
    record = parse_type_record(str(docs[host.id]["comments"]))
    assert record is not None and record.gpus == host.gpus
    assert (record.power_typical_w, record.power_max_w) == (1000.0, 1200.0)


def test_a_fat_tree_s_own_types_come_back_from_netbox_s_lists_with_power_and_gpus(
    tmp_path, fat_tree
):
    """Through NetBox's list exports (devices, interfaces, device types with their comments):
    each own type comes back with its power, depth and GPUs, so the hall's power and GPU
    count are the design's (both were 0 before: the type was read from its interfaces only)."""
    back = import_netbox(write_lists(_export(fat_tree), tmp_path / "lists", interfaces=True))
    design = back.design
    assert _measured(design) == {m: v for m, v in _measured(fat_tree).items()}
    assert _totals(design) == _totals(fat_tree) and _totals(fat_tree)[1] == 16
    assert any("1 GPUs from its comments" in note for note in back.notes)


def test_the_record_survives_a_push_and_the_way_back_over_rest(tmp_path, fat_tree):
    """push-netbox writes the type's comments; import-netbox --url's lists read them back."""
    api = FakeNetBox()
    assert not push(api, desired_objects(_export(fat_tree))).refused
    name, _ = rest_lists(api, fat_tree.name, tmp_path / "rest")
    design = import_netbox(tmp_path / "rest").design
    assert _measured(design) == _measured(fat_tree)
    assert _totals(design) == _totals(fat_tree)


def test_an_edited_record_is_noted_and_the_type_read_from_its_interfaces(tmp_path, fat_tree):
    lists = write_lists(_export(fat_tree), tmp_path / "lists", interfaces=True)
    path = lists / "netbox_device_types.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    rows[1][2] = rows[1][2].replace('"power_max_w":', '"power_max_w":"a lot",')
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    back = import_netbox(lists)
    edited = next(t for t in back.design.custom_types.device_types if t.model == rows[1][0])
    assert edited.power_max_w == 0.0
    assert any(
        note.startswith("netbox_device_types.csv line ")
        and f"type {rows[1][0]!r}: its comment line 'Hallwright type:'" in note
        and "$.power_max_w" in note
        for note in back.notes
    ), back.notes


def _edit_records(lists, field: str, value: float) -> set[str]:
    """Set ``field`` (``gpus.count``: nested) to ``value`` in every record of
    netbox_device_types.csv that has it; the models edited."""
    path = lists / "netbox_device_types.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    edited = set()
    for row in rows[1:]:
        lines = row[2].splitlines()
        for i, line in enumerate(lines):
            if not line.startswith(TYPE_MARK):
                continue
            data = json.loads(line[len(TYPE_MARK) :])
            *parents, leaf = field.split(".")
            inner = data
            for key in parents:
                inner = inner.get(key) or {}
            if leaf in inner:
                inner[leaf] = value
                edited.add(row[0])
            lines[i] = TYPE_MARK + json.dumps(data)
        row[2] = "\n".join(lines)
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return edited


BAD_RECORDS = {
    "negative power": ("power_typical_w", -9000),
    "zero depth": ("depth_m", 0),
    "negative depth": ("depth_m", -2),
    "max below typical": ("power_max_w", 1),
    "GPUs over the limit": ("gpus.count", 5000),
}


@pytest.mark.parametrize("case", sorted(BAD_RECORDS))
def test_a_record_out_of_range_is_noted_and_the_type_read_from_its_interfaces(
    tmp_path, fat_tree, case
):
    """A record edited to a negative power, a zero or negative depth, a maximum below the
    typical or more GPUs than a device may hold is not used: a note names the type and the
    field, the type comes back from its interfaces (0 W, 0.8 m, no GPUs) with its devices,
    and the design file saves and loads (it failed to load: `depth_m: Expected float > 0.0`;
    with too many GPUs the type and its devices were dropped)."""
    field, value = BAD_RECORDS[case]
    lists = write_lists(_export(fat_tree), tmp_path / "lists", interfaces=True)
    edited = _edit_records(lists, field, value)
    back = import_netbox(lists)
    own = {t.model: t for t in back.design.custom_types.device_types}
    assert edited and edited <= set(own)
    for model in edited:
        assert (own[model].power_max_w, own[model].depth_m, own[model].gpus) == (0, 0.8, None)
        assert any(
            f"{model!r}" in note and f"$.{field}`" in note and "not used" in note
            for note in back.notes
        ), back.notes
    assert len(back.design.devices) == len(fat_tree.devices)
    path = tmp_path / "back.hall.json"
    path.write_bytes(design_to_bytes(back.design))
    assert len(load_design(path).devices) == len(fat_tree.devices)
