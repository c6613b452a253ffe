"""A candidate refused at its tray fill and taken back leaves the plant, the tray fill and the
pricer's link totals bit for bit as before it; a run that takes back equals one that recounts."""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from model.engine.move_undo import checkpoint, restore
from model.engine.routed_links import RoutedLinks
from model.optimise import objective
from model.optimise.moves import network_racks, search_space
from model.optimise.objective import Pricer
from tests.model.optimise_runs import anneal_equal_to_fresh, leaf_spine_pod


def _plant_state(plant: RoutedLinks) -> dict[str, bytes]:
    """Every array of the plant (its attachments too), as bytes: NaN for NaN, bit for bit."""
    held = {k: v.tobytes() for k, v in vars(plant).items() if isinstance(v, np.ndarray)}
    for field in dataclasses.fields(plant._att):
        held[f"att.{field.name}"] = getattr(plant._att, field.name).tobytes()
    return held


def _fill_state(pricer: Pricer) -> dict[str, object]:
    """Everything the pricer's tray fill and link totals hold that a move can write."""
    fill = pricer.fill
    assert fill._fill_state is not None
    levels, out, peak_at = fill._fill_state
    um, lost, totals = pricer._per_row or (np.zeros(0), np.zeros(0), [])
    return {
        "rows": (fill._row_route.tobytes(), fill._row_medium.tobytes()),
        "counts": list(fill._counts.items()),
        "keys": None if fill._pair_rows is None else fill._pair_rows[1].tobytes(),
        "figures": (dict(fill.peak_at), dict(fill.loads), fill._structured),
        "bounds": [b.tobytes() for b in levels.bounds],
        "levels": [(c.shape, c.tobytes()) for c in levels.counts],
        "peaks": dict(levels.peaks),
        "columns": list(levels.column_of.items()),
        "ratios": list(out.items()),
        "places": dict(peak_at),
        "totals": (um.tobytes(), lost.tobytes(), list(totals)),
        "moved": set(pricer._moved),
    }


def test_a_refused_move_taken_back_leaves_plant_fill_and_totals_as_before(monkeypatch):
    # Every tray's limit at 0 %: a move that adds a cable to any tray is refused at its fill
    # (the small hall fills none past 40 %), as most moves are at XL.
    monkeypatch.setattr(objective, "TRAY_FILL_WARNING", 0.0)
    design = leaf_spine_pod()
    movable = network_racks(design)
    free, _ = search_space(design, movable, set(), True, False)
    plant = RoutedLinks(design)
    pricer = Pricer(design, plant)
    pricer.price(plant.refresh())  # the fill kept as levels from here (a fill-only pricing)
    rng = random.Random(5)
    taken = 0
    for _ in range(16):
        racks = rng.sample(movable, rng.choice((1, 2)))
        moves = {r: rng.choice(free[r]) for r in racks}
        plant.route_keys()  # named, as a pricing names them
        before_plant, before_fill = _plant_state(plant), _fill_state(pricer)
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
        after_fill = _fill_state(pricer)
        assert [k for k in before_fill if before_fill[k] != after_fill[k]] == []
        after_plant = _plant_state(plant)
        assert [k for k in before_plant if before_plant[k] != after_plant[k]] == []
    assert taken >= 5
    # Priced from here, the state gives the figures of a fresh pricer of the same design.
    priced = pricer.price(plant.refresh())
    fresh = Pricer(design, RoutedLinks(design))
    assert priced.terms == fresh.start.terms
    assert priced.tray_fill == fresh.start.tray_fill
    plant.close()


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
