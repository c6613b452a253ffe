"""A channel table's rows are read by arrays keyed on the plant's link rows: the whole-table
readers (the physical plant's trunks, the checks, the schedule's segments) make no index of its
link ids, and each array gives what that index gives."""

from __future__ import annotations

import numpy as np
import pytest

from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.outputs.schedule import schedule_table
from model.outputs.schedule_segments import _channel_of, _pair_rows
from model.plant.physical_plant import build_plant
from model.plant.structured import _listed, _trunk_keys
from model.structured.channel_checks import table_checks
from model.structured.channels import channel_plant_rows, channel_rows_of_plant_rows
from model.structured.layout import structured_layout
from tests.model.test_channel_table import _mixed, pod_file  # noqa: F401 (a fixture)
from tests.model.zoned_halls import zoned_fat_tree_file


@pytest.fixture(scope="module")
def zoned(tmp_path_factory):
    return zoned_fat_tree_file(tmp_path_factory)


def test_the_whole_table_readers_make_no_index_of_link_ids(zoned):
    design = load_design(zoned)
    plant = RoutedLinks(design)
    phys = build_plant(plant, with_links=True)
    table = phys.structured.channels
    assert table.link_ids and phys.structured.trunks
    table_checks(table)
    schedule = schedule_table(design, plant, phys)
    assert len(schedule) > len(table.link_ids)  # the paneled links as their segments
    assert schedule.coded
    assert table.link_rows.made() is None
    # Asked for, it is the rows of the links, made once.
    assert table.row_of == {lid: r for r, lid in enumerate(table.link_ids)}
    assert table.link_rows.made() is table.row_of


def test_plant_rows_and_their_inverse_are_the_indexs(zoned):
    plant = RoutedLinks(load_design(zoned))
    table = structured_layout(plant).channels
    rows = channel_plant_rows(plant, table)
    assert rows.tolist() == [plant.link_ids.index(lid) for lid in table.link_ids]
    inverse = channel_rows_of_plant_rows(rows, len(plant.link_ids))
    want = [table.link_ids.index(lid) if lid in table.row_of else -1 for lid in plant.link_ids]
    assert inverse.tolist() == want
    assert (inverse == -1).any()  # links that stay direct (their rows, -1) are in the plant


def test_rows_of_links_are_the_indexs_before_and_after_it_is_made(pod_file):  # noqa: F811
    design = _mixed(pod_file)
    table = structured_layout(RoutedLinks(design)).channels
    assert table.records  # polarity records: what the checks and segments look up
    asked = {*table.records, "no-such-link", table.link_ids[-1]}
    before = table.rows_of(asked)
    assert table.link_rows.made() is None
    index = table.row_of
    assert before == sorted(index[lid] for lid in asked if lid in index)
    assert table.rows_of(asked) == before
    assert table.rows_of(()) == []


def test_each_link_table_row_finds_its_channel_row_by_plant_rows(pod_file):  # noqa: F811
    design = _mixed(pod_file)
    plant = RoutedLinks(design)
    phys = build_plant(plant, with_links=True)
    layout = phys.structured
    table = layout.channels
    links = schedule_table(design, plant, phys, segments=False)
    link_ids = links.codes("link_id")[0]
    got = _channel_of(table, links.codes, plant, link_ids)
    by_index = _channel_of(table, links.codes, None, link_ids)  # no plant: the index
    assert got.tolist() == by_index.tolist()
    assert (got >= 0).sum() == len(table.link_ids)
    # The cords' pairs: through both tables' fibre rows, as by the index.
    pairs = _pair_rows(table, layout.cords)
    want = [table.row_of.get(lid, -1) for lid in layout.cords.link_ids]
    assert pairs.tolist() == want


def test_one_fabric_among_the_channels_keys_every_trunk_with_it(zoned):
    plant = RoutedLinks(load_design(zoned))
    layout = structured_layout(plant)
    n = len(layout.channels.link_ids)
    row_fab = np.zeros(len(plant.link_ids), dtype=np.int64)
    names = ["compute", "storage"]
    one = (np.zeros(n, dtype=np.int64), row_fab, names)
    laid = list(layout.trunks)
    assert isinstance(_listed(one)[0], int)
    by_rows = _trunk_keys(layout, plant, (one[0].tolist(), row_fab, names), laid)
    assert _trunk_keys(layout, plant, _listed(one), laid) == by_rows
    # Two fabrics among the channels: each trunk is its first link's.
    mixed = np.zeros(n, dtype=np.int64)
    mixed[layout.channels.row_of[laid[0].links[0]]] = 1
    listed = _listed((mixed, row_fab, names))
    assert isinstance(listed[0], list)
    keys = _trunk_keys(layout, plant, listed, laid)
    assert keys[0][2] == "storage"
    assert {k[2] for k in keys} == {"compute", "storage"}


def test_each_leg_finds_its_schedule_row_by_plant_rows(zoned):
    from model.outputs.netbox.export import netbox_schedule
    from model.outputs.netbox.panel_links import schedule_links
    from model.outputs.netbox.panels import _leg_rows, _leg_rows_by_plant_rows

    design = load_design(zoned)
    plant = RoutedLinks(design)
    phys = build_plant(plant, with_links=True)
    layout = phys.structured
    schedule = netbox_schedule(design, plant, phys)
    links = schedule_links(design, schedule)
    got = _leg_rows_by_plant_rows(schedule, layout, plant)
    assert got is not None  # a leg per link: read by arrays
    assert layout.channels.link_rows.made() is None
    row_of = {lid: r for r, lid in enumerate(links.ids)}
    assert got.tolist() == [row_of[leg[0]] for leg in layout.legs.links]
    assert _leg_rows(links, layout, plant).tolist() == got.tolist()
    # A leg with two links: none by arrays (the legs' own links then say).
    two = structured_layout(plant)
    two.legs.links = [*two.legs.links[:-1], (two.legs.links[-1][0], "another")]
    two.cords.link_ids = [*two.cords.link_ids, "another"]
    assert _leg_rows_by_plant_rows(schedule, two, plant) is None
    assert _leg_rows(links, two, plant) is None
