"""The empty start-up document a window lets go of when a file is opened over it is freed by
the first full collection after it (gui.runtime.main_thread_gc's settle of
model.runtime.gc_policy.note_released), so no retry of that ~124 ms collection (at XL) is left
to land in the user's first edits."""

from __future__ import annotations

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
from tests.gui.conftest import close_quietly, make_window, wait_until_idle

# A tick long after the last edit: a let-go document's collection waits for the user to pause
# (gc_policy.EDIT_QUIET_S), and an earlier test may have edited a moment ago.
IDLE_S = float("inf")


EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "small-pod.hall.json"


def test_the_start_up_document_is_collected_by_the_first_settle_after_opening_a_file(
    qtbot, tmp_path
):
    window = make_window(qtbot, tmp_path)
    collect_on_gui_thread()  # as the editor's first worker does (idempotent)
    collector = QCoreApplication.instance().findChild(MainThreadCollector, COLLECTOR_NAME)
    wait_until_idle(qtbot)
    # Nothing left over from an earlier test in this process (a closed window's document still
    # watched, its retries pending: the parallel suite met one).
    for _ in range(64):
        if not gc_policy.released_pending():
            break
        gc_policy.settle_released(IDLE_S)
    assert not gc_policy.released_pending()
    start_up = window.document
    watched = {
        "document": weakref.ref(start_up),
        "design": weakref.ref(start_up.design),
        "plant feed": weakref.ref(feed_for(start_up.design, start_up.plant)),
        "scene": weakref.ref(window.scene),
    }
    del start_up
    # The collector's own ticks are stopped: the test runs them, one right after the open (a
    # tick lands there when the file was opened before the event loop turned, as in the
    # benchmarks) and one after the event loop has turned as in the editor.
    collector.timer.stop()
    try:
        assert window.open_path(EXAMPLE)
        settles = [gc_policy.settle_released(IDLE_S)]
        wait_until_idle(qtbot)
        settles.append(gc_policy.settle_released(IDLE_S))
        alive = [name for name, ref in watched.items() if ref() is not None]
        assert not alive, f"still alive after the settles {settles}: {alive}"
        assert settles.count(True) == 1  # one full collection, where it could free everything
        assert not gc_policy.released_pending()  # and no retry of it left to run
    finally:
        collector.timer.start()
        close_quietly(window)
