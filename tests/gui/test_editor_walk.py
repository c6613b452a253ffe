"""Acceptance walk of issue 16 (second pass): what a user still saw cut or stale in a real
window, driven with real input events: a narrow inspector's link form, a restored layout."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QStyle

from tests.gui.conftest import click, close_quietly, make_window, wait_until_idle
from tests.gui.test_editor_bugs import _l_shaped_pod


def _text_fits(widget, text: str) -> bool:
    """The field shows ``text`` whole: its text area is at least as wide as the text."""
    area = widget.lineEdit() if hasattr(widget, "lineEdit") and widget.lineEdit() else widget
    return area.width() >= area.fontMetrics().horizontalAdvance(text)


def test_link_form_at_the_default_dock_width_shows_its_fields_whole(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, _l_shaped_pod(tmp_path))
    try:
        window.resizeDocks([window.inspector_dock], [300], Qt.Horizontal)
        QApplication.processEvents()
        click(window.view, 6.6, 6.0)
        QApplication.processEvents()
        click(window.view, 6.0, 4.8)  # the cable down the cross tray
        qtbot.waitUntil(lambda: "medium" in window.inspector.fields)
        # The analysis finishing rebuilds the form (a channel shown is shown again from the new
        # layout); its fields are laid out once the event loop has run after that rebuild.
        wait_until_idle(qtbot)
        QApplication.processEvents()
        fields = window.inspector.fields
        assert "medium" in fields
        assert window.inspector_dock.width() <= 320
        assert _text_fits(fields["length_override"], "none (use routed length) ")
        assert _text_fits(fields["as_built"], "not measured")
        medium = fields["medium"]
        width = (
            medium.style()
            .subControlRect(
                QStyle.CC_ComboBox,
                _combo_option(medium),
                QStyle.SC_ComboBoxEditField,
            )
            .width()
        )
        assert width >= medium.fontMetrics().horizontalAdvance(medium.currentText())
        viewport = window.inspector.scroll.viewport()
        for key, field in fields.items():
            right = field.mapTo(viewport, QPoint(field.width(), 0)).x()
            assert right <= viewport.width(), key
    finally:
        close_quietly(window)


def _combo_option(combo):
    from PySide6.QtWidgets import QStyleOptionComboBox

    option = QStyleOptionComboBox()
    option.initFrom(combo)
    option.rect = combo.rect()
    return option


def test_first_launch_fills_the_screen_and_a_later_run_keeps_its_own_size(qtbot, tmp_path):

    window = make_window(qtbot, tmp_path)
    try:
        layout = window.window_layout
        assert not layout.has_saved()
        window.resize(640, 480)
        layout.fill_screen()
        free = window.screen().availableGeometry()
        assert window.width() >= min(free.width(), int(free.width() * 0.9))
        assert window.height() >= min(free.height(), int(free.height() * 0.9))
        assert free.contains(window.geometry().center())
    finally:
        close_quietly(window)
    assert window.settings.value("window/geometry") is not None  # saved on close


def test_duplicate_lands_the_copy_on_free_floor_not_on_the_next_rack(window, qtbot):
    from model.design.rack_clashes import rack_clashes

    click(window.view, 1.5, 3.0)  # R1, with N1 and R2 beside it in the row
    QApplication.processEvents()
    qtbot.keyClick(window.view, Qt.Key_D, Qt.ControlModifier)
    design = window.document.design
    assert window.document.stack.undoText() == "Duplicate 1 rack"
    (copy,) = window.scene.selected_ids()
    assert copy in design.racks and copy != "r1"
    assert design.racks[copy].y == design.racks["r1"].y  # beside it, in the row's line
    assert rack_clashes(design, only=[copy]) == []


def test_a_wide_first_launch_window_shows_the_long_catalog_names_whole(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from gui.main_window import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    window = MainWindow(settings, tmp_path / "recovery")
    window.resize(1800, 1000)  # what fill_screen gives on a 1920 x 1080 screen
    window.show()
    qtbot.waitExposed(window)
    try:
        qtbot.waitUntil(lambda: window.palette_dock.width() >= 340, timeout=3000)
        tree = window.palette.tree
        for key in ("device:q3400", "device:dgx-h100", "device:qm9700"):
            item = window.palette.item_for(key)
            cell = tree.visualRect(tree.indexFromItem(item, 0))
            room = cell.width() - tree.iconSize().width() - 12
            assert tree.fontMetrics().horizontalAdvance(item.text(0)) <= room, item.text(0)
        plan = window.view.width() * window.view.height()
        assert plan > 0.38 * window.width() * window.height()
    finally:
        close_quietly(window)


def test_find_shows_the_object_among_its_neighbours_and_does_not_cover_it(window, qtbot):
    qtbot.keyClick(window.view, Qt.Key_F, Qt.ControlModifier)
    dialog = window.find_dialog
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.text)
    view = window.view
    assert not dialog.isWindow()  # docked beside the plan (issue 38): never over it
    qtbot.keyClicks(dialog.text, "R2")
    qtbot.keyClick(dialog.text, Qt.Key_Return)
    assert window.scene.selected_ids() == ["r2"]
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert shown.width() >= 7.9 and shown.height() >= 7.9  # its row around it
    r1 = window.document.design.racks["r1"]
    assert shown.contains(r1.x, r1.y)  # a neighbour in view
    rack = window.scene.item_for("r2").sceneBoundingRect()
    on_view = view.mapFromScene(rack).boundingRect()
    centre = view.viewport().mapToGlobal(on_view.center())
    box = dialog.rect().translated(dialog.mapToGlobal(dialog.rect().topLeft()))
    assert not box.contains(centre)
    dialog.close()


def test_hovering_and_right_clicking_a_drawn_cable(qtbot, tmp_path):
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    from tests.gui.conftest import view_point
    from tests.gui.test_editor_tools import right_click_and_choose

    window = make_window(qtbot, tmp_path, _l_shaped_pod(tmp_path))
    try:
        view = window.view
        click(view, 6.6, 6.0)  # rack R9: its one cable is drawn
        QApplication.processEvents()
        pos = view_point(view, 6.0, 4.8).toPoint()  # on the cable down the cross tray
        QApplication.sendEvent(
            view.viewport(), QHelpEvent(QEvent.ToolTip, pos, view.viewport().mapToGlobal(pos))
        )
        text = QToolTip.text()
        assert "a3:nic1" in text and "leaf9:p1" in text and "m routed" in text
        QToolTip.hideText()
        seen = right_click_and_choose(qtbot, view, 6.0, 4.8, "Select the Racks at Both Ends")
        assert "Delete Link" in seen
        assert sorted(window.scene.selected_ids()) == ["r1", "r9"]
    finally:
        close_quietly(window)


def _stale_tab_bars(window) -> list[str]:
    """Dock tab bars painted on the window that sit on none of the docks they switch between
    (the stale "History | Overview" once seen over the Warnings panel)."""
    from PySide6.QtWidgets import QDockWidget, QTabBar

    docks = {d.windowTitle(): d for d in window.findChildren(QDockWidget)}
    stale = []
    for bar in window.findChildren(QTabBar, options=Qt.FindDirectChildrenOnly):
        if not bar.isVisible() or bar.count() == 0:
            continue
        if not bar.geometry().intersects(window.rect()):
            continue  # parked off the window by Qt: never painted
        titles = [bar.tabText(i) for i in range(bar.count())]
        under = [
            docks[t]
            for t in titles
            if t in docks
            and docks[t].isVisible()
            and abs(docks[t].geometry().left() - bar.geometry().left()) <= 2
            and abs(docks[t].geometry().width() - bar.geometry().width()) <= 2
        ]
        if not under:
            stale.append(" | ".join(titles))
    return stale


@pytest.mark.parametrize("variant", ["wider", "history", "floating"])
def test_a_restored_layout_leaves_no_stale_tab_bar_over_the_warnings(
    qtbot, tmp_path, pod_file, variant
):
    first = make_window(qtbot, tmp_path, pod_file)
    click(first.view, 1.5, 3.0)
    qtbot.keyClick(first.view, Qt.Key_Return)  # the elevation opens beside the inspector
    qtbot.waitUntil(first.elevation_dock.isVisible)
    if variant == "wider":
        first.resize(1600, 1000)
    elif variant == "history":
        first.history_dock.show()
        first.history_dock.raise_()
    else:
        first.history_dock.setFloating(True)
    qtbot.wait(100)
    close_quietly(first)
    second = make_window(qtbot, tmp_path, pod_file)
    try:
        qtbot.waitUntil(lambda: second.window_layout.restored, timeout=3000)
        qtbot.wait(200)
        assert second.elevation_dock.isVisible()
        assert _stale_tab_bars(second) == []
    finally:
        close_quietly(second)
