"""A document the editor let go of is freed (issue #36): its design, plant feed and scene are
collected by the editor's own collector (gui.runtime.main_thread_gc), without a test calling
``gc.unfreeze()``.

Why it needs a test: a window and its document are one graph of reference cycles, frozen while
they lived (model.runtime.gc_policy; the editor freezes after opening a document and after each
analysis). Frozen objects are skipped by every collection, so before the fix a closed window
kept its document, plant feed and scene until the next design was settled, and the previous
file's until the one after it (see gc_policy.note_released)."""

from __future__ import annotations

import weakref

from tests.gui.conftest import (
    close_quietly,
    make_window,
    move_first_rack_and_wait,
    wait_until_idle,
)
from tests.gui.released_support import EXAMPLE, still_alive, watch_document

TICKS_MS = 10_000  # the collector ticks every second; a loaded machine may be late


def _wait_collected(qtbot, watched: dict[str, weakref.ref]) -> None:
    def gone() -> None:
        alive = still_alive(watched)
        assert not alive, f"still alive: {alive}"

    qtbot.waitUntil(gone, timeout=TICKS_MS)


def test_a_closed_windows_document_feed_and_scene_are_collected(qtbot, tmp_path):
    for _ in range(3):
        window = make_window(qtbot, tmp_path, EXAMPLE)
        wait_until_idle(qtbot)
        move_first_rack_and_wait(window, qtbot)
        watched = watch_document(window)
        close_quietly(window)
        del window
        _wait_collected(qtbot, watched)


def test_the_previous_files_document_feed_and_scene_are_collected(qtbot, tmp_path):
    """File > Open in the same window: each previous document goes while the window lives."""
    window = make_window(qtbot, tmp_path, EXAMPLE)
    wait_until_idle(qtbot)
    for _ in range(3):
        move_first_rack_and_wait(window, qtbot)
        window.document.stack.setClean()  # no unsaved-changes prompt
        watched = watch_document(window)
        assert window.open_path(EXAMPLE)
        wait_until_idle(qtbot)
        _wait_collected(qtbot, watched)
    close_quietly(window)
