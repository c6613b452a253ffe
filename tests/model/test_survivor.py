"""The masked survivor of a failure equals the fresh surviving topology, field for field."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from model.analysis.survivor import SurvivorBase, kept_list
from model.analysis.topology import infer_topology
from model.analysis.whatif import WhatIf, surviving
from model.files.design_file import load_design
from model.generators.generate import rail_optimized

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def _same(x: object, y: object) -> bool:
    if isinstance(x, np.ndarray):
        return isinstance(y, np.ndarray) and x.dtype == y.dtype and np.array_equal(x, y)
    return x == y


def test_kept_list_drops_exactly_the_dead_rows():
    values = list("abcdefgh")
    assert kept_list(values, np.array([], dtype=np.int64)) == values
    assert kept_list(values, np.array([0, 3, 4, 7])) == list("bcfg")
    assert kept_list(values, np.arange(8)) == []


@pytest.mark.parametrize("which", ["4su", "2su-2to1"])
def test_masked_survivor_equals_the_fresh_one(which):
    """Every device and rack of a class of n-1 plus a few links, together and alone: the
    arrays (values and dtypes) and the id lists are the fresh computation's."""
    if which == "4su":
        design = load_design(EXAMPLES / "superpod-4su.hall.json")
    else:
        design = rail_optimized(
            nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=2
        )
    topo = infer_topology(design)
    whatif = WhatIf(design, topo=topo)
    base = SurvivorBase(topo)
    spine = topo.device_ids[int(np.flatnonzero(topo.level == topo.top_level())[0])]
    leaf = topo.device_ids[int(np.flatnonzero(topo.level == 1)[0])]
    server = topo.device_ids[int(np.flatnonzero(topo.is_gpu_server)[0])]
    rack = design.devices[spine].rack
    cases = [[spine], [leaf], [server], [rack], topo.link_ids[:3], [spine, leaf, topo.link_ids[-1]]]
    for ids in cases:
        failed = whatif.resolve(ids)
        fresh = surviving(topo, failed)
        masked = base.survivor(failed.devices, failed.links)
        for f in dataclasses.fields(fresh):
            assert _same(getattr(fresh, f.name), getattr(masked, f.name)), (ids, f.name)


def test_components_after_equal_fresh_components_on_random_graphs():
    """Random graphs less random devices and edges: recomputing only the touched base
    components gives the fresh labels (each component's smallest index)."""
    from model.analysis.topology import components, components_after

    rng = np.random.default_rng(37)
    for _ in range(300):
        n, e = int(rng.integers(2, 60)), int(rng.integers(0, 90))
        a, b = rng.integers(0, n, e), rng.integers(0, n, e)
        members = rng.random(n) < 0.9
        base = components(n, a, b, members)
        dead_dev = rng.random(n) < 0.05
        dead_edge = rng.random(e) < 0.1
        after_members = members & ~dead_dev
        keep = ~dead_edge & ~dead_dev[a] & ~dead_dev[b]
        touched = np.concatenate([np.flatnonzero(dead_dev), a[~keep], b[~keep]])
        fresh = components(n, a[keep], b[keep], after_members)
        got = components_after(n, a[keep], b[keep], after_members, base, touched)
        assert np.array_equal(fresh, got)


@pytest.mark.parametrize("what", ["spines' rack", "spine", "leaf"])
def test_islands_and_groups_of_a_case_equal_fresh_ones(what):
    """WhatIf's incremental islands and min-cut groups of the 4-SU example equal a fresh
    computation on the surviving topology (the spines' rack makes four islands)."""
    from model.analysis.islands import islands
    from model.analysis.min_cut import MinCut

    design = load_design(EXAMPLES / "superpod-4su.hall.json")
    whatif = WhatIf(design)
    topo = whatif.topo
    spine = topo.device_ids[int(np.flatnonzero(topo.level == topo.top_level())[0])]
    leaf = topo.device_ids[int(np.flatnonzero(topo.level == 1)[0])]
    ids = {"spines' rack": [design.devices[spine].rack], "spine": [spine], "leaf": [leaf]}[what]
    state = whatif.after_state(whatif.resolve(ids))
    fresh = islands(state.topo)
    assert what != "spines' rack" or fresh.count == 4
    assert np.array_equal(fresh.label, state.islands.label)
    assert np.array_equal(fresh.gpus, state.islands.gpus)
    alone = MinCut(state.topo)
    for level in range(1, state.topo.top_level() + 1):
        assert np.array_equal(alone.groups(level), state.min_cut.groups(level))
    for level, label in alone.switch_groups().items():
        assert np.array_equal(label, state.min_cut.switch_groups()[level])


@pytest.mark.parametrize("ratio", [1, 2])
def test_regularity_of_a_survivor_equals_a_fresh_test(ratio):
    """The survivor's regularity re-tests only the switches a failure touched: equal to
    bisection.is_regular on every case, including a lost leaf-spine link that leaves its leaf
    sending unequal capacity to its spines (irregular) and a lost spine (still regular)."""
    from model.analysis.bisection import is_regular
    from model.analysis.topology import LINK_COMPUTE

    design = rail_optimized(
        nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=ratio
    )
    whatif = WhatIf(design)
    topo = whatif.topo
    up = np.flatnonzero(
        (topo.kind == LINK_COMPUTE) & (np.minimum(topo.level[topo.a], topo.level[topo.b]) >= 1)
    )
    spine = topo.device_ids[int(np.flatnonzero(topo.level == topo.top_level())[0])]
    leaf = topo.device_ids[int(np.flatnonzero(topo.level == 1)[0])]
    cases = [[spine], [leaf], [topo.link_ids[0]], *([topo.link_ids[r]] for r in up[:6].tolist())]
    seen = set()
    for ids in cases:
        state = whatif.after_state(whatif.resolve(ids))
        fresh = is_regular(state.topo)
        assert state.min_cut.regular() == fresh, ids
        seen.add(fresh)
    assert seen == {True, False}  # both outcomes are exercised
