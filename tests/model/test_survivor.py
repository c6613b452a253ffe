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
