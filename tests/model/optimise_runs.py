"""Shared optimiser runs and states for the tests of a refused move's undo and the fill bound
(test_move_undo, test_refused_move, test_fill_bound)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from model.design.design import Design
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.optimise import search
from model.optimise.moves import network_racks, search_space
from model.optimise.objective import DEFAULT_WEIGHTS, Pricer


def leaf_spine_pod() -> Design:
    """A 16-node leaf-spine pod: small, with network racks that have free tiles to move to."""
    return generate("leaf-spine", nodes=16, node_type="dgx-h100", switch="qm9700")


def anneal_equal_to_fresh(seed: int, iterations: int = 60) -> search.Run:
    """An annealing run on a fresh pod whose plant then equals a fresh routing of the result
    (asserted); the result with its wall time zeroed, to compare runs."""
    design = leaf_spine_pod()
    plant = RoutedLinks(design)
    done = search.anneal(design, plant, DEFAULT_WEIGHTS, iterations, seed=seed, locked=set())
    fresh = RoutedLinks(design)
    assert plant.length_m.tobytes() == fresh.length_m.tobytes()
    assert plant.medium_index.tobytes() == fresh.medium_index.tobytes()
    plant.close()
    fresh.close()
    return dataclasses.replace(done, seconds=0.0)


@dataclass
class PricedPod:
    """A leaf-spine pod priced as it stands: its movable racks, their free places, the plant and
    the pricer (the fill kept as levels from here, as a fill-only pricing leaves it)."""

    design: Design
    movable: list[str]
    free: dict
    plant: RoutedLinks
    pricer: Pricer


def priced_pod() -> PricedPod:
    design = leaf_spine_pod()
    movable = network_racks(design)
    free, _ = search_space(design, movable, set(), True, False)
    plant = RoutedLinks(design)
    pricer = Pricer(design, plant)
    pricer.price(plant.refresh())
    return PricedPod(design, movable, free, plant, pricer)


def assert_priced_as_fresh(pod: PricedPod) -> None:
    """Priced from here, the pod's state gives the figures of a fresh pricer of the same design
    (then its plant is closed)."""
    priced = pod.pricer.price(pod.plant.refresh())
    fresh = Pricer(pod.design, RoutedLinks(pod.design))
    assert priced.terms == fresh.start.terms
    assert priced.tray_fill == fresh.start.tray_fill
    pod.plant.close()


def plant_state(plant: RoutedLinks) -> dict[str, bytes]:
    """Every array of the plant (its attachments too), as bytes: NaN for NaN, bit for bit."""
    held = {k: v.tobytes() for k, v in vars(plant).items() if isinstance(v, np.ndarray)}
    for field in dataclasses.fields(plant._att):
        held[f"att.{field.name}"] = getattr(plant._att, field.name).tobytes()
    return held


def fill_state(pricer: Pricer) -> dict[str, object]:
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
