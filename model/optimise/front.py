"""A Pareto front of placements: one optimiser run per objective weighting, dominated ones dropped.

One weighted objective gives one answer; an architect trading capital cost against optics power
and failures wants the trade itself. Each preset weighting (``PRESETS``: cost alone, optics
power alone, failures alone, and the balanced default) is optimised from the same start with the
same seed; the start is a point too. A point is kept when no other point is at least as good on
every front term (``FRONT_TERMS``: cost, typical optics watts, failures per day) and better on
one; points with equal terms are one point (the first weighting that found it names it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from model.design.design import Design
from model.files.design_file import design_to_bytes
from model.optimise.objective import DEFAULT_WEIGHTS, TERMS
from model.optimise.optimise import Result, optimise

FRONT_TERMS = ("cost_usd", "optics_power_w", "failures_per_day")
_ZERO = {t: 0.0 for t in TERMS}
PRESETS: dict[str, dict[str, float]] = {
    "cost": {**_ZERO, "cost_usd": 1.0},
    "power": {**_ZERO, "optics_power_w": 1.0, "optics_power_w_max": 0.5},
    "failures": {**_ZERO, "failures_per_day": 1.0},
    "balanced": dict(DEFAULT_WEIGHTS),
}


@dataclass
class FrontPoint:
    """One design on the front: its name, the weights that found it, its terms and result."""

    name: str
    weights: dict[str, float]
    terms: dict[str, float]
    result: Result | None  # None for the starting design

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "weights": self.weights,
            "terms": self.terms,
            "moved": [m["name"] for m in self.result.report.get("moved", [])]
            if self.result is not None
            else [],
        }


def dominates(a: dict[str, float], b: dict[str, float], terms=FRONT_TERMS) -> bool:
    """``a`` is no worse than ``b`` on every term and better on one (all minimised)."""
    eps = 1e-9
    return all(a[t] <= b[t] + eps for t in terms) and any(a[t] < b[t] - eps for t in terms)


def non_dominated(points: list[FrontPoint]) -> list[FrontPoint]:
    """The points no other point dominates, duplicates (equal terms) kept once."""
    out: list[FrontPoint] = []
    for p in points:
        if any(dominates(q.terms, p.terms) for q in points):
            continue
        if any(all(abs(q.terms[t] - p.terms[t]) <= 1e-9 for t in FRONT_TERMS) for q in out):
            continue
        out.append(p)
    return out


def pareto_front(
    design: Design,
    presets: Iterable[str] = tuple(PRESETS),
    on_point: Callable[[str], None] | None = None,
    **options,
) -> tuple[list[FrontPoint], list[FrontPoint]]:
    """``(front, every point)``: the start and one optimised design per preset weighting;
    ``options`` go to :func:`model.optimise.optimise.optimise` (iterations, seed, locked...);
    ``on_point(name)`` is told as each run ends (progress)."""
    data = design_to_bytes(design)
    points: list[FrontPoint] = []
    start_terms: dict[str, float] | None = None
    for name in presets:
        weights = PRESETS[name]
        result = optimise(design, weights, data=data, **options)
        terms = result.report.get("terms")
        if terms is not None:
            if start_terms is None:
                start_terms = {t: v["before"] for t, v in terms.items()}
            points.append(
                FrontPoint(name, weights, {t: v["after"] for t, v in terms.items()}, result)
            )
        if on_point is not None:
            on_point(name)
    if start_terms is None:  # no run moved anything: the start is the whole front
        from model.engine.routed_links import RoutedLinks
        from model.optimise.objective import Pricer

        plant = RoutedLinks(design)
        start_terms = dict(Pricer(design, plant).start.terms)
        plant.close()
    everything = [FrontPoint("start", {}, start_terms, None), *points]
    return non_dominated(everything), everything
