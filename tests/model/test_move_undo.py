"""A refused move's plant rows put back as saved equal the plant before it, bit for bit, and a
fresh routing; an annealing run that restores gives the run that routes the moves back."""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from model.engine.move_undo import checkpoint, restore
from model.engine.routed_links import RoutedLinks
from model.optimise import search
from model.optimise.moves import network_racks, search_space
from tests.model.optimise_runs import anneal_equal_to_fresh, leaf_spine_pod


def _state(plant: RoutedLinks) -> dict[str, bytes]:
    """Every array the plant holds (its attachments too), as bytes: NaN for NaN, bit for bit."""
    plant.route_keys()  # named, as a pricing names them
    held = {k: v.tobytes() for k, v in vars(plant).items() if isinstance(v, np.ndarray)}
    for field in dataclasses.fields(plant._att):
        held[f"att.{field.name}"] = getattr(plant._att, field.name).tobytes()
    return held


def test_a_refused_move_restores_every_column_and_equals_a_fresh_routing():
    design = leaf_spine_pod()
    movable = network_racks(design)
    free, _ = search_space(design, movable, set(), True, False)
    plant = RoutedLinks(design)
    plant.index_rack_rows()
    rng = random.Random(3)
    restored = 0
    for _ in range(12):
        racks = rng.sample(movable, rng.choice((1, 2)))
        moves = {r: rng.choice(free[r]) for r in racks}
        before = _state(plant)
        back = {r: (design.racks[r].x, design.racks[r].y) for r in moves}
        saved = checkpoint(plant, list(moves))
        assert saved is not None
        design.move_racks(moves)
        changed = plant.refresh()
        plant.route_keys()
        if rng.random() < 0.3:  # kept: the next move starts from here
            continue
        design.move_racks(back)
        assert restore(plant, saved)
        restored += bool(changed)
        assert not plant.has_unapplied_edits
        after = _state(plant)
        assert after.keys() == before.keys()
        assert [k for k in before if before[k] != after[k]] == []
        fresh = RoutedLinks(design)
        for column in ("length_m", "routed_m", "ordered_m", "medium_index", "status", "by_cage"):
            assert getattr(plant, column).tobytes() == getattr(fresh, column).tobytes(), column
        fresh.close()
    assert restored >= 3  # moves that changed some link were restored, not only empty ones
    plant.close()


def test_restore_refuses_any_other_edit_and_the_refresh_routes_it():
    design = leaf_spine_pod()
    movable = network_racks(design)
    free, _ = search_space(design, movable, set(), True, False)
    plant = RoutedLinks(design)
    rack_id = movable[0]
    start = (design.racks[rack_id].x, design.racks[rack_id].y)
    saved = checkpoint(plant, [rack_id])
    assert saved is not None
    design.move_racks({rack_id: free[rack_id][0]})
    plant.refresh()
    design.move_racks({rack_id: free[rack_id][1]})  # not back where it stood
    assert not restore(plant, saved)
    assert plant.has_unapplied_edits
    plant.refresh()
    design.move_racks({rack_id: start})
    assert not restore(plant, saved)  # back, but the plant moved on since the checkpoint
    plant.refresh()
    fresh = RoutedLinks(design)
    assert plant.length_m.tobytes() == fresh.length_m.tobytes()
    assert plant.medium_index.tobytes() == fresh.medium_index.tobytes()
    plant.close()
    fresh.close()


def _refused_restore_then_routed(design, plant, saved):
    """restore() must refuse; the refresh then routes the edits and equals a fresh plant."""
    assert not restore(plant, saved)
    plant.refresh()
    fresh = RoutedLinks(design)
    for column in ("length_m", "medium_index", "status"):
        assert getattr(plant, column).tobytes() == getattr(fresh, column).tobytes(), column
    plant.close()
    fresh.close()


def test_restore_refuses_a_rack_turned_while_it_was_away():
    # rotate_racks announces RACKS_MOVED too: back at its x, y but turned, the rack's drop
    # points are not the saved ones
    design = leaf_spine_pod()
    rack_id = network_racks(design)[0]
    free, _ = search_space(design, [rack_id], set(), True, False)
    plant = RoutedLinks(design)
    home = (design.racks[rack_id].x, design.racks[rack_id].y)
    saved = checkpoint(plant, [rack_id])
    design.move_racks({rack_id: free[rack_id][0]})
    plant.refresh()
    design.rotate_racks({rack_id: (design.racks[rack_id].rotation + 90) % 360})
    design.move_racks({rack_id: home})
    _refused_restore_then_routed(design, plant, saved)


def test_restore_refuses_when_the_move_moved_more_racks_than_saved():
    design = leaf_spine_pod()
    movable = network_racks(design)
    a, b = movable[0], movable[-1]
    free, _ = search_space(design, [a, b], set(), True, False)
    plant = RoutedLinks(design)
    home = (design.racks[a].x, design.racks[a].y)
    saved = checkpoint(plant, [a])
    design.move_racks({a: free[a][0], b: free[b][0]})  # B moved in the same refresh
    plant.refresh()
    design.move_racks({a: home})
    _refused_restore_then_routed(design, plant, saved)


def test_annealing_that_restores_equals_annealing_that_routes_back(monkeypatch):
    asked = []

    def counted(plant, saved):
        ok = restore(plant, saved)
        asked.append(ok)
        return ok

    monkeypatch.setattr(search, "restore", counted)
    restoring = anneal_equal_to_fresh(seed=2)
    assert any(asked) and all(asked)
    monkeypatch.setattr(search, "restore", lambda plant, saved: False)
    routing_back = anneal_equal_to_fresh(seed=2)
    assert restoring == routing_back
    assert restoring.iterations == 60 and restoring.accepted < restoring.feasible
