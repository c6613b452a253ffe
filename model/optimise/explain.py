"""Why each moved rack moved: its own share of the optimiser's gain, in sentences that add up.

The rack moves' whole delta (cost, optics power) is split by measurement, not apportioned, so
that the sentences sum to it exactly (within float rounding):

- each moved group (a rack, or racks that took each other's places, which can only move
  together) gets what its move alone buys: from the start, only it is moved and the plant
  re-priced;
- each pair of groups that share links gets what the two buy only together (both moved, less
  each alone, plus neither): a spine-core link that flips only when both ends move is counted
  there once, not in both racks' sentences, and a link either move alone would flip is not
  counted twice;
- whatever is left (cages and trunks three or more moves share) is one sentence of its own,
  given only when it is not nil.

Each changed link is named in one sentence: the group it ends in, else the one of its two
groups whose move alone gives it its final medium, else their pair. A rack's sentence names
the rack, how far it moved, which media its links flipped between and how many, the cost and
optics-power delta and the mean length of its links before and after, e.g.
"Spine rack SP01 moved 3.6 m: 512 links changed medium (512 twin-port SR8 + fibre -> LACC),
-$180,000 and -7.70 kW typical optics; its links average 4.1 m (was 7.7 m)."

A move whose own cost and optics power are not a gain says why it was kept: putting it back
(from the optimised design) breaks a hard limit (the limit's own sentence, e.g. "tray T7 would
fill to 41% (limit 40 %)"), or it buys the weighted objective through another term (failures,
cable metres).
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
from model.optimise.moves import MOVABLE_ROLES, Position, move_groups, plan_sizes
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
    kind: str = "rack"  # "rack" (a group's move alone), "pair" (two only together), "shared"

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
            "kind": self.kind,
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
    """One :class:`MoveWhy` per moved group (``kind`` "rack"), then one per pair of groups that
    buy something only together ("pair") and the rest ("shared"), whose cost and power deltas
    sum to ``final`` less the design with every rack at ``start``. ``design`` and ``plant``
    stand in the optimised state (``final``) and are left there; ``weights``: the run's, to
    say what a move that is no gain in cost or power buys."""
    groups = move_groups(start, target, plan_sizes(design, target))
    if any(_blocked(design, g, start) for g in groups):
        groups = [sorted(target)]  # some group's start is taken by another: explain them together
    states = _States(design, plant, pricer, groups, start, target)
    base = states.price(())
    alone = [states.price((i,)) for i in range(len(groups))]
    group_of = {r: i for i, g in enumerate(groups) for r in g}
    ends = _link_groups(design, plant, group_of)
    both = {}
    for pair in sorted({p for p in ends.values() if len(p) == 2}):
        both[pair] = states.price(pair)
    states.price(tuple(range(len(groups))))  # back to the optimised state, caches with it
    owner = _owners(base.medium_index, final.medium_index, alone, ends)
    media = [m.name for m in plant.media]
    ordered_before, ordered_after = states.ordered_m_start, np.asarray(plant.ordered_m, float)
    out = []
    for i, group in enumerate(groups):
        rows = _rows_of(design, plant, group)
        delta = _delta(alone[i], base)
        why = _why(
            design,
            group,
            start,
            target,
            _flips(base.medium_index, final.medium_index, _owned(owner, (i,)), media),
            *delta,
            (_mean_m(ordered_before, rows), _mean_m(ordered_after, rows)),
        )
        # What putting it back now would change, the other moves made: a move kept that is
        # no gain there says why (its own share, from the start, may still be a gain).
        back_usd, back_w, kept = _put_back(
            design, plant, pricer, final, group, start, target, weights
        )
        if kept and (back_usd < 0 or back_w < 0):
            said = f"{_money(back_usd)} and {back_w / 1000:+.2f} kW"
            sentence = f"{why.sentence[:-1]}; putting it back now would change {said}, but"
            why = replace(why, kept_because=kept, sentence=f"{sentence} it is kept: {kept}.")
        out.append(why)
    joint = _Joint(design, groups, media, base, final, (ordered_before, ordered_after))
    return out + joint.entries(alone, both, owner, ends, sum(w.cost_usd for w in out),
                               sum(w.optics_power_w for w in out))  # fmt: skip


class _Joint:
    """The pairs' and the rest's sentences: what the moves buy only together."""

    def __init__(self, design, groups, media, base: Priced, final: Priced, ordered) -> None:
        self.design, self.groups, self.media = design, groups, media
        self.base, self.final, self.ordered = base, final, ordered

    def _entry(self, make, rows: np.ndarray, *args) -> MoveWhy:
        flips = _flips(self.base.medium_index, self.final.medium_index, rows, self.media)
        lengths = (_mean_m(self.ordered[0], rows), _mean_m(self.ordered[1], rows))
        return make(self.design, *args[:-2], flips, *args[-2:], lengths)

    def entries(self, alone, both, owner, ends, cost_usd: float, power_w: float) -> list:
        """Each pair that buys something only together, then the rest of the whole delta
        (``cost_usd``, ``power_w``: what the groups' own sentences already say)."""
        base, final, out = self.base, self.final, []
        for (i, j), priced in both.items():
            whole, one, other = _delta(priced, base), _delta(alone[i], base), _delta(alone[j], base)
            cost, power = whole[0] - one[0] - other[0], whole[1] - one[1] - other[1]
            rows = _owned(owner, (i, j))
            twice = _counted_once(base.medium_index, final.medium_index, alone[i], alone[j],
                                  ends, (i, j))  # fmt: skip
            if rows.size or twice or abs(cost) >= 0.005 or abs(power) >= 0.0005:
                g, h = self.groups[i], self.groups[j]
                out.append(self._entry(_together, rows, g, h, twice, cost, power))
                cost_usd, power_w = cost_usd + cost, power_w + power
        total = _delta(final, base)
        cost, power = total[0] - cost_usd, total[1] - power_w
        rows = _owned(owner, ())
        if rows.size or abs(cost) >= 0.005 or abs(power) >= 0.0005:
            moved = sorted(r for g in self.groups for r in g)
            out.append(self._entry(_shared, rows, moved, len(self.groups), cost, power))
        return out


class _States:
    """Puts the moved groups named (by index) at their targets and the others at their starts
    and prices the plant there; each call moves only the racks that differ from the last."""

    def __init__(self, design, plant, pricer, groups, start, target) -> None:
        self.design, self.plant, self.pricer = design, plant, pricer
        self.groups, self.start, self.target = groups, start, target
        self.at = dict(target)  # where each moved rack stands now
        self.ordered_m_start = np.zeros(0)  # ordered metres per plant row, every rack at start

    def price(self, moved: tuple[int, ...]) -> Priced:
        chosen = {r for i in moved for r in self.groups[i]}
        wanted = {r: (self.target[r] if r in chosen else self.start[r]) for r in self.target}
        self.design.move_racks({r: p for r, p in wanted.items() if self.at[r] != p})
        self.at = wanted
        priced = self.pricer.price(self.plant.refresh())
        if not moved:
            self.ordered_m_start = np.asarray(self.plant.ordered_m, dtype=float).copy()
        return priced


def _delta(priced: Priced, base: Priced) -> tuple[float, float]:
    terms, was = priced.terms, base.terms
    return (
        terms["cost_usd"] - was["cost_usd"],
        terms["optics_power_w"] - was["optics_power_w"],
    )


def _link_groups(design, plant, group_of: dict[str, int]) -> dict[int, tuple[int, ...]]:
    """Per plant row of a link that ends in a moved rack: the moved groups it ends in."""
    racks = {d: dev.rack for d, dev in design.devices.items()}
    out = {}
    for lid in design.links_of_racks(sorted(group_of)):
        row = plant.index.get(lid)
        link = design.links.get(lid)
        if row is None or link is None:
            continue
        ends = {group_of.get(racks[link.a.device]), group_of.get(racks[link.b.device])}
        out[row] = tuple(sorted(g for g in ends if g is not None))
    return out


def _owners(before, after, alone, ends) -> dict[int, tuple[int, ...]]:
    """Per changed plant row, the sentence it is named in: its one group, else the one of its
    two groups whose move alone gives it its final medium, else the pair (() for the rest)."""
    out = {}
    for row in np.flatnonzero(before != after).tolist():
        groups = ends.get(row, ())
        if len(groups) == 2:
            alone_gives = [g for g in groups if alone[g].medium_index[row] == after[row]]
            groups = (alone_gives[0],) if alone_gives else groups
        out[row] = groups
    return out


def _owned(owner: dict[int, tuple[int, ...]], key: tuple[int, ...]) -> np.ndarray:
    return np.array(sorted(r for r, k in owner.items() if k == key), dtype=np.int64)


def _counted_once(before, after, one: Priced, other: Priced, ends, pair) -> int:
    """Links between the pair's groups that either move alone flips to its final medium: each
    move's own sentence counts their saving, the pair's takes the second one back."""
    rows = [r for r, g in ends.items() if g == pair and before[r] != after[r]]
    return sum(
        1 for r in rows if one.medium_index[r] == after[r] and other.medium_index[r] == after[r]
    )


def _put_back(design, plant, pricer, final, group, start, target, weights):
    """The optimised design with ``group`` put back: (cost, typical optics power delta from
    ``final``, why the move is kept though putting it back is cheaper or cooler)."""
    design.move_racks({r: start[r] for r in group})
    changed = plant.refresh()
    reverted = pricer.price(changed)
    broken = pricer.broken(reverted, group, changed)
    design.move_racks({r: target[r] for r in group})
    pricer.price(plant.refresh())  # the pricer's caches follow the state back
    cost, power = _delta(reverted, final)
    if cost >= 0 and power >= 0:
        return cost, power, ""
    return cost, power, _kept_because(pricer, final, reverted, broken, weights)


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


def _mean_m(ordered_m: np.ndarray, rows: np.ndarray) -> float:
    if not len(rows):
        return 0.0
    values = ordered_m[rows]
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
    # The group's role is its network rack's (a leaf that slid past its servers is a leaf
    # move); ``moved`` the farthest any of its racks went, each rack's own distance said.
    placed = [r for r in group if _role(design, [r]) in MOVABLE_ROLES]
    role = _role(design, placed or group)
    each = {r: math.hypot(target[r][0] - start[r][0], target[r][1] - start[r][1]) for r in group}
    moved = max(each.values())
    who = _label(design, group, each, _traded(group, start, target))
    before_m, after_m = lengths
    went = f" moved {moved:.1f} m" if len(group) == 1 else ""
    sentence = (
        f"{who[0].upper()}{who[1:]}{went}: {_media(flips, '')}, {_money(cost)}"
        f" and {power / 1000:+.2f} kW typical optics;"
        f" its links average {after_m:.1f} m (was {before_m:.1f} m)."
    )
    return MoveWhy(
        tuple(group), names, role, moved, flips, cost, power, before_m, after_m, sentence
    )


def _together(design, one, other, twice: int, flips, cost, power, lengths) -> MoveWhy:
    """The sentence of what two groups that share links buy only together."""
    racks = tuple(one) + tuple(other)
    once = f"; {twice} links either move alone flips are counted once" if twice else ""
    sentence = (
        f"{_label(design, one)[0].upper()}{_label(design, one)[1:]} and"
        f" {_label(design, other)} moved together:"
        f" {_media(flips, ' only because both ends moved')}{once}, {_money(cost)} and"
        f" {power / 1000:+.2f} kW typical optics (beyond what each move buys alone)."
    )
    return _joint(design, racks, "pair", flips, (cost, power), lengths, sentence)


def _shared(design, racks, groups: int, flips, cost, power, lengths) -> MoveWhy:
    """The sentence of what the moves buy only all together (the rest of the whole delta)."""
    sentence = (
        f"The {groups} moves together: {_media(flips, ' only with three or more moves')},"
        f" {_money(cost)} and {power / 1000:+.2f} kW typical optics"
        " (what no move or pair buys alone: cages and trunks they share)."
    )
    return _joint(design, tuple(racks), "shared", flips, (cost, power), lengths, sentence)


def _joint(design, racks, kind, flips, delta, lengths, sentence) -> MoveWhy:
    """A pair's or the rest's entry: its mean link lengths are those of the links it names."""
    names = tuple(design.racks[r].name for r in racks)
    (cost, power), (before_m, after_m) = delta, lengths
    return MoveWhy(
        racks, names, kind, 0.0, flips, cost, power, before_m, after_m, sentence, kind=kind
    )


def _role(design, group) -> str:
    roles = [design.devices[d].role for d in design.devices if design.devices[d].rack in group]
    return rack_role(roles) or "empty"


def _label(design, group, moved_m: dict | None = None, traded: bool = True) -> str:
    """'spine rack E21', or 'racks A (leaf, 2.4 m), B (compute, 1.2 m) (each took another's
    place)': each rack's role said, so a leaf that slid past one of its server racks reads as
    such, and (``moved_m``) how far each went; "each took another's place" only when every
    rack of the group stands where another of it stood (``traded``)."""
    names = [design.racks[r].name for r in group]
    if len(names) == 1:
        return f"{_role_word(design, group[0])} rack {names[0]}"
    roles = [
        f"{n} ({_role_word(design, r)}" + (f", {moved_m[r]:.1f} m)" if moved_m is not None else ")")
        for n, r in zip(names, group, strict=True)
    ]
    return f"racks {', '.join(roles)}" + (" (each took another's place)" if traded else "")


def _traded(group, start, target) -> bool:
    """Every rack of ``group`` ends where another rack of it started."""
    starts = {start[r] for r in group}
    return all(target[r] in starts and target[r] != start[r] for r in group)


def _role_word(design, rack_id: str) -> str:
    role = _role(design, [rack_id])
    word = ROLE_WORDS.get(role, role)
    # "compute", "patch"; a name (NVLink) keeps its capitals; other roles read as they are
    return word.lower() if role in ROLE_WORDS and word[1:2].islower() else word


def _media(flips, why: str) -> str:
    if not flips:
        return "no link changed medium"
    n = sum(f[2] for f in flips)
    listed = "; ".join(f"{k} {a} -> {b}" for a, b, k in flips[:3])
    more = f"; {len(flips) - 3} more kinds" if len(flips) > 3 else ""
    return f"{n} links changed medium{why} ({listed}{more})"


def _money(usd: float) -> str:
    sign = "-" if usd < 0 else "+"
    return f"{sign}${abs(usd):,.0f}"
