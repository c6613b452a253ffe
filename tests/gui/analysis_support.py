"""Helpers for the analysis-dock tests: a main window on a given design, waiting for a fresh
analysis, and closing without the unsaved-changes prompt."""

from __future__ import annotations

import time
from pathlib import Path

import shiboken6
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from gui.document.document import Document
from gui.main_window import MainWindow
from model.design.design import Design


def open_window(qtbot, tmp_path: Path, design: Design) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    window = MainWindow(settings, tmp_path / "recovery")
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    window.set_document(Document(design))
    window.view.fit()
    wait_fresh(qtbot, window)
    return window


def docks(window):
    return window.analysis_docks


def wait_fresh(qtbot, window, timeout_ms: int = 20_000) -> None:
    """Wait until the analysis shown is the one of the design's current revision, with the
    bundles and the histogram that follow its report (``settled``, which implies ``fresh``)."""
    runner = window.analysis_docks.runner
    qtbot.waitUntil(lambda: runner.settled, timeout=timeout_ms)


def close_quietly(window) -> None:
    """Close without the unsaved-changes prompt; the window deletes itself."""
    if not shiboken6.isValid(window):
        return  # the test closed it already
    window.document.stack.setClean()
    window.close()
    QApplication.processEvents()


class LoopWatch:
    """Measures the longest gap between ticks of a 2 ms timer: how long the event loop was blocked."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(2)
        self.timer.timeout.connect(self._tick)
        self.last = None
        self.longest = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        if self.last is not None:
            self.longest = max(self.longest, now - self.last)
        self.last = now

    def start(self) -> None:
        self.last = None
        self.longest = 0.0
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        return self.longest


def drag_on_canvas(view, start, end, steps: int = 10) -> None:
    """Press on the canvas at scene point ``start`` (metres), move with the left button held,
    release at ``end``: what a person does to drag a rack."""
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent

    def send(kind, x, y, button, buttons):
        pos = QPointF(view.mapFromScene(QPointF(x, y)))
        glob = QPointF(view.viewport().mapToGlobal(pos.toPoint()))
        QApplication.sendEvent(
            view.viewport(), QMouseEvent(kind, pos, glob, button, buttons, Qt.NoModifier)
        )

    (x0, y0), (x1, y1) = start, end
    send(QEvent.MouseButtonPress, x0, y0, Qt.LeftButton, Qt.LeftButton)
    for i in range(1, steps + 1):
        t = i / steps
        send(QEvent.MouseMove, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, Qt.NoButton, Qt.LeftButton)
    send(QEvent.MouseButtonRelease, x1, y1, Qt.LeftButton, Qt.NoButton)
