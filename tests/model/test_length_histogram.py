"""The charts' length histogram (computed on the analysis worker) counts every link with a
finite length once, in the bin and medium group the per-group np.histogram of the lengths gives."""

from __future__ import annotations

import math

import numpy as np
import pytest

from model.catalog.components import MEDIUM_GROUPS, NO_MEDIUM_GROUP, medium_group
from model.engine.length_histogram import length_histogram
from model.engine.routed_links import RoutedLinks
from tests.benchmarks.workloads import build
from tests.builders import copper_pod


def _reference(plant):
    """What the charts panel computed on the GUI thread before: one np.histogram per group."""
    length = np.asarray(plant.length_m, dtype=float)
    medium = np.asarray(plant.medium_index, dtype=np.int64)
    finite = np.isfinite(length)
    top = (
        float(np.percentile(length[finite], 99.5))
        if finite.sum() > 50
        else float(length[finite].max())
    )
    top = max(top, 1.0)
    edges = np.linspace(0.0, math.ceil(top), min(60, max(10, int(math.ceil(top)) * 2)) + 1)
    groups = [m.kind for m in plant.media] + ["none"]
    out = {}
    for group in [*MEDIUM_GROUPS, NO_MEDIUM_GROUP]:
        mask = np.array([medium_group(k) == group for k in groups], dtype=bool)[medium]
        sel = finite & mask
        if sel.any():
            out[group] = np.histogram(np.clip(length[sel], 0, edges[-1]), bins=edges)[0]
    return edges, out


@pytest.mark.parametrize("make", [copper_pod, lambda: build("S")])
def test_histogram_equals_one_numpy_histogram_per_medium_group(make):
    plant = RoutedLinks(make())
    plant.refresh()
    got = length_histogram(plant)
    edges, want = _reference(plant)
    assert np.array_equal(got.edges_m, edges)
    assert list(got.counts) == list(want)
    for group, counts in want.items():
        assert np.array_equal(got.counts[group], counts), group
    assert got.links == int(np.isfinite(np.asarray(plant.length_m)).sum())


def test_links_past_the_range_land_in_the_last_bin_and_unrouted_links_in_none():
    plant = RoutedLinks(copper_pod())
    plant.refresh()
    plant.length_m = np.array(plant.length_m, dtype=float)
    plant.medium_index = np.array(plant.medium_index, dtype=np.int64)
    plant.length_m[0] = 1e6  # far past the 99.5th percentile
    plant.medium_index[1] = -1  # no medium
    got = length_histogram(plant)
    edges, want = _reference(plant)
    assert {g: c.tolist() for g, c in got.counts.items()} == {
        g: c.tolist() for g, c in want.items()
    }
    assert got.counts[NO_MEDIUM_GROUP].sum() == 1
    assert got.reach == tuple(sorted(got.reach, key=lambda r: r.reach_m))


def test_no_finite_length_gives_no_histogram():
    plant = RoutedLinks(copper_pod())
    plant.refresh()
    plant.length_m = np.full(len(plant.length_m), np.nan)
    assert length_histogram(plant) is None


@pytest.mark.parametrize("top_m", [1, 7, 30, 143, 2000])
def test_bins_are_searchsorteds_on_edges_and_between_them(top_m):
    from model.engine.length_histogram import bin_of

    edges = np.linspace(0.0, top_m, min(60, max(10, top_m * 2)) + 1)
    rng = np.random.default_rng(top_m)
    values = np.concatenate(
        [
            edges,  # exactly on every edge
            np.nextafter(edges, -np.inf),  # a hair below
            np.nextafter(edges, np.inf),  # a hair above
            rng.uniform(-1.0, top_m * 1.2, 20_000),
            [0.0, -0.0, -5.0, top_m, top_m * 10.0],
        ]
    )
    want = np.searchsorted(edges, values, side="right") - 1
    assert np.array_equal(bin_of(edges, values), want)
