"""A layout's channels and cords find their plant rows through the rows its fibre table kept
(``rows_in_plant``): the same rows as the plant's index gives, without building that index,
and the index's rows when the kept ones are no longer those links' rows."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from model.analysis.tray_trunks import trunk_load
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.plant.physical_plant import build_plant
from model.structured.channels import kept_plant_rows, rows_in_plant
from model.structured.layout import structured_layout
from tests.model.zoned_halls import zoned_fat_tree_file


@pytest.fixture(scope="module")
def zoned(tmp_path_factory):
    return zoned_fat_tree_file(tmp_path_factory)


def _by_index(plant, link_ids) -> list[int]:
    return [plant.link_ids.index(lid) for lid in link_ids]


def test_kept_rows_are_the_plant_rows_and_no_index_is_built(zoned):
    plant = RoutedLinks(load_design(zoned))
    layout = structured_layout(plant)
    table, cords = layout.channels, layout.cords
    assert table.link_ids and cords.link_ids
    kept = kept_plant_rows(plant, table.fibres)
    assert kept is not None
    channel_rows = rows_in_plant(plant, table.link_ids, table.fibre_rows, kept)
    cord_rows = rows_in_plant(plant, cords.link_ids, cords.fibre_rows, kept)
    assert channel_rows.tolist() == _by_index(plant, table.link_ids)
    assert cord_rows.tolist() == _by_index(plant, cords.link_ids)
    # The physical plant and the trays' trunks read them the same way.
    build_plant(plant)
    trunk_load(plant, layout)
    assert "index" not in vars(plant)


def test_rows_of_another_plant_are_looked_up(zoned):
    plant = RoutedLinks(load_design(zoned))
    layout = structured_layout(plant)
    table = layout.channels
    # The same links in another order (as after an edit moved rows): the kept rows no longer
    # name these links, so each is found by id.
    ids = list(reversed(plant.link_ids))
    moved = SimpleNamespace(link_ids=ids, index={lid: r for r, lid in enumerate(ids)})
    kept = kept_plant_rows(moved, table.fibres)
    assert kept is None
    got = rows_in_plant(moved, table.link_ids, table.fibre_rows, kept)
    assert got.tolist() == [moved.index[lid] for lid in table.link_ids]
    own = kept_plant_rows(plant, table.fibres)
    assert not np.array_equal(got, rows_in_plant(plant, table.link_ids, table.fibre_rows, own))
    # Unknown fibre rows (a table made otherwise): looked up too.
    assert rows_in_plant(moved, table.link_ids, None, own).tolist() == got.tolist()
