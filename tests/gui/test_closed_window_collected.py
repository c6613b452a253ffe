"""A closed window's document is freed by the first full collection after the window is
destroyed (gui.runtime.main_thread_gc's settle of model.runtime.gc_policy.note_released), so no
retry of that collection (~124 ms of GUI CPU at XL, tried again 1, 3, 7, 15, 31 ticks later) is
left behind; and letting a document go (its undo stack cleared) is no edit that defers it."""

from __future__ import annotations

import time

from model.runtime import gc_policy
from tests.gui.conftest import make_window, move_first_rack_and_wait, wait_until_idle
from tests.gui.released_support import (
    EXAMPLE,
    IDLE_S,
    assert_freed_by_one_collection,
    idle_collector,
    still_alive,
    watch_document,
)

DESTROYED_MS = 10_000  # the deferred delete of a closed window, on a loaded machine


def _edited_window(qtbot, tmp_path):
    """A window with the example open and one edit done (its undo stack holds a command), the
    editor's collector installed but its timer stopped (the test runs the ticks), nothing left
    to settle from an earlier test."""
    window = make_window(qtbot, tmp_path, EXAMPLE)
    wait_until_idle(qtbot)
    move_first_rack_and_wait(window, qtbot)
    window.document.stack.setClean()  # no unsaved-changes prompt
    collector = idle_collector()
    collector.timer.stop()
    return window, collector


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
        watched = watch_document(window)
        destroyed = _close(window)
        # A tick between the close and the window's deferred delete: nothing of the document
        # can be freed yet (the window holds it), so a full collection here is wasted.
        settles = [gc_policy.settle_released(IDLE_S)]
        qtbot.waitUntil(lambda: bool(destroyed), timeout=DESTROYED_MS)
        del window
        settles.append(gc_policy.settle_released(IDLE_S))  # the first tick after it
        assert_freed_by_one_collection(settles, watched)
    finally:
        collector.timer.start()


def test_letting_a_document_go_is_not_an_edit_that_defers_its_collection(qtbot, tmp_path):
    window, collector = _edited_window(qtbot, tmp_path)
    try:
        watched = watch_document(window)
        gc_policy.note_edited(now_s=float("-inf"))  # the user's last edit: long ago
        destroyed = _close(window)
        qtbot.waitUntil(lambda: bool(destroyed), timeout=DESTROYED_MS)
        del window
        # On the real clock: clearing the closed document's undo stack changed its index, and
        # had that counted as an edit, this tick would wait EDIT_QUIET_S for the user to pause.
        assert gc_policy.settle_released(time.monotonic())
        alive = still_alive(watched)
        assert not alive, f"still alive: {alive}"
    finally:
        collector.timer.start()
