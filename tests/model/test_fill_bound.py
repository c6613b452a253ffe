"""A candidate's tray fill bounded before its media choice: the thinnest media bound the chosen
ones, a candidate refused so is taken back bit for bit, and runs decide as without the bound."""

from __future__ import annotations

import random

import numpy as np

from model.analysis.tray_fill_probe import probe
from model.engine.move_undo import checkpoint, restore
from model.engine.routed_links import RoutedLinks
from model.optimise import objective, search
from model.optimise.objective import Pricer
from tests.model.optimise_runs import (
    anneal_equal_to_fresh,
    assert_priced_as_fresh,
    fill_state,
    plant_state,
    priced_pod,
)
from tests.model.test_cabling import row_pod


def _diameters(plant: RoutedLinks) -> np.ndarray:
    return np.array([m.cable_diameter_mm for m in plant.media])


def test_no_chosen_cable_is_thinner_than_the_bound():
    # Leaf to spine ~3.3 m: an LACC copper cable, where a fibre would also carry it.
    plant = RoutedLinks(row_pod())
    rows = np.arange(len(plant.link_ids))
    thin, chosen = plant.thinnest_media(rows), np.asarray(plant.medium_index)
    assert (chosen >= 0).all() and (thin >= 0).all()
    width = _diameters(plant)
    assert (width[thin] <= width[chosen]).all()
    up = plant.index["up"]
    assert plant.media[chosen[up]].is_copper and width[thin[up]] < width[chosen[up]]
    plant.close()


def test_a_deferred_refresh_finishes_as_a_whole_one():
    design, twin = row_pod(), row_pod()
    plant, whole = RoutedLinks(design), RoutedLinks(twin)
    for d in (design, twin):
        d.move_racks({"r3": (9.3, 3.0)})  # the spine past the LACC's reach: "up" on fibre
    assert plant.refresh(defer_media=True) == set()
    assert plant.deferred_media is not None
    plant.bound_media()
    assert plant.finish_media() == whole.refresh() == {"up"}
    assert plant.deferred_media is None
    for name in ("medium_index", "ordered_m", "status", "length_m"):
        assert getattr(plant, name).tobytes() == getattr(whole, name).tobytes()
    plant.close()
    whole.close()


def test_a_move_refused_at_its_bound_is_taken_back_bit_for_bit(monkeypatch):
    # Every tray's limit at 0 %: any cable refuses, so the bound (thinnest cables) decides.
    monkeypatch.setattr(objective, "TRAY_FILL_WARNING", 0.0)
    monkeypatch.setattr(objective, "BOUND_PAYS", 0.0)  # bounded every time
    pod = priced_pod()
    design, movable, free, plant, pricer = pod.design, pod.movable, pod.free, pod.plant, pod.pricer
    rng = random.Random(7)
    taken = 0
    for _ in range(12):
        racks = rng.sample(movable, rng.choice((1, 2)))
        moves = {r: rng.choice(free[r]) for r in racks}
        plant.route_keys()
        before_plant, before_fill = plant_state(plant), fill_state(pricer)
        back = {r: (design.racks[r].x, design.racks[r].y) for r in moves}
        saved, mark = checkpoint(plant, list(moves)), pricer.mark()
        design.move_racks(moves)
        priced = pricer.price(plant.refresh(defer_media=True), stop_at_fill=True)
        if priced.complete:
            continue
        assert pricer.broken(priced, [], set()).startswith("tray ")
        design.move_racks(back)
        assert saved is not None and restore(plant, saved)
        assert plant.deferred_media is None
        assert pricer.take_back(mark)
        taken += 1
        after_fill, after_plant = fill_state(pricer), plant_state(plant)
        assert [k for k in before_fill if before_fill[k] != after_fill[k]] == []
        assert [k for k in before_plant if before_plant[k] != after_plant[k]] == []
    # (a tray the move fills above 0 % but, with the thinnest cables, below its start: the
    # bound does not decide, and the chosen media refuse it)
    assert taken >= 5 and 3 <= pricer.bound_refusals <= taken
    assert_priced_as_fresh(pod)


def test_annealing_with_the_bound_decides_as_without_it(monkeypatch):
    # A limit some candidates break with their thinnest cables and some only with the chosen
    # ones (or not at all): the bound refuses the first and hands the others on.
    monkeypatch.setattr(objective, "TRAY_FILL_WARNING", 0.02)
    monkeypatch.setattr(objective, "BOUND_PAYS", 0.0)  # bounded every time
    pricers: list[Pricer] = []

    class Kept(Pricer):
        def __init__(self, *args) -> None:
            super().__init__(*args)
            pricers.append(self)

    monkeypatch.setattr(search, "Pricer", Kept)
    bounded = anneal_equal_to_fresh(seed=4)
    tries, refusals = pricers[0].bound_tries, pricers[0].bound_refusals
    assert refusals >= 3 and tries - refusals >= 3
    monkeypatch.setattr(Pricer, "_over_bound", lambda self, changed: None)
    unbounded = anneal_equal_to_fresh(seed=4)
    assert bounded == unbounded


