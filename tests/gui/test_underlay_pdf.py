"""A PDF page under the plan, driven like a user: File > Import Underlay, type the PDF's name,
choose its second sheet in the dialog, OK; calibrate it by two clicks snapped to the page's
corners and a typed distance; trace trays snapped to the page's edge and to its drawn walls; a damaged or missing PDF is said
when the design opens; the rendered plan shows the page. Every edit is one undo step."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import qGray
from PySide6.QtWidgets import QDialogButtonBox, QLabel

from model.design.underlay import PDF_POINT_M, PDF_START_RATIO
from model.files.design_file import save_design
from model.files.underlay_file import file_sha256
from tests.gui.conftest import click, close_quietly, make_window, snapshot
from tests.gui.test_canvas_editing import undo_redo_roundtrip
from tests.gui.test_underlay import focus, press_ok
from tests.pdf_pages import A3_LANDSCAPE, plan_pdf, write_pdf

START_SCALE_M = PDF_POINT_M * PDF_START_RATIO  # 1:100 on paper
PAGE_W_M, PAGE_H_M = A3_LANDSCAPE[0] * START_SCALE_M, A3_LANDSCAPE[1] * START_SCALE_M


@pytest.fixture
def with_plan(window, tmp_path):
    """A two-sheet PDF (a cover, then the floor plan) beside the open design file."""
    plan_pdf(tmp_path / "plan.pdf")
    return window


def import_second_sheet(qtbot, window):
    """File > Import Underlay, the PDF's name typed, its second sheet chosen by the keyboard."""
    window.underlay_actions.import_action.trigger()
    dialog = window.underlay_actions.dialog
    qtbot.waitExposed(dialog)
    focus(qtbot, dialog, dialog.path_edit)
    qtbot.keyClicks(dialog.path_edit, "plan.pdf")
    qtbot.keyClick(dialog.path_edit, Qt.Key_Return)
    assert dialog.page_box.isVisible()  # several sheets: the dialog asks which
    assert [dialog.page_box.itemText(i) for i in range(dialog.page_box.count())] == [
        "Page 1: 210 × 297 mm",
        "Page 2: 420 × 297 mm",
    ]
    assert dialog.info.text().startswith("Page 1 of 2: 210 × 297 mm, drawn at 200 dpi")
    focus(qtbot, dialog, dialog.page_box)
    qtbot.keyClick(dialog.page_box, Qt.Key_Down)
    assert dialog.info.text().startswith(
        "Page 2 of 2: 420 × 297 mm, drawn at 200 dpi (3,309 × 2,339 pixels). "
        "Placed at 1:100 (42.0 m × 29.7 m)"
    )
    return dialog


