"""Snapshots that share the previous snapshot's arrays where an edit left them as they were
equal snapshots taken from scratch, after any run of edits (rack moves, tray drags, length
overrides, link deletions and their undo), whether or not free arrays are there to copy into,
input columns no edit filled shared unread; and the word
comparison that decides the sharing is array equality, its strided probe included."""

from __future__ import annotations

import random

import msgspec
import numpy as np
import pytest

from model.engine.link_table import INPUT_COLUMNS
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter, _equal_words, freeze_plant
from tests.benchmarks.workloads import build


def _arrays(plant) -> dict[str, np.ndarray]:
    return {n: v for n, v in vars(plant).items() if isinstance(v, np.ndarray)}


def _edit(design, rng: random.Random, undo: list) -> None:
    """One random edit through the design's edit API."""
    kind = rng.choice(["rack", "rack", "tray", "delete", "undo", "override"])
    if kind == "override":  # rewrites input columns in place (RoutedLinks._fill_inputs)
        link = design.links[rng.choice(sorted(design.links))]
        design.update_links(
            [msgspec.structs.replace(link, length_override_m=rng.choice([7.5, None]))]
        )
    elif kind == "undo" and undo:
        design.restore(undo.pop())
    elif kind == "delete":
        undo.append(design.delete(rng.sample(sorted(design.links), 3)))
    elif kind == "tray":
        tray = design.trays[rng.choice(sorted(design.trays))]
        (x, y), *rest = tray.points
        design.set_tray_points(tray.id, [(x + rng.uniform(-0.6, 0.6), y), *rest])
    else:
        rack = design.racks[rng.choice(sorted(design.racks))]
        design.move_racks({rack.id: (rack.x + rng.choice([-1.2, 0.6, 1.2]), rack.y)})


@pytest.mark.parametrize("hold", [False, True])
def test_snapshots_after_random_edits_equal_snapshots_from_scratch(hold):
    """``hold``: every snapshot kept, as a slow analysis keeps its own, so no array is free to
    copy into and each column is shared or copied afresh; else dropped at once (reused)."""
    design = build("L")  # 49k links: columns past the probe's length
    plant = RoutedLinks(design)
    snapshots = Snapshotter(design, plant)
    rng, undo, held = random.Random(7), [], [snapshots.take()]
    shared = 0
    for _ in range(16):
        _edit(design, rng, undo)
        plant.refresh()
        before = held[-1][1]
        snap_design, snap_plant = snapshots.take()
        fresh = _arrays(freeze_plant(plant, design))
        mine = _arrays(snap_plant)
        assert mine.keys() == fresh.keys()
        for name, array in fresh.items():
            assert array.dtype == mine[name].dtype, name
            assert np.array_equal(mine[name], array, equal_nan=True), name
            assert not mine[name].flags.writeable, name
        assert snap_design.racks == design.racks and snap_design.links == design.links
        shared += sum(a is getattr(before, n, None) for n, a in mine.items() if a.size >= 4096)
        held = [*held, (snap_design, snap_plant)] if hold else [(snap_design, snap_plant)]
        del snap_plant, mine
    assert shared  # columns an edit left as they were are the earlier snapshot's own
    snapshots.close()


def test_a_column_an_edit_left_as_it_was_is_shared_even_with_a_free_array():
    """Comparing reads two arrays where copying reads one and writes one: an unchanged column is
    the previous snapshot's own even when a free array was there to copy it into."""
    design = build("L")
    plant = RoutedLinks(design)
    snapshots = Snapshotter(design, plant)
    snapshots.take()  # dropped: its arrays are free to copy into
    rack = next(r for r in design.racks.values() if design.links_of_racks([r.id]))
    design.move_racks({rack.id: (rack.x + 1.2, rack.y)})
    plant.refresh()
    _, second = snapshots.take()
    design.move_racks({rack.id: (rack.x + 2.4, rack.y)})
    plant.refresh()
    _, third = snapshots.take()
    assert third.speed_gbps is second.speed_gbps  # a move changes no link's speed
    assert snapshots._unwritten_inputs().keys() == set(INPUT_COLUMNS)  # nor any input
    row = 5
    link = design.links[plant.link_ids[row]]
    design.update_links([msgspec.structs.replace(link, length_override_m=9.25)])
    plant.refresh()
    assert not snapshots._unwritten_inputs()  # inputs filled: compared again
    _, fourth = snapshots.take()
    assert fourth._override[row] == 9.25 and np.isnan(third._override[row])
    assert not np.array_equal(third.length_m, second.length_m)  # but lengths
    assert third.length_m is not second.length_m
    snapshots.close()


@pytest.mark.parametrize("where", ["none", "first", "last", "probed", "between", "many"])
def test_equal_words_is_array_equality(where):
    """A difference the probe's samples miss (one word between two of them) is found by the
    whole comparison; one they hit is found by the probe."""
    rng = np.random.default_rng(3)
    earlier = rng.integers(0, 2**63, 100_000, dtype=np.int64).view(np.uint64)
    value = earlier.copy()
    places = {
        "none": [],
        "first": [0],
        "last": [len(value) - 1],
        "probed": [67 * 10],
        "between": [67 * 10 + 1],
        "many": list(range(0, len(value), 5)),
    }[where]
    value[places] ^= np.uint64(1)
    assert _equal_words(earlier, value) == np.array_equal(earlier, value) == (not places)
