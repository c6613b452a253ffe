"""The trunks the structured overlay orders, counted again after rack moves only where a trunk
was made again (model.plant.structured.KeptTrunkCounts), are those counted afresh; and the
editor's analysis keeps them (its plant cache) and equals a fresh analysis."""

from __future__ import annotations

import random

import numpy as np
import pytest

from model.analysis import analyze
from model.engine.routed_links import RoutedLinks
from model.plant.structured import KeptCordCounts, KeptTrunkCounts, _cords, _trunk_counts
from model.structured.channels import rows_in_plant
from model.structured.layout import structured_layout
from model.structured.leg_reuse import LegMemo
from tests.model.test_structured_relay import EditorWorker, _hall, _move_some_racks

NAMES = ["compute", "storage", ""]  # fabric names of the rows (random per row), "" for none


def _moved_layouts(name: str, seeds: tuple[int, int], steps: int, moves: int):
    """(plant, layout, each plant row's fabric code) of hall ``name``, laid out on one leg memo
    ``steps`` times with ``moves`` rack moves between: the fabric codes from ``seeds[0]``, the
    moves from ``seeds[1]``."""
    design = _hall(name)
    plant, memo = RoutedLinks(design), LegMemo()
    row_fab = np.random.default_rng(seeds[0]).integers(0, len(NAMES), len(plant.link_ids))
    rng = random.Random(seeds[1])
    for _ in range(steps):
        yield plant, structured_layout(plant, memo=memo), row_fab
        _move_some_racks(design, rng, moves)
        plant.refresh()


@pytest.mark.parametrize("name", ["fat-tree zoned", "rail-optimized cross-connect"])
def test_trunk_counts_kept_after_rack_moves_equal_fresh_ones(name):
    kept, recounted = KeptTrunkCounts(), []
    for plant, layout, row_fab in _moved_layouts(name, seeds=(5, 17), steps=6, moves=1):
        fabrics = (row_fab[rows_in_plant(plant, layout.channels.link_ids)], row_fab, NAMES)
        assert (
            kept.counts(layout, plant, fabrics) == _trunk_counts(layout, plant, fabrics, False)[0]
        )
        recounted.append(kept.recounted)
    assert recounted[0] == -1  # the first call counts every trunk
    assert any(n > 0 for n in recounted)  # some move made trunks again, recounted alone
    assert len(layout.trunks) > max(recounted)
    # The same trunks in other fabrics (a network renamed): every trunk keyed again.
    row_fab = (row_fab + 1) % len(NAMES)
    fabrics = (row_fab[rows_in_plant(plant, layout.channels.link_ids)], row_fab, NAMES)
    assert kept.counts(layout, plant, fabrics) == _trunk_counts(layout, plant, fabrics, False)[0]
    assert kept.recounted == -1


def test_the_editors_analysis_keeps_the_trunk_counts():
    design = _hall("fat-tree zoned")
    worker = EditorWorker(design)
    rng = random.Random(3)
    try:
        kept = []
        for _ in range(3):
            _move_some_racks(design, rng, 1)
            report = worker.advance()
            assert report.to_json() == analyze(design, worker.plant).to_json()
            kept.append(worker.analyzer._plant_cache.kept_trunk_counts().recounted)
        assert any(n >= 0 for n in kept)
    finally:
        worker.close()


@pytest.mark.parametrize("name", ["fat-tree zoned", "rail-optimized cross-connect"])
def test_cord_counts_kept_after_rack_moves_equal_fresh_ones(name):
    """The cords ordered per (part, length, fabric), counted again after rack moves only where
    a cord's ordered length or fabric changed (KeptCordCounts), are those counted afresh."""
    kept, recounted = KeptCordCounts(), []
    for plant, layout, row_fab in _moved_layouts(name, seeds=(7, 29), steps=12, moves=2):
        cord_fab = row_fab[rows_in_plant(plant, layout.cords.link_ids)]
        assert kept.counts(layout.cords, cord_fab, NAMES) == _cords(
            layout.cords, cord_fab, NAMES, False
        )
        recounted.append(kept.recounted)
    assert recounted[0] == -1  # the first call counts every cord
    # Some move re-ordered or re-chose cords, counted again alone.
    assert any(n > 0 for n in recounted)
    # The same cords in other fabrics: those whose fabric changed keyed again, still fresh.
    cord_fab = (cord_fab + 1) % len(NAMES)
    assert kept.counts(layout.cords, cord_fab, NAMES) == _cords(
        layout.cords, cord_fab, NAMES, False
    )
    assert kept.recounted == len(cord_fab)
