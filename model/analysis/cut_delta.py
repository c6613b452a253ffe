"""A failure case's figure of a pair of halves from the intact fabric's, changed only where it
failed (``whatif --n-1``: every case evaluates the same candidate halves again).

Both evaluations :class:`min_cut.MinCut` uses past max flow are sums over groups and links:

* the **tier computation** (:func:`bisection.tier_bisection`) matches, level by level, what
  each group's two halves can exchange inside it and pushes the rest up, capped by the group's
  uplinks. A failure that splits no group changes the uplinks of the switches it touched, so
  only the pushes of their groups, and of the groups above those whose push then changes, are
  recomputed; every other group's match is reused (:func:`tier_after`);
* the **group-aligned cuts** (:func:`min_cut._group_cut`) are side assignments of the devices;
  when the failure moves no server link and splits no group every assignment stays, and a cut
  loses exactly the capacity of the failed links that cross it (:func:`group_after`).

Both hold only when each level's groups are the intact fabric's on every device that did not
fail (whatever their labels), no server failed (the same halves), for the cuts no server link
failed either (a group's lean would change; the tier computation recomputes the supply of the
leaves a failure touched), and the capacities are whole
Gb/s whose sums stay below 2^53: the sums are then exact in any order, so the figure is bit
for bit the fresh computation's (the n-1 JSON does not change). Otherwise the caller computes
afresh.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.analysis.bisection import halves_and_links
from model.analysis.topology import LINK_COMPUTE, Topology
from model.common.arrays import unique_sorted

EXACT_SUM = 2.0**52  # float sums of whole numbers below this are exact in any order


@dataclass
class TierLevel:
    label: np.ndarray  # the level's switch groups
    pos: np.ndarray  # per group: what its units push from the first half
    neg: np.ndarray  # ... from the second half
    gids: np.ndarray  # the groups holding units
    group_up: np.ndarray  # per group: its level's switches' uplink capacity
    push: np.ndarray  # per group: what it pushes to the level above


@dataclass
class TierState:
    """The tier computation of one pair of halves, kept group by group."""

    side: np.ndarray  # per device: 1 first half, -1 second, 0 not a server
    sa: np.ndarray
    sb: np.ndarray
    push: np.ndarray  # per leaf
    matched: list[float]  # per level, from level 1
    levels: list[TierLevel]

    @property
    def value(self) -> float:
        total = 0.0
        for m in self.matched:
            total += m
        return total


def exact_sums(topo: Topology) -> bool:
    """Whether every compute capacity is a whole number of Gb/s and their sum below 2^52."""
    cap = topo.capacity[topo.kind == LINK_COMPUTE]
    return bool(np.all(cap == np.round(cap)) and float(cap.sum()) < EXACT_SUM)


def tier_state(topo: Topology, half_a, half_b, groups: dict[int, np.ndarray]) -> TierState:
    """:func:`bisection.tier_bisection` of these halves, its groups' figures kept."""
    n, side, (a, b, cap, la, lb) = halves_and_links(topo, half_a, half_b)
    sa, sb = _supply(n, side, a, b, cap, la, lb)
    push = np.clip(sa - sb, -topo.up_gbps, topo.up_gbps)
    state = TierState(side, sa, sb, push, [float(np.minimum(sa, sb).sum())], [])
    node_of = np.arange(n)
    for level in range(2, topo.top_level() + 1):
        label = groups[level]
        members = (topo.level >= 1) & (topo.level <= level)
        prev = np.flatnonzero((topo.level >= 1) & (topo.level <= level - 1))
        units = unique_sorted(node_of[prev])
        unit_group = label[units]
        pos, neg = np.zeros(n), np.zeros(n)
        np.add.at(pos, unit_group, np.maximum(push[units], 0))
        np.add.at(neg, unit_group, np.maximum(-push[units], 0))
        gids = unique_sorted(unit_group)
        state.matched.append(float(np.minimum(pos[gids], neg[gids]).sum()))
        upper = np.flatnonzero(topo.level == level)
        group_up = np.zeros(n)
        np.add.at(group_up, label[upper], topo.up_gbps[upper])
        push = np.zeros(n)
        push[gids] = np.clip((pos - neg)[gids], -group_up[gids], group_up[gids])
        state.levels.append(TierLevel(label, pos, neg, gids, group_up, push))
        node_of = np.where(members, label, node_of)
    return state


def _supply(n: int, side, a, b, cap, la, lb) -> tuple[np.ndarray, np.ndarray]:
    """Per leaf, the capacity of its links to servers of the first half and of the second."""
    sa, sb = np.zeros(n), np.zeros(n)
    for srv, leaf, c in (
        (a[(la == 0) & (lb == 1)], b[(la == 0) & (lb == 1)], cap[(la == 0) & (lb == 1)]),
        (b[(lb == 0) & (la == 1)], a[(lb == 0) & (la == 1)], cap[(lb == 0) & (la == 1)]),
    ):
        s = side[srv]
        np.add.at(sa, leaf[s == 1], c[s == 1])
        np.add.at(sb, leaf[s == -1], c[s == -1])
    return sa, sb


