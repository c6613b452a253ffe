"""The editor's whole path from a tray-corner drop to the analysis panel fresh, stage by stage.

    PYTHONPATH=. QT_QPA_PLATFORM=offscreen nice -n 19 .venv/bin/python \
        tests/benchmarks/profile_tray_drop_gui.py HALL

Opens HALL in a main window (as File > Open does), waits until it is settled, then drags the
first corner of the busiest tray 1.2 m across its first segment with real mouse events (as
``bench_editor`` does) and waits for the panel to be fresh. Every stage on the way is timed
where it runs: the release (command and redo), the worker's re-route, freeze and analysis
steps, the live plant's adoption of the copy and each listener of it (plan, links table,
bundles), the publish and each panel's update. Prints, per stage, the thread, its start after
the drop (wall), its wall time and its thread's CPU time (``time.thread_time``), then the drop
to fresh in wall and process CPU. Not a test: a measuring tool.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from PySide6.QtCore import QEvent, QEventLoop, Qt

from tests.benchmarks.editor_session import app, close, new_window, settle  # sets offscreen

_LOG: list[tuple[str, str, float, float, float]] = []
_T0 = [0.0]


def _timed(owner, name: str, label: str) -> None:
    """Replace ``owner.name`` (a class's method or a module's function) by a timed wrapper."""
    inner = getattr(owner, name)

    def wrapper(*args, **kwargs):
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return inner(*args, **kwargs)
        finally:
            thread = "GUI" if threading.current_thread() is threading.main_thread() else "worker"
            _LOG.append(
                (
                    label,
                    thread,
                    wall - _T0[0],
                    time.perf_counter() - wall,
                    time.thread_time() - cpu,
                )
            )

    setattr(owner, name, wrapper)


def _instrument() -> None:
    """Wrap every stage between the drop and the fresh panel (before the window connects its
    slots, which then connect the wrappers)."""
    from gui.canvas import bundle_item, scene, trunk_layer
    from gui.document import analysis_runner, plant_feed
    from gui.panels import analysis_panel, docks, links_model, links_table
    from model.analysis import analyzer

    runner = analysis_runner.AnalysisRunner
    for owner, name, label in (
        (analysis_runner, "retray", "re-route the copy"),
        (analysis_runner, "frozen", "freeze the copy"),
        (analyzer.Analyzer, "advance", "analysis (Analyzer.advance)"),
        (analyzer.Analyzer, "cables_by_tray", "bundles"),
        (analysis_runner, "length_histogram", "length histogram"),
        (analyzer.Analyzer, "tier_codes", "tier codes"),
        (analyzer.Analyzer, "used_stretches", "used stretches"),
        (analysis_runner, "length_findings", "length findings"),
        (analysis_runner, "finding_fabrics", "finding fabrics"),
        (analysis_runner._Job, "_compute", "worker job (all)"),
        (runner, "_run_job", "snapshot + job start"),
        (runner, "_job_rerouted", "adopt the copy (all listeners)"),
        (plant_feed, "adopt", "  adopt: swap attributes"),
        (runner, "_plant_refreshed", "  runner: plant refreshed"),
        (links_table.LinksTablePanel, "plant_changed", "  links table: plant changed"),
        (links_model.LinksTableModel, "link_parts", "links table: build_plant for parts"),
        (bundle_item.TrayLoad, "_on_refreshed", "  bundles: refreshed"),
        (trunk_layer.TrunkLayer, "_plant_refreshed", "  trunks: refreshed"),
        (scene.HallScene, "_rerouting_changed", "  plan: rerouting changed"),
        (runner, "_job_done", "publish (all listeners)"),
        (analysis_panel.AnalysisPanel, "show_result", "  analysis panel"),
        (docks.AnalysisDocks, "_result", "  docks"),
        (links_table.LinksTablePanel, "analysis_finished", "  links table: tiers"),
        (bundle_item.TrayLoad, "_take", "  bundles: take"),
        (trunk_layer.TrunkLayer, "_adopt", "  trunks: take layout"),
    ):
        _timed(owner, name, label)


def _mouse(view, kind, x, y, buttons) -> None:
    from tests.benchmarks.bench_editor import _mouse as send

    send(view, kind, x, y, buttons)


def main(path: str) -> None:
    _instrument()
    application = app()
    folder = Path(path).resolve().parent
    window = new_window(folder)
    window.open_path(Path(path))
    settle(window)
    d, view, scene = window.document.design, window.view, window.scene
    load = {t: sum(groups.values()) for t, groups in scene.tray_load.counts.items()}
    tray_id = max(d.trays, key=lambda t: load.get(t, 0))
    (x0, y0), (x1, y1) = d.trays[tray_id].points[:2]
    scene.select_ids([tray_id])
    view.resetTransform()
    view.scale(40, 40)
    view.centerOn(x0, y0)
    application.processEvents()
    nx, ny = -(y1 - y0), x1 - x0
    norm = (nx * nx + ny * ny) ** 0.5 or 1.0
    _mouse(view, QEvent.MouseButtonPress, x0, y0, Qt.LeftButton)
    for i in range(1, 25):
        step = 0.05 * i
        _mouse(view, QEvent.MouseMove, x0 + nx / norm * step, y0 + ny / norm * step, Qt.LeftButton)
        application.processEvents()
    _LOG.clear()
    runner = window.analysis_docks.runner
    _T0[0], cpu0 = time.perf_counter(), time.process_time()
    _mouse(view, QEvent.MouseButtonRelease, x0 + nx / norm * 1.2, y0 + ny / norm * 1.2, Qt.NoButton)
    release = time.perf_counter() - _T0[0]
    application.processEvents()
    while not runner.fresh:
        application.processEvents(QEventLoop.WaitForMoreEvents)
    fresh, cpu = time.perf_counter() - _T0[0], time.process_time() - cpu0
    print(f"tray {tray_id} ({load.get(tray_id, 0):,} cables): corner dropped 1.2 m across")
    print(f"{'stage':40s} {'thread':6s} {'at ms':>8s} {'wall ms':>8s} {'CPU ms':>8s}")
    print(f"{'release (command + redo)':40s} {'GUI':6s} {0:8.0f} {release * 1000:8.1f}")
    for label, thread, at, wall, cpu_s in _LOG:
        print(f"{label:40s} {thread:6s} {at * 1000:8.0f} {wall * 1000:8.1f} {cpu_s * 1000:8.1f}")
    print(
        f"panel fresh after the drop: wall {fresh * 1000:.0f} ms, process CPU {cpu * 1000:.0f} ms"
    )
    close(window)


if __name__ == "__main__":
    main(sys.argv[1])
