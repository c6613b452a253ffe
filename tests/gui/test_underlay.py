"""The building underneath, driven like a user: import the DXF shipped in tests/data (layers
chosen), calibrate it by two clicked points and a typed distance, trace the hall outline and a
column over it with snapping to its lines; a bad drawing is a sentence and nothing changes; a
missing or edited drawing is said when the design opens. Every edit is one undo step."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from model.files.design_file import save_design
from tests.gui.conftest import click, close_quietly, double_click, drag, make_window, snapshot
from tests.gui.test_canvas_editing import undo_redo_roundtrip

DXF = Path(__file__).resolve().parents[1] / "data" / "underlay-hall.dxf"


@pytest.fixture
def beside(window, tmp_path):
    """The test DXF copied beside the open design file."""
    shutil.copy(DXF, tmp_path / "underlay-hall.dxf")
    return window


def import_dxf(qtbot, window, typed: str, unchecked=("DOORS",)):
    window.underlay_actions.import_action.trigger()
    dialog = window.underlay_actions.dialog
    qtbot.waitExposed(dialog)
    focus(qtbot, dialog, dialog.path_edit)
    qtbot.keyClicks(dialog.path_edit, typed)
    qtbot.keyClick(dialog.path_edit, Qt.Key_Return)
    for i in range(dialog.layers.count()):
        item = dialog.layers.item(i)
        if item.text() in unchecked:
            item.setCheckState(Qt.Unchecked)
    return dialog


def focus(qtbot, dialog, widget) -> None:
    """The dialog active and ``widget`` focused, as the user's click on it makes them (else
    Return goes to the plan's own Return shortcut: the offscreen platform activates nothing)."""
    dialog.activateWindow()
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus)


def press_ok(qtbot, buttons: QDialogButtonBox) -> None:
    qtbot.mouseClick(buttons.button(QDialogButtonBox.Ok), Qt.LeftButton)
    QApplication.processEvents()


def test_import_calibrate_and_trace_an_outline_and_a_column(beside, qtbot):
    window = beside
    design = window.document.design
    before = snapshot(window)
    dialog = import_dxf(qtbot, window, "underlay-hall.dxf")
    assert [dialog.layers.item(i).text() for i in range(dialog.layers.count())] == [
        "WALLS",
        "COLUMNS",
        "TRAYS",
        "DOORS",
    ]
    assert "20.00 m × 12.00 m" in dialog.info.text()
    press_ok(qtbot, dialog.buttons)
    underlay = design.hall.underlay
    assert underlay is not None
    assert underlay.path == "underlay-hall.dxf"  # relative: it sits beside the design
    assert underlay.layers == ("WALLS", "COLUMNS", "TRAYS")
    assert underlay.scale_m == 0.001  # the DXF says millimetres
    assert window.scene.underlay.item.line_count == 4 + 16 + 2  # no door arc
    assert window.document.stack.undoText() == "Import underlay"
    undo_redo_roundtrip(window, before)
    imported = snapshot(window)

    # Calibrate: the tray line's ends, (1, 6) and (19, 6), are 18 m apart; say 9 m.
    window.view.zoom_to(QRectF(-1.0, -1.0, 22.0, 14.0))
    window.underlay_actions.calibrate_action.trigger()
    assert window.mode_label.text().strip() == "Calibrate underlay mode"
    click(window.view, 1.04, 6.05)  # both clicks snap to the line's ends
    click(window.view, 18.93, 5.96)
    calibrate = window.scene._interaction.dialog
    qtbot.waitExposed(calibrate)
    assert calibrate.distance_m == pytest.approx(18.0)  # offered: the distance as drawn
    focus(qtbot, calibrate, calibrate.distance)
    calibrate.distance.lineEdit().selectAll()
    qtbot.keyClicks(calibrate.distance.lineEdit(), "9")
    press_ok(qtbot, calibrate.buttons)
    halved = design.hall.underlay
    assert halved.scale_m == pytest.approx(0.0005)
    assert (halved.origin_x_m, halved.origin_y_m) == pytest.approx((0.5, 9.0))  # about (1, 6)
    assert window.document.stack.undoText() == "Calibrate underlay"
    assert window.mode_label.text().strip() == "Select mode"
    undo_redo_roundtrip(window, imported)
    window.document.stack.undo()  # back to the true scale to trace
    assert design.hall.underlay == underlay

    # Trace the walls: clicks a little off each corner land on the drawing's corners, which
    # are not on the 0.6 m tile grid (20 m / 0.6 m is not whole).
    window.set_mode("outline")
    for x, y in ((0.1, -0.08), (19.93, 0.07), (20.06, 11.9)):
        click(window.view, x, y)
    double_click(window.view, -0.05, 12.08)
    assert design.hall.outline == [(0.0, 0.0), (20.0, 0.0), (20.0, 12.0), (0.0, 12.0)]
    assert window.document.stack.undoText() == "Draw hall outline"
    undo_redo_roundtrip(window, imported)

    # A column: a rectangle dragged from near one corner to near the opposite one.
    traced = snapshot(window)
    window.set_mode("obstacle")
    drag(window.view, (14.76, 2.64), (15.24, 3.37))
    (column,) = design.hall.obstacles
    corners = [c for point in column.polygon for c in point]
    assert corners == pytest.approx([14.7, 2.7, 15.3, 2.7, 15.3, 3.3, 14.7, 3.3])
    undo_redo_roundtrip(window, traced)


