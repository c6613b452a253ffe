"""The cable plant's ``index`` (link id -> row) is built when first asked, and is then the row of
every link through edits and snapshots."""

from __future__ import annotations

from model.analysis import analyze
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter
from model.files.design_file import design_to_bytes, read_design_bytes
from model.generators.generate import rail_optimized


def _design():
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    return read_design_bytes(design_to_bytes(design))  # as loaded: the loader's codes path


def _rows(plant) -> dict[str, int]:
    return {link_id: row for row, link_id in enumerate(plant.link_ids)}


def test_a_fresh_plant_builds_no_index_until_asked():
    design = _design()
    plant = RoutedLinks(design)
    analyze(design, plant)  # rows in design order: the analysis needs no index
    assert "index" not in vars(plant)
    assert plant.index == _rows(plant)
    assert plant.index is plant.index  # kept once built


def test_the_index_follows_edits_whether_built_before_or_after_them():
    for built_first in (False, True):
        design = _design()
        plant = RoutedLinks(design)
        if built_first:
            assert plant.index == _rows(plant)
        gone = list(design.links)[5:40:3]
        removed = design.remove_links(gone)
        plant.refresh()
        assert plant.index == _rows(plant) and not set(gone) & plant.index.keys()
        design.restore(removed)  # undo: the links come back as new rows at the end
        plant.refresh()
        assert plant.index == _rows(plant) and set(gone) <= plant.index.keys()
        rack = next(iter(design.racks))
        design.move_racks({rack: (design.racks[rack].x + 1.2, design.racks[rack].y)})
        plant.refresh()
        assert plant.index == _rows(plant) == {k: plant.link_ids.index(k) for k in design.links}


def test_snapshots_share_or_build_the_index_of_their_own_rows():
    design = _design()
    plant = RoutedLinks(design)
    snapshots = Snapshotter(design, plant)
    first, first_plant = snapshots.take()  # taken before the live plant has an index
    assert "index" not in vars(first_plant)
    rack = next(iter(design.racks))
    design.move_racks({rack: (design.racks[rack].x + 1.2, design.racks[rack].y)})
    plant.refresh()  # a moved rack's rows are looked up: the live plant builds its index
    assert "index" in vars(plant)
    second, second_plant = snapshots.take()  # same rows: the index taken from the first
    assert second_plant.index is first_plant.index and second_plant.index == _rows(plant)
    snapshots.close()
