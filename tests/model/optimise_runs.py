"""Shared optimiser runs for the tests of a refused move's undo (test_move_undo, test_refused_move)."""

from __future__ import annotations

import dataclasses

from model.design.design import Design
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.optimise import search
from model.optimise.objective import DEFAULT_WEIGHTS


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
