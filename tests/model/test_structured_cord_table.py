"""CordTable answers a cord by its position as a sequence does: A end then B end per pair,
negative positions from the end, slices, and IndexError past either end."""

from __future__ import annotations

import pytest

from model.structured.channel_table import Cord, CordTable


def _table() -> CordTable:
    table = CordTable()
    table.link_ids, table.parts = ["l1", "l2"], ["fibre-x", "fibre-y"]
    table.a_m, table.a_ordered = [1.2, 2.2], [1.5, 2.5]
    table.b_m, table.b_ordered = [3.2, 4.2], [3.5, 4.5]
    return table


def test_cords_by_position_slice_and_iteration_agree():
    table = _table()
    assert len(table) == 4
    assert table[0] == Cord("l1", "a", "fibre-x", 1.2, 1.5)
    assert table[3] == Cord("l2", "b", "fibre-y", 4.2, 4.5)
    assert table[-1] == table[3] and table[-4] == table[0]
    assert table[1:3] == [
        Cord("l1", "b", "fibre-x", 3.2, 3.5),
        Cord("l2", "a", "fibre-y", 2.2, 2.5),
    ]
    assert list(table) == [table[i] for i in range(4)]
    assert table[2 * 1 + True] == table[3]  # a pair's B cord, as the NetBox export asks


@pytest.mark.parametrize("position", [4, -5])
def test_a_position_past_either_end_is_an_index_error(position):
    with pytest.raises(IndexError):
        _table()[position]
