"""GUI test set-up: a main window on a saved copy of the small pod, with settings, recent files
and recovery files kept in the test's temporary folder, and helpers that drive the canvas with
real mouse events (press, drag with the button held, release, double-click)."""

from __future__ import annotations

from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QEvent, QPointF, QSettings, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from gui.app import shut_down_qt
from gui.main_window import MainWindow
from model.files.design_file import design_to_bytes, save_design
from tests.builders import device, small_pod
from tests.leak_check import _live_timers


@pytest.fixture(autouse=True)
def no_unexpected_dialogs(monkeypatch):
    """A modal box nobody expected would hang the run: fail instead. Tests override as needed."""

    def unexpected(*args, **kwargs):
        raise AssertionError(f"unexpected dialog: {args[1:3]}")

    for name in ("warning", "question", "critical", "information"):
        monkeypatch.setattr(QMessageBox, name, unexpected)


@pytest.fixture
def pod_file(tmp_path) -> Path:
    design = small_pod()
    device(design, "a3", "r1", 30, "dgx-h100")  # a server with free NICs, to connect by hand
    path = tmp_path / "pod.hall.json"
    save_design(design, path)
    return path


def make_window(qtbot, tmp_path, path: Path | None = None) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    window = MainWindow(settings, tmp_path / "recovery")
    window.resize(1400, 900)
    window.show()
    qtbot.waitExposed(window)
    if path is not None:
        assert window.open_path(path)
    window.view.fit()
    QApplication.processEvents()
    return window


@pytest.fixture
def window(qtbot, tmp_path, pod_file):
    win = make_window(qtbot, tmp_path, pod_file)
    yield win
    close_quietly(win)


def close_quietly(win) -> None:
    """Close without the unsaved-changes prompt (pytest-qt's own close would run it)."""
    if not shiboken6.isValid(win):
        return  # the test closed it already (the window deletes itself on close)
    if win.document is not None:
        win.document.stack.setClean()
    win.close()
    win.deleteLater()
    QApplication.processEvents()


def wait_until_idle(qtbot, timeout_ms: int = 20_000) -> None:
    """Wait until the editor's deferred work is done: no single-shot QTimer pending (the row
    labels, the overview's picture, the inspector's form, the plant feed, the trunk layer),
    then let the paints that work asked for happen. A fixed spin of the event loop instead is
    too short on a loaded machine and wasted time on an idle one."""
    qtbot.waitUntil(_IdleTimers(), timeout=timeout_ms)
    QApplication.processEvents()


def move_first_rack_and_wait(window, qtbot) -> None:
    """One edit as in the editor: an undo command on the stack (the first rack 0.6 m along x)
    and its analysis job on the worker, waited for until it is done (the panel fresh and the
    bundles and histogram that follow it taken: the job has let go of its snapshot)."""
    from gui.edit.commands import MoveRacksCommand

    design = window.document.design
    rack = next(iter(design.racks.values()))
    window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + 0.6, rack.y)}))
    wait_until_idle(qtbot)
    qtbot.waitUntil(lambda: window.analysis_docks.runner.settled, timeout=20_000)


class _IdleTimers:
    """The condition of :func:`wait_until_idle`: no single-shot QTimer of the live ones pending.

    Every answer of "idle" comes from a scan of all live timers (shiboken's whole table of
    wrappers, which grows through a GUI run); while one the last scan found is still pending,
    the next poll looks at those alone, without a scan (every poll scanned: ~20 ms each at
    40,000 wrappers, a poll every few milliseconds)."""

    def __init__(self) -> None:
        self.timers: list = []

    def __call__(self) -> bool:
        if any(_pending(t) for t in self.timers):
            return False
        self.timers = _live_timers()
        return not any(_pending(t) for t in self.timers)


def _pending(timer) -> bool:
    return shiboken6.isValid(timer) and timer.isActive() and timer.isSingleShot()


def snapshot(window) -> bytes:
    return design_to_bytes(window.document.design)


def view_point(view, x: float, y: float) -> QPointF:
    return QPointF(view.mapFromScene(QPointF(x, y)))


def mouse(
    view, kind, x: float, y: float, button=Qt.LeftButton, buttons=None, modifiers=Qt.NoModifier
) -> None:
    """Send one mouse event at scene point (x, y) metres to the canvas."""
    pos = view_point(view, x, y)
    glob = QPointF(view.viewport().mapToGlobal(pos.toPoint()))
    if buttons is None:
        buttons = Qt.NoButton if kind == QEvent.MouseButtonRelease else button
    if kind == QEvent.MouseMove:
        button = Qt.NoButton
    event = QMouseEvent(kind, pos, glob, button, buttons, modifiers)
    QApplication.sendEvent(view.viewport(), event)


def click(view, x, y, modifiers=Qt.NoModifier) -> None:
    mouse(view, QEvent.MouseButtonPress, x, y, modifiers=modifiers)
    mouse(view, QEvent.MouseButtonRelease, x, y, modifiers=modifiers)


def double_click(view, x, y) -> None:
    click(view, x, y)
    mouse(view, QEvent.MouseButtonDblClick, x, y)
    mouse(view, QEvent.MouseButtonRelease, x, y)


def drag(view, start, end, steps: int = 8, button=Qt.LeftButton) -> None:
    """Press at ``start``, move in steps with the button held, release at ``end`` (metres)."""
    (x0, y0), (x1, y1) = start, end
    mouse(view, QEvent.MouseButtonPress, x0, y0, button=button)
    for i in range(1, steps + 1):
        t = i / steps
        mouse(view, QEvent.MouseMove, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, buttons=button)
    mouse(view, QEvent.MouseButtonRelease, x1, y1, button=button)


@pytest.fixture(autouse=True, scope="session")
def _qt_shut_down_at_the_end(qapp):
    """What the editor does when it quits (gui.app.shut_down_qt), once the last test is done.

    Each test must close its own windows (the leak check fails it otherwise); this only clears
    the clipboard some tests copy racks to, which Qt would otherwise free after Python is gone.
    """
    yield
    shut_down_qt()
