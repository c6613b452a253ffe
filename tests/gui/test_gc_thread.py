"""Garbage cycles are collected on the GUI thread, never on the editor's worker threads.

A collection finalizes every unreachable cycle it finds; in the editor those hold Qt objects of
closed windows and dropped views, which must be destroyed on the GUI thread. Before this rule a
file opened behind the progress dialog ran the collector on its loading thread (and the analysis
worker ran it whenever it allocated past the threshold), and the test suite once hung there.
"""

from __future__ import annotations

import gc
import threading

from gui.commands import MoveRacksCommand
from tests.gui.analysis_support import close_quietly, wait_fresh
from tests.gui.conftest import make_window


class _Tracer:
    """Records the thread that finalizes it; kept alive only by a reference cycle."""

    def __init__(self, seen: list[str]) -> None:
        self.seen = seen
        self.cycle = self

    def __del__(self) -> None:
        self.seen.append(threading.current_thread().name)


def test_garbage_is_collected_on_the_gui_thread_only(qtbot, tmp_path, pod_file):
    window = make_window(qtbot, tmp_path, pod_file)
    assert not gc.isenabled()  # the editor collects on its own thread, on a timer
    wait_fresh(qtbot, window)
    seen: list[str] = []
    _Tracer(seen)  # garbage now: unreachable, in a cycle
    design = window.document.design
    rack = next(iter(design.racks.values()))
    window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + 1.0, rack.y)}))
    wait_fresh(qtbot, window)  # the worker analysed it; the result froze what was alive
    # Opening a file loads it on a worker thread, which used to unfreeze and collect there.
    window.document.stack.setClean()
    assert window.open_path(pod_file)
    wait_fresh(qtbot, window)
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)  # the GUI thread's timer collects it
    assert seen == [threading.main_thread().name]
    close_quietly(window)
