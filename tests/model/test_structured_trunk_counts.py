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


@pytest.mark.parametrize("name", ["fat-tree zoned", "rail-optimized cross-connect"])
def test_trunk_counts_kept_after_rack_moves_equal_fresh_ones(name):
    design = _hall(name)
    plant = RoutedLinks(design)
    memo, kept = LegMemo(), KeptTrunkCounts()
    names = ["compute", "storage", ""]
    row_fab = np.random.default_rng(5).integers(0, len(names), len(plant.link_ids))
    rng = random.Random(17)
    recounted = []
    for _ in range(6):
        layout = structured_layout(plant, memo=memo)
        fabrics = (row_fab[rows_in_plant(plant, layout.channels.link_ids)], row_fab, names)
        assert (
            kept.counts(layout, plant, fabrics) == _trunk_counts(layout, plant, fabrics, False)[0]
        )
        recounted.append(kept.recounted)
        _move_some_racks(design, rng, 1)
        plant.refresh()
    assert recounted[0] == -1  # the first call counts every trunk
    assert any(n > 0 for n in recounted)  # some move made trunks again, recounted alone
    assert len(layout.trunks) > max(recounted)
    # The same trunks in other fabrics (a network renamed): every trunk keyed again.
    row_fab = (row_fab + 1) % len(names)
    fabrics = (row_fab[rows_in_plant(plant, layout.channels.link_ids)], row_fab, names)
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
    design = _hall(name)
    plant = RoutedLinks(design)
    memo, kept = LegMemo(), KeptCordCounts()
    names = ["compute", "storage", ""]
    row_fab = np.random.default_rng(7).integers(0, len(names), len(plant.link_ids))
    rng = random.Random(29)
    recounted = []
    for _ in range(12):
        layout = structured_layout(plant, memo=memo)
        cord_fab = row_fab[rows_in_plant(plant, layout.cords.link_ids)]
        assert kept.counts(layout.cords, cord_fab, names) == _cords(
            layout.cords, cord_fab, names, False
        )
        recounted.append(kept.recounted)
        _move_some_racks(design, rng, 2)
        plant.refresh()
    assert recounted[0] == -1  # the first call counts every cord
    # Some move re-ordered or re-chose cords, counted again alone.
    assert any(n > 0 for n in recounted)
    # The same cords in other fabrics: those whose fabric changed keyed again, still fresh.
    cord_fab = (cord_fab + 1) % len(names)
    assert kept.counts(layout.cords, cord_fab, names) == _cords(
        layout.cords, cord_fab, names, False
    )
    assert kept.recounted == len(cord_fab)