def test_import_a_pdf_sheet_calibrate_it_and_trace_over_it(with_plan, qtbot, tmp_path):
    window = with_plan
    design = window.document.design
    before = snapshot(window)
    outline = design.hall.outline
    corner = (min(x for x, _ in outline), min(y for _, y in outline))
    press_ok(qtbot, import_second_sheet(qtbot, window).buttons)
    underlay = design.hall.underlay
    assert underlay is not None
    assert (underlay.kind, underlay.page, underlay.path) == ("pdf", 2, "plan.pdf")
    assert underlay.sha256 == file_sha256(tmp_path / "plan.pdf")
    assert underlay.scale_m == pytest.approx(START_SCALE_M)
    assert (underlay.origin_x_m, underlay.origin_y_m) == pytest.approx(corner)
    assert window.document.stack.undoText() == "Import underlay"
    item = window.scene.underlay.item
    assert (item._image.width(), item._image.height()) == (3309, 2339)
    # Halved in the dialog's worker, so the first zoom-out does not block the GUI.
    assert [level.width() for level in item._levels] == [3309, 1654, 827, 413, 206, 103]
    shown = item.sceneBoundingRect()
    assert (shown.width(), shown.height()) == (pytest.approx(PAGE_W_M), pytest.approx(PAGE_H_M))
    undo_redo_roundtrip(window, before)
    imported = snapshot(window)

    window.scene.clearSelection()
    window.inspector.rebuild()
    texts = [label.text() for label in window.inspector.findChildren(QLabel)]
    assert "plan.pdf, page 2: 1:100 on paper (35.28 mm a point)" in texts

    # Calibrate: the page's top corners (snapped: a raster has no lines, its edges do) are
    # 420 mm apart on paper, 42.0 m at 1:100; the architect says the sheet is at 1:200.
    ox, oy = corner
    window.view.zoom_to(QRectF(ox - 2.0, oy - 2.0, PAGE_W_M + 4.0, PAGE_H_M + 4.0))
    window.underlay_actions.calibrate_action.trigger()
    click(window.view, ox + 0.25, oy - 0.2)
    click(window.view, ox + PAGE_W_M - 0.3, oy + 0.15)
    calibrate = window.scene._interaction.dialog
    qtbot.waitExposed(calibrate)
    assert calibrate.distance_m == pytest.approx(PAGE_W_M, abs=1e-3)  # as drawn, to the mm
    focus(qtbot, calibrate, calibrate.distance)
    calibrate.distance.lineEdit().selectAll()
    qtbot.keyClicks(calibrate.distance.lineEdit(), f"{2 * PAGE_W_M:.4f}")
    press_ok(qtbot, calibrate.buttons)
    doubled = design.hall.underlay
    assert doubled.scale_m == pytest.approx(2 * START_SCALE_M, rel=1e-5)
    assert (doubled.origin_x_m, doubled.origin_y_m) == pytest.approx(corner)  # first click
    assert window.scene.underlay.item.sceneBoundingRect().width() == pytest.approx(
        2 * PAGE_W_M, rel=1e-5
    )
    assert window.document.stack.undoText() == "Calibrate underlay"
    undo_redo_roundtrip(window, imported)
    window.document.stack.undo()

    # Trace: a tray started near the page's corner starts on it, off the 0.6 m tile grid.
    window.set_mode("tray")
    click(window.view, ox + PAGE_W_M - 0.2, oy + 0.25)
    click(window.view, ox + PAGE_W_M - 0.15, oy + 6.1)
    qtbot.keyClick(window.view, Qt.Key_Return)
    tray = design.trays[window.scene.selected_ids()[0]]
    assert tray.points[0] == pytest.approx((ox + PAGE_W_M, oy), abs=1e-6)
    assert tray.points[1][0] == pytest.approx(ox + PAGE_W_M, abs=1e-6)  # onto the page's edge
    assert tray.points[1][1] == pytest.approx(oy + 6.1, abs=0.05)  # where clicked along it

    # The sheet's own lines (the PDF's vector paths): a tray traced from near the walls'
    # top-left corner starts on it, and its second point lands on the top wall.
    inset = 100 * START_SCALE_M
    click(window.view, ox + inset + 0.2, oy + inset - 0.15)
    click(window.view, ox + 12.1, oy + inset + 0.2)
    qtbot.keyClick(window.view, Qt.Key_Return)
    tray = design.trays[window.scene.selected_ids()[0]]
    assert tray.points[0] == pytest.approx((ox + inset, oy + inset), abs=1e-6)
    assert tray.points[1][1] == pytest.approx(oy + inset, abs=1e-6)


def test_a_damaged_or_missing_pdf_is_said_when_the_design_opens(with_plan, qtbot, tmp_path):
    window = with_plan
    press_ok(qtbot, import_second_sheet(qtbot, window).buttons)
    path = window.document.path
    save_design(window.document.design, path)
    close_quietly(window)
    plan = tmp_path / "plan.pdf"
    plan.write_bytes(plan.read_bytes()[:200])  # cut short, as a failed copy leaves it
    reopened = make_window(qtbot, tmp_path, path)
    try:
        label = reopened.underlay_actions.status_label.text()
        assert "plan.pdf is not a readable PDF" in label
        assert reopened.scene.underlay.item.sceneBoundingRect().isEmpty()
    finally:
        close_quietly(reopened)
    plan.unlink()
    reopened = make_window(qtbot, tmp_path, path)
    try:
        assert "plan.pdf is missing" in reopened.underlay_actions.status_label.text()
    finally:
        close_quietly(reopened)


