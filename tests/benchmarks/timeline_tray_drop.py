"""The timeline of tray-corner drops in the editor, release to a fresh analysis panel, in CPU.

    PYTHONPATH=. QT_QPA_PLATFORM=offscreen .venv/bin/python \
        tests/benchmarks/timeline_tray_drop.py HALL [--drops N]

Opens HALL in a main window, waits until it is settled, then drops the first corner of the
busiest tray 1.2 m across its first segment N times (out and back in turn, each after the
editor settled again, as ``bench_editor`` drops it once) with the stages of
:mod:`tests.benchmarks.profile_tray_drop_gui` timed, and more of what runs between the release
and the fresh panel: the runner's turns (edit seen, job start, report taken, publish), the
view's paints, the collector's ticks and every collection (``gc.callbacks``). Per drop: each
stage's thread, start after the release (wall), wall and thread CPU; then, per drop and as
medians, the drop to fresh in wall, process CPU, the GUI thread's and the worker's CPU, and the
GUI thread's CPU in no timed stage (event dispatch, Qt's own work).

Why CPU: on this shared machine wall time runs 2-10x the CPU. Both threads share one GIL, so on
an idle machine the drop to fresh takes about the CPU of everything the process runs meanwhile
(both threads) plus the event loop's idle turns: a stage that is not needed for the panel but
runs before it is fresh (on either thread) is on the path too. Not a test: a measuring tool.
"""

from __future__ import annotations

import gc
import statistics
import sys
import threading
import time
from pathlib import Path

from PySide6.QtCore import QEvent, QEventLoop, Qt

from tests.benchmarks import profile_tray_drop_gui as stages
from tests.benchmarks.editor_session import app, close, new_window, settle  # sets offscreen

_LOG = stages._LOG  # (label, thread, start after the release, wall, thread CPU)


def _instrument() -> None:
    """The stages of profile_tray_drop_gui, the runner's turns, paints and collector ticks."""
    from gui.canvas import view
    from gui.document import analysis_runner
    from gui.runtime import main_thread_gc

    stages._instrument()
    runner = analysis_runner.AnalysisRunner
    for owner, name, label in (
        (runner, "_on_change", "runner: edit seen"),
        (runner, "_start", "runner: start (debounce timer)"),
        (runner, "_job_reported", "runner: report taken"),
        (runner, "_publish", "runner: publish"),
        (runner, "_completed", "runner: rest of the result"),
        (analysis_runner._Job, "run", "worker: whole job"),
        (view.HallView, "paintEvent", "view paint"),
        (main_thread_gc.MainThreadCollector, "collect_due", "collector tick"),
    ):
        stages._timed(owner, name, label)
    started: list[float] = []

    def collected(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(time.perf_counter())
            return
        thread = "GUI" if threading.current_thread() is threading.main_thread() else "worker"
        at = started.pop() if started else time.perf_counter()
        label = f"collection of generation {info['generation']}"
        _LOG.append((label, thread, at - stages._T0[0], time.perf_counter() - at, 0.0))

    gc.callbacks.append(collected)


def _thread_cpu(thread: threading.Thread) -> float:
    """``thread``'s CPU seconds so far (its own clock, read from any thread)."""
    assert thread.ident is not None
    return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))


def _drop(window, tray_id: str, out: bool) -> dict[str, float]:
    """One drop of the corner (out across the first segment, or back), timed to fresh."""
    application = app()
    d, view, scene = window.document.design, window.view, window.scene
    points = d.trays[tray_id].points
    (x0, y0), (x1, y1) = points[0], points[1]
    nx, ny = -(y1 - y0), x1 - x0
    norm = (nx * nx + ny * ny) ** 0.5 or 1.0
    sign = 1.0 if out else -1.0
    scene.select_ids([tray_id])
    view.resetTransform()
    view.scale(40, 40)
    view.centerOn(x0, y0)
    settle(window)
    stages._mouse(view, QEvent.MouseButtonPress, x0, y0, Qt.LeftButton)
    for i in range(1, 25):
        step = sign * 0.05 * i
        stages._mouse(
            view, QEvent.MouseMove, x0 + nx / norm * step, y0 + ny / norm * step, Qt.LeftButton
        )
        application.processEvents()
    runner = window.analysis_docks.runner  # (no settle while the button is held: the bundles wait)
    _LOG.clear()
    gui_cpu0, cpu0 = time.thread_time(), time.process_time()
    stages._T0[0] = time.perf_counter()
    end = (x0 + sign * nx / norm * 1.2, y0 + sign * ny / norm * 1.2)
    stages._mouse(view, QEvent.MouseButtonRelease, *end, Qt.NoButton)
    application.processEvents()
    while not runner.fresh:
        application.processEvents(QEventLoop.WaitForMoreEvents)
    fresh = time.perf_counter() - stages._T0[0]
    cpu, gui_cpu = time.process_time() - cpu0, time.thread_time() - gui_cpu0
    timed_gui = sum(c for label, t, _, _, c in _LOG if t == "GUI" and not label.startswith(" "))
    print(f"{'stage':40s} {'thread':6s} {'at ms':>8s} {'wall ms':>8s} {'CPU ms':>8s}")
    for label, thread, at, wall, cpu_s in sorted(_LOG, key=lambda row: row[2]):
        print(f"{label:40s} {thread:6s} {at * 1000:8.0f} {wall * 1000:8.1f} {cpu_s * 1000:8.1f}")
    figures = {
        "fresh wall": fresh,
        "process CPU": cpu,
        "GUI thread CPU": gui_cpu,
        "other threads' CPU": cpu - gui_cpu,
        "GUI CPU in no timed stage": gui_cpu - timed_gui,
    }
    print("; ".join(f"{k} {v * 1000:.0f} ms" for k, v in figures.items()))
    return figures


def main(path: str, drops: int) -> None:
    _instrument()
    app()
    window = new_window(Path(path).resolve().parent)
    window.open_path(Path(path))
    settle(window)
    d, scene = window.document.design, window.scene
    load = {t: sum(groups.values()) for t, groups in scene.tray_load.counts.items()}
    tray_id = max(d.trays, key=lambda t: load.get(t, 0))
    print(f"tray {tray_id} ({load.get(tray_id, 0):,} cables): corner dropped 1.2 m, {drops}x")
    runs = []
    for k in range(drops):
        print(f"-- drop {k + 1}")
        runs.append(_drop(window, tray_id, out=k % 2 == 0))
    print(f"medians of {drops} drop(s):")
    for name in runs[0]:
        values = [run[name] * 1000 for run in runs]
        print(
            f"  {name:28s} {statistics.median(values):7.0f} ms  ({', '.join(f'{v:.0f}' for v in values)})"
        )
    close(window)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0], int(args[args.index("--drops") + 1]) if "--drops" in args else 1)
