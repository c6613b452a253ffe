"""RoutedLinks._component_rows asked twice for the same components (a move's checkpoint, then its
refresh) gives the rows found once, and never rows of labels an edit has since changed."""

from __future__ import annotations

import numpy as np

from model.engine.routed_links import RoutedLinks
from tests.model.optimise_runs import leaf_spine_pod


def _whole(plant: RoutedLinks, rows: np.ndarray) -> np.ndarray:
    return np.flatnonzero(np.isin(plant.component, np.unique(plant.component[rows])))


def _indexed(plant: RoutedLinks) -> None:
    """Ask until the rows come from the label index (COMPONENT_INDEX_AFTER asks)."""
    for _ in range(6):
        plant._component_rows(np.array([1], dtype=np.int64))
    assert plant._comp_index is not None


def test_rows_asked_again_are_the_rows_found_and_a_caller_cannot_write_them():
    plant = RoutedLinks(leaf_spine_pod())
    _indexed(plant)
    rows = np.array([0, 5, 17], dtype=np.int64)
    found = plant._component_rows(rows)
    assert np.array_equal(found, _whole(plant, rows))
    found[:] = -1  # a caller writing into what it got does not write into the memo
    assert np.array_equal(plant._component_rows(rows), _whole(plant, rows))
    plant.close()


def test_rows_asked_again_after_an_edit_are_found_under_the_new_labels():
    design = leaf_spine_pod()
    plant = RoutedLinks(design)
    _indexed(plant)
    rows = np.array([0], dtype=np.int64)
    before = plant._component_rows(rows)
    assert len(before) > 1
    # Another link of row 0's component removed: the same label may name fewer rows now.
    design.remove_links([plant.link_ids[int(before[-1])]])
    plant.refresh()
    for _ in range(6):  # by the isin pass, then by the new label index
        assert np.array_equal(plant._component_rows(rows), _whole(plant, rows))
    plant.close()
