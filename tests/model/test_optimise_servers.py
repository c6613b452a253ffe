"""Servers within their SU (model.optimise.servers): the exact assignment finds the known best
placement, keeps every link, prices as a fresh pricing, and leaves alike servers alone."""

from __future__ import annotations

import itertools

import msgspec
import numpy as np
import pytest

from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes, read_design_bytes
from model.generators.generate import generate
from model.optimise.objective import DEFAULT_WEIGHTS, TERMS, Pricer
from model.optimise.optimise import optimise
from model.optimise.servers import assign_servers, best_assignment, price_matrix, server_groups


def _two_rack_su():
    """A 16-node leaf-spine pod rearranged so that one SU spans racks A01 and A02 with a leaf in
    each: leaf01 (node01-04's) stands amid A01's servers, leaf02 (node05-08's) amid A02's,
    and one link of node04 and one of node08 trade far ends, so the eight servers share both
    leaves (one SU) while each still has 7 of its 8 links to its own leaf. Then node01-03 and
    node05-07 trade places: the best placement, known, puts each server back in the rack of
    the leaf it has 7 links to."""
    design = generate("leaf-spine", nodes=16, node_type="dgx-h100", switch="qm9700")
    by_name = {d.name: d.id for d in design.devices.values()}
    # Each leaf amid its rack's servers (U2, U10 | leaf U18 | U19, U27), so that every slot of
    # a rack is within copper reach of its leaf and no slot of the other rack is.
    places = {}
    for rack, leaf, upper in (
        ("A01", "leaf01", ("node03", "node04")),
        ("A02", "leaf02", ("node07", "node08")),
    ):
        places[by_name[leaf]] = (rack, 18)
        places[by_name[upper[0]]] = (rack, 19)
        places[by_name[upper[1]]] = (rack, 27)
    design.move_devices(places)
    node04, node08 = by_name["node04"], by_name["node08"]
    leaf01, leaf02 = by_name["leaf01"], by_name["leaf02"]

    def link_between(server: str, leaf: str):
        ids = sorted(design.links_of_device(server) & design.links_of_device(leaf))
        return design.links[ids[0]]

    x, y = link_between(node04, leaf01), link_between(node08, leaf02)
    x_leaf_end = x.a if x.a.device == leaf01 else x.b
    y_leaf_end = y.a if y.a.device == leaf02 else y.b
    x_own = x.b if x.a.device == leaf01 else x.a
    y_own = y.b if y.a.device == leaf02 else y.a
    design.remove_links([x.id, y.id])
    design.add_links(
        [
            msgspec.structs.replace(x, a=x_own, b=y_leaf_end),
            msgspec.structs.replace(y, a=y_own, b=x_leaf_end),
        ]
    )
    home = {by_name[f"node0{i}"]: "A01" for i in range(1, 5)}
    home |= {by_name[f"node0{i}"]: "A02" for i in range(5, 9)}
    devices = design.devices
    swap = {}
    for a, b in (("node01", "node05"), ("node02", "node06"), ("node03", "node07")):
        da, db = devices[by_name[a]], devices[by_name[b]]
        swap[da.id], swap[db.id] = (db.rack, db.u), (da.rack, da.u)
    design.move_devices(swap)
    return design, home


def test_the_su_spans_both_racks_and_alike_groups_are_not_solved():
    design, home = _two_rack_su()
    groups = server_groups(design)
    assert sorted(home) in [sorted(g) for g in groups]
    plant = RoutedLinks(design)
    untouched = generate("leaf-spine", nodes=16, node_type="dgx-h100", switch="qm9700")
    # The generator's pods: each leaf's four servers alike, nothing to solve, nothing moved.
    plain = assign_servers(untouched, RoutedLinks(untouched))
    assert plain.groups == 0 and not plain.moved
    plant.close()


def test_the_assignment_puts_each_server_back_beside_its_leaf():
    design, home = _two_rack_su()
    links_before = {lid: (lk.a, lk.b) for lid, lk in design.links.items()}
    plant = RoutedLinks(design)
    plan = assign_servers(design, plant)
    assert plan.groups == 1
    assert {s: design.devices[s].rack for s in home} == home
    assert plan.price_after_usd < plan.price_before_usd
    # The rails stay as cabled: no link changed its ends.
    assert {lid: (lk.a, lk.b) for lid, lk in design.links.items()} == links_before
    plant.close()


def test_the_exact_assignment_equals_the_best_of_every_permutation():
    rng = np.random.default_rng(7)
    price = rng.integers(0, 50, (6, 6)).astype(float) * 10.0
    choice = best_assignment(price)
    assert sorted(choice) == list(range(6))
    best = min(sum(price[i, p[i]] for i in range(6)) for p in itertools.permutations(range(6)))
    assert sum(price[i, j] for i, j in enumerate(choice)) == pytest.approx(best)
    # Among equal prices it moves nobody.
    assert best_assignment(np.ones((4, 4))) == [0, 1, 2, 3]
    # A swap saving 150 USD is made, unless each server moved must save more than 75.
    swap = np.array([[100.0, 20.0], [30.0, 100.0]])
    assert best_assignment(swap) == [1, 0]
    assert best_assignment(swap, move_usd=49.0) == [1, 0]
    assert best_assignment(swap, move_usd=76.0) == [0, 1]


def test_the_price_matrix_is_what_the_plant_prices_with_the_server_moved_there():
    design, _home = _two_rack_su()
    plant = RoutedLinks(design)
    group = next(g for g in server_groups(design) if len(g) == 8)
    price, slots = price_matrix(design, plant, group)
    # Left as it stood, and each diagonal entry is the server's price where it stands.
    assert [(design.devices[s].rack, design.devices[s].u) for s in group] == slots
    from model.optimise.servers import _links_price, _rows

    members = set(group)
    for i, s in enumerate(group):
        assert price[i, i] == pytest.approx(_links_price(plant, _rows(design, plant, s, members)))
    # Two servers trading places: their prices there are the matrix's off-diagonal entries.
    design.move_devices({group[0]: slots[1], group[1]: slots[0]})
    plant.refresh()
    for i, j in ((0, 1), (1, 0)):
        rows = _rows(design, plant, group[i], members)
        assert price[i, j] == pytest.approx(_links_price(plant, rows))
    plant.close()


def test_optimise_move_servers_prices_as_a_fresh_pricing():
    design, home = _two_rack_su()
    result = optimise(design, DEFAULT_WEIGHTS, iterations=5, seed=0, tiers=("servers",))
    assert result.changed, result.sentence
    out = result.design
    assert {s: out.devices[s].rack for s in home} == home
    moved = result.report["servers"]["moved"]
    # The swapped servers change rack; a server may also change U within its rack (a port's
    # height is part of its links' lengths).
    racked = {m["server"] for m in moved if m["from"][0] != m["to"][0]}
    assert racked == {s for s in home if design.devices[s].rack != home[s]}
    fresh = read_design_bytes(design_to_bytes(out))
    plant = RoutedLinks(fresh)
    again = Pricer(fresh, plant).start
    for term in TERMS:
        assert result.report["terms"][term]["after"] == pytest.approx(again.terms[term], abs=1e-6)
    assert result.report["terms"]["cost_usd"]["delta"] < 0
    plant.close()
    # The input design is untouched.
    assert {s: design.devices[s].rack for s in home} != home
