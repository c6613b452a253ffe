"""A tray edit re-routes in place (RoutedLinks._retray): the same figures as routing the edited design afresh."""

from __future__ import annotations

import random

import msgspec
import numpy as np
import pytest

from model.engine import retray_lengths
from model.engine.geometry import METHOD_TRAY
from model.engine.link_table import OUTPUT_COLUMNS
from model.engine.routed_links import (
    NO_TRAY_PATH,
    PINNED_MISMATCH,
    PINNED_OUT_OF_REACH,
    RoutedLinks,
)
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.tray_drags import corner_moved, nudged_corner, routed_trays


def _assert_same_plant(live: RoutedLinks, fresh: RoutedLinks) -> None:
    assert live.link_ids == fresh.link_ids
    for name in OUTPUT_COLUMNS:
        if name == "_route_key":
            continue
        np.testing.assert_array_equal(getattr(live, name), getattr(fresh, name), err_msg=name)
    keys = live.route_keys()
    np.testing.assert_array_equal(keys, fresh.route_keys())
    assert [live.tray_spans(k) for k in range(live.route_count)] == [
        fresh.tray_spans(k) for k in range(fresh.route_count)
    ]


def _full_diff(reference: RoutedLinks) -> set[str]:
    """What the full rebuild reports for the pending edits (the path a tray edit took before)."""
    reference._pending.clear()
    reference._memo_reasons.clear()
    return reference._full_with_diff()


@pytest.fixture(scope="module")
def hall():
    design = synthetic_hall(2048)
    # Some links pinned to a medium of another speed or too short a reach: their flags must
    # survive an edit that does not touch their routes.
    ids = list(design.links)
    pins = {**dict.fromkeys(ids[::50], "aoc-200g"), **dict.fromkeys(ids[25::50], "dac-400g")}
    design.update_links(
        [msgspec.structs.replace(design.links[i], medium=m) for i, m in pins.items()]
    )
    live = RoutedLinks(design)
    assert (live.status & PINNED_MISMATCH).any() and (live.status & PINNED_OUT_OF_REACH).any()
    reference = RoutedLinks(design)

    def no_full_rebuild() -> None:
        raise AssertionError("a tray edit rebuilt the whole plant")

    live._full = no_full_rebuild  # the tray edits below must take the in-place path
    return design, live, reference


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_corner_move_routes_as_a_fresh_plant(hall, seed):
    design, live, reference = hall
    rng = random.Random(seed)
    live.route_keys()
    used = {t for k in range(live.route_count) for t, _, _ in live.tray_spans(k)}
    tray_id = rng.choice(sorted(used))  # a tray some route follows
    points = nudged_corner(design.trays[tray_id].points, rng)
    generation = live.route_generation
    design.set_tray_points(tray_id, points)
    changed = live.refresh()
    assert live.route_generation == generation + 1  # route ids renamed, as after a rebuild
    assert changed == _full_diff(reference)
    assert changed  # a corner of a tray in use moved: some lengths change
    _assert_same_plant(live, RoutedLinks(design))


def test_tray_moved_away_and_back(hall):
    """A tray moved out of reach leaves links on the floor (with their media redone); moved
    back, every figure is the original one again."""
    design, live, reference = hall
    before = {name: getattr(live, name).copy() for name in ("routed_m", "ordered_m", "status")}
    tray_id = max(design.trays, key=lambda t: len(design.trays[t].points))
    design.move_trays([tray_id], 0.0, 40.0)
    away = live.refresh()
    assert away == _full_diff(reference)
    _assert_same_plant(live, RoutedLinks(design))
    design.move_trays([tray_id], 0.0, -40.0)
    back = live.refresh()
    assert back == _full_diff(reference)
    fresh = RoutedLinks(design)
    _assert_same_plant(live, fresh)
    assert away and back
    assert (fresh.status & NO_TRAY_PATH).sum() == (before["status"] & NO_TRAY_PATH).sum()


def test_tray_removed_and_added_back(hall):
    design, live, reference = hall
    tray_id = sorted(design.trays)[0]
    tray = design.trays[tray_id]
    design.remove_trays([tray_id])
    assert live.refresh() == _full_diff(reference)
    _assert_same_plant(live, RoutedLinks(design))
    design.add_trays([tray])
    assert live.refresh() == _full_diff(reference)
    _assert_same_plant(live, RoutedLinks(design))


