"""The delta line of a rack move names the metres of cable it adds or saves and the longest
link before and after (issue 38: it gave counts, watts and dollars only). The figures are the
reports' ordered cable lengths (``Report.cable_length_total_m``, ``cable_length_max_m``)."""

from __future__ import annotations

import pytest

from tests.builders import copper_pod
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh
from tests.gui.conftest import drag


@pytest.fixture
def copper_window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, copper_pod())
    yield window
    close_quietly(window)


def test_dragging_a_rack_away_names_the_metres_and_the_longest_link(copper_window, qtbot):
    window = copper_window
    d = docks(window)
    wait_fresh(qtbot, window)
    before = d.panel.report
    rack = window.document.design.racks["r2"]
    drag(window.view, (rack.x, rack.y), (rack.x + 6.0, rack.y))  # along the row, by mouse
    assert window.document.design.racks["r2"].x > rack.x + 5.0
    wait_fresh(qtbot, window)
    after = d.panel.report
    metres = after.cable_length_total_m - before.cable_length_total_m
    assert metres > 5.0  # 16 links each a few metres longer
    delta = d.panel.delta.text()
    assert f"+{metres:,.1f} m of cable" in delta
    assert (
        f"longest link {before.cable_length_max_m:,.1f} → {after.cable_length_max_m:,.1f} m"
        in delta
    )
    window.undo_action.trigger()  # Edit > Undo: the same figures back, with a minus sign
    wait_fresh(qtbot, window)
    assert f"−{metres:,.1f} m of cable" in d.panel.delta.text()
