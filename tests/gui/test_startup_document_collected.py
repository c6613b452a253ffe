"""The empty start-up document a window lets go of when a file is opened over it is freed by
the first full collection after it (gui.runtime.main_thread_gc's settle of
model.runtime.gc_policy.note_released), so no retry of that ~124 ms collection (at XL) is left
to land in the user's first edits."""

from __future__ import annotations

from model.runtime import gc_policy
from tests.gui.conftest import close_quietly, make_window, wait_until_idle
from tests.gui.released_support import (
    EXAMPLE,
    IDLE_S,
    assert_freed_by_one_collection,
    idle_collector,
    watch_document,
)


def test_the_start_up_document_is_collected_by_the_first_settle_after_opening_a_file(
    qtbot, tmp_path
):
    window = make_window(qtbot, tmp_path)
    wait_until_idle(qtbot)
    collector = idle_collector()
    watched = watch_document(window)  # the start-up document's
    # The collector's own ticks are stopped: the test runs them, one right after the open (a
    # tick lands there when the file was opened before the event loop turned, as in the
    # benchmarks) and one after the event loop has turned as in the editor.
    collector.timer.stop()
    try:
        assert window.open_path(EXAMPLE)
        settles = [gc_policy.settle_released(IDLE_S)]
        wait_until_idle(qtbot)
        settles.append(gc_policy.settle_released(IDLE_S))
        assert_freed_by_one_collection(settles, watched)
    finally:
        collector.timer.start()
        close_quietly(window)
