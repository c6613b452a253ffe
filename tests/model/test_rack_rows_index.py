"""Every rack's plant rows found in one sort (the optimiser's plant) equal the pass per rack."""

from __future__ import annotations

import numpy as np

from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.optimise.moves import network_racks, search_space


def _per_rack(plant: RoutedLinks, rack_id: str) -> np.ndarray:
    """The rows the pass per rack finds (and the design's links of the rack, as rows)."""
    number = plant._rack_row[rack_id]
    rows = np.flatnonzero(((plant.drop_a >> 1) == number) | ((plant.drop_b >> 1) == number))
    want = sorted(plant.index[lid] for lid in plant.design.links_of_racks([rack_id]))
    assert rows.tolist() == want
    return rows


def _every_rack_as_its_own_pass(plant: RoutedLinks) -> None:
    """Every placed rack's rows are known, each equal to its own pass."""
    assert set(plant._rack_rows) == set(plant._rack_row)
    for rack_id in plant.design.racks:
        assert np.array_equal(plant._rack_rows[rack_id], _per_rack(plant, rack_id)), rack_id


def test_whole_index_equals_the_pass_per_rack_before_and_after_a_link_edit():
    design = generate("leaf-spine", nodes=16, node_type="dgx-h100", switch="qm9700")
    movable = network_racks(design)
    free, _ = search_space(design, movable, set(), True, False)
    plant = RoutedLinks(design)
    plant.index_rack_rows()
    first = movable[0]
    design.move_racks({first: free[first][0]})
    plant.refresh()
    # One rack asked: every placed rack's rows are known, each equal to its own pass.
    _every_rack_as_its_own_pass(plant)
    # A rack's own links within it (leaf to leaf in one rack, if any) are counted once.
    assert all(len(np.unique(r)) == len(r) for r in plant._rack_rows.values())
    # Links gone: the rows move, so the index is found again at the next move.
    gone = sorted(design.links_of_racks([first]))[:3]
    design.remove_links(gone)
    plant.refresh()
    assert plant._rack_rows == {}
    second = movable[1]
    design.move_racks({second: free[second][0]})
    plant.refresh()
    _every_rack_as_its_own_pass(plant)
    plant.close()


def test_without_the_request_only_the_moved_rack_is_found():
    design = generate("leaf-spine", nodes=16, node_type="dgx-h100", switch="qm9700")
    movable = network_racks(design)
    free, _ = search_space(design, movable, set(), True, False)
    plant = RoutedLinks(design)
    rack_id = movable[0]
    design.move_racks({rack_id: free[rack_id][0]})
    plant.refresh()
    assert list(plant._rack_rows) == [rack_id]
    assert np.array_equal(plant._rack_rows[rack_id], _per_rack(plant, rack_id))
    plant.close()
