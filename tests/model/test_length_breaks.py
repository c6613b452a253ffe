"""A tray edit keeps the media of components no length of which crossed a length the choice reads (length_breaks)."""

from __future__ import annotations

import random

import msgspec
import numpy as np
import pytest

from model.engine.cage_choice import _round_up
from model.engine.length_breaks import LengthBreaks
from model.engine.link_table import OUTPUT_COLUMNS
from model.engine.media import PortClass, media_that_fit, ordered_lengths
from model.engine.routed_links import RoutedLinks
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.tray_drags import corner_moved


@pytest.fixture(scope="module")
def plant():
    return RoutedLinks(synthetic_hall(256))


def _reads(plant: RoutedLinks, length_m: np.ndarray) -> list[np.ndarray]:
    """Every figure the media choice takes from a length, written out from the catalog (but
    the ordered length of a medium ordered at the very length: ``exact`` links')."""
    media, tables = plant.media, plant.parts
    out = [ordered_lengths(m, length_m) for m in media if m.orderable_lengths_m]
    lists = [np.asarray(f.lengths_m, dtype=float) for f in tables.fibre_of.values()]
    lists += [np.asarray(p.lengths_m, dtype=float) for ps in tables.cables.values() for p in ps]
    lists += [tables.fibre_lengths(m) for m in range(len(media))]
    out += [_round_up(np.sort(lengths), length_m) for lengths in lists]
    # a module rated 0 m has no reach limit of its own (PartTables.module_columns)
    reaches = [m.reach_m for m in media] + [
        p.reach_m for _, p in tables.medium_modules if p.reach_m
    ]
    out += [length_m > r + 1e-9 for r in reaches]
    return out


def _same(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a == b) | (np.isnan(a) & np.isnan(b)) if a.dtype.kind == "f" else a == b


def test_a_length_not_crossing_a_break_gives_every_figure_the_same(plant):
    breaks = LengthBreaks(plant.media, plant.parts)
    rng = np.random.default_rng(7)
    edges = np.concatenate([breaks.stock, breaks.limits])
    near = np.concatenate([edges + d for d in (-2e-9, -1e-9, -5e-10, 0.0, 5e-10, 1e-9, 2e-9)])
    old = np.concatenate([rng.uniform(0.0, 120.0, 4000), near])
    dragged = np.maximum(old[:4000] + rng.uniform(-1.5, 1.5, 4000), 0.0)
    new = np.concatenate([dragged, rng.permutation(near)])
    crossed = breaks.crossed(old, new, np.zeros(len(old), dtype=bool))
    assert crossed.any() and not crossed.all()
    kept = ~crossed
    for before, after in zip(_reads(plant, old), _reads(plant, new), strict=True):
        assert _same(before, after)[kept].all()


def test_exact_links_nonfinite_lengths_and_steps(plant):
    media = list(plant.media)
    breaks = LengthBreaks(media, plant.parts)
    assert breaks.continuous[[m.kind == "backplane" for m in media]].all()
    # 12.2 -> 12.7 m: between the stock lengths 10 and 15, no reach between
    assert not ((breaks.stock > 12.2) & (breaks.stock < 12.7)).any()
    assert not ((breaks.limits > 12.2) & (breaks.limits < 12.7)).any()
    old = np.array([12.2, 12.2, 12.2, np.inf, np.inf, np.nan, 12.2])
    new = np.array([12.7, 12.7, 12.2, np.inf, 12.7, np.nan, 15.5])
    exact = np.array([False, True, True, False, False, False, False])
    assert breaks.crossed(old, new, exact).tolist() == [
        False,  # same bucket
        True,  # a medium ordered at the very length: any change counts
        False,  # no change at all
        False,
        True,  # to or from a non-finite length
        True,
        True,  # past the stock length 15
    ]
    # a medium cut in 0.5 m steps: 12.2 -> 12.7 now passes 12.5
    cut = msgspec.structs.replace(media[0], orderable_lengths_m=(), length_step_m=0.5)
    stepped = LengthBreaks([*media, cut], plant.parts)
    assert stepped.steps == [0.5] and not stepped.continuous[-1]
    assert stepped.crossed(old[:1], new[:1], exact[:1]).tolist() == [True]
    assert not stepped.crossed(np.array([12.6]), np.array([12.9]), exact[:1])[0]
    # a medium reaching 12.5 m: 12.2 -> 12.7 now leaves its reach
    short = msgspec.structs.replace(media[0], reach_m=12.5)
    assert LengthBreaks([*media, short], plant.parts).crossed(old[:1], new[:1], exact[:1])[0]


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_a_corner_drag_chooses_media_again_only_where_a_length_crossed_a_break(seed):
    design = synthetic_hall(256)
    live = RoutedLinks(design)
    asked: list[int] = []
    choose = live._choose_media

    def spy(rows, length):
        asked.append(len(rows))
        return choose(rows, length)

    live._choose_media = spy
    rng = random.Random(seed)
    before = live.length_m.copy()
    corner_moved(design, live, rng)
    live.refresh()
    moved = int((live.length_m != before).sum())
    assert moved and sum(asked) < moved  # media made again for fewer links than were re-routed
    fresh = RoutedLinks(design)
    for name in OUTPUT_COLUMNS:
        if name != "_route_key":
            np.testing.assert_array_equal(getattr(live, name), getattr(fresh, name), err_msg=name)


