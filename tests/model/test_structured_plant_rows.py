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


def test_a_row_renamed_in_a_later_slice_is_found(zoned, monkeypatch):
    """The kept rows are checked slice by slice (the GIL handed over between slices): a link
    renamed in the last slice alone makes them not kept, as one renamed in the first does."""
    import model.structured.channels as channels

    plant = RoutedLinks(load_design(zoned))
    table = structured_layout(plant).channels
    kept = kept_plant_rows(plant, table.fibres)
    assert kept is not None and len(kept) > 3
    monkeypatch.setattr(channels, "_CHECK_SLICE", 2)
    assert kept_plant_rows(plant, table.fibres) is not None
    for row in (int(kept[0]), int(kept[-1])):
        ids = list(plant.link_ids)
        ids[row] = ids[row] + "-renamed"
        assert kept_plant_rows(SimpleNamespace(link_ids=ids), table.fibres) is None
