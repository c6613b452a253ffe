"""The stretch of a tray a cable uses: intervals merged, polylines cut at arc lengths."""

from __future__ import annotations

from model.engine.geometry import merge_intervals, polyline_between

L_TRAY = [(0.0, 0.0), (4.0, 0.0), (4.0, 3.0)]


def test_merge_intervals_joins_overlaps_and_keeps_gaps():
    assert merge_intervals([(2, 3), (0, 1), (0.5, 2.5), (5, 4)]) == [(0, 3), (4, 5)]


def test_a_stretch_on_the_first_leg_stops_before_the_corner():
    assert polyline_between(L_TRAY, 1.0, 3.0) == [(1.0, 0.0), (3.0, 0.0)]


def test_a_stretch_round_the_corner_keeps_the_corner():
    assert polyline_between(L_TRAY, 3.0, 5.0) == [(3.0, 0.0), (4.0, 0.0), (4.0, 1.0)]


def test_the_whole_tray():
    assert polyline_between(L_TRAY, 0.0, 7.0) == L_TRAY
