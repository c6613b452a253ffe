"""A plant count made for no next report (``tally(..., shares=False)``: a one-shot analysis,
PlantCache(keep=False)) counts what a kept count counts (model/plant/tally.py), only without
the per-cage, per-row and per-component item numbers a kept count takes out again later."""

from __future__ import annotations

import numpy as np
import pytest

from model.engine.cages import cage_view
from model.engine.routed_links import RoutedLinks
from model.plant.tally import cage_graph, tally
from tests.builders import copper_pod, small_pod
from tests.model.test_structured_panels import zone_hall


def _both(plant):
    view = cage_view(plant)
    medium = np.asarray(plant.medium_index, dtype=np.int64)
    rows = np.arange(len(medium))
    graph = cage_graph(view, rows)
    ordered = np.asarray(plant.ordered_m)
    fab = np.arange(len(rows)) % 3  # three fabrics, so the counts split by fabric too
    args = (view.tables, graph, rows, medium, ordered, fab, ordered)
    return tally(*args), tally(*args, shares=False)


@pytest.mark.parametrize(
    "make", [small_pod, copper_pod, lambda: zone_hall("sr4-400g"), lambda: zone_hall("dr4-400g")]
)
def test_a_count_without_shares_counts_the_same(make):
    kept, one_shot = _both(RoutedLinks(make()))
    assert one_shot.counts == kept.counts and list(one_shot.counts) == list(kept.counts)
    assert one_shot.meta == kept.meta and one_shot.items == kept.items
    assert one_shot.problem == kept.problem and one_shot.needed_mm == kept.needed_mm
    assert one_shot.cable_of_comp == kept.cable_of_comp
    for name in ("cages", "lo", "module_of", "fibre_part_of_row"):
        assert np.array_equal(getattr(one_shot, name), getattr(kept, name)), name
    assert kept.cage_item is not None and kept.row_item is not None
    assert kept.row_units is not None and kept.comp_item is not None
    assert one_shot.cage_item is None and one_shot.row_item is None
    assert one_shot.row_units is None and one_shot.comp_item is None
    assert sum(kept.counts.values()) > 0
