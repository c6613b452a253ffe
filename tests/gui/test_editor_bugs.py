"""Regression tests for the walkthrough's bugs (issue 16), each driven with real input events:
clicks, drags, key presses and drops on the canvas, the way a user hits them."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QKeySequence, QRegion
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from gui.canvas.link_item import LinkItem
from model.files.design_file import save_design
from tests.builders import device, link, rack, small_pod
from tests.gui.conftest import (
    click,
    close_quietly,
    double_click,
    drag,
    make_window,
    view_point,
    wait_until_idle,
)
from tests.gui.test_canvas_editing import drop_type


def _l_shaped_pod(tmp_path):
    """The small pod plus rack R9 at the far end of the cross tray, and one cable a1 -> leaf9
    that runs along the row tray and turns down the cross tray: an L-shaped route."""
    design = small_pod()
    rack(design, "r9", 6.6, 6.0)
    device(design, "leaf9", "r9", 20, "qm9700", role="leaf")
    device(design, "a3", "r1", 30, "dgx-h100")
    link(design, "l-far", ("a3", "nic1"), ("leaf9", "p1"))
    design.revision = 0
    path = tmp_path / "l-pod.hall.json"
    save_design(design, path)
    return path


def test_bug1_selected_link_paints_a_line_not_a_filled_polygon(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, _l_shaped_pod(tmp_path))
    try:
        view = window.view
        click(view, 6.6, 6.0)  # rack R9: its one cable is drawn
        QApplication.processEvents()
        assert "l-far" in window.scene.link_items
        route = window.scene.link_points("l-far")
        assert len(route) >= 3, route  # the L: along the row, down the cross tray
        # A point inside the L's corner triangle, away from every rack, tray and the cable.
        inside = view_point(view, 4.8, 4.2).toPoint()
        before = view.viewport().grab().toImage().pixelColor(inside)
        click(view, 6.0, 4.8)  # on the cable where it runs down the cross tray
        QApplication.processEvents()
        item = window.scene.link_items["l-far"]
        assert isinstance(item, LinkItem) and item.isSelected()
        after = view.viewport().grab().toImage().pixelColor(inside)
        assert after == before, (before.name(), after.name())
    finally:
        close_quietly(window)


def test_bug2_ctrl_d_duplicates_even_where_delete_is_also_bound_to_ctrl_d(
    qtbot, tmp_path, pod_file, monkeypatch
):
    # Qt's X11 key bindings (the table in QKeySequence's docs) map Delete to Del and Ctrl+D.
    real = QKeySequence.keyBindings

    def x11_bindings(key):
        if key == QKeySequence.StandardKey.Delete:
            return [QKeySequence(Qt.Key_Delete), QKeySequence("Ctrl+D")]
        return real(key)

    monkeypatch.setattr(QKeySequence, "keyBindings", staticmethod(x11_bindings))
    window = make_window(qtbot, tmp_path, pod_file)
    try:
        design = window.document.design
        click(window.view, 1.5, 3.0)
        racks_before = len(design.racks)
        qtbot.keyClick(window.view, Qt.Key_D, Qt.ControlModifier)
        assert len(design.racks) == racks_before + 1
        assert "r1" in design.racks
        assert window.document.stack.undoText().startswith("Duplicate")
    finally:
        close_quietly(window)


def test_bug3_click_on_plan_takes_keyboard_so_esc_stops_placing(window, qtbot):
    tree = window.palette.tree
    item = window.palette.item_for("rack:rack-52u-800x1200")
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=tree.visualItemRect(item).center())
    assert window.mode_label.text().strip() == "Place rack mode"
    window.palette.filter.setFocus()  # the user goes on using the catalog
    click(window.view, 9.0, 7.0)  # places a rack; the plan now has the keyboard
    assert window.view.hasFocus()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Escape)
    assert window.mode_label.text().strip() == "Select mode"


def test_bug3_return_opens_the_elevation_of_a_rack_dropped_from_the_catalog(window, qtbot):
    window.palette.tree.setFocus()
    drop_type(window.view, "rack:rack-48u-600x1200", 6.13, 6.07)
    new = window.scene.selected_ids()
    assert len(new) == 1
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Return)
    assert window.elevation.rack_id == new[0] and window.elevation_dock.isVisible()


class _PaintLog(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.region = QRegion()

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Paint:
            self.region = self.region.united(event.region())
        return False


def test_bug5_panning_with_the_middle_button_repaints_the_legend(window, qtbot):
    view = window.view
    view.zoom(4.0)
    log = _PaintLog()
    view.viewport().installEventFilter(log)
    try:
        wait_until_idle(qtbot)  # the zoom's own repaint is done
        log.region = QRegion()
        centre = view.mapToScene(view.viewport().rect().center())
        shift_m = 10 / view.scale_factor()  # 10 px up and left: the plan's pixels scroll
        end = (centre.x() - shift_m, centre.y() - shift_m)
        drag(view, (centre.x(), centre.y()), end, steps=6, button=Qt.MiddleButton)
        wait_until_idle(qtbot)
        rect = view.viewport().rect()
        # Inside the legend box (bottom left), near its top: outside the strip
        # the scroll exposes, so only a repaint of the legend itself paints it afresh.
        inside_legend = QPoint(rect.left() + 100, rect.bottom() - 110)
        assert log.region.contains(inside_legend)
    finally:
        view.viewport().removeEventFilter(log)


def test_bug6_inspector_fits_its_dock_for_a_link(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, _l_shaped_pod(tmp_path))
    try:
        click(window.view, 6.6, 6.0)
        QApplication.processEvents()
        click(window.view, 6.0, 4.8)  # the cable down the cross tray
        qtbot.waitUntil(lambda: "medium" in window.inspector.fields)
        inspector = window.inspector
        viewport = inspector.scroll.viewport()

        def fits() -> None:
            assert not inspector.scroll.horizontalScrollBar().isVisible()
            assert inspector.form_host.width() <= viewport.width()
            for key, field in inspector.fields.items():
                right = field.mapTo(viewport, QPoint(field.width(), 0)).x()
                assert right <= viewport.width(), (key, right, viewport.width())
            labels = [w for w in inspector.form_host.findChildren(QLabel) if w.isVisible()]
            pieces = next(w for w in labels if "vertical B" in w.text())
            assert pieces.mapTo(viewport, QPoint(pieces.width(), 0)).x() <= viewport.width()

        # Once the new form's layout has run: one turn of the event loop was not always enough
        # on a loaded machine (the field still at its own width, 640 px in a 288 px dock).
        qtbot.waitUntil(fits, timeout=5000)
    finally:
        close_quietly(window)


def test_bug7_double_click_on_selected_rack_opens_it_not_its_cable(window):
    click(window.view, 1.5, 3.0)  # select R1: its cables are drawn, dropping at its centre
    QApplication.processEvents()
    assert window.scene.link_items
    double_click(window.view, 1.5, 3.0)
    assert window.elevation.rack_id == "r1" and window.elevation_dock.isVisible()
    assert window.scene.selected_ids() == ["r1"]


def _pdf_picture_box(pdf: Path) -> tuple[float, float, float, float]:
    """(page width, page height, picture right, picture bottom) in PDF points, read from the
    page's content stream: Qt writes the device matrix, then the picture's scale and offset,
    then the white background rectangle as large as the whole picture."""
    data = pdf.read_bytes()
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    page_w, page_h = float(box.group(1)), float(box.group(2))
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            text = zlib.decompress(stream).decode("latin-1")
        except zlib.error:
            continue
        m = re.search(
            r"([-\d.]+) 0 0 ([-\d.]+) ([-\d.]+) ([-\d.]+) cm\s.*?"
            r"([-\d.]+) 0 0 ([-\d.]+) ([-\d.]+) ([-\d.]+) cm\s+0 0 (\d+) (\d+) re",
            text,
            re.S,
        )
        if m:
            dsx, dsy, dtx, dty, sx, sy, tx, ty, w, h = map(float, m.groups())
            right = dtx + dsx * (tx + sx * w)
            bottom = dty + dsy * (ty + sy * h)  # dsy < 0: PDF y grows upwards
            return page_w, page_h, right, bottom
    raise AssertionError("no picture in the PDF")


def test_bug4_render_pdf_keeps_the_whole_hall_legend_and_title_block_on_the_page(tmp_path):
    from cli import run_cli

    example = Path(__file__).resolve().parents[2] / "resources/examples/superpod-4su.hall.json"
    out = tmp_path / "plan.pdf"
    assert run_cli(["render", str(example), "-o", str(out)]) == 0
    page_w, page_h, right, bottom = _pdf_picture_box(out)
    margin_pt = 10 / 25.4 * 72
    assert right <= page_w - margin_pt + 0.5
    assert bottom >= margin_pt - 0.5, (bottom, margin_pt)  # the title block's bottom is on it


def test_bug8_analysis_counts_a_switch_dropped_into_a_rack_before_it_is_cabled(qtbot, tmp_path):
    from tests.gui.analysis_support import wait_fresh

    window = make_window(qtbot, tmp_path)  # the empty hall of a fresh start
    try:
        tree = window.palette.tree
        item = window.palette.item_for("rack:rack-48u-600x1200")
        qtbot.mouseClick(tree.viewport(), Qt.LeftButton, pos=tree.visualItemRect(item).center())
        click(window.view, 3.0, 3.0)
        qtbot.keyClick(window.view, Qt.Key_Escape)
        (rack_id,) = window.document.design.racks
        r = window.document.design.racks[rack_id]
        drop_type(window.view, "device:qm9700", r.x, r.y)
        assert len(window.document.design.devices) == 1
        wait_fresh(qtbot, window)
        panel = window.analysis_docks.panel
        assert panel.report.power_w["switches"] > 0
        detail = panel.tiles["gpus"].detail.text()
        assert "1 switch" in detail and "0 switches" not in detail, detail
    finally:
        close_quietly(window)


def test_bug9_new_and_quit_ask_before_dropping_a_generated_never_saved_design(
    window, qtbot, monkeypatch
):
    import gui.document.files as main_window_module
    from gui.dialogs.design_dialogs import NewHallDialog

    class ChooseLeafSpine(NewHallDialog):
        def exec(self):  # the person picks a template and a size, then OK
            self.template.setCurrentIndex(self.template.findData("leaf-spine"))
            self.nodes.setValue(4)
            return NewHallDialog.Accepted

    monkeypatch.setattr(main_window_module, "NewHallDialog", ChooseLeafSpine)
    window.new_action.trigger()
    generated = window.document
    assert generated.path is None and generated.design.links
    assert window.isWindowModified()
    asked = []

    def cancel(parent, title, text, *args):
        asked.append(text)
        return QMessageBox.Cancel

    monkeypatch.setattr(QMessageBox, "warning", cancel)
    window.close_action.trigger()  # File → Quit
    assert asked and window.isVisible()
    window.new_action.trigger()  # File → New
    assert len(asked) == 2 and window.document is generated


def test_bug10_one_short_cable_lights_only_the_stretch_of_tray_it_uses(
    qtbot, tmp_path, monkeypatch
):
    from gui.canvas import connect_interaction
    from model.design.entities import Tray
    from tests.builders import empty_hall

    design = empty_hall()
    design.add_trays([Tray(id="t-l", points=[(0.6, 3.0), (6.0, 3.0), (6.0, 7.8)])])
    rack(design, "r1", 1.5, 3.0)
    rack(design, "n1", 3.9, 3.0)
    device(design, "s1", "r1", 2, "dgx-h100")
    device(design, "leaf1", "n1", 20, "qm9700", role="leaf")
    design.revision = 0
    path = tmp_path / "l-tray.hall.json"
    save_design(design, path)
    window = make_window(qtbot, tmp_path, path)
    try:
        picks = iter([("s1", "nic"), "leaf1"])

        def pick(options, screen_pos):  # the user picks in the popup menus of connect mode
            wanted = next(picks)
            return next(v for _t, v in options if v == wanted or (v[0], v[1][:3]) == wanted)

        monkeypatch.setattr(connect_interaction, "choose", pick)
        qtbot.keyClick(window.view, Qt.Key_C)
        click(window.view, 1.5, 3.0)
        click(window.view, 3.9, 3.0)
        assert len(window.document.design.links) == 1
        scene = window.scene
        qtbot.waitUntil(lambda: not scene.tray_load.busy and bool(scene.tray_load.counts))
        QApplication.processEvents()
        drawn = scene.bundle_item.boundingRect()
        assert drawn.width() > 1.0  # the run along the row is drawn
        assert drawn.bottom() < 4.5, drawn  # the leg down to y = 7.8 carries nothing
    finally:
        close_quietly(window)


def test_bug11_outline_mode_does_not_call_its_length_a_tray_length(window, qtbot):
    messages = []
    window.scene.message.connect(messages.append)
    qtbot.keyClick(window.view, Qt.Key_O)
    click(window.view, 0.6, 0.6)
    from tests.gui.conftest import mouse

    mouse(window.view, QEvent.MouseMove, 4.2, 0.6, buttons=Qt.NoButton)
    assert messages and not any("Tray" in m for m in messages), messages
    assert messages[-1].startswith("Outline so far 3.60 m")


def test_bug11_duplicate_of_one_rack_says_rack_not_racks(window, qtbot):
    click(window.view, 1.5, 3.0)
    qtbot.keyClick(window.view, Qt.Key_D, Qt.ControlModifier)
    assert window.document.stack.undoText() == "Duplicate 1 rack"


def test_bug11_kpi_values_of_a_large_hall_are_not_cut_off_at_the_default_window_size(
    qtbot, tmp_path
):
    import dataclasses

    from tests.benchmarks.workloads import build
    from tests.gui.analysis_support import close_quietly as close_analysis
    from tests.gui.analysis_support import open_window

    window = open_window(qtbot, tmp_path, build("S"))
    try:
        window.resize(1400, 900)  # MainWindow's default size
        qtbot.wait(100)
        docks = window.analysis_docks
        result = docks.runner.result
        # The XL hall's figures (131,072 GPUs): widths an S build cannot produce in a test.
        xl = dataclasses.replace(
            result.report, gpus=131_072, bisection_gbps=26_214_400.0, links_total=393_216
        )
        docks.panel.show_result(dataclasses.replace(result, report=xl))
        qtbot.wait(100)
        assert docks.panel.tiles["bisection"].value.text() == "26,214.4 Tb/s"
        _values_fit(docks.panel)
        for width in (400, 300):  # the user narrows the dock by its splitter
            rest = window.width() - width
            window.resizeDocks([docks.panel_dock, docks.details_dock], [width, rest], Qt.Horizontal)
            qtbot.wait(100)
            assert docks.panel.width() <= width + 40
            _values_fit(docks.panel)  # the tiles reflow into fewer columns, nothing is cut
    finally:
        close_analysis(window)


def _values_fit(panel) -> None:
    """Every KPI value is drawn whole, inside the panel (no clipped "26,214.4 Tb/")."""
    for key, tile in panel.tiles.items():
        value = tile.value
        needed = value.fontMetrics().horizontalAdvance(value.text())
        assert value.width() >= needed, (key, value.text(), value.width(), needed)
        right = value.mapTo(panel, QPoint(value.width(), 0)).x()
        assert right <= panel.width(), (key, value.text(), right, panel.width())


def test_bug11_length_histogram_key_never_covers_the_bars(qtbot, tmp_path):
    from tests.benchmarks.workloads import build
    from tests.gui.analysis_support import close_quietly as close_analysis
    from tests.gui.analysis_support import open_window

    window = open_window(qtbot, tmp_path, build("S"))
    try:
        tabs = window.analysis_docks.tabs
        bar = tabs.tabBar()
        index = next(i for i in range(tabs.count()) if tabs.tabText(i) == "Charts")
        qtbot.mouseClick(bar, Qt.LeftButton, pos=bar.tabRect(index).center())
        plot = window.analysis_docks.charts.lengths.plotItem
        # the key, above the plot area: the S hall's cables are all multimode fibre per cage
        qtbot.waitUntil(lambda: "multimode" in plot.titleLabel.text.lower())
        assert plot.legend is None  # nothing drawn inside the plot over the bars
    finally:
        close_analysis(window)
