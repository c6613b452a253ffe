"""``whatif --n-1`` reuses the intact fabric's figure of each candidate pair of halves, changed
only where the failure touched it (model/analysis/cut_delta.py), and says exactly what a fresh
evaluation says: the JSON is byte for byte the same. The designs are small, so the MinCut is
told to use its large-fabric evaluations (the tier computation; group-aligned cuts once a lost
link makes the fabric irregular) instead of max flow, which is what an L or XL hall uses."""

from __future__ import annotations

import json

import numpy as np
import pytest

from model.analysis import cut_delta
from model.analysis.min_cut import MinCut
from model.analysis.n_minus_one import n_minus_one
from model.analysis.report import _clean
from model.analysis.topology import infer_topology
from model.analysis.whatif import WhatIf
from model.generators.generate import fat_tree, rail_optimized


def _n_minus_one(design, incremental: bool) -> tuple[str, MinCut]:
    topo = infer_topology(design)
    cuts = MinCut(topo, flow_links=0, incremental=incremental)
    whatif = WhatIf(design, topo=topo, min_cut=cuts)
    return json.dumps(_clean(n_minus_one(whatif)), indent=2), cuts


@pytest.mark.parametrize(
    "build",
    [
        lambda: rail_optimized(
            nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=2
        ),
        lambda: rail_optimized(
            nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers=3
        ),
        lambda: fat_tree(k=8),
    ],
    ids=["two-su-2to1", "three-tier-4su", "fat-tree-k8"],
)
def test_incremental_n_minus_one_json_is_the_fresh_one(build):
    design = build()
    fresh, _ = _n_minus_one(design, incremental=False)
    reused, cuts = _n_minus_one(design, incremental=True)
    assert reused == fresh
    assert cuts._tier_states  # the intact fabric's figures were reused, not recomputed


def test_a_lost_link_reuses_the_group_aligned_cuts():
    """A lost leaf-spine link makes the 3-tier hall irregular: its survivor is evaluated by the
    group-aligned cuts, each the intact cut less the failed link's capacity where it crosses."""
    design = rail_optimized(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers=3)
    _, cuts = _n_minus_one(design, incremental=True)
    assert cuts._group_states


def test_same_groups_compares_partitions_not_labels():
    """A group that lost its smallest member is named after the next: still the same groups."""
    before = {2: np.array([0, 0, 0, 3, 3, -1])}
    alive = np.array([False, True, True, True, True, True])
    renamed = {2: np.array([0, 1, 1, 3, 3, -1])}
    split = {2: np.array([0, 1, 2, 3, 3, -1])}
    assert cut_delta.same_groups(before, renamed, alive)
    assert not cut_delta.same_groups(before, split, alive)
    assert not cut_delta.same_groups(before, {}, alive)


def test_fractional_capacities_are_evaluated_afresh():
    """Sums of whole Gb/s are exact in any order; a fractional capacity is not, so a survivor
    is then evaluated afresh (its figure bit for bit a fresh computation's either way)."""
    design = rail_optimized(
        nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=2
    )
    topo = infer_topology(design)
    assert cut_delta.exact_sums(topo)
    topo.capacity[0] += 0.5
    assert not cut_delta.exact_sums(topo)


@pytest.mark.parametrize(
    "build",
    [
        lambda: rail_optimized(
            nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers=3
        ),
        lambda: rail_optimized(
            nodes=96, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=3
        ),
        lambda: fat_tree(k=8),
    ],
    ids=["three-tier-4su", "three-su-3to1", "fat-tree-k8"],
)
def test_random_failures_and_pairs_read_the_same_either_way(build):
    """Seeded random switches, links, a switch with a link, three links: what-if's figures
    with the reused evaluations equal the fresh ones, key for key."""
    import random

    design = build()
    topo = infer_topology(design)
    reused = WhatIf(design, topo=topo, min_cut=MinCut(topo, flow_links=0, incremental=True))
    fresh = WhatIf(design, topo=topo, min_cut=MinCut(topo, flow_links=0, incremental=False))
    rng = random.Random(37)
    switches = [d for d in design.devices if topo.level[topo.device_index[d]] >= 1]
    links = sorted(design.links)
    cases = [[rng.choice(switches)] for _ in range(6)] + [[rng.choice(links)] for _ in range(6)]
    cases += [[rng.choice(switches), rng.choice(links)] for _ in range(3)]
    cases += [rng.sample(links, 3) for _ in range(3)]
    for case in cases:
        a = json.dumps(_clean(reused.run(case, brief=True)), sort_keys=True)
        b = json.dumps(_clean(fresh.run(case, brief=True)), sort_keys=True)
        assert a == b, case
