"""A closed window's document is freed by the first full collection after the window is
destroyed (gui.runtime.main_thread_gc's settle of model.runtime.gc_policy.note_released), so no
retry of that collection (~124 ms of GUI CPU at XL, tried again 1, 3, 7, 15, 31 ticks later) is
left behind; and letting a document go (its undo stack cleared) is no edit that defers it."""

from __future__ import annotations

import time
import weakref
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from gui.document.plant_feed import feed_for
from gui.runtime.main_thread_gc import (
    COLLECTOR_NAME,
    MainThreadCollector,
    collect_on_gui_thread,
)
from model.runtime import gc_policy
from tests.gui.conftest import make_window, move_first_rack_and_wait, wait_until_idle

# A tick long after the last edit: a let-go document's collection waits for the user to pause
# (gc_policy.EDIT_QUIET_S), and an earlier test may have edited a moment ago.
IDLE_S = float("inf")
EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "small-pod.hall.json"
DESTROYED_MS = 10_000  # the deferred delete of a closed window, on a loaded machine


def _edited_window(qtbot, tmp_path):
    """A window with the example open and one edit done (its undo stack holds a command), the
    editor's collector installed but its timer stopped (the test runs the ticks), nothing left
    to settle from an earlier test."""
    window = make_window(qtbot, tmp_path, EXAMPLE)
    collect_on_gui_thread()  # as the editor's first worker does (idempotent)
    collector = QCoreApplication.instance().findChild(MainThreadCollector, COLLECTOR_NAME)
    wait_until_idle(qtbot)
    move_first_rack_and_wait(window, qtbot)
    window.document.stack.setClean()  # no unsaved-changes prompt
    gc_policy.settle_released(IDLE_S)
    collector.timer.stop()
    return window, collector


def _watch(window) -> dict[str, weakref.ref]:
    document = window.document
    return {
        "document": weakref.ref(document),
        "design": weakref.ref(document.design),
        "plant feed": weakref.ref(feed_for(document.design, document.plant)),
        "scene": weakref.ref(window.scene),
    }


def _close(window) -> list[bool]:
    """Close ``window`` as Quit does; the list gets an item once it is destroyed (it deletes
    itself on close, WA_DeleteOnClose: deferred to the event loop's next turn)."""
    destroyed: list[bool] = []
    window.destroyed.connect(lambda *_: destroyed.append(True))
    assert window.close()
    return destroyed


def test_a_closed_windows_document_is_collected_by_the_first_settle_after_it_is_destroyed(
    qtbot, tmp_path
):
    window, collector = _edited_window(qtbot, tmp_path)
    try:
        watched = _watch(window)
        destroyed = _close(window)
        # A tick between the close and the window's deferred delete: nothing of the document
        # can be freed yet (the window holds it), so a full collection here is wasted.
        settles = [gc_policy.settle_released(IDLE_S)]
        qtbot.waitUntil(lambda: bool(destroyed), timeout=DESTROYED_MS)
        del window
        settles.append(gc_policy.settle_released(IDLE_S))  # the first tick after it
        alive = [name for name, ref in watched.items() if ref() is not None]
        assert not alive, f"still alive after the settles {settles}: {alive}"
        assert settles.count(True) == 1  # one full collection, where it could free everything
        assert not gc_policy.released_pending()  # and no retry of it left to run
    finally:
        collector.timer.start()


def test_letting_a_document_go_is_not_an_edit_that_defers_its_collection(qtbot, tmp_path):
    window, collector = _edited_window(qtbot, tmp_path)
    try:
        watched = _watch(window)
        gc_policy.note_edited(now_s=float("-inf"))  # the user's last edit: long ago
        destroyed = _close(window)
        qtbot.waitUntil(lambda: bool(destroyed), timeout=DESTROYED_MS)
        del window
        # On the real clock: clearing the closed document's undo stack changed its index, and
        # had that counted as an edit, this tick would wait EDIT_QUIET_S for the user to pause.
        assert gc_policy.settle_released(time.monotonic())
        alive = [name for name, ref in watched.items() if ref() is not None]
        assert not alive, f"still alive: {alive}"
    finally:
        collector.timer.start()
