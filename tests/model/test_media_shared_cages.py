"""Modules in shared (twin-port) cages: the topology-ordered count the analyzer keeps gives the
very figures of the sorted (cage, medium) pairs, on generated fabrics and after rack moves."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from model.analysis.media_costs import MediaCache, media_figures, shared_cages
from model.analysis.topology import infer_topology
from model.engine.routed_links import RoutedLinks
from tests.benchmarks.workloads import build


def _same(a, b) -> None:
    for field in dataclasses.fields(a):
        x, y = getattr(a, field.name), getattr(b, field.name)
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y), field.name
        else:
            assert x == y, field.name


@pytest.mark.parametrize("size", ["S"])
def test_shared_cage_count_equals_sorted_pairs(size):
    design = build(size)
    plant = RoutedLinks(design)
    topo = infer_topology(design)
    shared = shared_cages(topo)
    assert shared[0].most > 1 or shared[1].most > 1  # the fabric has twin-port cages
    _same(media_figures(topo, plant, None, shared), media_figures(topo, plant))
    racks = list(design.racks.values())
    for step, rack in enumerate(racks[:: max(1, len(racks) // 6)]):
        design.move_racks({rack.id: (rack.x + 1.5 * (step % 3), rack.y + 0.6 * step)})
        plant.refresh()
        _same(media_figures(topo, plant, None, shared), media_figures(topo, plant))


def test_the_media_cache_gives_the_uncached_figures_whether_a_medium_changed_or_not():
    """The analyzer's MediaCache reuses the medium-only figures while every link keeps its
    medium; moves that keep them and moves that change some give the uncached figures."""
    from tests.model.test_snapshot_pipeline import fabric

    for design in (build("S"), fabric()):
        plant = RoutedLinks(design)
        topo = infer_topology(design)
        shared, cache = shared_cages(topo), MediaCache()
        _same(media_figures(topo, plant, None, shared, cache), media_figures(topo, plant))
        kept = changed = 0
        for step in range(8):
            rack = list(design.racks.values())[step % len(design.racks)]
            before = cache.key[2]
            # 25 m away and back: multimode runs out of reach, the links turn single-mode
            far = (25.0 if step % 4 < 2 else -25.0) if step % 2 else 0.3
            design.move_racks({rack.id: (rack.x + far, rack.y + 0.3)})
            plant.refresh()
            _same(media_figures(topo, plant, None, shared, cache), media_figures(topo, plant))
            if np.array_equal(before, cache.key[2]):
                kept += 1
            else:
                changed += 1
        assert kept
    assert changed  # both paths were taken
