"""Garbage cycles are collected on the GUI thread, never on the editor's worker threads.

A collection finalizes every unreachable cycle it finds; in the editor those hold Qt objects of
closed windows and dropped views, which must be destroyed on the GUI thread. Before this rule a
file opened behind the progress dialog ran the collector on its loading thread (and the analysis
worker ran it whenever it allocated past the threshold), and the test suite once hung there.
"""

from __future__ import annotations

import gc
import threading

import pytest

from gui.edit.commands import MoveRacksCommand
from model.runtime import gc_policy
from tests.gui.analysis_support import close_quietly, wait_fresh
from tests.gui.conftest import make_window

pytestmark = pytest.mark.real_gc_settle  # the collector policy is what these test


class _Tracer:
    """Records the thread that finalizes it; kept alive only by a reference cycle."""

    def __init__(self, seen: list[str]) -> None:
        self.seen = seen
        self.cycle = self

    def __del__(self) -> None:
        self.seen.append(threading.current_thread().name)


# A tick long after the last edit: a let-go document's collection waits for the user to pause
# (gc_policy.EDIT_QUIET_S), and an earlier test may have edited a moment ago.
IDLE_S = float("inf")


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


def test_an_opened_designs_first_snapshot_is_taken_on_the_loading_thread(
    qtbot, tmp_path, pod_file, monkeypatch
):
    """The first snapshot copies everything (~0.25 s at 393k links): it is taken with the load,
    behind the progress dialog, not on the GUI thread when the first analysis starts."""
    import model.engine.snapshot as snapshot_module

    threads: list[str] = []
    freeze = snapshot_module.freeze_plant

    def recording_freeze(*args, **kwargs):
        threads.append(threading.current_thread().name)
        return freeze(*args, **kwargs)

    monkeypatch.setattr(snapshot_module, "freeze_plant", recording_freeze)
    window = make_window(qtbot, tmp_path)  # the empty start-up hall's snapshots: not counted
    wait_fresh(qtbot, window)
    threads.clear()
    assert window.open_path(pod_file)
    wait_fresh(qtbot, window)
    assert len(threads) == 1 and threads[0] != threading.main_thread().name
    design = window.document.design
    rack = next(iter(design.racks.values()))
    window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + 1.0, rack.y)}))
    wait_fresh(qtbot, window)  # an edit's snapshot is the GUI thread's (it edits the design)
    assert threads[1:] == [threading.main_thread().name]
    close_quietly(window)


def test_no_collection_on_the_gui_thread_while_a_worker_builds_a_design(qtbot, tmp_path):
    """Everything a loading worker has built so far is young and makes no cycle: the GUI
    thread's timer does not walk it (~50 ms at XL) while the build runs, and collects after."""
    from PySide6.QtCore import QCoreApplication

    from gui.runtime.main_thread_gc import COLLECTOR_NAME, MainThreadCollector
    from model.runtime.gc_policy import building_design

    window = make_window(qtbot, tmp_path)
    collector = QCoreApplication.instance().findChild(MainThreadCollector, COLLECTOR_NAME)
    gc_policy.settle_released(IDLE_S)  # as in the test below: the window's first document
    runs: list[int] = []

    def record(phase, info):
        if phase == "start":
            runs.append(info["generation"])

    inside, done = threading.Event(), threading.Event()

    def build() -> None:
        with building_design():
            inside.set()
            done.wait(10)

    worker = threading.Thread(target=build)
    worker.start()
    gc.callbacks.append(record)
    try:
        assert inside.wait(10)
        _junk = [[] for _ in range(5 * gc.get_threshold()[0])]  # past the young threshold
        collector.collect_due()
        assert runs == []
        done.set()
        worker.join(10)
        collector.collect_due()
        assert runs and runs[0] == 0
    finally:
        gc.callbacks.remove(record)
        done.set()
        worker.join(10)
    close_quietly(window)


def test_an_opened_designs_scene_is_frozen_and_collected_two_opens_later(qtbot, tmp_path, pod_file):
    """The scene a document gets is moved out of the collector's generations (young
    collections stopped walking it), yet a dropped one is still collected: at the settle of
    the design opened after the one that replaced it."""
    import weakref

    window = make_window(qtbot, tmp_path)
    wait_fresh(qtbot, window)
    assert window.open_path(pod_file)
    scene = window.scene  # as set_document left it, before the first analysis has run
    assert not any(o is scene for o in gc.get_objects())  # frozen: in no generation
    wait_fresh(qtbot, window)
    first = weakref.ref(scene)
    first_items = weakref.ref(next(iter(scene.racks.values())))
    del scene
    for _ in range(2):
        window.document.stack.setClean()
        assert window.open_path(pod_file)
        wait_fresh(qtbot, window)
    qtbot.waitUntil(lambda: first() is None and first_items() is None, timeout=5000)
    close_quietly(window)


def test_no_collection_on_the_gui_thread_while_an_analysis_job_runs(qtbot, tmp_path, monkeypatch):
    """An analysis job makes young objects and no cycles (a zoned XL hall's ~2.5 M channel
    objects): the GUI thread's timer does not walk them while the job runs (~170 ms a tick)."""
    from PySide6.QtCore import QCoreApplication

    from gui.edit.commands import MoveRacksCommand
    from gui.runtime.main_thread_gc import COLLECTOR_NAME, MainThreadCollector
    from model.analysis.analyzer import Analyzer

    window = make_window(qtbot, tmp_path)
    wait_fresh(qtbot, window)
    collector = QCoreApplication.instance().findChild(MainThreadCollector, COLLECTOR_NAME)
    # The empty document the window opened with and let go of is collected first, as the
    # collector's next tick would (a full collection, not the young one asked of it here).
    gc_policy.settle_released(IDLE_S)
    runs: list[int] = []
    inside, done = threading.Event(), threading.Event()
    advance = Analyzer.advance

    def held_advance(self, *args, **kwargs):
        inside.set()
        done.wait(10)
        return advance(self, *args, **kwargs)

    def record(phase, info):
        if phase == "start":
            runs.append(info["generation"])

    monkeypatch.setattr(Analyzer, "advance", held_advance)
    design = window.document.design
    rack_id = next(iter(design.racks), None)
    if rack_id is None:
        from tests.builders import rack

        rack(design, "r-gc", 2.0, 2.0)
    else:
        window.scene.push(MoveRacksCommand(design, {rack_id: (3.0, 3.0)}))
    gc.callbacks.append(record)
    try:
        qtbot.waitUntil(inside.is_set, timeout=10_000)
        _junk = [[] for _ in range(5 * gc.get_threshold()[0])]  # past the young threshold
        collector.collect_due()
        assert runs == []
        done.set()
        wait_fresh(qtbot, window)
        more = [[] for _ in range(5 * gc.get_threshold()[0])]  # (the freeze reset the count)
        collector.collect_due()
        assert runs and runs[0] == 0 and more
    finally:
        gc.callbacks.remove(record)
        done.set()
    close_quietly(window)
