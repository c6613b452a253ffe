"""A full tray-fill recount keeps its (route, medium) keys as an array made from the codes it
counted (model/analysis/tray_fill.py _full): the same rows, in the same order, as the keys of
its counts made into an array (what _count_keys builds when nothing was kept)."""

from __future__ import annotations

import random

import numpy as np

from model.analysis.tray_fill import TrayFill
from model.engine.routed_links import RoutedLinks
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.tray_drags import corner_moved


def _plain_keys(fill: TrayFill) -> np.ndarray:
    return np.array(list(fill._counts), dtype=np.int64).reshape(-1, 2)


def test_the_kept_keys_of_a_full_recount_are_its_counts_keys_and_the_figures_a_plain_ones():
    design = synthetic_hall(512)
    plant = RoutedLinks(design)
    fill = TrayFill()
    ratios = fill.update(design, plant, None)
    kept = fill._pair_rows
    assert kept is not None and kept[0] is fill._counts
    assert kept[1].dtype == np.int64 and len(kept[1]) > 0
    np.testing.assert_array_equal(kept[1], _plain_keys(fill))
    plain = TrayFill()
    plain._full = _full_without_keys(plain._full)  # the recount before the keys were kept
    assert plain.update(design, plant, None) == ratios
    assert plain.loads == fill.loads and plain.peak_at == fill.peak_at
    # after a tray drag (a new route generation: a full recount again), then an update of
    # changed rows on top (keys appended to the kept array)
    corner_moved(design, plant, random.Random(4))
    plant.refresh()
    fill.update(design, plant, set())
    np.testing.assert_array_equal(fill._count_keys(), _plain_keys(fill))
    rack = next(iter(design.racks.values()))
    design.move_racks({rack.id: (rack.x + 2.4, rack.y)})
    changed = plant.refresh()
    fill.update(design, plant, set(changed))
    np.testing.assert_array_equal(fill._count_keys(), _plain_keys(fill))


def _full_without_keys(full):
    def recount(plant) -> None:
        full(plant)
        full.__self__._pair_rows = None

    return recount
