"""Leak checks run after every test: a test must not leave behind a thread, nor (tests that made
Qt objects) a top-level window, a running QTimer, a busy thread pool or an open analysis runner.

Modelled on napari's ``make_napari_viewer`` fixture, which fails a test that leaks widgets. A
leak left alive turns into a crash later: a timer fires into a closed window, a runner's worker
outlives QApplication, and the interpreter segfaults while finalizing Qt wrappers at exit. So
each leak fails the test that made it, names what leaked, and is then cleaned up so the next
test starts clean and is not blamed.

What it costs. The Qt half runs only after a test that made Qt objects (:func:`made_qt`): a
model test after the first GUI test has nothing of Qt's to check, and the old check's
``gc.collect()`` and ``gc.get_objects()`` over the whole heap cost it ~0.4 s. The Qt objects
are found through registries, not a heap scan: the application's top-level widgets, shiboken's
own table of live Qt wrappers (every QTimer Python made, with or without a parent) and
``AnalysisRunner.alive``. A full collection runs only when that finds something: what a test
dropped into a reference cycle (a closed window, its timers) is then collected and looked at
again, so only what is still alive after a full collection fails the test, as before.

Qt is imported lazily: model tests run with PySide6 blocked and only get the thread check.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

THREAD_GRACE_S = 2.0  # a worker told to stop may need a moment to return
# Process-wide pools a library starts once and keeps by design (not a test's leak): Dask
# distributed's offload executor serves every Client of the process and has no shutdown hook,
# and a Client whose scheduler never answers leaves its "IO loop" thread (the CLI exits next).
PROCESS_WIDE_THREAD_PREFIXES = ("Dask-Offload", "IO loop")
GUI_TESTS = Path(__file__).resolve().parent / "gui"
QT_FIXTURES = {"qtbot", "qapp"}


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


@dataclass(frozen=True)
class QtState:
    """What tells, cheaply, whether a test made Qt objects (taken before and after it)."""

    app: bool  # a QApplication exists
    windows: frozenset[int]  # ids of the top-level widgets
    wrappers: int  # live Python wrappers of Qt objects (shiboken's table)


def qt_state() -> QtState | None:
    """None while Qt is not even imported (the model tests' run with Qt blocked)."""
    if not _qt_loaded():
        return None
    import shiboken6
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        return QtState(False, frozenset(), 0)
    return QtState(
        True,
        frozenset(id(w) for w in QApplication.topLevelWidgets()),
        len(shiboken6.getAllValidWrappers()),
    )


def known_qt_test(request: pytest.FixtureRequest) -> bool:
    """A test that makes Qt objects by what it is: it asks for pytest-qt's ``qtbot`` or
    ``qapp``, or it is a GUI test (tests/gui)."""
    return bool(QT_FIXTURES & set(request.fixturenames)) or GUI_TESTS in request.node.path.parents


def made_qt(request: pytest.FixtureRequest, before: QtState | None) -> bool:
    """Whether the test made Qt objects: it is a known Qt test (:func:`known_qt_test`), a
    QApplication came into existence while it ran, or the top-level widgets or the number of
    live Qt wrappers changed."""
    if not _qt_loaded():
        return False  # Qt not even imported (the model tests' run with Qt blocked)
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        return False  # without a QApplication no window, timer or runner can be alive
    if known_qt_test(request):
        return True
    return before is None or qt_state() != before


def settle_qt(full: bool = False) -> None:
    """Run pending deferred deletions and events, so what a test closed is really gone;
    ``full``: also collect every reference cycle, frozen ones too, and delete what that let go."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        return
    for _ in range(3):
        QApplication.sendPostedEvents(None, QEvent.DeferredDelete)
        QApplication.processEvents()
    if full:
        # What the editor froze (model.runtime.gc_policy, the analysis runner) is looked at and
        # collected too, here on the GUI thread: gc.collect() skips frozen objects.
        gc.unfreeze()
        gc.collect()
        QApplication.sendPostedEvents(None, QEvent.DeferredDelete)
        QApplication.processEvents()


def _live_timers() -> list:
    """Every QTimer alive that Python made or saw (shiboken's table of wrappers), except the
    process-wide collector's (gui.runtime.main_thread_gc)."""
    import shiboken6
    from PySide6.QtCore import QTimer

    from gui.runtime.main_thread_gc import COLLECTOR_NAME

    return [
        obj
        for obj in shiboken6.getAllValidWrappers()
        if isinstance(obj, QTimer) and obj.objectName() != COLLECTOR_NAME
    ]


def _live_runners() -> list:
    """Every AnalysisRunner alive, closed or not (``AnalysisRunner.alive``)."""
    from gui.document.analysis_runner import AnalysisRunner  # if it moves, this fails loudly

    return list(AnalysisRunner.alive)


def qt_leaks() -> list[str]:
    """What Qt objects are still alive and active; empty when the test cleaned up."""
    from PySide6.QtCore import QThreadPool
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        return []
    found = [  # windows without a parent: menus and popups of a window go with it
        f"top-level window {type(w).__name__} {w.windowTitle()!r}"
        for w in QApplication.topLevelWidgets()
        if w.parent() is None
    ]
    for timer in _live_timers():
        if timer.isActive():
            parent = timer.parent()
            owner = type(parent).__name__ if parent is not None else "no parent"
            found.append(f"running QTimer ({timer.interval()} ms, owned by {owner})")
    found += ["analysis runner not closed" for r in _live_runners() if not r.closed]
    if QThreadPool.globalInstance().activeThreadCount():
        found.append("busy global QThreadPool")
    return found


def clean_up_qt() -> None:
    """Close and delete what a failing test leaked, so later tests start clean."""
    from PySide6.QtWidgets import QApplication

    for runner in _live_runners():
        runner.close()
    for widget in QApplication.topLevelWidgets():
        document = getattr(widget, "document", None)
        if document is not None:
            document.stack.setClean()  # no unsaved-changes prompt
        widget.close()
        widget.deleteLater()
    settle_qt(full=True)
    for timer in _live_timers():
        timer.stop()


def check_for_leaks(threads_before: set[threading.Thread], qt: bool) -> list[str]:
    """Everything the test left alive (and, having found it, cleaned up); ``qt``: the test made
    Qt objects, look for those too."""
    found: list[str] = []
    if qt:
        settle_qt()
        if qt_leaks():  # perhaps only dropped into a reference cycle: collect, look again
            settle_qt(full=True)
            found = qt_leaks()
            if found:
                clean_up_qt()
    found += [f"thread {t.name!r}" for t in new_threads(threads_before)]
    return found


@pytest.fixture(autouse=True)
def no_leaks(request):
    """Fail the test (at teardown) if it left a thread, window, timer, pool job or runner alive."""
    threads_before = set(threading.enumerate())
    # A known Qt test is checked whatever the state before it: counting the live wrappers
    # (shiboken's whole table, which grows through a GUI run: 3 ms a test at its start, 77 ms
    # after 360 GUI tests in one process) only tells other tests apart.
    qt_before = None if known_qt_test(request) else qt_state()
    yield
    leaks = check_for_leaks(threads_before, made_qt(request, qt_before))
    if leaks:
        pytest.fail("the test left alive: " + "; ".join(leaks), pytrace=False)
