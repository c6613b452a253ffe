"""Room for the plan: at a first launch on a full-HD screen the plan gets at least 60 % of the
width; Find and Sweep open in docks beside the plan, not over it; a dock folds to its title."""

from __future__ import annotations

import csv

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from gui.actions.side_docks import CollapsibleTitle
from gui.main_window import MainWindow
from tests.gui.conftest import close_quietly


def test_first_launch_on_full_hd_gives_the_plan_sixty_percent_of_the_width(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    window = MainWindow(settings, tmp_path / "recovery")
    window.resize(1805, 1015)  # what fill_screen gives on 1920 x 1080 (94 % of its free area)
    window.show()
    qtbot.waitExposed(window)
    try:
        qtbot.waitUntil(lambda: window.palette_dock.width() >= 300, timeout=3000)
        QApplication.processEvents()
        assert window.view.width() >= 0.60 * window.width()
    finally:
        close_quietly(window)


def _plan_rect(window):
    view = window.view.viewport()
    return view.rect().translated(view.mapToGlobal(view.rect().topLeft()))


def test_find_opens_in_a_dock_beside_the_plan(window, qtbot):
    qtbot.keyClick(window.view, Qt.Key_F, Qt.ControlModifier)
    dialog = window.find_dialog
    dock = window.tool_docks["Find"]
    assert dock.isVisible() and not dialog.isWindow()
    assert window.dockWidgetArea(dock) == Qt.RightDockWidgetArea
    box = dock.rect().translated(dock.mapToGlobal(dock.rect().topLeft()))
    assert not box.intersects(_plan_rect(window))
    qtbot.keyClick(dialog.text, Qt.Key_Escape)  # Esc closes it, and its dock
    assert not dock.isVisible()


def test_sweep_results_open_beside_the_plan(window, qtbot, monkeypatch, tmp_path):
    path = tmp_path / "sweep.csv"
    with open(path, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["nodes", "cost_per_gpu_usd", "allreduce_time_s", "error"])
        writer.writerows([["16", "10", "0.5", ""], ["32", "20", "0.2", ""]])
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.whatif.sweep_action.trigger()
    dock = window.tool_docks["Sweep"]
    assert dock.isVisible() and dock.widget() is window.whatif.sweep_dialog
    assert not window.whatif.sweep_dialog.isWindow()
    box = dock.rect().translated(dock.mapToGlobal(dock.rect().topLeft()))
    assert not box.intersects(_plan_rect(window))
    window.whatif.sweep_dialog.close()
    assert not dock.isVisible()


def test_a_dock_collapses_to_its_title_and_opens_again(window, qtbot):
    dock = window.inspector_dock
    title = dock.titleBarWidget()
    assert isinstance(title, CollapsibleTitle)
    tall, wide = dock.height(), dock.width()
    qtbot.mouseClick(title.toggle, Qt.LeftButton)
    QApplication.processEvents()
    assert not dock.widget().isVisible()
    assert dock.height() <= title.sizeHint().height() + 4 < tall
    assert dock.width() == wide  # the column keeps its width for the panels still open
    plan_before = window.view.height()
    qtbot.mouseClick(title.toggle, Qt.LeftButton)
    QApplication.processEvents()
    assert dock.widget().isVisible() and dock.maximumHeight() > 10_000
    assert plan_before > 0
