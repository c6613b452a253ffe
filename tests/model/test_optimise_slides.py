"""Slides: a network rack in a row full of the racks it serves trades places with one of them
(model.optimise.moves.slide_partners), the only short move such a rack has."""

from __future__ import annotations

import msgspec
import pytest

from model.design.rack_clashes import rack_clashes
from model.generators.generate import generate
from model.optimise.moves import network_racks, slide_partners
from model.optimise.objective import parse_weights
from model.optimise.optimise import optimise
from model.optimise.search import _candidate, _counted

# Only the ordered metres count: the pod's links are SR4 wherever the leaf stands in its row.
METRES = parse_weights("cost=0,power=0,power_max=0,failures=0,cable=1")


def _full_row_pod():
    """A 32-node leaf-spine pod (row A: 4 server racks, the leaf, 4 server racks; row B: the
    spine) in a hall cut to its two rows and the aisle: no free tile in row A."""
    design = generate("leaf-spine", nodes=32, node_type="dgx-h100", switch="qm9700")
    racks = list(design.racks.values())
    x0 = min(r.x - r.width_m / 2 for r in racks)
    x1 = max(r.x + r.width_m / 2 for r in racks)
    outline = [(x0, 1.8), (x1, 1.8), (x1, 5.4), (x0, 5.4)]
    design.set_hall(msgspec.structs.replace(design.hall, outline=outline))
    assert not rack_clashes(design)
    leaf, spine = network_racks(design)
    return design, leaf, spine


def test_a_rack_slides_past_the_racks_it_is_cabled_to_in_its_own_row_only():
    design, leaf, spine = _full_row_pod()
    servers = [r for r in design.racks if r not in (leaf, spine)]
    slides = slide_partners(design, [leaf, spine], set(), True)
    assert slides[leaf] == servers  # its 8 server racks, in the design's order
    assert slides[spine] == []  # its leaf is movable (a swap), its row holds nothing else
    held = slide_partners(design, [leaf, spine], {servers[2]}, True)
    assert servers[2] not in held[leaf] and len(held[leaf]) == 7
    design.move_racks({servers[0]: (design.racks[servers[0]].x, 4.8)})
    assert servers[0] not in slide_partners(design, [leaf], set(), True)[leaf]  # off the row line


def test_a_server_rack_that_made_way_for_its_leaf_is_not_counted_by_the_floor():
    slides = {"leaf": ["s1", "s2"], "spine": []}
    start = {"leaf": (0, 0), "s1": (1, 0), "s2": (2, 0), "spine": (5, 0)}
    # the leaf slid one slot: s1 stands where the leaf stood
    assert _counted(["leaf", "s1"], slides, start, {"leaf": (1, 0), "s1": (0, 0)}) == 1
    # two slides: the leaf two slots on, s1 in its old place, s2 displaced into s1's: s2 counts
    chain = {"leaf": (2, 0), "s1": (0, 0), "s2": (1, 0)}
    assert _counted(["leaf", "s1", "s2"], slides, start, chain) == 2
    # s1 is no partner of the spine
    assert _counted(["spine", "s1"], slides, start, {"spine": (1, 0), "s1": (5, 0)}) == 2
    assert _counted(["s1"], slides, start, {"s1": (3, 0)}) == 1  # never nothing


def test_no_slide_without_leave_to_move_compute_racks():
    """A slide moves a compute rack: off unless the user let racks trade places with compute
    racks (the default keeps every compute rack where it stands)."""
    design, leaf, spine = _full_row_pod()
    assert slide_partners(design, [leaf, spine], set(), False) == {leaf: [], spine: []}
    result = optimise(design, METRES, iterations=60, seed=0, locked=[spine])
    servers = [r for r in design.racks if r not in (leaf, spine)]
    for r in servers:
        before, after = design.racks[r], result.design.racks[r]
        assert (before.x, before.y) == (after.x, after.y), r


def test_a_leaf_in_a_full_row_moves_by_sliding_and_only_its_partner_moves_with_it():
    design, leaf, spine = _full_row_pod()
    result = optimise(design, METRES, iterations=60, seed=0, locked=[spine], swap_compute=True)
    # Without slides the leaf has no free tile and no rack of its size to swap with.
    assert result.changed, result.sentence
    report = result.report
    assert report["objective"]["after"] < report["objective"]["before"]
    moved = {m["rack"] for m in report["moved"]}
    assert leaf in moved and spine not in moved
    others = moved - {leaf}
    assert others and others <= set(slide_partners(design, [leaf], set(), True)[leaf])
    start = (design.racks[leaf].x, design.racks[leaf].y)
    taken = {(result.design.racks[r].x, result.design.racks[r].y) for r in others}
    assert start in taken  # a server rack stands where the leaf stood
    assert not rack_clashes(result.design)
    # Its sentence names each rack's role: a leaf that slid past one of its server racks.
    why = next(w for w in report["why"] if leaf in w["racks"])
    said = why["sentence"]
    assert f"{design.racks[leaf].name} (leaf, " in said and "(compute, " in said, said
    assert why["role"] == "leaf"  # the group is the leaf's move, not a server's


def test_a_network_rack_is_never_slid_past_even_when_its_tier_may_not_move():
    # The spine turned and set into row A beside the leaf: same plan size, same row line,
    # cabled to the leaf. With only the spine's tier movable, the leaf (a tier of its own,
    # placed or held by the user's choice of tiers) is no partner to slide past.
    design = generate("leaf-spine", nodes=32, node_type="dgx-h100", switch="qm9700")
    leaf, spine = network_racks(design)
    design.rotate_racks({spine: design.racks[leaf].rotation})
    design.move_racks({spine: (design.racks[leaf].x - 3.0, design.racks[leaf].y)})
    assert not rack_clashes(design)
    assert slide_partners(design, [spine], set(), True)[spine] == []
    servers = [r for r in design.racks if r not in (leaf, spine)]
    assert slide_partners(design, [leaf], set(), True)[leaf] == servers  # its servers still are


class _First:
    """A random stream that always takes the first choice and draws 0 (a slide)."""

    def choice(self, seq):
        return seq[0]

    def random(self):
        return 0.0


def test_a_slide_is_only_along_the_row_the_two_racks_share_now():
    design, leaf, spine = _full_row_pod()
    slides = slide_partners(design, [leaf], set(), True)
    free, partners = {leaf: []}, {leaf: []}
    first = slides[leaf][0]
    move = _candidate(_First(), design, [leaf], free, partners, slides)
    assert move == {
        leaf: (design.racks[first].x, design.racks[first].y),
        first: (design.racks[leaf].x, design.racks[leaf].y),
    }
    # The leaf set down in the aisle, off its servers' row: no slide sends a server there.
    design.move_racks({leaf: (design.racks[leaf].x, 3.6)})
    assert _candidate(_First(), design, [leaf], free, partners, slides) is None


@pytest.mark.parametrize("seed", [0, 2])
def test_server_racks_a_chain_of_slides_displaced_for_nothing_go_home(seed):
    """The annealing may slide the leaf past several of its servers where one slide gains the
    same: the servers whose own moves buy nothing trade back to where they stood (seeds 0 and
    2 kept 3 and 4 racks moved for the objective one slide reaches)."""
    design, leaf, spine = _full_row_pod()
    result = optimise(design, METRES, iterations=200, seed=seed, locked=[spine], swap_compute=True)
    moved = {m["rack"] for m in result.report["moved"]}
    assert leaf in moved and len(moved) == 2, moved
    assert not rack_clashes(result.design)
