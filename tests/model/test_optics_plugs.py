"""The plug per cage counted from cage ends sorted once equals the per-report sort it replaced,
for any media; the analyzer keeps the sorted ends across tray edits, and its optics figures
stay those of a fresh analysis."""

from __future__ import annotations

import dataclasses
import random
from collections import defaultdict
from types import SimpleNamespace

import msgspec
import numpy as np
import pytest

from model.analysis.analyzer import Analyzer, analyze
from model.analysis.optics import _empty_tier, optics_by_tier
from model.analysis.optics_plugs import CageEnds, PlugTally, kept_tally, plug_counts
from model.analysis.reliability import lasers_per_port
from model.engine.cages import CAGE_STRIDE, MODULE_KINDS, cage_view
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.test_tray_edit_analysis import _corner_moved, _Worker


def _sorted_each_time(view, medium: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The count as optics_by_tier made it before CageEnds: every end with a module medium,
    sorted by (cage, medium), the first of each cage (an independent oracle)."""
    tables = view.tables
    medium = np.asarray(medium, dtype=np.int64)
    keys = np.concatenate([view.cage_a, view.cage_b])
    specs = np.concatenate([view.spec_a, view.spec_b])
    meds = np.concatenate([medium, medium])
    module_row = np.array([m.kind in MODULE_KINDS for m in tables.media] + [False])
    keep = module_row[np.where(meds < 0, len(tables.media), meds)]
    keys, specs, meds = keys[keep], specs[keep], meds[keep]
    order = np.lexsort((meds, keys))
    first = np.ones(len(order), dtype=bool)
    first[1:] = keys[order][1:] != keys[order][:-1]
    pick = order[first]
    pairs = meds[pick] * (len(tables.specs) + 1) + specs[pick]
    span = (len(tables.media) + 1) * (len(tables.specs) + 1)
    return np.unique(keys[pick] // CAGE_STRIDE * span + pairs, return_counts=True)


def _tiers_by_loop(design, view, medium) -> dict:
    """optics_by_tier's plugs as it added them before (a Python loop over the plugs in code
    order), from the oracle's count: the figures to the last bit."""
    out: dict[str, dict] = defaultdict(_empty_tier)
    roles = {d.id: d.role for d in design.devices.values()}
    tables = view.tables
    codes, counts = _sorted_each_time(view, medium)
    by_medium, default = lasers_per_port()
    span = (len(tables.media) + 1) * (len(tables.specs) + 1)
    for code, qty in zip(codes.tolist(), counts.tolist(), strict=True):
        dev, pair = divmod(code, span)
        part = tables.module(pair // (len(tables.specs) + 1), pair % (len(tables.specs) + 1))
        if part is None:
            continue
        tier = out[roles.get(view.dev_ids[dev], "other")]
        if part.optics == "co-packaged":
            tier["co_packaged_ports"] += qty
        else:
            tier["modules"][part.optics] += qty
            tier["lasers"] += qty * by_medium.get(part.medium, default) * part.ports
            tier["price_usd"] += qty * part.price_usd
        tier["power_w"] += qty * part.power_w
        tier["power_w_max"] += qty * part.power_w_max
    return dict(out)


def _helios():
    design = generate("helios", racks=1, planes=4, port_mode="512x200G")
    apply_cabling(design, "zones")
    return design


@pytest.mark.parametrize("make", [lambda: synthetic_hall(512), _helios])
def test_plug_counts_equal_the_per_report_sort_for_any_media(make):
    plant = RoutedLinks(make())
    view = cage_view(plant)
    ends = CageEnds(view)
    rng = np.random.default_rng(7)
    n, n_media = len(plant.link_ids), len(view.tables.media)
    media = [np.asarray(plant.medium_index)]
    # random media, none (-1) and integrated cables included: cages then mix media
    media += [rng.integers(-1, n_media, n) for _ in range(3)]
    mixed = np.asarray(plant.medium_index).copy()
    mixed[rng.choice(n, n // 3, replace=False)] = -1
    media.append(mixed)
    for medium in media:
        codes, counts = plug_counts(view, medium, ends)
        want_codes, want_counts = _sorted_each_time(view, medium)
        np.testing.assert_array_equal(codes, want_codes)
        np.testing.assert_array_equal(counts, want_counts)
        assert counts.sum() > 0
        # the tiers' figures, added column-wise, equal the loop's exactly (no laser sources
        # here: those are added after the plugs, by the same loop as before)
        stand_in = SimpleNamespace(
            link_ids=plant.link_ids, medium_index=medium, cage_arrays=lambda: view
        )
        tiers = optics_by_tier(plant.design, stand_in, ends)
        assert tiers == _tiers_by_loop(plant.design, view, medium)
        assert any(t["power_w"] > 0 for t in tiers.values())
    assert optics_by_tier(plant.design, plant, ends) == optics_by_tier(plant.design, plant)


def test_the_analyzer_keeps_the_sorted_ends_across_tray_drops():
    design = synthetic_hall(512)
    live = RoutedLinks(design)
    worker = _Worker(design, live)
    tally = worker.analyzer._plugs
    assert tally is not None
    ends = tally.ends
    rng = random.Random(5)
    for _ in range(4):
        _corner_moved(design, live, rng)
        # the optics figures counted again on the re-routed copy (as when a medium flips),
        # from the ends sorted before the drop
        worker.analyzer._optics_kept = None
        report, _frozen = worker.drop()
        fresh_plant = RoutedLinks(design)
        fresh = Analyzer(design, fresh_plant, subscribe=False, refresh_plant=False).report()
        assert report.optics == fresh.optics
        assert report.to_json() == fresh.to_json()
        assert worker.analyzer._plugs is tally  # cages unchanged: never sorted again
        assert tally.ends is ends
    # another cage column (a link re-cabled) is not followed: its ends are sorted afresh
    view = cage_view(live)
    assert ends.follows(view)
    other = view.cage_a.copy()
    other[0] += 1
    assert not ends.follows(dataclasses.replace(view, cage_a=other))


@pytest.mark.parametrize("make", [lambda: synthetic_hall(512), _helios])
def test_a_kept_tally_updated_by_changed_media_equals_a_full_count(make):
    """The plugs of only the cages whose links' media changed, picked again, and the counts
    moved by the difference: the same codes and counts as a full count after every change
    (a few links, many, none, back to the start; cages gaining and losing every plug)."""
    plant = RoutedLinks(make())
    view = cage_view(plant)
    ends = CageEnds(view)
    start = np.asarray(plant.medium_index).copy()
    tally = PlugTally(ends, view, start)
    rng = np.random.default_rng(11)
    n, n_media = len(start), len(view.tables.media)
    medium = start.copy()
    steps = [3, 1, n // 50, 0, n // 3, n]
    for size in steps:
        medium = medium.copy()
        rows = rng.choice(n, size, replace=False)
        medium[rows] = rng.integers(-1, n_media, size)
        codes, counts = tally.counts(view, medium)
        want_codes, want_counts = plug_counts(view, medium, ends)
        np.testing.assert_array_equal(codes, want_codes)
        np.testing.assert_array_equal(counts, want_counts)
        assert codes.dtype == want_codes.dtype and counts.dtype == want_counts.dtype
    codes, counts = tally.counts(view, start)
    np.testing.assert_array_equal(codes, plug_counts(view, start, ends)[0])
    np.testing.assert_array_equal(counts, plug_counts(view, start, ends)[1])
    # kept while the cages and tables stand; another cage column counts afresh
    assert kept_tally(tally, plant) is tally
    assert kept_tally(None, plant) is not tally
    plant.close()


def test_the_roles_kept_on_a_tally_follow_a_device_edit():
    """The role per device row kept on the tally is read again when a device record is
    replaced (a role edited): the tiers equal a count without a tally, before and after."""
    design = synthetic_hall(512)
    plant = RoutedLinks(design)
    tally = kept_tally(None, plant)
    before = optics_by_tier(design, plant, tally=tally)
    assert before == optics_by_tier(design, plant)
    assert tally.roles is not None
    kept = tally.roles
    assert optics_by_tier(design, plant, tally=tally) == optics_by_tier(design, plant)
    assert tally.roles is kept  # nothing edited: kept
    leaf = next(d for d in design.devices.values() if d.role == "leaf")
    design.update_devices([msgspec.structs.replace(leaf, role="spine")])
    plant.refresh()
    after = optics_by_tier(design, plant, tally=kept_tally(tally, plant))
    assert after == optics_by_tier(design, plant)
    assert after["leaf"] != before["leaf"]  # the edit changed the figures the roles sort
    plant.close()


def test_an_analyzer_on_a_live_plant_sees_a_device_retyped_in_place():
    """A live plant rewrites its cage columns in place when a device's type changes: the
    analysis kept on it counts the new switch's modules, as a fresh analysis does (it kept
    the old sort while the arrays were the same objects)."""
    design = generate("leaf-spine", nodes=32, node_type="dgx-h100", switch="qm9700")
    plant = RoutedLinks(design)
    kept = Analyzer(design, plant)
    kept.report()
    leaf = design.devices["leaf01"]
    design.update_devices([msgspec.structs.replace(leaf, type="sn5600")])
    again = kept.report()
    fresh_plant = RoutedLinks(design)
    fresh = analyze(design, fresh_plant)
    assert again.optics == fresh.optics
    plant.close()
    fresh_plant.close()
