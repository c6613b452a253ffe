"""The old graph's nodes matched to the new graph's over a tray edit (model/engine/tray_rows.py).

A corner that tilts a cross tray moves its joins along the kept row trays it crosses, so the
joins match no node by their stations; they are matched by their places along the edited tray
instead, and their rows carried (not searched afresh). Every carried row and tree must still
be a fresh search's: _check_carry compares them bit for bit.
"""

from __future__ import annotations

import numpy as np

from model.design.entities import Tray
from model.engine.tray_graph import TrayGraph
from tests.model.test_tray_rows import TOLERANCE_M, _check_carry, _searched, _small_hall


def _tilted(trays: list[Tray], k: int, dx: float) -> list[Tray]:
    """``trays`` with the first corner of tray ``k`` moved ``dx`` along x."""
    (x, y), *rest = trays[k].points
    out = list(trays)
    out[k] = Tray(id=trays[k].id, points=[(x + dx, y), *rest])
    return out


def test_a_tilted_cross_trays_joins_are_matched_and_every_source_carried():
    hall, trays = _small_hall(5, [6.0, 14.0])
    old = TrayGraph(trays, hall, TOLERANCE_M, all_pairs_max_nodes=0)
    _searched(old, list(range(old.node_count)))
    new, carried = _check_carry(old, _tilted(trays, 5, 1.2), hall)
    carry = new._carry
    assert carry is not None
    # the same stations, each join of the tilted tray on the same row tray as before
    assert (carry.new_of_old >= 0).all()
    assert len(np.unique(carry.new_of_old)) == old.node_count == new.node_count
    assert carried == new.node_count  # no row searched afresh


def test_a_corner_moved_past_a_crossing_matches_one_to_one_and_carries_exact_rows():
    # The cross tray's foot moved past the other cross tray's line: its stations are
    # reordered and one node more or less, so places can name other nodes; the rows stay exact.
    hall, trays = _small_hall(4, [6.0, 10.0])
    old = TrayGraph(trays, hall, TOLERANCE_M, all_pairs_max_nodes=0)
    _searched(old, list(range(old.node_count)))
    for dx in (5.0, -5.0, 2.5):
        moved = _tilted(trays, 4, dx)
        new, carried = _check_carry(old, moved, hall)
        mapped = new._carry.new_of_old
        assert len(np.unique(mapped[mapped >= 0])) == int((mapped >= 0).sum())  # one to one
        assert carried > 0
        old, trays = new, moved