def test_a_design_with_panels_chooses_every_rerouted_component_again(plant):
    design = plant.design
    rows = np.arange(10)
    lengths = plant.length_m[rows]
    assert not plant._length_crossed(rows, lengths, lengths + 1e-6).any()
    design.set_settings(msgspec.structs.replace(design.settings, cabling="cross-connect"))
    try:
        assert plant._length_crossed(rows, lengths, lengths + 1e-6).all()
    finally:
        design.set_settings(msgspec.structs.replace(design.settings, cabling="direct"))
        plant.refresh()


def test_accepted_media_are_the_pairs_own_after_a_new_port_class():
    """The accepted media are cached per pair of port classes, not per the pair's code, whose
    stride grows with the classes: (1, 2) coded with 4 classes is (1, 1) coded with 5."""
    plant = RoutedLinks(synthetic_hall(64))
    classes = plant.port_classes
    assert len(classes) == 4

    def fitting(a: int, b: int) -> np.ndarray:
        cands = media_that_fit(plant.media, classes[a], classes[b], include_splitters=True)
        return np.isin(np.arange(len(plant.media)), cands)

    np.testing.assert_array_equal(plant._accepted(1, 2), fitting(1, 2))
    classes.append(PortClass(800.0, 8, "OSFP"))  # a device type with a new port class
    assert not np.array_equal(fitting(1, 1), fitting(1, 2))
    np.testing.assert_array_equal(plant._accepted(1, 1), fitting(1, 1))


def test_one_search_per_list_of_breaks_answers_as_two(plant):
    # crossed() finds the first break not below the lower length (one search a list): the
    # same answer as searching both lengths, on and beside every break, either way round
    breaks = LengthBreaks(plant.media, plant.parts)
    rng = np.random.default_rng(11)
    edges = np.concatenate([breaks.stock, breaks.limits, [0.0, np.inf, np.nan]])
    near = np.concatenate([edges + d for d in (-1e-9, -5e-10, 0.0, 5e-10, 1e-9)])
    old = np.concatenate([rng.uniform(0.0, 120.0, 4000), rng.permutation(near), near])
    new = np.concatenate([rng.uniform(0.0, 120.0, 4000), near, rng.permutation(near)])
    tol = 1e-9
    for a, b in ((old, new), (new, old)):
        same = np.searchsorted(breaks.stock, a - tol) == np.searchsorted(breaks.stock, b - tol)
        same &= np.searchsorted(breaks.limits, a) == np.searchsorted(breaks.limits, b)
        for step in breaks.steps:
            same &= np.ceil(a / step - tol) == np.ceil(b / step - tol)
        same &= np.isfinite(a) & np.isfinite(b)
        expected = ~(same | (a == b))
        assert expected.any() and not expected.all()
        assert np.array_equal(breaks.crossed(a, b, np.zeros(len(a), dtype=bool)), expected)