def tier_after(
    state: TierState, before: Topology, after: Topology, touched: np.ndarray, dead_rows
) -> float:
    """The tier figure of the same halves on ``after`` (module docstring's conditions hold, a
    failed server link allowed): the touched leaves lose the supply of their failed server
    links (``dead_rows``, rows of ``before``), the touched switches' uplinks change, and with
    them the pushes of their groups only."""
    up_old, up_new = before.up_gbps, after.up_gbps
    touched = unique_sorted(touched)
    leaves = touched[before.level[touched] == 1]
    n = len(before.device_ids)
    rows = dead_rows[before.kind[dead_rows] == LINK_COMPUTE]
    a, b, cap = before.a[rows], before.b[rows], before.capacity[rows]
    la, lb = before.level[a], before.level[b]
    sa, sb = state.sa[leaves], state.sb[leaves]
    if ((la == 0) | (lb == 0)).any():  # server links failed: their leaves lose that supply
        lost_a, lost_b = _supply(n, state.side, a, b, cap, la, lb)
        sa, sb = sa - lost_a[leaves], sb - lost_b[leaves]
    new = np.clip(sa - sb, -up_new[leaves], up_new[leaves])
    moved = new != state.push[leaves]
    units, old_push, new_push = leaves[moved], state.push[leaves][moved], new[moved]
    was = np.minimum(state.sa[leaves], state.sb[leaves]).sum()
    total = state.matched[0] + float(np.minimum(sa, sb).sum() - was)
    for k, lv in enumerate(state.levels, start=2):
        upper = touched[before.level[touched] == k]
        dirty = unique_sorted(np.concatenate([lv.label[units], lv.label[upper]]))
        dirty = dirty[np.isin(dirty, lv.gids)]
        if not len(dirty):
            total += state.matched[k - 1]
            units = units[:0]
            continue
        pos, neg = lv.pos[dirty].copy(), lv.neg[dirty].copy()
        where = np.searchsorted(dirty, lv.label[units])
        ok = (where < len(dirty)) & (dirty[np.minimum(where, len(dirty) - 1)] == lv.label[units])
        np.add.at(pos, where[ok], np.maximum(new_push[ok], 0) - np.maximum(old_push[ok], 0))
        np.add.at(neg, where[ok], np.maximum(-new_push[ok], 0) - np.maximum(-old_push[ok], 0))
        group_up = lv.group_up[dirty].copy()
        up_at = np.searchsorted(dirty, lv.label[upper])
        hit = (up_at < len(dirty)) & (dirty[np.minimum(up_at, len(dirty) - 1)] == lv.label[upper])
        np.add.at(group_up, up_at[hit], up_new[upper][hit] - up_old[upper][hit])
        was = np.minimum(lv.pos[dirty], lv.neg[dirty]).sum()
        total += state.matched[k - 1] + float(np.minimum(pos, neg).sum() - was)
        pushed = np.clip(pos - neg, -group_up, group_up)
        moved = pushed != lv.push[dirty]
        units, old_push, new_push = dirty[moved], lv.push[dirty][moved], pushed[moved]
    return total


def group_after(options: list[tuple[float, np.ndarray]], before: Topology, dead_rows) -> float:
    """The cheapest group-aligned cut of the same halves once the links ``dead_rows`` (rows of
    ``before``) are gone: each option's side assignment stands and loses the dead links across
    it; the first cheapest, as :func:`min_cut._group_cut` takes it."""
    rows = dead_rows[before.kind[dead_rows] == LINK_COMPUTE]
    a, b, cap = before.a[rows], before.b[rows], before.capacity[rows]
    best = np.inf
    for value, side in options:
        lost = float(cap[side[a] != side[b]].sum())
        if value - lost < best:
            best = value - lost
    return best


def same_groups(before: dict[int, np.ndarray], after: dict[int, np.ndarray], alive) -> bool:
    """Whether every level's groups are the same on the devices that did not fail (the labels
    may differ: a group that lost its smallest member is named after the next)."""
    for level, label in before.items():
        if level not in after:
            return False
        old, new = label[alive], after[level][alive]
        if not np.array_equal(old < 0, new < 0):
            return False
        old, new = old[old >= 0], new[new >= 0]
        pairs = np.unique(old.astype(np.int64) * (len(label) + 1) + new)
        if not len(pairs) == len(np.unique(old)) == len(np.unique(new)):
            return False
    return True