def _slack_hall_with_typed_lengths():
    """(design, link ids, live plant, typed-or-measured mask): a 1,024-server hall with slack per
    end and per cent, every 40th link's length typed and every 40th from the 17th measured."""
    design = synthetic_hall(1024)
    design.set_settings(
        msgspec.structs.replace(design.settings, slack_per_end_m=0.35, slack_pct=7.5)
    )
    ids = list(design.links)
    design.update_links(
        [msgspec.structs.replace(design.links[i], length_override_m=12.5) for i in ids[::40]]
        + [msgspec.structs.replace(design.links[i], as_built_m=9.25) for i in ids[17::40]]
    )
    live = RoutedLinks(design)
    return design, ids, live, ~np.isnan(live._override) | ~np.isnan(live._as_built)


def test_a_drag_with_slack_settings_and_typed_or_measured_lengths_equals_a_fresh_routing():
    # Slack per end and per cent, lengths typed and measured among the rows whose tray piece
    # alone changes (their drops stay attached as they were): every figure a fresh routing's.
    design, ids, live, typed = _slack_hall_with_typed_lengths()
    rng = random.Random(21)
    tray_only = np.zeros(len(ids), dtype=bool)  # rows whose tray piece alone changed
    for _ in range(5):
        pieces = live._vertical_a.copy(), live._hop_a.copy(), live._tray.copy()
        corner_moved(design, live, rng)
        live.refresh()
        _assert_same_plant(live, RoutedLinks(design))
        tray_only |= (
            (live._vertical_a == pieces[0]) & (live._hop_a == pieces[1]) & (live._tray != pieces[2])
        )
    assert (tray_only & typed).any()  # the typed and measured lengths were among them


def _count_namings(live, monkeypatch) -> list[int]:
    """The number of rows each later naming of ``live``'s routes names, as a list filled in
    as they happen (the tests clear it between edits)."""
    named: list[int] = []
    original = live._name_routes

    def counted(rows):
        named.append(len(rows))
        original(rows)

    monkeypatch.setattr(live, "_name_routes", counted)
    return named


def test_tray_edits_name_routes_from_the_names_before_unless_rows_leave_the_trays(monkeypatch):
    """A tray edit moves no drop point: when it takes no row on or off the trays, the routes
    are named from the names before it (no pass over every row; spans found again), else
    afresh over every row; either way as a fresh plant names them. A tray moved out of reach
    and back takes rows off and on the trays; the drag after it restores again."""
    design = synthetic_hall(512)
    live = RoutedLinks(design)
    live.route_keys()  # named at once, as the editor's worker does
    named = _count_namings(live, monkeypatch)
    rng = random.Random(8)
    away = max(design.trays, key=lambda t: len(design.trays[t].points))
    restored = []
    for drag in ("corner", "corner", "away", "back", "nudge", "nudge"):
        on_trays = live._method == METHOD_TRAY
        if drag == "corner":
            corner_moved(design, live, rng)
        elif drag == "nudge":  # 5 cm: every rack keeps its tray
            tray_id = routed_trays(live)[0]
            (x, y), *rest = design.trays[tray_id].points
            design.set_tray_points(tray_id, [(x + 0.05, y), *rest])
        else:
            design.move_trays([away], 0.0, 40.0 if drag == "away" else -40.0)
        live.refresh()
        _assert_same_plant(live, RoutedLinks(design))
        if np.array_equal(on_trays, live._method == METHOD_TRAY):
            assert named == []  # restored, not named again
            restored.append(drag)
        else:
            assert named == [len(live.link_ids)]  # every row named afresh
        named.clear()
    assert "away" not in restored and "back" not in restored  # rows left and joined the trays
    assert restored[-2:] == ["nudge", "nudge"]  # restored after the naming afresh, twice


def test_names_are_not_restored_after_a_rack_move_left_unnamed():
    """A rack moved between two tray edits re-keys its links' rows: when they are not named
    before the tray edit after it, that edit names every route afresh (the names before it no
    longer hold) and equals a fresh plant."""
    design = synthetic_hall(256)
    live = RoutedLinks(design)
    live.route_keys()
    rng = random.Random(4)
    corner_moved(design, live, rng)
    live.refresh()
    tray_id = routed_trays(live)[0]
    rack = sorted(design.racks)[0]
    design.move_racks({rack: (design.racks[rack].x + 0.6, design.racks[rack].y)})
    live.refresh()
    design.set_tray_points(tray_id, nudged_corner(design.trays[tray_id].points, rng))
    live.refresh()
    assert live._renaming is None
    _assert_same_plant(live, RoutedLinks(design))