def test_a_damaged_pdf_in_the_dialog_is_a_sentence_and_nothing_changes(window, qtbot, tmp_path):
    before = snapshot(window)
    (tmp_path / "scan.pdf").write_bytes(b"%PDF-1.4\nnot a page at all\n")
    window.underlay_actions.import_action.trigger()
    dialog = window.underlay_actions.dialog
    qtbot.waitExposed(dialog)
    focus(qtbot, dialog, dialog.path_edit)
    qtbot.keyClicks(dialog.path_edit, "scan.pdf")
    qtbot.keyClick(dialog.path_edit, Qt.Key_Return)
    assert "scan.pdf is not a readable PDF" in dialog.info.text()
    assert not dialog.buttons.button(QDialogButtonBox.Ok).isEnabled()
    assert not dialog.page_box.isVisible()
    dialog.reject()
    assert snapshot(window) == before
    assert window.document.stack.count() == 0


def test_render_draws_the_pdf_page_under_the_plan(with_plan, qtbot, tmp_path):
    """``main.py render`` of a design with the PDF sheet under it: the page's lines are in
    the picture (kept in tmp as plan-with-pdf.png to look at); without the PDF, the plan alone."""
    from PySide6.QtGui import QImage

    from cli import run_cli

    window = with_plan
    press_ok(qtbot, import_second_sheet(qtbot, window).buttons)
    path = window.document.path
    save_design(window.document.design, path)

    def render(name: str) -> QImage:
        out = tmp_path / name
        assert run_cli(["render", str(path), "-o", str(out), "--width", "1200"]) == 0
        return QImage(str(out))

    with_page = render("plan-with-pdf.png")
    Path(tmp_path / "plan.pdf").unlink()
    without = render("plan-alone.png")
    assert with_page.size() == without.size()
    differ = sum(
        with_page.pixel(x, y) != without.pixel(x, y)
        for y in range(0, without.height(), 2)
        for x in range(0, without.width(), 2)
    )
    assert differ > 150, differ


def test_every_line_of_the_page_shows_when_zoomed_out_to_the_sheet(with_plan, qtbot):
    """The sheet zoomed out to fit (3,309 pixels drawn in ~420): its four walls and the tray
    each show as a darker line than the paper beside it. Sampling the full image alone (no
    halved levels) lost two walls of four."""
    window = with_plan
    press_ok(qtbot, import_second_sheet(qtbot, window).buttons)
    underlay = window.document.design.hall.underlay
    ox, oy = underlay.origin_x_m, underlay.origin_y_m
    window.view.zoom_to(QRectF(ox - 1.0, oy - 1.0, PAGE_W_M + 2.0, PAGE_H_M + 2.0))
    qtbot.wait(20)
    picture = window.view.viewport().grab().toImage()
    inset = 100 * START_SCALE_M  # the walls are drawn 100 pt inside the page's edges

    def darkest(x_m: float, y_m: float) -> int:
        at = window.view.mapFromScene(x_m, y_m)
        return min(
            qGray(picture.pixel(at.x() + dx, at.y() + dy))
            for dx in range(-3, 4)
            for dy in range(-3, 4)
        )

    third_w, third_h = ox + PAGE_W_M / 3, oy + PAGE_H_M / 3
    lines = {
        "left wall": (ox + inset, third_h),
        "right wall": (ox + PAGE_W_M - inset, third_h),
        "top wall": (third_w, oy + inset),
        "bottom wall": (third_w, oy + PAGE_H_M - inset),
        "tray": (ox + PAGE_W_M / 2, oy + PAGE_H_M / 2),
    }
    paper = darkest(ox + PAGE_W_M * 0.6, oy + PAGE_H_M * 0.7)
    shown = {name: paper - darkest(*at) for name, at in lines.items()}
    assert all(contrast >= 30 for contrast in shown.values()), (paper, shown)


