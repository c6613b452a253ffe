"""Rows on the floor: row-and-position names, renumbering by row, packing, distributing on tiles."""

from __future__ import annotations

import pytest

from model.design.arrange import distribute_racks
from model.design.rows import (
    floor_rows,
    name_for_new_rack,
    pack_racks,
    renumber_by_row,
    row_letter,
)
from tests.builders import empty_hall, rack


def test_row_letters_run_like_spreadsheet_columns():
    assert [row_letter(i) for i in (0, 1, 25, 26, 27, 51, 52)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA"
    ]  # fmt: skip


def test_renumber_names_racks_by_floor_row_and_position():
    design = empty_hall(20, 12)
    # two rows along x (y = 3 and y = 6.6), given in no order and with stray names
    rack(design, "a", 3.3, 3.0, name="R01")
    rack(design, "b", 0.9, 3.1, name="R02")
    rack(design, "c", 2.1, 6.6, name="X9")
    rack(design, "d", 1.5, 3.0, name="A02")
    renamed = {r.id: r.name for r in renumber_by_row(design)}
    assert renamed == {"b": "A01", "a": "A03", "c": "B01"}  # d is A02 already
    design.update_racks(renumber_by_row(design))  # one edit, names swapped within the hall
    assert [[r.name for r in row] for row in floor_rows(design.racks.values())] == [
        ["A01", "A02", "A03"],
        ["B01"],
    ]
    assert renumber_by_row(design) == []


def test_a_rack_placed_by_hand_takes_its_rows_letter_and_position():
    design = empty_hall(20, 12)
    assert name_for_new_rack(design, 1.5, 3.0, 0) == "A01"
    rack(design, "a1", 0.9, 3.0, name="A01")
    rack(design, "a2", 1.5, 3.0, name="A02")
    assert name_for_new_rack(design, 2.1, 3.0, 0) == "A03"  # the row's next position
    assert name_for_new_rack(design, 2.1, 6.6, 0) == "B01"  # a new row: the next free letter
    rack(design, "b1", 2.1, 6.6, name="B01")
    assert name_for_new_rack(design, 2.7, 6.6, 0) == "B02"
    # between A01 and A02's positions, A02 is taken: the row's next free number
    assert name_for_new_rack(design, 0.3, 3.0, 0) == "A03"


def test_pack_closes_gaps_to_the_spacing_keeping_order():
    design = empty_hall(20, 12)
    rack(design, "a", 1.0, 3.0)
    rack(design, "b", 5.0, 3.0)
    rack(design, "c", 3.0, 3.0)
    width_m = design.racks["a"].width_m
    moves = pack_racks(design, ["a", "b", "c"], "x", 0.1)
    assert "a" not in moves
    assert moves["c"] == pytest.approx((1.0 + width_m + 0.1, 3.0))
    assert moves["b"] == pytest.approx((1.0 + 2 * (width_m + 0.1), 3.0))
    with pytest.raises(ValueError, match="spacing"):
        pack_racks(design, ["a", "b"], "x", -1)


def test_distribute_on_tiles_puts_every_edge_on_a_tile_line():
    design = empty_hall(20, 12)
    tile_m = design.hall.tile_m
    for i, x in enumerate((0.3, 1.7, 2.2, 6.3)):
        rack(design, f"r{i}", x, 3.0)
    moves = distribute_racks(design, [f"r{i}" for i in range(4)], "x", tile_m)
    width_m = design.racks["r0"].width_m
    for rack_id in ("r1", "r2"):
        left = moves[rack_id][0] - width_m / 2
        assert left / tile_m == pytest.approx(round(left / tile_m))
    assert "r0" not in moves and "r3" not in moves