def _named_afresh(plant: RoutedLinks) -> tuple:
    """(route id per row, position pair -> id, spans per id, first rows) of ``plant`` named
    over every row at once, afresh (its names as they were put back)."""
    held = (plant._route_key.copy(), plant._route_of, plant._route_spans, plant._route_firsts)
    plant._route_of, plant._route_spans = {}, []
    plant._route_key[:] = -2  # stale: named again below
    plant._name_routes(np.arange(len(plant.link_ids)))
    fresh = (plant._route_key.copy(), plant._route_of, plant._route_spans, plant._route_firsts)
    plant._route_key[:], plant._route_of, plant._route_spans, plant._route_firsts = held
    return fresh


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_names_named_piecemeal_are_renumbered_for_the_tray_edit_after(monkeypatch, seed):
    """Racks moved and links removed and put back (rows renumbered), each edit's routes named
    piecemeal (as the editor's snapshots name them): the tray edit after them renumbers the
    names before it (no naming over every row) as a naming of every
    row afresh names them, and routes every link as a fresh plant does."""
    design = synthetic_hall(256)
    live = RoutedLinks(design)
    live.route_keys()
    named = _count_namings(live, monkeypatch)
    rng = random.Random(seed)
    racks = sorted(design.racks)
    restored = 0
    for _ in range(3):
        rack = rng.choice(racks)
        place = design.racks[rack]
        design.move_racks({rack: (place.x + rng.choice([0.6, -0.6, 1.2]), place.y)})
        live.refresh()
        gone = rng.sample(sorted(design.links), 5)
        records = [design.links[i] for i in gone]
        design.remove_links(gone)
        live.refresh()
        design.add_links(records[:3])
        live.refresh()
        live.route_keys()
        assert live._route_firsts is None  # named piecemeal
        on_trays = live._method == METHOD_TRAY
        corner_moved(design, live, rng)
        named.clear()
        live.refresh()
        keys = live.route_keys().copy()
        if np.array_equal(on_trays, live._method == METHOD_TRAY):
            assert named == []  # renumbered, not named again
            restored += 1
        now = (keys, live._route_of, live._route_spans, live._route_firsts)
        fresh = _named_afresh(live)
        np.testing.assert_array_equal(now[0], fresh[0])
        assert list(now[1].items()) == list(fresh[1].items())
        assert now[2] == fresh[2]
        np.testing.assert_array_equal(now[3][1], fresh[3][1])
        other = RoutedLinks(design)
        rows = np.array([other.index[i] for i in live.link_ids])
        for name in ("routed_m", "length_m", "ordered_m", "medium_index", "status"):
            np.testing.assert_array_equal(getattr(live, name), getattr(other, name)[rows])
    assert restored  # at least one edit took no row on or off the trays


def test_rows_whose_hops_and_tray_piece_alone_change_are_summed_as_a_fresh_routing(monkeypatch):
    """Tray edits whose re-routed rows keep both drops' reach and elevation take their new
    hops and tray piece alone (model.engine.retray_lengths), some with a hop that changed
    (a tray tilted under its racks' drops), some with a typed or measured length, under slack
    settings: every figure is a fresh routing's, bit for bit."""
    design, ids, live, typed = _slack_hall_with_typed_lengths()
    quick: list[np.ndarray] = []
    original = retray_lengths._tray_piece

    def recorded(plant, rows, tray_m):
        quick.append(rows.copy())
        original(plant, rows, tray_m)

    monkeypatch.setattr(retray_lengths, "_tray_piece", recorded)
    rng = random.Random(33)
    hop_moved = typed_quick = 0
    for _ in range(6):
        hops = live._hop_a.copy(), live._hop_b.copy()
        corner_moved(design, live, rng)
        live.refresh()
        _assert_same_plant(live, RoutedLinks(design))
        rows = np.concatenate(quick) if quick else np.zeros(0, dtype=np.int64)
        quick.clear()
        moved = (live._hop_a[rows] != hops[0][rows]) | (live._hop_b[rows] != hops[1][rows])
        hop_moved += int(moved.sum())
        typed_quick += int(typed[rows].sum())
    assert hop_moved and typed_quick  # both kinds of rows took the quick sums
