"""A schedule made with only some of its columns (``schedule_table(only=...)``) holds those
columns exactly as the full schedule does, and the NetBox export made from it is the same."""

from __future__ import annotations

import pytest

from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.outputs.netbox.export import netbox_files, netbox_schedule, netbox_tables
from model.outputs.schedule import SCHEDULE_COLUMNS, ScheduleTable, schedule_table
from model.plant.physical_plant import build_plant

DESIGNS = {
    "direct": (
        "rail-optimized",
        dict(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=16),
        "direct",
    ),
    "zones-all": (
        "rail-optimized",
        dict(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=16, fabrics="all"),
        "zones",
    ),
    "cross-connect": ("nvl72", dict(racks=2), "cross-connect"),
}


@pytest.fixture(scope="module", params=sorted(DESIGNS))
def design(request):
    template, params, cabling = DESIGNS[request.param]
    design = generate(template, **params)
    apply_cabling(design, cabling)
    return design


@pytest.mark.parametrize(
    "only",
    [
        ("link_id",),
        ("label", "route"),
        ("a_cage", "part", "ordered_length_m"),
        ("speed_gbps", "length_m", "medium_kind", "b_port"),
        SCHEDULE_COLUMNS,
    ],
)
def test_only_some_columns_are_the_full_schedules_columns(design, only):
    plant = RoutedLinks(design)
    full = schedule_table(design, plant, segments=False)
    part = schedule_table(design, plant, segments=False, only=only)
    assert part.coded is None
    assert list(part.columns) == [name for name in SCHEDULE_COLUMNS if name in only]
    assert part.columns == {name: full.columns[name] for name in only}
    assert (part.a_device_id, part.b_device_id) == (full.a_device_id, full.b_device_id)
    assert len(part) == len(full)
    if "ordered_length_m" in only:
        assert part.unordered_count() == full.unordered_count()


def test_the_netbox_files_from_the_columns_it_reads_equal_those_from_the_full_schedule(design):
    plant = RoutedLinks(design)
    phys = build_plant(plant, with_links=True)
    full = netbox_tables(design, schedule_table(design, plant, phys, segments=False), plant, phys)
    reduced = netbox_tables(design, netbox_schedule(design, plant, phys), plant, phys)
    assert netbox_files(reduced) == netbox_files(full)
    rows = schedule_table(design, plant, phys, segments=False).rows()
    as_rows = netbox_tables(design, rows, plant, phys)  # one record per row, the plain path
    assert netbox_files(as_rows) == netbox_files(full)


def test_a_schedule_of_segments_is_made_whole_whatever_only_says():
    template, params, cabling = DESIGNS["zones-all"]
    design = generate(template, **params)
    apply_cabling(design, cabling)
    plant = RoutedLinks(design)
    full = schedule_table(design, plant)
    assert schedule_table(design, plant, only=("link_id",)).columns == full.columns


def test_each_columns_codes_gather_to_the_column(design):
    plant = RoutedLinks(design)
    full = schedule_table(design, plant, segments=False)
    for table in (full, schedule_table(design, plant, segments=False, only=("link_id",))):
        names = [n for n in SCHEDULE_COLUMNS if n != "cable_id"]
        for name in [*names, "a_device_id", "b_device_id"]:
            values, codes = table.codes(name)
            ids = name in ("a_device_id", "b_device_id")
            expected = getattr(full, name) if ids else full.columns[name]
            assert [values[c] for c in codes.tolist()] == expected, name
    # A table of given rows has its columns as codes too (one value per row)
    given = ScheduleTable.from_rows(full.rows())
    values, codes = given.codes("route")
    assert [values[c] for c in codes.tolist()] == full.columns["route"]
