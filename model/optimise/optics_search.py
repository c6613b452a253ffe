"""The optics strategy search (descent over each tier's strategies) and its sentence per tier.

There are at most three tiers of at most three strategies each, so the search is exact per
tier: each tier in turn tries each strategy it may take (:mod:`model.optimise.optics_moves`)
with the others held, priced by the same :class:`Pricer` as a rack move and checked against
the same hard limits (the tier's racks' power at maximum draw included: a co-packaged twin
moves the laser sources' watts into its rack), and keeps the best; passes repeat until no tier
changes (tiers interact only through the links between them, so this ends in two passes or three).
The annealing runs it before the rack moves and again after them, the placement having changed
which media each tier's links need.

Why a tier changed is measured as a rack move's is (:mod:`model.optimise.explain`): from the
optimised design the tier goes back to its starting strategy, the plant is re-priced, and the
difference is what the choice bought, e.g. "Leaf tier pluggable -> linear: 32 modules now
linear, -$11,200, -0.21 kW typical optics (-0.22 kW at most), -0.0003 failures/day, lasers
256 -> 256."
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from model.analysis.optics import optics_by_tier, tier_strategy
from model.design.design import Design, DesignError
from model.engine.routed_links import RoutedLinks
from model.generators.optics import SWITCH_TIERS
from model.optimise.objective import Priced, Pricer
from model.optimise.optics_moves import apply_tier, tier_devices


@dataclass
class OpticsStep:
    """Where the optics descent left the design: its objective and pricing, and the moves
    it tried."""

    value: float
    priced: Priced
    tried: int = 0
    infeasible: int = 0


def _tier_racks(design: Design, tier: str) -> set[str]:
    return {design.devices[d].rack for d in tier_devices(design, tier)}


def _try(design, plant, pricer, weights, tier, strategy) -> tuple[float, Priced | None]:
    """Price ``tier`` at ``strategy`` (left applied); inf and None when it breaks a limit."""
    try:
        apply_tier(design, tier, strategy)
    except DesignError:
        return math.inf, None
    pricer.devices_changed()
    changed = plant.refresh()
    priced = pricer.price(changed)
    if pricer.broken(priced, [], changed, _tier_racks(design, tier)) is not None:
        return math.inf, None
    return pricer.objective(priced, weights), priced


def descend_optics(
    design: Design,
    plant: RoutedLinks,
    pricer: Pricer,
    weights: dict[str, float],
    options: dict[str, tuple[str, ...]],
    step: OpticsStep,
) -> OpticsStep:
    """Each tier's best strategy with the others held, until no tier changes; the design is
    left at the best and its plant refreshed and priced (``step``: where it stands now)."""
    improved = True
    pending = False  # an undone try the plant has not priced yet
    while improved:
        improved = False
        for tier in SWITCH_TIERS:
            allowed = options.get(tier, ())
            for strategy in allowed:
                now = tier_strategy(design)[tier]
                if strategy == now:
                    continue
                step.tried += 1
                value, priced = _try(design, plant, pricer, weights, tier, strategy)
                pending = False
                if priced is not None and value < step.value - 1e-12:
                    step.value, step.priced, improved = value, priced, True
                    continue
                step.infeasible += priced is None
                apply_tier(design, tier, now)
                pricer.devices_changed()
                pending = True
    if pending:  # the caches follow the design's state before the next pricing
        pricer.price(plant.refresh())
    return step


@dataclass(frozen=True)
class TierWhy:
    """One tier whose strategy changed and what that bought."""

    tier: str
    before: str
    after: str
    cost_usd: float
    optics_power_w: float
    optics_power_w_max: float
    failures_per_day: float
    lasers: tuple[int, int]
    sentence: str

    def to_json(self) -> dict:
        return {
            "tier": self.tier,
            "from": self.before,
            "to": self.after,
            "cost_usd_delta": self.cost_usd,
            "optics_power_w_delta": self.optics_power_w,
            "optics_power_w_max_delta": self.optics_power_w_max,
            "failures_per_day_delta": self.failures_per_day,
            "lasers": {"before": self.lasers[0], "after": self.lasers[1]},
            "sentence": self.sentence,
        }


def explain_optics(
    design: Design, plant: RoutedLinks, pricer: Pricer, final: Priced, start: dict[str, str]
) -> list[TierWhy]:
    """One :class:`TierWhy` per tier whose strategy differs from ``start``; ``design`` and
    ``plant`` stand in the optimised state (``final``) and are left there."""
    out = []
    now = tier_strategy(design)
    after_tiers = optics_by_tier(design, plant)
    for tier in SWITCH_TIERS:
        if tier not in start or now.get(tier) == start[tier]:
            continue
        apply_tier(design, tier, start[tier])
        pricer.devices_changed()
        reverted = pricer.price(plant.refresh())
        before_tiers = optics_by_tier(design, plant)
        apply_tier(design, tier, now[tier])
        pricer.devices_changed()
        pricer.price(plant.refresh())
        d = {t: final.terms[t] - reverted.terms[t] for t in final.terms}
        mods = after_tiers[tier]["modules"].get("linear", 0)
        lasers = (int(before_tiers[tier]["lasers"]), int(after_tiers[tier]["lasers"]))
        what = {
            "linear": f"{mods} modules now linear",
            "co-packaged": f"{after_tiers[tier]['co_packaged_ports']} ports co-packaged,"
            f" {after_tiers[tier]['laser_sources']} laser sources",
            "pluggable": "DSP modules again",
        }[now[tier]]
        sign = "-" if d["cost_usd"] < 0 else "+"
        sentence = (
            f"{tier.capitalize()} tier {start[tier]} -> {now[tier]}: {what},"
            f" {sign}${abs(d['cost_usd']):,.0f}, {d['optics_power_w'] / 1000:+.2f} kW typical"
            f" optics ({d['optics_power_w_max'] / 1000:+.2f} kW at most),"
            f" {d['failures_per_day']:+.4f} failures/day, lasers {lasers[0]} -> {lasers[1]}."
        )
        out.append(
            TierWhy(
                tier,
                start[tier],
                now[tier],
                d["cost_usd"],
                d["optics_power_w"],
                d["optics_power_w_max"],
                d["failures_per_day"],
                lasers,
                sentence,
            )
        )
    return out
