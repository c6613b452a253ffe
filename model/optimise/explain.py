"""Why each moved rack moved: its own share of the optimiser's gain, in one sentence.

A rack's share is measured, not apportioned: from the optimised design, the rack (or the group
of racks that took each other's places, which can only go back together) is put back
where it stood, the plant re-priced, and the difference is what that move bought. The sentence
names the rack, how far it moved, which media its links flipped between and how many, the cost
and optics-power delta and the mean length of its links before and after, e.g.
"Spine rack SP01 moved 3.6 m: 512 links changed medium (512 twin-port SR8 + fibre -> LACC),
-$180,000 and -7.70 kW typical optics; its links average 4.1 m (was 7.7 m)."

The shares of separate groups need not add up exactly to the whole gain: two moves can share a
cage or a trunk, whose price follows the pair. The report gives the whole delta beside them.

A move whose own cost and optics power are not a gain says why it was kept: putting it back
breaks a hard limit (the limit's own sentence, e.g. "tray T7 would fill to 41% (limit 40 %)"),
or it buys the weighted objective through another term (failures, cable metres).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from model.design.design import Design
from model.design.rack_clashes import rack_clashes
from model.design.rack_role import rack_role
from model.engine.routed_links import RoutedLinks
from model.optimise.moves import Position, move_groups, plan_sizes
from model.optimise.objective import Priced, Pricer

ROLE_WORDS = {"gpu-server": "Compute", "nvlink-switch": "NVLink switch", "patch-panel": "Patch"}


@dataclass(frozen=True)
class MoveWhy:
    """One moved group (a rack, or racks that took each other's places) and what it bought."""

    racks: tuple[str, ...]
    names: tuple[str, ...]
    role: str
    moved_m: float
    flips: tuple[tuple[str, str, int], ...]  # (medium before, medium after, links)
    cost_usd: float
    optics_power_w: float
    mean_link_m_before: float
    mean_link_m_after: float
    sentence: str
    kept_because: str = ""  # why a move that is no gain in cost or power stays ("" otherwise)

    def to_json(self) -> dict:
        return {
            "racks": list(self.racks),
            "names": list(self.names),
            "role": self.role,
            "moved_m": round(self.moved_m, 3),
            "media_flipped": [{"from": a, "to": b, "links": n} for a, b, n in self.flips],
            "cost_usd_delta": self.cost_usd,
            "optics_power_w_delta": self.optics_power_w,
            "mean_link_m": {"before": self.mean_link_m_before, "after": self.mean_link_m_after},
            "sentence": self.sentence,
            "kept_because": self.kept_because,
        }


def explain_moves(
    design: Design,
    plant: RoutedLinks,
    pricer: Pricer,
    final: Priced,
    start: dict[str, Position],
    target: dict[str, Position],
    weights: dict[str, float] | None = None,
) -> list[MoveWhy]:
    """One :class:`MoveWhy` per moved group; ``design`` and ``plant`` stand in the optimised
    state (``final``) and are left there; ``weights``: the run's, to say what a move that
    is no gain in cost or power buys."""
    groups = move_groups(start, target, plan_sizes(design, target))
    if any(_blocked(design, g, start) for g in groups):
        groups = [sorted(target)]  # some group's start is taken by another: explain them together
    media = [m.name for m in plant.media]
    out = []
    for group in groups:
        design.move_racks({r: start[r] for r in group})
        changed = plant.refresh()
        reverted = pricer.price(changed)
        broken = pricer.broken(reverted, group, changed)
        rows = _rows_of(design, plant, group)
        lengths_before = _mean_m(plant, rows)
        design.move_racks({r: target[r] for r in group})
        pricer.price(plant.refresh())  # the pricer's caches follow the state back
        lengths_after = _mean_m(plant, rows)
        flips = _flips(reverted.medium_index, final.medium_index, rows, media)
        why = _why(
            design,
            group,
            start,
            target,
            flips,
            final.terms["cost_usd"] - reverted.terms["cost_usd"],
            final.terms["optics_power_w"] - reverted.terms["optics_power_w"],
            (lengths_before, lengths_after),
        )
        kept = _kept_because(pricer, final, reverted, broken, weights)
        if kept and (why.cost_usd > 0 or why.optics_power_w > 0):
            why = replace(why, kept_because=kept, sentence=f"{why.sentence[:-1]}; kept: {kept}.")
        out.append(why)
    return out


def _kept_because(pricer, final: Priced, reverted: Priced, broken, weights) -> str:
    """Why a move stays though its own cost or power is no gain: the hard limit its put-back
    breaks, else the objective terms it buys (the largest share of its weighted gain first)."""
    if broken is not None:
        return f"putting it back breaks a hard limit ({broken})"
    if weights is None:
        return ""
    gains = {t: weights[t] * (reverted.terms[t] - final.terms[t]) / pricer.norm[t] for t in weights}
    bought = [t for t, g in sorted(gains.items(), key=lambda kv: -kv[1]) if g > 0]
    if not bought:
        return ""
    total = sum(gains.values())
    words = {
        "failures_per_day": lambda d: f"{d:+.4f} failures/day",
        "cable_m": lambda d: f"{d:+,.0f} m of cable",
        "cost_usd": lambda d: f"{_money(d)}",
        "optics_power_w": lambda d: f"{d / 1000:+.2f} kW typical optics",
        "optics_power_w_max": lambda d: f"{d / 1000:+.2f} kW optics at most",
    }
    said = ", ".join(words[t](final.terms[t] - reverted.terms[t]) for t in bought[:2])
    return f"it buys {said} (weighted objective {-total:+.5f})"


def _blocked(design: Design, group: list[str], start: dict[str, Position]) -> bool:
    racks = design.racks
    prints = {
        r: (start[r][0], start[r][1], racks[r].width_m, racks[r].depth_m, racks[r].rotation)
        for r in group
    }
    return bool(rack_clashes(design, prints, only=group))


def _rows_of(design: Design, plant: RoutedLinks, group: list[str]) -> np.ndarray:
    return np.array(
        sorted(plant.index[lid] for lid in design.links_of_racks(group) if lid in plant.index),
        dtype=np.int64,
    )


def _mean_m(plant: RoutedLinks, rows: np.ndarray) -> float:
    if not len(rows):
        return 0.0
    values = np.asarray(plant.ordered_m, dtype=float)[rows]
    values = values[np.isfinite(values)]
    return float(values.mean()) if len(values) else math.nan


def _flips(before, after, rows, media: list[str]) -> tuple[tuple[str, str, int], ...]:
    counts: Counter[tuple[str, str]] = Counter()
    for row in rows.tolist():
        a, b = int(before[row]), int(after[row])
        if a != b:
            counts[(media[a] if a >= 0 else "no medium", media[b] if b >= 0 else "no medium")] += 1
    return tuple((a, b, n) for (a, b), n in sorted(counts.items(), key=lambda kv: -kv[1]))


def _why(design, group, start, target, flips, cost, power, lengths) -> MoveWhy:
    names = tuple(design.racks[r].name for r in group)
    roles = [design.devices[d].role for d in design.devices if design.devices[d].rack in group]
    role = rack_role(roles) or "empty"
    moved = max(math.hypot(target[r][0] - start[r][0], target[r][1] - start[r][1]) for r in group)
    who = (
        f"{role.capitalize()} rack {names[0]}"
        if len(names) == 1
        else (f"Racks {', '.join(names)} (moved together: each took another's place)")
    )
    n = sum(f[2] for f in flips)
    if flips:
        listed = "; ".join(f"{k} {a} -> {b}" for a, b, k in flips[:3])
        more = f"; {len(flips) - 3} more kinds" if len(flips) > 3 else ""
        media = f"{n} links changed medium ({listed}{more})"
    else:
        media = "no link changed medium"
    before_m, after_m = lengths
    sentence = (
        f"{who} moved {moved:.1f} m: {media}, {_money(cost)} and {power / 1000:+.2f} kW"
        f" typical optics; its links average {after_m:.1f} m (was {before_m:.1f} m)."
    )
    return MoveWhy(
        tuple(group), names, role, moved, flips, cost, power, before_m, after_m, sentence
    )


def _money(usd: float) -> str:
    sign = "-" if usd < 0 else "+"
    return f"{sign}${abs(usd):,.0f}"