def test_the_probe_gives_the_counted_fill_of_the_trays_it_touches_and_writes_nothing():
    pod = priced_pod()
    design, movable, free, plant, pricer = pod.design, pod.movable, pod.free, pod.plant, pod.pricer
    rng = random.Random(3)
    touched = 0
    for _ in range(8):
        rack_id = rng.choice(movable)
        before = dict(pricer.fill._fill_state[1])  # every tray's ratio as counted
        design.move_racks({rack_id: rng.choice(free[rack_id])})
        plant.refresh()
        rows = pricer._rows_of({rack_id})
        hinted = pricer.cache._graph.rows_of(np.unique(pricer.cache._graph.comp[rows]))
        plant.route_keys()
        held = fill_state(pricer)
        probed = probe(pricer.fill, design, plant, hinted)
        assert fill_state(pricer) == held  # nothing written
        counted = pricer.fill.update(design, plant, set(), None, loads=False, rows_hint=hinted)
        assert probed is not None and probed.keys() <= counted.keys()
        assert {t: counted[t] for t in probed} == probed  # the same floats
        assert {t: r for t, r in counted.items() if t not in probed} == {
            t: r for t, r in before.items() if t not in probed
        }
        touched += len(probed)
        pricer.price(set())  # the pricer's other caches follow
    assert touched > 0
    plant.close()


def test_route_keys_at_the_moved_rows_names_as_route_keys():
    # Two twin pods moved alike: one names its routes through the moved racks' rows only (the
    # bound's probe), the other through every row; the same ids and spans after each move.
    pods = priced_pod(), priced_pod()
    movable, free = pods[0].movable, pods[0].free
    rng = random.Random(5)
    named = 0
    for _ in range(8):
        racks = rng.sample(movable, rng.choice((1, 2)))
        moves = {r: rng.choice(free[r]) for r in racks}
        for pod in pods:
            pod.design.move_racks(moves)
            pod.plant.refresh()
        rows = np.sort(pods[0].plant._component_rows(pods[0].plant._rows_of_racks(racks)))
        stale = int((pods[0].plant._route_key[rows] == -2).sum())
        at = pods[0].plant.route_keys_at(rows)
        whole = pods[1].plant.route_keys()
        assert at.tolist() == whole[rows].tolist()
        assert pods[0].plant.route_keys().tolist() == whole.tolist()  # nothing left stale
        assert pods[0].plant._route_spans == pods[1].plant._route_spans
        named += stale
    assert named > 0
    for pod in pods:
        pod.plant.close()


def test_the_thinnest_media_kept_are_the_plants_until_another_edit(monkeypatch):
    monkeypatch.setattr(objective, "TRAY_FILL_WARNING", 0.0)
    monkeypatch.setattr(objective, "BOUND_PAYS", 0.0)  # bounded every time
    pod = priced_pod()
    design, plant, pricer = pod.design, pod.plant, pod.pricer
    rack_id = pod.movable[0]
    design.move_racks({rack_id: pod.free[rack_id][0]})
    pricer.price(plant.refresh(defer_media=True), stop_at_fill=True)
    assert pricer.bound_tries == 1
    kept = pricer._thinnest
    assert kept is not None
    assert kept.tolist() == plant.thinnest_media(np.arange(len(plant.link_ids))).tolist()
    design.set_name("renamed")  # not a rack move: the ports and pins are no longer vouched for
    assert pricer._thinnest is None
    plant.close()


def test_the_probe_under_limits_gives_every_tray_that_could_pass_its_limit():
    # A limit low enough that some touched trays pass it and some do not: the trays probed
    # under limits are the touched ones that could pass theirs, each with the same float, and
    # every touched tray that passes its limit is among them.
    pod = priced_pod()
    design, movable, free, plant, pricer = pod.design, pod.movable, pod.free, pod.plant, pod.pricer
    rng = random.Random(9)
    passing = left_out = 0
    for limit in (0.0, 0.01, 0.02, 0.05):
        for _ in range(6):
            rack_id = rng.choice(movable)
            design.move_racks({rack_id: rng.choice(free[rack_id])})
            plant.refresh()
            rows = pricer._rows_of({rack_id})
            hinted = pricer.cache._graph.rows_of(np.unique(pricer.cache._graph.comp[rows]))
            limits = dict.fromkeys(design.trays, limit)
            whole = probe(pricer.fill, design, plant, hinted)
            held = fill_state(pricer)
            under = probe(pricer.fill, design, plant, hinted, limits)
            assert fill_state(pricer) == held  # nothing written
            assert whole is not None and under is not None
            assert under == {t: r for t, r in whole.items() if t in under}
            assert {t for t, r in whole.items() if r > limit} <= under.keys()
            passing += sum(r > limit for r in whole.values())
            left_out += len(whole) - len(under)
            pricer.price(set())
    assert passing > 0 and left_out > 0
    plant.close()
