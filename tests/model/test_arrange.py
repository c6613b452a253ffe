"""Align and distribute racks: edges of the first pick, equal gaps, outermost racks fixed."""

from __future__ import annotations

import pytest

from model.design.arrange import align_racks, distribute_racks
from tests.builders import empty_hall, rack


def _three():
    design = empty_hall(20, 10)
    rack(design, "a", 1.5, 3.0)
    rack(design, "b", 3.9, 3.7)
    rack(design, "c", 9.3, 2.2, rotation=90)
    return design


def test_align_top_brings_every_footprint_top_to_the_topmost():
    design = _three()
    moves = align_racks(design, ["a", "b", "c"], "top")
    # c is turned: 0.6 m deep on the plan, its top at 1.9 m is the topmost
    assert set(moves) == {"a", "b"}
    assert moves["a"] == (1.5, 2.5) and moves["b"] == (3.9, 2.5)


def test_distribute_x_makes_equal_gaps_and_keeps_the_ends():
    design = _three()
    moves = distribute_racks(design, ["c", "a", "b"], "x")
    assert set(moves) == {"b"}
    # a spans 1.2-1.8, c spans 8.7-9.9: b (0.6 wide) goes where both gaps are 3.15 m
    assert moves["b"] == (pytest.approx(5.25), 3.7)


def test_bad_edge_is_refused_with_a_sentence():
    with pytest.raises(ValueError, match="unknown edge"):
        align_racks(_three(), ["a", "b"], "middle")
