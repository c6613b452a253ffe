"""While a tray corner's re-route waits on the analysis worker, the paths that need the cables
now apply it at once (the port table, the picture export, printing), each opened as a person
opens it; closing the document drops the pending re-route instead of running it on the GUI
thread (issue 38)."""

from __future__ import annotations

import threading

import pytest
import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QImage
from PySide6.QtPrintSupport import QPrintDialog
from PySide6.QtWidgets import (
    QApplication,
    QDialogButtonBox,
    QFileDialog,
    QLineEdit,
    QMessageBox,
)

from gui.document.analysis_runner import AnalysisRunner
from model.engine.routed_links import RoutedLinks
from tests.benchmarks.synthetic import synthetic_hall
from tests.gui.analysis_support import close_quietly, open_window, wait_fresh
from tests.gui.test_editor_tools import right_click_and_choose
from tests.gui.test_tray_reroute_worker import _busiest_tray, _drag_corner, _Gate
from tests.model.test_tray_reroute import _assert_same_plant


@pytest.fixture
def hall_window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, synthetic_hall(512))
    yield window
    close_quietly(window)


def _held_drop(window, qtbot, monkeypatch) -> tuple[_Gate, RoutedLinks, list]:
    """A corner of the busiest tray dragged, its re-route held on the worker: (the gate, the
    routing of the design before the drop, the threads that re-routed the live plant)."""
    plant, feed = window.document.plant, window.scene.feed
    before = RoutedLinks(window.document.design)
    on_threads: list[int] = []
    retray = RoutedLinks._retray

    def counted(self, *args):
        if self is plant:  # the live plant, not the worker's copy
            on_threads.append(threading.get_ident())
        return retray(self, *args)

    monkeypatch.setattr(RoutedLinks, "_retray", counted)
    gate = _Gate(monkeypatch)
    gate.auto = False
    _drag_corner(window, _busiest_tray(plant), 1.2)
    qtbot.waitUntil(gate.entered.is_set, timeout=10_000)
    assert feed.rerouting and plant.has_unapplied_edits
    return gate, before, on_threads


def _changed_link(design, before: RoutedLinks) -> str:
    """The link the drop lengthened or shortened most."""
    after = RoutedLinks(design)
    change = abs(after.routed_m - before.routed_m)
    assert change.max() >= 0.5, "the drop changed no length"
    return after.link_ids[int(change.argmax())]


def _applied_here(window, qtbot, gate: _Gate, on_threads: list) -> None:
    """The held re-route was applied on the GUI thread, the plant equals a fresh routing; the
    worker's copy, let go, is refused and the analysis ends fresh all the same."""
    plant, feed = window.document.plant, window.scene.feed
    assert on_threads == [threading.main_thread().ident]
    assert not feed.rerouting and not plant.has_unapplied_edits
    _assert_same_plant(plant, RoutedLinks(window.document.design))
    gate.open.set()
    wait_fresh(qtbot, window)
    assert on_threads == [threading.main_thread().ident]
    _assert_same_plant(plant, RoutedLinks(window.document.design))


def _choose_in_menu_bar(qtbot, window, path: list[str]) -> None:
    """Click the menu bar's ``path[0]``, then each entry of ``path[1:]`` with the mouse (a
    submenu opens as its entry is clicked)."""
    bar = window.menuBar()
    title = next(a for a in bar.actions() if a.text().replace("&", "") == path[0])
    done = []

    def pick(depth: int) -> None:
        menu = QApplication.activePopupWidget()
        if menu is None:
            QTimer.singleShot(20, lambda: pick(depth))
            return
        texts = {a.text().replace("&", ""): a for a in menu.actions()}
        action = texts[path[depth]]
        qtbot.mouseClick(menu, Qt.LeftButton, pos=menu.actionGeometry(action).center())
        if depth + 1 < len(path):
            QTimer.singleShot(50, lambda: pick(depth + 1))
        else:
            done.append(True)

    QTimer.singleShot(50, lambda: pick(1))
    qtbot.mouseClick(bar, Qt.LeftButton, pos=bar.actionGeometry(title).center())
    qtbot.waitUntil(lambda: bool(done), timeout=10_000)


