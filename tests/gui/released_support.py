"""What the tests of a let-go document's collection share (model.runtime.gc_policy's
note_released / settle_released, run by gui.runtime.main_thread_gc): the objects to watch, the
editor's collector with nothing pending from an earlier test, and what is still alive."""

from __future__ import annotations

import weakref
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from gui.document.plant_feed import feed_for
from gui.runtime.main_thread_gc import COLLECTOR_NAME, MainThreadCollector, collect_on_gui_thread
from model.runtime import gc_policy

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "small-pod.hall.json"
# A tick long after the last edit: a let-go document's collection waits for the user to pause
# (gc_policy.EDIT_QUIET_S), and an earlier test may have edited a moment ago.
IDLE_S = float("inf")


def watch_document(window) -> dict[str, weakref.ref]:
    """Weak references to what a window's document holds alive: it, its design, plant feed and
    the window's scene."""
    document = window.document
    return {
        "document": weakref.ref(document),
        "design": weakref.ref(document.design),
        "plant feed": weakref.ref(feed_for(document.design, document.plant)),
        "scene": weakref.ref(window.scene),
    }


def still_alive(watched: dict[str, weakref.ref]) -> list[str]:
    return [name for name, ref in watched.items() if ref() is not None]


def idle_collector() -> MainThreadCollector:
    """The editor's collector installed (as its first worker does; idempotent), with no
    collection left pending from an earlier test in this process (a closed window's document
    still watched, its retries pending: the parallel suite met one)."""
    collect_on_gui_thread()
    collector = QCoreApplication.instance().findChild(MainThreadCollector, COLLECTOR_NAME)
    for _ in range(64):
        if not gc_policy.released_pending():
            break
        gc_policy.settle_released(IDLE_S)
    assert not gc_policy.released_pending()
    return collector


def assert_freed_by_one_collection(settles: list[bool], watched: dict[str, weakref.ref]) -> None:
    """Everything watched is gone after ``settles`` (settle_released's answers, tick by tick),
    freed by one full collection where it could free everything, with no retry left to run."""
    alive = still_alive(watched)
    assert not alive, f"still alive after the settles {settles}: {alive}"
    assert settles.count(True) == 1
    assert not gc_policy.released_pending()