def test_hidden_underlay_is_not_snapped_to_and_opacity_is_the_users(beside, qtbot):
    window = beside
    press_ok(qtbot, import_dxf(qtbot, window, "underlay-hall.dxf").buttons)
    layer = window.scene.underlay
    assert layer.item.opacity() == 0.5
    window.underlay_actions.opacity_actions[0.25].trigger()
    assert layer.item.opacity() == 0.25
    window.underlay_actions.show_action.trigger()
    assert not layer.item.isVisible()
    window.set_mode("tray")
    click(window.view, 1.04, 6.05)
    click(window.view, 4.1, 6.05)
    qtbot.keyClick(window.view, Qt.Key_Return)
    tray = window.document.design.trays[window.scene.selected_ids()[0]]
    assert tray.points == [(0.9, 6.0), (4.2, 6.0)]  # half tiles, not the drawing's (1, 6)


def test_a_bad_drawing_is_a_sentence_and_nothing_changes(beside, qtbot, tmp_path):
    window = beside
    before = snapshot(window)
    (tmp_path / "broken.dxf").write_bytes(b"0\nSECTION\n2\nENTITIES\n0\nLINE\n10\nnot a number\n")
    dialog = import_dxf(qtbot, window, "broken.dxf")
    assert "broken.dxf" in dialog.info.text() and "DXF" in dialog.info.text()
    assert not dialog.buttons.button(QDialogButtonBox.Ok).isEnabled()
    dialog.path_edit.clear()
    qtbot.keyClicks(dialog.path_edit, "plan.pdf")
    qtbot.keyClick(dialog.path_edit, Qt.Key_Return)
    assert "plan.pdf cannot be read" in dialog.info.text()  # no such file beside the design
    dialog.reject()
    assert snapshot(window) == before
    assert window.document.stack.count() == 0


def test_a_missing_or_changed_drawing_is_said_when_the_design_opens(beside, qtbot, tmp_path):
    window = beside
    press_ok(qtbot, import_dxf(qtbot, window, "underlay-hall.dxf").buttons)
    path = window.document.path
    save_design(window.document.design, path)
    close_quietly(window)
    drawing = tmp_path / "underlay-hall.dxf"
    drawing.write_bytes(drawing.read_bytes() + b"999\nedited by the architect\n")
    reopened = make_window(qtbot, tmp_path, path)
    try:
        label = reopened.underlay_actions.status_label.text()
        assert "has changed since it was placed" in label
        assert reopened.scene.underlay.item.line_count == 22  # still drawn, its layers kept
    finally:
        close_quietly(reopened)
    drawing.unlink()
    reopened = make_window(qtbot, tmp_path, path)
    try:
        label = reopened.underlay_actions.status_label.text()
        assert "underlay-hall.dxf is missing" in label
        assert reopened.scene.underlay.item.line_count == 0
    finally:
        close_quietly(reopened)


def test_save_as_elsewhere_keeps_the_drawing_found(beside, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    window = beside
    press_ok(qtbot, import_dxf(qtbot, window, "underlay-hall.dxf").buttons)
    other = tmp_path / "elsewhere" / "copy.hall.json"
    other.parent.mkdir()
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(other), ""))
    )
    window.save_as_action.trigger()
    assert window.document.path == other
    assert window.document.design.hall.underlay.path == "../underlay-hall.dxf"
    assert b'"path":"../underlay-hall.dxf"' in other.read_bytes()
    assert window.scene.underlay.item.line_count == 22  # still found from the new folder
    assert window.underlay_actions.status_label.text() == ""