def test_a_hidden_sheet_is_not_snapped_to_and_its_opacity_is_the_users(with_plan, qtbot):
    window = with_plan
    press_ok(qtbot, import_second_sheet(qtbot, window).buttons)
    underlay = window.document.design.hall.underlay
    ox, oy = underlay.origin_x_m, underlay.origin_y_m
    layer = window.scene.underlay
    window.underlay_actions.opacity_actions[0.75].trigger()
    assert layer.item.opacity() == 0.75
    assert window.document.design.hall.underlay == underlay  # a view setting, not the design
    window.underlay_actions.show_action.trigger()
    assert not layer.item.isVisible()
    window.view.zoom_to(QRectF(ox - 2.0, oy - 2.0, PAGE_W_M + 4.0, PAGE_H_M + 4.0))
    window.set_mode("tray")
    click(window.view, ox + PAGE_W_M - 0.2, oy + 0.25)
    click(window.view, ox + PAGE_W_M - 0.15, oy + 6.1)
    qtbot.keyClick(window.view, Qt.Key_Return)
    tray = window.document.design.trays[window.scene.selected_ids()[0]]
    assert tray.points[0][0] != pytest.approx(ox + PAGE_W_M, abs=0.01)  # the grid, not the page
    assert round(tray.points[0][0] / 0.3, 6) == round(tray.points[0][0] / 0.3)  # half tiles


def test_a_sheet_saved_turned_is_shown_upright_and_traced_on_its_walls(window, qtbot, tmp_path):
    """The plan sheet saved with /Rotate 90 (a portrait page showing the landscape plan, as a
    PDF viewer turns it): the underlay stands as the viewer shows it, 297 mm across and 420 mm
    down, and a tray traced near the walls snaps onto them where they are drawn."""
    w, h = A3_LANDSCAPE
    walls = [(100, 100, w - 100, 100), (w - 100, 100, w - 100, h - 100)]
    walls += [(w - 100, h - 100, 100, h - 100), (100, h - 100, 100, 100)]
    write_pdf(tmp_path / "turned.pdf", [(w, h, walls)], rotate=90)
    design = window.document.design
    outline = design.hall.outline
    ox, oy = min(x for x, _ in outline), min(y for _, y in outline)
    window.underlay_actions.import_action.trigger()
    dialog = window.underlay_actions.dialog
    qtbot.waitExposed(dialog)
    focus(qtbot, dialog, dialog.path_edit)
    qtbot.keyClicks(dialog.path_edit, "turned.pdf")
    qtbot.keyClick(dialog.path_edit, Qt.Key_Return)
    assert dialog.info.text().startswith("Page 1 of 1: 297 × 420 mm")
    press_ok(qtbot, dialog.buttons)
    shown = window.scene.underlay.item.sceneBoundingRect()
    assert (shown.width(), shown.height()) == (
        pytest.approx(h * START_SCALE_M),
        pytest.approx(w * START_SCALE_M),
    )
    # The walls, turned with the page: still 100 pt inside every edge of the sheet as shown.
    inset = 100 * START_SCALE_M
    window.view.zoom_to(QRectF(ox - 2.0, oy - 2.0, h * START_SCALE_M + 4.0, 20.0))
    window.set_mode("tray")
    click(window.view, ox + inset + 0.2, oy + inset - 0.15)
    click(window.view, ox + 12.1, oy + inset + 0.2)
    qtbot.keyClick(window.view, Qt.Key_Return)
    tray = design.trays[window.scene.selected_ids()[0]]
    assert tray.points[0] == pytest.approx((ox + inset, oy + inset), abs=1e-6)
    assert tray.points[1][1] == pytest.approx(oy + inset, abs=1e-6)
    # the right-hand wall as shown: the unturned sheet's top wall, turned down the right side
    right = ox + (h - 100) * START_SCALE_M
    click(window.view, right - 0.2, oy + 6.05)
    click(window.view, right + 0.15, oy + 9.0)
    qtbot.keyClick(window.view, Qt.Key_Return)
    tray = design.trays[window.scene.selected_ids()[0]]
    assert [x for x, _ in tray.points] == pytest.approx([right, right], abs=1e-6)
