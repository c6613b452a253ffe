"""The editor's cyclic garbage collection runs on the GUI thread only, on a timer.

Why: CPython runs a collection in whichever thread happens to allocate past the threshold, and
a collection finalizes every unreachable cycle it finds. The editor's worker threads (the
analysis runner, loading and generating behind a progress dialog) allocate a lot, so the
collector often ran on them; a cycle left by a closed window or a dropped view holds Qt
objects (timers, pixmaps, graphics items) whose C++ destructors then ran on the worker while
the GUI thread used Qt. That is undefined in Qt and once hung the test suite for 90 minutes.
pyqtgraph documents the same crash and cure (``pyqtgraph.util.garbage_collector``): switch the
automatic collector off and collect from a GUI-thread timer, generation by generation, with
CPython's own thresholds. Reference counting, which frees almost everything, is not affected.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer
from PySide6.QtGui import QGuiApplication

from gui.runtime.import_sources import drop_import_sources
from model.runtime.gc_policy import design_building, settle_released

COLLECTOR_NAME = "hallwright-main-thread-gc"
INTERVAL_MS = 1000  # as pyqtgraph's; a tick with nothing over threshold costs microseconds


class MainThreadCollector(QObject):
    """Owned by the QApplication: one per process, for as long as the application lives."""

    def __init__(self, app: QCoreApplication) -> None:
        super().__init__(app)
        self.setObjectName(COLLECTOR_NAME)
        self.threshold = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setObjectName(COLLECTOR_NAME)
        self.timer.timeout.connect(self.collect_due)
        self.timer.start(INTERVAL_MS)

    def collect_due(self) -> None:
        """Collect the generations whose allocation counts passed their thresholds (none while
        a worker builds a design: model.runtime.gc_policy.design_building), or everything once
        a window let go of a document and the user is not editing
        (model.runtime.gc_policy.settle_released). The tick
        also drops the module sources PySide6's import hook read (gui.runtime.import_sources)."""
        if design_building():
            return
        # Here, not before: no worker runs code under collector_waits (a load, an analysis, an
        # autosave), so none is reading linecache while it is emptied.
        drop_import_sources()
        # A closed document's frozen cycles (gc_policy.note_released), when the user is idle: a
        # button held is a drag in progress (its drop's work follows at once on this thread).
        if settle_released(editing=QGuiApplication.mouseButtons() != Qt.NoButton):
            return
        count0, count1, count2 = gc.get_count()
        if count0 > self.threshold[0]:
            gc.collect(0)
            if count1 > self.threshold[1]:
                gc.collect(1)
                if count2 > self.threshold[2]:
                    gc.collect(2)


def collect_on_gui_thread() -> None:
    """Switch the automatic collector off for this process and collect on the GUI thread.

    Idempotent; called wherever the editor starts a worker thread that runs Python code."""
    app = QCoreApplication.instance()
    if app is None or app.findChild(MainThreadCollector, COLLECTOR_NAME) is not None:
        return
    MainThreadCollector(app)
