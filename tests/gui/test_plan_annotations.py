"""Dimension lines and rulers, driven like a user: D, two clicks, a dimension line with its
length stays on the plan (one undo step, byte-identical undo); it is selected by a click and
deleted with Delete; the rulers' ticks follow the zoom and hide from the View menu."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt

from gui.canvas.rulers import tick_step_m
from tests.gui.conftest import click, snapshot, wait_until_idle
from tests.gui.test_canvas_editing import undo_redo_roundtrip


def test_draw_select_and_delete_a_dimension_line(window, qtbot):
    design = window.document.design
    before = snapshot(window)
    qtbot.keyClick(window.view, Qt.Key_D)
    assert window.mode_label.text().strip() == "Draw dimension mode"
    click(window.view, 0.52, 7.81)  # snapped to 5 cm
    click(window.view, 11.48, 7.79)
    (dimension,) = design.hall.dimensions
    assert (dimension.a, dimension.b) == ((0.5, 7.8), (11.5, 7.8))
    assert window.scene.dimension_layer.items[dimension.id].text == "11.00 m"
    assert window.document.stack.undoText() == "Draw dimension"
    assert window.scene.selected_ids() == [dimension.id]
    undo_redo_roundtrip(window, before)

    drawn = snapshot(window)
    qtbot.keyClick(window.view, Qt.Key_Escape)
    assert window.mode_label.text().strip() == "Select mode"
    click(window.view, 1.0, 1.0)  # empty floor
    assert window.scene.selected_ids() == []
    click(window.view, 6.0, 7.85)  # on the line
    assert window.scene.selected_ids() == [dimension.id]
    qtbot.keyClick(window.view, Qt.Key_Delete)
    assert design.hall.dimensions == []
    assert dimension.id not in window.scene.dimension_layer.items
    assert window.document.stack.undoText() == f"Delete dimension line {dimension.id}"
    undo_redo_roundtrip(window, drawn)


def test_rulers_follow_the_zoom_and_hide(window, qtbot):
    rulers = window.rulers
    assert rulers.visible
    window.view.fit()
    wait_until_idle(qtbot)
    first_ticks = rulers.top.ticks()
    assert first_ticks and first_ticks[0][0] <= 0.0 <= first_ticks[-1][0]
    wide_step = first_ticks[1][0] - first_ticks[0][0]
    window.view.zoom_to(QRectF(2.0, 2.0, 1.0, 1.0))  # close in on one metre
    wait_until_idle(qtbot)
    close_ticks = rulers.top.ticks()
    close_step = close_ticks[1][0] - close_ticks[0][0]
    assert close_step < wide_step
    _a, _b, px_per_m = rulers.top.span_m()
    assert close_step * px_per_m >= 60.0  # labels stay apart
    # Tick positions are where the view puts those metres.
    value, along = close_ticks[0]
    assert abs(window.view.mapFromScene(value, 0.0).x() - along) <= 1.0
    window.rulers_action.trigger()
    assert not rulers.visible and window.view.viewportMargins().left() == 0


def test_tick_steps_are_the_1_2_5_series():
    assert tick_step_m(60.0) == 1.0
    assert tick_step_m(40.0) == 2.0
    assert tick_step_m(13.0) == 5.0
    assert tick_step_m(600.0) == 0.1
    assert tick_step_m(0.5) == 200.0


def test_drag_an_end_of_a_dimension_line_and_move_it_whole(window, qtbot):
    """Each drag is one undo step; the length follows the end; undo is byte-identical."""
    from tests.gui.conftest import drag

    design = window.document.design
    qtbot.keyClick(window.view, Qt.Key_D)
    click(window.view, 0.5, 7.8)
    click(window.view, 11.5, 7.8)
    qtbot.keyClick(window.view, Qt.Key_Escape)  # Select mode, the line still selected
    (dimension,) = design.hall.dimensions
    click(window.view, 6.0, 7.85)
    assert window.scene.selected_ids() == [dimension.id]
    drawn = snapshot(window)
    depth = window.document.stack.index()
    drag(window.view, (11.5, 7.8), (9.01, 7.8))  # the right end, snapped to 5 cm
    (moved,) = design.hall.dimensions
    assert (moved.a, moved.b) == ((0.5, 7.8), (9.0, 7.8))
    assert window.scene.dimension_layer.items[moved.id].text == "8.50 m"
    assert window.document.stack.index() == depth + 1  # one undo step
    assert window.document.stack.undoText() == "Move an end of a dimension line"
    undo_redo_roundtrip(window, drawn)

    ended = snapshot(window)
    click(window.view, 4.0, 7.8)  # select it again, then drag it by its middle
    drag(window.view, (4.0, 7.8), (4.0, 6.6))
    (shifted,) = design.hall.dimensions
    assert (shifted.a, shifted.b) == ((0.5, 6.6), (9.0, 6.6))
    assert window.document.stack.undoText() == "Move a dimension line"
    undo_redo_roundtrip(window, ended)
    qtbot.mouseDClick(  # a double-click on the line adds no corner to it
        window.view.viewport(), Qt.LeftButton, pos=window.view.mapFromScene(4.0, 6.6)
    )
    assert len(design.hall.dimensions) == 1
