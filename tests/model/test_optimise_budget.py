"""A timed optimisation counts its set-up and what follows its loop inside its budget, and a
run that moved nothing returns the start without pricing it again."""

from __future__ import annotations

import time

from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes
from model.optimise import optimise as optimise_module
from model.optimise import search
from model.optimise.objective import DEFAULT_WEIGHTS
from tests.model.optimise_runs import leaf_spine_pod


def _anneal(**clock) -> search.Run:
    design = leaf_spine_pod()
    plant = RoutedLinks(design)
    try:
        return search.anneal(design, plant, DEFAULT_WEIGHTS, 50, seed=0, locked=set(), **clock)
    finally:
        plant.close()


def test_budget_counts_from_started_and_keeps_a_reserve(monkeypatch):
    assert _anneal(seconds=60.0).iterations == 50  # a budget far off: every iteration
    # Started a minute ago: the budget went on the set-up, no move is tried.
    assert _anneal(seconds=30.0, started=time.perf_counter() - 60.0).iterations == 0
    # A reserve for after the loop as long as the set-up's share: a budget that short
    # leaves no loop.
    monkeypatch.setattr(search, "FINISH_SHARE", 1e9)
    assert _anneal(seconds=30.0, reserve=True).iterations == 0
    assert _anneal(seconds=30.0).iterations == 50  # the reserve, not the budget, stopped it
    # Moved racks keep time for their put back: a best state that moves a rack ends the
    # loop when that reserve outgrows what is left.
    monkeypatch.setattr(search, "FINISH_SHARE", 0.0)
    monkeypatch.setattr(search, "PUT_BACK_ITERATIONS", 1e12)
    kept = _anneal(seconds=60.0, reserve=True)
    assert kept.iterations < 50
    assert _anneal(seconds=60.0).iterations == 50


def test_unmoved_run_returns_the_start_unpriced(monkeypatch):
    design = leaf_spine_pod()
    before = design_to_bytes(design)
    built = []

    class Counted(RoutedLinks):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            built.append(self)

    monkeypatch.setattr(optimise_module, "RoutedLinks", Counted)
    result = optimise_module.optimise(design, DEFAULT_WEIGHTS, iterations=0, seed=0)
    assert not result.changed
    assert result.sentence == "Design unchanged: no feasible move lowers the weighted objective."
    assert not built  # no fresh plant after the run
    assert design_to_bytes(result.design) == before