def test_align_the_drawing_by_a_corner_and_choose_its_layers_again(beside, qtbot):
    window = beside
    design = window.document.design
    press_ok(qtbot, import_dxf(qtbot, window, "underlay-hall.dxf").buttons)
    imported = snapshot(window)
    placed = design.hall.underlay
    window.view.zoom_to(QRectF(-1.0, -1.0, 22.0, 14.0))
    window.underlay_actions.align_action.trigger()
    assert window.mode_label.text().strip() == "Align underlay mode"
    click(window.view, 0.06, 11.95)  # the drawing's bottom-left wall corner (snapped)
    click(window.view, 1.23, 8.35)  # where it belongs: the hall's corner (1.2, 8.4) by tiles
    moved = design.hall.underlay
    assert (moved.origin_x_m - placed.origin_x_m, moved.origin_y_m - placed.origin_y_m) == (
        pytest.approx(1.2),
        pytest.approx(-3.6),
    )
    assert window.document.stack.undoText() == "Align underlay"
    assert window.mode_label.text().strip() == "Select mode"
    undo_redo_roundtrip(window, imported)

    aligned = snapshot(window)
    window.underlay_actions.layers_action.trigger()
    dialog = window.underlay_actions.layers_dialog
    qtbot.waitExposed(dialog)
    checked = {
        dialog.layers.item(i).text(): dialog.layers.item(i).checkState() == Qt.Checked
        for i in range(dialog.layers.count())
    }
    assert checked == {"WALLS": True, "COLUMNS": True, "TRAYS": True, "DOORS": False}
    for i in range(dialog.layers.count()):
        if dialog.layers.item(i).text() in ("TRAYS", "COLUMNS"):
            dialog.layers.item(i).setCheckState(Qt.Unchecked)
    press_ok(qtbot, dialog.buttons)
    assert design.hall.underlay.layers == ("WALLS",)
    assert window.scene.underlay.item.line_count == 4
    assert window.document.stack.undoText() == "Choose underlay layers"
    undo_redo_roundtrip(window, aligned)


def test_the_inspector_names_the_drawing_its_scale_and_layers(beside, qtbot):
    window = beside
    press_ok(qtbot, import_dxf(qtbot, window, "underlay-hall.dxf").buttons)
    window.scene.clearSelection()
    window.inspector.rebuild()
    from PySide6.QtWidgets import QLabel

    texts = [label.text() for label in window.inspector.findChildren(QLabel)]
    assert "underlay-hall.dxf: 1 mm a drawing unit; WALLS, COLUMNS, TRAYS" in texts


def test_render_draws_the_building_under_the_plan_when_found(qapp, tmp_path):
    """``main.py render`` of the golden v4 design beside its DXF (walls and columns shown): the
    drawing's lines are in the picture; with the DXF gone, the picture is the plan alone."""
    from PySide6.QtGui import QImage

    from cli import run_cli

    design = tmp_path / "hall.hall.json"
    shutil.copy(DXF.parent / "golden-v4.hall.json", design)
    shutil.copy(DXF, tmp_path / "underlay-hall.dxf")

    def render(name: str) -> QImage:
        out = tmp_path / name
        assert run_cli(["render", str(design), "-o", str(out), "--width", "1200"]) == 0
        return QImage(str(out))

    with_drawing = render("with.png")
    (tmp_path / "underlay-hall.dxf").unlink()
    without = render("without.png")
    assert with_drawing.size() == without.size()
    differ = sum(
        with_drawing.pixel(x, y) != without.pixel(x, y)
        for y in range(0, without.height(), 2)
        for x in range(0, without.width(), 2)
    )
    # The walls beyond the hall (its right, its bottom) and a column below it, every other
    # pixel: a few hundred; the date in the footer is the same in both.
    assert differ > 150, differ


def test_print_puts_the_building_under_the_plan(beside, qtbot, tmp_path):
    """File > Print to a PDF printer with the underlay shown: the page is written (the same
    picture as the export, drawn with the building's lines)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtPrintSupport import QPrintDialog, QPrinter

    from gui.actions.print_plan import print_plan

    window = beside
    press_ok(qtbot, import_dxf(qtbot, window, "underlay-hall.dxf").buttons)
    printer = QPrinter(QPrinter.HighResolution)
    printer.setOutputFormat(QPrinter.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))

    def accept() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QPrintDialog):
            QTimer.singleShot(50, accept)
            return
        dialog.accept()

    QTimer.singleShot(0, accept)
    assert print_plan(window, printer)
    assert (tmp_path / "printed.pdf").read_bytes().startswith(b"%PDF")
