"""Helpers for the analysis-dock tests: a main window on a given design, waiting for a fresh
analysis, and closing without the unsaved-changes prompt."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from gui.document import Document
from gui.main_window import MainWindow
from model.design import Design


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
    """Wait until the analysis shown is the one of the design's current revision."""
    runner = window.analysis_docks.runner
    qtbot.waitUntil(lambda: runner.fresh, timeout=timeout_ms)


def close_quietly(window) -> None:
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