def test_the_port_table_opened_during_a_reroute_shows_the_new_lengths(
    hall_window, qtbot, monkeypatch
):
    window = hall_window
    design = window.document.design
    gate, before, on_threads = _held_drop(window, qtbot, monkeypatch)
    try:
        link_id = _changed_link(design, before)
        link = design.links[link_id]
        device = design.devices[link.a.device]
        rack = design.racks[device.rack]
        window.view.centerOn(rack.x, rack.y)
        right_click_and_choose(
            qtbot, window.view, rack.x, rack.y, f"Ports of › {device.name} (U{device.u})…"
        )
        table = window.port_table.table
        row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == link.a.port)
        fresh = RoutedLinks(design).route(link_id).total_m
        assert table.item(row, 7).text() == f"{fresh:.1f} m"
        assert abs(before.route(link_id).total_m - fresh) >= 0.5  # the table shows the new one
        _applied_here(window, qtbot, gate, on_threads)
    finally:
        gate.open.set()
        window.port_table.close()


def test_the_picture_exported_during_a_reroute_is_drawn_rerouted(
    hall_window, qtbot, monkeypatch, tmp_path
):
    window = hall_window
    out = tmp_path / "plan.png"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), ""))
    )
    gate, _before, on_threads = _held_drop(window, qtbot, monkeypatch)
    try:
        _choose_in_menu_bar(qtbot, window, ["File", "Export", "Floor plan picture (PNG/SVG/PDF)…"])
        qtbot.waitUntil(out.exists, timeout=20_000)
        assert not QImage(str(out)).isNull()
        _applied_here(window, qtbot, gate, on_threads)
    finally:
        gate.open.set()


def test_the_plan_printed_during_a_reroute_is_printed_rerouted(
    hall_window, qtbot, monkeypatch, tmp_path
):
    window = hall_window
    out = tmp_path / "printed.pdf"
    gate, _before, on_threads = _held_drop(window, qtbot, monkeypatch)
    answered = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QPrintDialog):
            QTimer.singleShot(50, answer)
            return
        # Print to File (PDF), the only printer here: its file name typed, then "Print"
        name = dialog.findChild(QLineEdit, "filename")
        name.selectAll()
        qtbot.keyClicks(name, str(out))
        box = dialog.findChild(QDialogButtonBox)
        accept = next(b for b in box.buttons() if box.buttonRole(b) == QDialogButtonBox.AcceptRole)
        answered.append(True)
        qtbot.mouseClick(accept, Qt.LeftButton)

    try:
        QTimer.singleShot(0, answer)
        qtbot.keyClick(window, Qt.Key_P, Qt.ControlModifier)  # File > Print…
        assert answered
        qtbot.waitUntil(out.exists, timeout=20_000)
        assert out.read_bytes().startswith(b"%PDF")
        _applied_here(window, qtbot, gate, on_threads)
    finally:
        gate.open.set()


def test_closing_the_document_during_a_reroute_drops_it(hall_window, qtbot, monkeypatch):
    """Quit while the re-route is held: nothing is re-routed on the GUI thread, the live plant
    is left with its edit unapplied (it closes with the document)."""
    window = hall_window
    plant = window.document.plant
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: QMessageBox.Discard)
    gate, _before, on_threads = _held_drop(window, qtbot, monkeypatch)
    # Let the worker go on once the runner starts closing (it waits for its job): not on a
    # clock, which a loaded machine could let run out before the quit reached the runner, the
    # copy then adopted and the test failing for nothing.
    close = AnalysisRunner.close

    def closing(self):
        gate.open.set()
        close(self)

    monkeypatch.setattr(AnalysisRunner, "close", closing)
    try:
        _choose_in_menu_bar(qtbot, window, ["File", "Quit"])
        qtbot.waitUntil(
            lambda: not shiboken6.isValid(window) or not window.isVisible(), timeout=20_000
        )
    finally:
        gate.open.set()
    QApplication.processEvents()  # a re-routed copy handed back after the close is not taken
    assert on_threads == []
    assert plant.has_unapplied_edits
