"""ClashIndex (the drag's clash check with the still racks indexed once) gives the answer of
``clashing_racks`` (the one collision rule) for every step of random drags: one rack or a group,
over neighbours, an obstacle, the hall's edge, turned racks among them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from model.clash_index import ClashIndex
from model.entities import Hall, Obstacle
from model.rack_clashes import clashing_racks
from tests.builders import empty_hall, rack


def _hall():
    design = empty_hall(12.0, 8.4)
    column = Obstacle(id="c1", kind="column", polygon=[(5, 5), (5.6, 5), (5.6, 5.6), (5, 5.6)])
    design.set_hall(Hall(outline=design.hall.outline, obstacles=[column]))
    for i in range(8):  # a row of racks side by side, and a second row, one turned
        rack(design, f"a{i}", 1.5 + 0.6 * i, 2.0)
        rack(design, f"b{i}", 1.5 + 0.6 * i, 4.4, rotation=90 if i == 3 else 0)
    return design


@settings(max_examples=60, deadline=None)
@given(
    moving=st.sets(st.sampled_from([f"{r}{i}" for r in "ab" for i in range(8)]), min_size=1),
    steps=st.lists(st.tuples(st.floats(-6.0, 10.0), st.floats(-3.0, 6.0)), min_size=1, max_size=6),
)
def test_every_step_of_a_drag_matches_clashing_racks(moving, steps):
    design = _hall()
    index = ClashIndex(design, moving)
    racks = design.racks
    for dx, dy in steps:
        footprints = {
            r: (
                racks[r].x + dx,
                racks[r].y + dy,
                racks[r].width_m,
                racks[r].depth_m,
                racks[r].rotation,
            )
            for r in moving
        }
        assert index.clashing(footprints) == clashing_racks(design, footprints, moving)


def test_a_group_keeps_its_gaps_and_a_sliver_into_a_neighbour_is_a_clash():
    design = _hall()
    group = {"a2", "a3"}
    index = ClashIndex(design, group)
    here = {r: (design.racks[r].x, design.racks[r].y, 0.6, 1.2, 0) for r in group}
    assert index.clashing(here) == set()  # touching each other and their neighbours: fine
    nudged = {r: (x + 0.01, y, w, d, rot) for r, (x, y, w, d, rot) in here.items()}
    assert index.clashing(nudged) == {"a3"} == clashing_racks(design, nudged, group)
