"""The layout's trunk legs kept as columns (model.structured.layout_records.TrunkLegs): read one
at a time, sliced or iterated, they are the TrunkLeg records of their columns, and no record is
made until one is read. What the columns hold (each leg's links, holders, trunks, cassettes) is
checked by what reads them: the NetBox export's digests in test_structured_outputs_fixed, which
are those of the code that appended TrunkLeg records one by one."""

from __future__ import annotations

from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.structured.layout import structured_layout
from model.structured.layout_records import TrunkLeg, TrunkLegs


def _records(legs: TrunkLegs) -> list[TrunkLeg]:
    """Each leg as the record the layout appended before, from the columns by hand."""
    return [
        TrunkLeg(legs.links[k], legs.holders[k], legs.trunks[k], legs.cassettes[k])
        for k in range(len(legs.links))
    ]


def test_trunk_legs_read_as_the_records_of_their_columns():
    # Zoned: NVL72 racks, and a fat-tree (MPO legs of one channel each).
    for design in (
        apply_cabling(generate("nvl72", racks=4), "zones"),
        apply_cabling(generate("fat-tree", k=8, switch="qm9700"), "zones"),
    ):
        legs = structured_layout(RoutedLinks(design)).legs
        assert isinstance(legs, TrunkLegs) and legs._made is None
        want = _records(legs)
        assert len(want) > 100 and len(legs) == len(want)
        # One at a time (not kept), from the end, sliced: made from the columns.
        assert [legs[k] for k in range(len(legs))] == want and legs._made is None
        assert legs[-1] == want[-1] and legs[3:9] == want[3:9] and legs._made is None
        # Iterated: made once and kept (the NetBox export reads them over several passes).
        assert list(legs) == want
        made = legs._made
        assert made is not None and list(legs) == want and legs._made is made
        assert legs[5] is made[5]
        assert legs == want


def test_trunk_legs_compare_by_their_legs():
    a, b = TrunkLegs(), TrunkLegs()
    a.add([("l1",), ("l2",)], [("p1", "p2")] * 2, [("t1",)] * 2, False)
    b.add([("l1",)], [("p1", "p2")], [("t1",)], False)
    assert a != b and len(a) == 2 and len(b) == 1
    b.add([("l2",)], [("p1", "p2")], [("t1",)], False)
    assert a == b and list(a) == list(b)
    b.add([("l3", "l4")], [("c1", "c2")], [("t2",)], True)
    assert a != b and b[2] == TrunkLeg(("l3", "l4"), ("c1", "c2"), ("t2",), True)
    assert b._made is None  # added after being read: made again from the columns
    a.add([("l3", "l4")], [("c1", "c2")], [("t2",)], False)
    assert a != b  # the cassettes column differs
