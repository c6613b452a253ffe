"""A rack move keeps the cage graph, and the plant cache's kept count and per-element shares equal
a fresh count of the moved design after seeded random move sequences (S and an L-like hall)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from model.engine.cages import cage_view
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate, rail_optimized
from model.optimise.moves import network_racks, search_space
from model.plant.physical_plant import PlantCache, build_plant
from model.plant.plant_cache import _Shares
from model.plant.tally import cage_graph


def _halls():
    yield "S", generate("leaf-spine", nodes=16, node_type="dgx-h100", switch="qm9700")
    # L-like: the L workload's HGX nodes and SN5600 tiers, with a core tier (4 SUs of 16).
    yield (
        "L-like",
        rail_optimized(nodes=64, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=16, tiers=3),
    )


def _shares_by_element(shares: _Shares) -> tuple[list, list, list]:
    """The shares as keys per element (key numbering is the cache's own order of meeting)."""
    keys = [*shares.keys, None]
    return (
        [keys[k] for k in shares.cage.tolist()],
        [(keys[k], u if k >= 0 else 0) for k, u in zip(shares.row, shares.units, strict=True)],
        [keys[k] for k in shares.comp.tolist()],
    )


@pytest.mark.parametrize("name", ["S", "L-like"])
def test_kept_count_and_shares_equal_a_fresh_count_after_random_moves(name):
    design = dict(_halls())[name]
    movable = network_racks(design)
    free, partners = search_space(design, movable, set(), True, False)
    plant = RoutedLinks(design)
    cache = PlantCache()
    build_plant(plant, cache=cache)
    graph = cache._graph
    rng = random.Random(11)
    recounted = flipped = 0
    last = dict(cache._tally.counts)
    for _ in range(10):
        rack_id = rng.choice(movable)
        here = (design.racks[rack_id].x, design.racks[rack_id].y)
        if partners[rack_id] and rng.random() < 0.3:
            other = design.racks[rng.choice(partners[rack_id])]
            moves = {rack_id: (other.x, other.y), other.id: here}
        else:
            moves = {rack_id: rng.choice([p for p in free[rack_id] if p != here])}
        try:
            design.move_racks(moves)
        except ValueError:  # a place another moved rack took since: not a candidate
            continue
        plant.refresh()
        cache.cages_unchanged = True  # the optimiser's trust: a move leaves the graph
        kept = build_plant(plant, cache=cache)
        recounted += 0 < cache.recounted_rows < len(plant.link_ids)
        # A move changes where a rack stands, hence lengths and media; which cage each link
        # end sits in is the link's ports, not the rack's place, so the graph built afresh is
        # the kept one, array for array.
        fresh_graph = cage_graph(cage_view(plant), np.arange(len(plant.link_ids)))
        assert cache._graph is graph
        for field in ("comp", "nodes", "ia", "ib", "cage_spec", "shape", "hub", "leaf"):
            assert np.array_equal(getattr(graph, field), getattr(fresh_graph, field)), field
        fresh = PlantCache()
        whole = build_plant(plant, cache=fresh)
        assert kept.items == whole.items
        assert cache._tally.counts == fresh._tally.counts
        assert cache._tally.problem == fresh._tally.problem
        assert _shares_by_element(cache._shares) == _shares_by_element(fresh._shares)
        flipped += dict(cache._tally.counts) != last
        last = dict(cache._tally.counts)
    assert recounted >= 5  # the moves were counted incrementally, not from scratch
    assert flipped >= 3  # and changed what is bought: shares moved between keys
    plant.close()


def test_the_graph_key_holds_read_only_columns_and_copies_writable_ones():
    # A snapshot's cage columns (read-only, owning their memory) are kept as they are and the
    # same array next time is taken as the same cages unread; a writable column is kept as a
    # copy, so an edit in place is still seen and the graph made again.
    design = dict(_halls())["S"]
    plant = RoutedLinks(design)
    view = cage_view(plant)
    rows = np.arange(len(plant.link_ids))
    frozen = view.cage_a.copy()
    frozen.flags.writeable = False
    view.cage_a = frozen
    cache = PlantCache()
    graph = cache.graph(view, rows)
    assert cache._key[1] is frozen
    assert cache._key[2] is not view.cage_b  # writable: a copy
    assert cache.graph(view, rows) is graph
    view.cage_b[0] = view.cage_b.max() + 1  # a link's B end in another cage, in place
    assert cache.graph(view, rows) is not graph
