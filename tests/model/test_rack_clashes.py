"""The one rack collision rule: overlaps above a sliver, outside the hall, on an obstacle; and
the same rule for racks at places they do not hold yet (a drag, a rack being placed)."""

from __future__ import annotations

from model.design.entities import Hall, Obstacle
from model.design.rack_clashes import Clash, clashing_racks, rack_clashes
from tests.builders import empty_hall, rack


def test_touching_racks_are_fine_a_sliver_more_is_an_overlap():
    design = empty_hall()
    rack(design, "a", 1.5, 2.0)
    rack(design, "b", 2.1, 2.0)  # side by side: touching edges
    assert rack_clashes(design) == []
    # 1 cm into its neighbour along its 1.2 m depth: 0.012 m² > the 1e-4 m² allowance
    assert clashing_racks(design, {"b": (2.09, 2.0, 0.6, 1.2, 0)}, {"b"}) == {"b"}
    assert rack_clashes(design, {"b": (2.09, 2.0, 0.6, 1.2, 0)}) == [
        Clash("RACK_OVERLAP", "a", "b")
    ]


def test_outside_the_hall_and_on_an_obstacle():
    design = empty_hall()
    column = Obstacle(id="c1", kind="column", polygon=[(5, 5), (5.6, 5), (5.6, 5.6), (5, 5.6)])
    design.set_hall(Hall(outline=design.hall.outline, obstacles=[column]))
    rack(design, "a", 1.5, 2.0)
    assert rack_clashes(design, {"a": (0.2, 2.0, 0.6, 1.2, 0)}) == [Clash("RACK_OUTSIDE_HALL", "a")]
    assert rack_clashes(design, {"a": (5.3, 5.3, 0.6, 1.2, 90)}) == [
        Clash("RACK_ON_OBSTACLE", "a", "c1")
    ]


def test_only_reports_the_clashes_of_the_racks_asked_about():
    design = empty_hall()
    rack(design, "a", 1.5, 2.0)
    rack(design, "c", 6.0, 2.0)
    new = {"new": (6.1, 2.0, 0.6, 1.2, 0)}  # a rack about to be placed, over "c"
    assert clashing_racks(design, new, {"new"}) == {"new"}
    assert clashing_racks(design, new, {"a"}) == set()
    assert rack_clashes(design, new, {"c"}) == [Clash("RACK_OVERLAP", "c", "new")]


def test_the_clashes_of_a_few_racks_are_those_of_the_whole_check_that_name_them():
    """A few racks (a move) are checked against every box directly, without the spatial index
    the whole check builds: the same clashes, in the same order, on every kind of placement."""
    import random

    design = empty_hall()
    columns = [
        Obstacle(
            id=f"c{n}", kind="column", polygon=[(x, 5), (x + 0.6, 5), (x + 0.6, 5.6), (x, 5.6)]
        )
        for n, x in enumerate((3.0, 7.0))
    ]
    design.set_hall(Hall(outline=design.hall.outline, obstacles=columns))
    for n in range(12):
        rack(design, f"r{n}", 1.0 + 0.6 * (n % 6), 2.0 + 1.2 * (n // 6))
    rng = random.Random(7)
    ids = list(design.racks)
    for _ in range(200):
        moved = rng.sample(ids, rng.choice((1, 2, 3)))
        places = {
            r: (rng.uniform(-0.5, 9.5), rng.uniform(-0.5, 9.5), 0.6, 1.2, rng.choice((0, 90)))
            for r in moved
        }
        whole = rack_clashes(design, places)
        named = [c for c in whole if c.rack in moved or c.other in moved]
        few = rack_clashes(design, places, moved)
        assert sorted(map(repr, few)) == sorted(map(repr, named))
        kinds = [c for c in few if c.code != "RACK_OVERLAP"]
        assert kinds == [c for c in named if c.code != "RACK_OVERLAP"]
