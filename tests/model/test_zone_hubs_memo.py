"""The zones' distribution racks (``zone_hubs``) are kept per design while its racks and network
racks stand, and worked out again after any rack edit: a kept answer equals a fresh one."""

from __future__ import annotations

from model.engine.patch_points import _zone_hubs, network_racks, zone_hubs
from tests.builders import device, empty_hall, rack


def _two_rows():
    """Row a: a switch rack a1 at the left end, servers a2..a4; row b: servers only (its hub
    is the row end nearest the network racks)."""
    design = empty_hall(30.0, 12.0)
    rack(design, "a1", 2.0, 2.0)
    for i, x in enumerate((2.6, 3.2, 3.8), start=2):
        rack(design, f"a{i}", x, 2.0)
    for i, x in enumerate((2.0, 2.6, 3.2), start=1):
        rack(design, f"b{i}", x, 6.0)
    device(design, "s1", "a1", 20, "qm9700")
    for r in ("a2", "a3", "a4", "b1", "b2", "b3"):
        device(design, f"g-{r}", r, 10, "dgx-h100")
    return design


def _fresh(design) -> dict[str, str]:
    return _zone_hubs(design, network_racks(design))


def test_the_kept_hubs_are_handed_out_while_no_rack_changes():
    design = _two_rows()
    first = zone_hubs(design)
    assert first == _fresh(design)
    assert zone_hubs(design) is first


def test_a_moved_rack_makes_its_rows_hubs_again():
    design = _two_rows()
    before = zone_hubs(design)
    assert before["b3"] == "b1"  # row b's end nearest the switch rack
    # b1 goes to the far right: b3 is then row b's end nearest the switch rack.
    design.move_racks({"b1": (25.0, 6.0)})
    after = zone_hubs(design)
    assert after is not before
    assert after == _fresh(design)
    assert after["b3"] != before["b3"]


def test_a_rack_added_or_a_switch_placed_is_seen():
    design = _two_rows()
    zone_hubs(design)
    rack(design, "b4", 3.8, 6.0)
    assert "b4" in zone_hubs(design) and zone_hubs(design) == _fresh(design)
    device(design, "s2", "b4", 20, "qm9700")  # b4 becomes a network rack: row b's hub
    hubs = zone_hubs(design)
    assert hubs == _fresh(design) and hubs["b1"] == "b4"


def test_a_snapshot_takes_the_live_designs_hubs_and_they_are_fresh():
    """An analysis job's snapshot shares the live design's rack records: it is handed the hubs
    the live design worked out (the same dict), equal to its own fresh ones, and after a move
    of the live design the next snapshot follows it."""
    from model.engine.snapshot import Snapshotter

    design = _two_rows()
    snaps = Snapshotter(design, None)
    live = zone_hubs(design)
    snap, _ = snaps.take()
    assert zone_hubs(snap) is live and live == _fresh(snap)
    assert network_racks(snap) == network_racks(design)
    design.move_racks({"b1": (25.0, 6.0)})
    moved = zone_hubs(design)
    later, _ = snaps.take()
    assert zone_hubs(later) is moved and moved == _fresh(later)
    assert zone_hubs(snap) is live  # the older snapshot keeps its own
    rack(design, "b4", 3.8, 6.0)
    device(design, "s2", "b4", 20, "qm9700")  # b4 a network rack: row b's hub
    placed, _ = snaps.take()
    hubs = zone_hubs(placed)
    assert hubs == _fresh(placed) and hubs["b1"] == "b4"
    assert network_racks(placed) == {"a1", "b4"} != network_racks(later)
