"""Obstacles drawn and edited with the mouse and the inspector: one across the floor run of two
racks with no tray between them shows FLOOR_ROUTE_BLOCKED (undo clears it); its height is
edited in the inspector (0 = floor to ceiling) as one undo step."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh
from tests.gui.conftest import drag, snapshot
from tests.gui.test_canvas_editing import undo_redo_roundtrip
from tests.model.test_floor_blocks import floor_pair


def codes(window) -> list[str]:
    return [w.code for w in docks(window).panel.report.warnings]


def test_an_obstacle_drawn_across_a_trayless_route_is_warned_about(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, floor_pair())
    try:
        design = window.document.design
        assert "NO_TRAY_PATH" in codes(window)
        assert "FLOOR_ROUTE_BLOCKED" not in codes(window)
        before = snapshot(window)
        window.set_mode("obstacle")
        qtbot.keyClick(window.view, Qt.Key_K)  # column -> CRAH/CDU unit
        drag(window.view, (5.4, 0.6), (6.6, 7.8))  # a CRAH row across the hall
        wait_fresh(qtbot, window)
        (obstacle,) = design.hall.obstacles
        (warning,) = [
            w for w in docks(window).panel.report.warnings if w.code == "FLOOR_ROUTE_BLOCKED"
        ]
        assert warning.objects[:3] == (obstacle.id, "r1", "r2")
        assert f"CRAH/CDU unit {obstacle.id} stands across the floor run" in warning.message
        window.document.stack.undo()
        wait_fresh(qtbot, window)
        assert "FLOOR_ROUTE_BLOCKED" not in codes(window)
        assert snapshot(window) == before
    finally:
        close_quietly(window)


def test_an_obstacles_height_is_edited_in_the_inspector(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, floor_pair())
    try:
        design = window.document.design
        window.set_mode("obstacle")
        drag(window.view, (5.4, 1.2), (6.0, 1.8))
        drawn = snapshot(window)
        qtbot.waitUntil(lambda: "height" in window.inspector.fields)
        spin = window.inspector.fields["height"]
        assert spin.text() == "floor to ceiling"  # a column: None in the file
        spin.setFocus()  # as the user's click in the field does
        qtbot.waitUntil(spin.hasFocus)
        spin.lineEdit().selectAll()
        qtbot.keyClicks(spin.lineEdit(), "2.2")
        qtbot.keyClick(spin.lineEdit(), Qt.Key_Return)
        assert design.hall.obstacles[0].height_m == 2.2
        assert window.document.stack.undoText() == "Edit obstacle"
        undo_redo_roundtrip(window, drawn)
    finally:
        close_quietly(window)
