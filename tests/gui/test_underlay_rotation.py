"""Turning the building's drawing, driven like a user: Design > Rotate Underlay turns it to a
typed angle about its centre, and Calibrate Underlay squares a drawing that lies askew by the
same two clicks that set its scale. One undo step each, undo byte-identical."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QInputDialog, QLabel

from model.design.underlay import line_angle_deg, transform
from tests.gui.conftest import click, snapshot
from tests.gui.test_canvas_editing import undo_redo_roundtrip
from tests.gui.test_underlay import DXF, focus, import_dxf, press_ok


@pytest.fixture
def beside(window, tmp_path):
    """The test DXF copied beside the open design file."""
    shutil.copy(DXF, tmp_path / "underlay-hall.dxf")
    return window


def _rotate_by_menu(window, monkeypatch, angle_deg: float) -> None:
    monkeypatch.setattr(QInputDialog, "getDouble", lambda *a, **k: (angle_deg, True))
    window.underlay_actions.rotate_action.trigger()  # Design > Rotate Underlay…


def test_rotate_the_drawing_to_a_typed_angle_about_its_centre(beside, qtbot, monkeypatch):
    window = beside
    design = window.document.design
    press_ok(qtbot, import_dxf(qtbot, window, "underlay-hall.dxf").buttons)
    item = window.scene.underlay.item
    # The drawing's extent and a 0.1 m margin
    assert item.sceneBoundingRect() == QRectF(-0.1, -0.1, 20.2, 12.2)
    imported = snapshot(window)
    _rotate_by_menu(window, monkeypatch, 90.0)
    assert design.hall.underlay.rotation_deg == 90.0
    assert window.document.stack.undoText() == "Rotate underlay"
    # The 20 x 12 m drawing turned a quarter about its centre (10, 6): 12 m across, 20 m down
    turned = item.sceneBoundingRect()
    assert (turned.center().x(), turned.center().y()) == pytest.approx((10.0, 6.0))
    assert (turned.width(), turned.height()) == pytest.approx((12.2, 20.2))
    window.scene.clearSelection()  # the inspector names the turn with the scale
    window.inspector.rebuild()
    texts = [label.text() for label in window.inspector.findChildren(QLabel)]
    assert any(t.endswith("; turned 90° clockwise") for t in texts)
    lines = window.scene.underlay.lines_m  # snapping follows the drawing as drawn
    assert lines[:, 0::2].min() == pytest.approx(4.0) and lines[:, 1::2].max() == 16.0
    undo_redo_roundtrip(window, imported)


def test_calibrate_squares_a_drawing_lying_askew(beside, qtbot, monkeypatch):
    window = beside
    design = window.document.design
    press_ok(qtbot, import_dxf(qtbot, window, "underlay-hall.dxf").buttons)
    _rotate_by_menu(window, monkeypatch, 3.0)  # a scan 3 degrees off
    askew = snapshot(window)
    t = transform(design.hall.underlay)
    first, second = t.on_plan(1000.0, 6000.0), t.on_plan(19000.0, 6000.0)  # the tray line
    window.view.zoom_to(QRectF(-1.0, -2.0, 22.0, 16.0))
    window.underlay_actions.calibrate_action.trigger()
    click(window.view, first[0] + 0.04, first[1] - 0.05)  # snapped to the line's ends
    click(window.view, second[0] - 0.05, second[1] + 0.04)
    dialog = window.scene._interaction.dialog
    qtbot.waitExposed(dialog)
    assert dialog.turn.isChecked()  # within 10 degrees of a quarter turn: offered
    assert dialog.angle_deg == 0.0
    focus(qtbot, dialog, dialog.distance)
    dialog.distance.lineEdit().selectAll()
    qtbot.keyClicks(dialog.distance.lineEdit(), "18")
    press_ok(qtbot, dialog.buttons)
    square = design.hall.underlay
    assert square.rotation_deg == pytest.approx(0.0, abs=1e-6)
    assert square.scale_m == pytest.approx(0.001)
    t = transform(square)
    a, b = t.on_plan(1000.0, 6000.0), t.on_plan(19000.0, 6000.0)
    assert a == pytest.approx(first, abs=1e-5)  # turned about the first point clicked
    assert line_angle_deg(a, b) == pytest.approx(0.0, abs=1e-6)
    assert window.document.stack.undoText() == "Calibrate underlay"
    undo_redo_roundtrip(window, askew)
