"""Leak checks run after every test: a test must not leave behind a thread, nor (GUI tests) a
top-level window, a running QTimer, a busy thread pool or an open analysis runner.

Modelled on napari's ``make_napari_viewer`` fixture, which fails a test that leaks widgets. A
leak left alive turns into a crash later: a timer fires into a closed window, a runner's worker
outlives QApplication, and the interpreter segfaults while finalizing Qt wrappers at exit. So
each leak fails the test that made it, names what leaked, and is then cleaned up so the next
test starts clean and is not blamed.

Qt is imported lazily: model tests run with PySide6 blocked and only get the thread check.
"""

from __future__ import annotations

import gc
import sys
import threading
import time

import pytest

THREAD_GRACE_S = 2.0  # a worker told to stop may need a moment to return
# Process-wide pools a library starts once and keeps by design (not a test's leak): Dask
# distributed's offload executor serves every Client of the process and has no shutdown hook,
# and a Client whose scheduler never answers leaves its "IO loop" thread (the CLI exits next).
PROCESS_WIDE_THREAD_PREFIXES = ("Dask-Offload", "IO loop")


def _qt_loaded() -> bool:
    return "PySide6.QtWidgets" in sys.modules


def new_threads(before: set[threading.Thread]) -> list[threading.Thread]:
    """Threads started during the test that are still alive after a short grace period."""
    deadline = time.monotonic() + THREAD_GRACE_S
    while True:
        alive = [
            t
            for t in threading.enumerate()
            if t not in before
            and t.is_alive()
            and not t.name.startswith(PROCESS_WIDE_THREAD_PREFIXES)
        ]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.02)


def settle_qt() -> None:
    """Run pending deferred deletions and events, so what a test closed is really gone."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        return
    for _ in range(3):
        QApplication.sendPostedEvents(None, QEvent.DeferredDelete)
        QApplication.processEvents()
    # What the editor froze (model.runtime.gc_policy, the analysis runner) is looked at and collected
    # too, here on the GUI thread: gc.get_objects() and gc.collect() skip frozen objects.
    gc.unfreeze()
    gc.collect()
    QApplication.sendPostedEvents(None, QEvent.DeferredDelete)


def qt_leaks() -> list[str]:
    """What Qt objects are still alive and active; empty when the test cleaned up."""
    import shiboken6
    from PySide6.QtCore import QThreadPool, QTimer
    from PySide6.QtWidgets import QApplication

    from gui.runtime.main_thread_gc import COLLECTOR_NAME

    if QApplication.instance() is None:
        return []
    found = [  # windows without a parent: menus and popups of a window go with it
        f"top-level window {type(w).__name__} {w.windowTitle()!r}"
        for w in QApplication.topLevelWidgets()
        if w.parent() is None
    ]
    runner_type = sys.modules.get("gui.document.analysis_runner")
    for obj in gc.get_objects():
        if isinstance(obj, QTimer):
            if not shiboken6.isValid(obj) or obj.objectName() == COLLECTOR_NAME:
                continue  # gone, or the process-wide collector (gui.runtime.main_thread_gc)
            if obj.isActive():
                parent = obj.parent()
                owner = type(parent).__name__ if parent is not None else "no parent"
                found.append(f"running QTimer ({obj.interval()} ms, owned by {owner})")
        elif runner_type is not None and isinstance(obj, runner_type.AnalysisRunner):
            if not obj.closed:
                found.append("analysis runner not closed")
    if QThreadPool.globalInstance().activeThreadCount():
        found.append("busy global QThreadPool")
    return found


def clean_up_qt() -> None:
    """Close and delete what a failing test leaked, so later tests start clean."""
    import shiboken6
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from gui.runtime.main_thread_gc import COLLECTOR_NAME

    runner_type = sys.modules.get("gui.document.analysis_runner")
    for obj in gc.get_objects():
        if runner_type is not None and isinstance(obj, runner_type.AnalysisRunner):
            obj.close()
    for widget in QApplication.topLevelWidgets():
        document = getattr(widget, "document", None)
        if document is not None:
            document.stack.setClean()  # no unsaved-changes prompt
        widget.close()
        widget.deleteLater()
    settle_qt()
    for obj in gc.get_objects():
        if isinstance(obj, QTimer) and shiboken6.isValid(obj):
            if obj.objectName() != COLLECTOR_NAME:
                obj.stop()


def check_for_leaks(threads_before: set[threading.Thread]) -> list[str]:
    """Everything the test left alive (and, having found it, cleaned up)."""
    found: list[str] = []
    if _qt_loaded():
        settle_qt()
        found = qt_leaks()
        if found:
            clean_up_qt()
    found += [f"thread {t.name!r}" for t in new_threads(threads_before)]
    return found


@pytest.fixture(autouse=True)
def no_leaks():
    """Fail the test (at teardown) if it left a thread, window, timer, pool job or runner alive."""
    threads_before = set(threading.enumerate())
    yield
    leaks = check_for_leaks(threads_before)
    if leaks:
        pytest.fail("the test left alive: " + "; ".join(leaks), pytrace=False)
