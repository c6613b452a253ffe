"""A candidate refused at its tray fill and taken back leaves the plant, the tray fill and the
pricer's link totals bit for bit as before it; a run that takes back equals one that recounts."""

from __future__ import annotations

import random

from model.engine.move_undo import checkpoint, restore
from model.engine.routed_links import RoutedLinks
from model.optimise import objective
from model.optimise.moves import network_racks, search_space
from model.optimise.objective import Pricer
from tests.model.optimise_runs import (
    anneal_equal_to_fresh,
    assert_priced_as_fresh,
    fill_state,
    leaf_spine_pod,
    plant_state,
    priced_pod,
)


def test_a_refused_move_taken_back_leaves_plant_fill_and_totals_as_before(monkeypatch):
    # Every tray's limit at 0 %: a move that adds a cable to any tray is refused at its fill
    # (the small hall fills none past 40 %), as most moves are at XL.
    monkeypatch.setattr(objective, "TRAY_FILL_WARNING", 0.0)
    pod = priced_pod()
    design, movable, free, plant, pricer = pod.design, pod.movable, pod.free, pod.plant, pod.pricer
    rng = random.Random(5)
    taken = 0
    for _ in range(16):
        racks = rng.sample(movable, rng.choice((1, 2)))
        moves = {r: rng.choice(free[r]) for r in racks}
        plant.route_keys()  # named, as a pricing names them
        before_plant, before_fill = plant_state(plant), fill_state(pricer)
        back = {r: (design.racks[r].x, design.racks[r].y) for r in moves}
        saved, mark = checkpoint(plant, list(moves)), pricer.mark()
        design.move_racks(moves)
        priced = pricer.price(plant.refresh(), stop_at_fill=True)
        if priced.complete:  # priced whole: kept, the next move starts from here
            continue
        design.move_racks(back)
        assert saved is not None and restore(plant, saved)
        assert pricer.take_back(mark)
        taken += 1
        assert not pricer.take_back(mark)  # once only
        after_fill = fill_state(pricer)
        assert [k for k in before_fill if before_fill[k] != after_fill[k]] == []
        after_plant = plant_state(plant)
        assert [k for k in before_plant if before_plant[k] != after_plant[k]] == []
    assert taken >= 5
    assert_priced_as_fresh(pod)


def test_nothing_is_taken_back_after_a_whole_pricing():
    design = leaf_spine_pod()
    movable = network_racks(design)
    free, _ = search_space(design, movable, set(), True, False)
    plant = RoutedLinks(design)
    pricer = Pricer(design, plant)
    rack_id = movable[0]
    back = {rack_id: (design.racks[rack_id].x, design.racks[rack_id].y)}
    saved, mark = checkpoint(plant, [rack_id]), pricer.mark()
    design.move_racks({rack_id: free[rack_id][0]})
    assert pricer.price(plant.refresh(), stop_at_fill=True).complete
    design.move_racks(back)
    assert saved is not None and restore(plant, saved)
    assert not pricer.take_back(mark)
    assert rack_id in pricer._moved  # compared at the next pricing, which the plant counted
    priced = pricer.price(plant.refresh())
    fresh = Pricer(design, RoutedLinks(design))
    assert priced.terms == fresh.start.terms
    plant.close()


def test_annealing_that_takes_back_equals_annealing_that_recounts(monkeypatch):
    monkeypatch.setattr(objective, "TRAY_FILL_WARNING", 0.02)

    taken = []
    take_back = Pricer.take_back

    def counted(self, mark):
        ok = take_back(self, mark)
        taken.append(ok)
        return ok

    monkeypatch.setattr(Pricer, "take_back", counted)
    taking_back = anneal_equal_to_fresh(seed=4)
    assert sum(taken) >= 5
    monkeypatch.setattr(Pricer, "take_back", lambda self, mark: False)
    recounting = anneal_equal_to_fresh(seed=4)
    assert taking_back == recounting
    assert taking_back.iterations == 60 and taking_back.feasible < 60
