"""Editor live pipeline: panel fresh after a rack move, and the GUI thread's longest block.

Opens the workload in the editor window, moves one server rack three times (undoing in
between) and reports min/median of: push to a fresh analysis panel, the longest gap between
ticks of a 2 ms timer meanwhile (the GUI block), and the pieces on the GUI thread (snapshot,
bundle/fill count) and on the worker (incremental analysis).
Usage: ``python tests/benchmarks/run_benchmarks.py --only pipeline --sizes L``.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication

from model.fileio import save_design
from tests.benchmarks.run_benchmarks import Report, peak_rss_mb
from tests.benchmarks.workloads import build


class _Gaps:
    """Longest gap between ticks of a 2 ms timer: how long the event loop was held."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setInterval(2)
        self.timer.timeout.connect(self._tick)
        self.last = self.longest = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self.last)
        self.last = now

    def start(self) -> None:
        self.last, self.longest = time.perf_counter(), 0.0
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        self._tick()
        return self.longest


def _mm(values: list[float]) -> str:
    return f"min {min(values) * 1000:.0f} / median {statistics.median(values) * 1000:.0f} ms"


def run(report: Report) -> None:
    from gui.commands import MoveRacksCommand
    from gui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        design = build(size)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"{size}.hall.json"
            save_design(design, path)
            del design
            window = MainWindow(
                QSettings(str(Path(tmp) / "s.ini"), QSettings.IniFormat), Path(tmp) / "rec"
            )
            window.resize(1600, 1000)
            window.show()
            window.open_path(path)
            runner = window.analysis_docks.runner
            d = window.document.design
            while not runner.fresh or window.scene.tray_load.busy:
                app.processEvents()
            rack = next(r for r in d.racks.values() if d.links_of_racks([r.id]))
            fresh, blocks, snaps, counts, workers = [], [], [], [], []
            gaps = _Gaps()
            for i in range(3):
                gaps.start()
                t0 = time.perf_counter()
                window.scene.push(MoveRacksCommand(d, {rack.id: (rack.x + 1.2 + i, rack.y)}))
                while not runner.fresh:
                    app.processEvents()
                fresh.append(time.perf_counter() - t0)
                while window.scene.tray_load.busy:
                    app.processEvents()
                blocks.append(gaps.stop())
                snaps.append(runner.snapshot_s)
                counts.append(window.scene.tray_load.last_count_s)
                workers.append(runner.result.seconds)
                window.document.stack.undo()
                while not runner.fresh or window.scene.tray_load.busy:
                    app.processEvents()
            links = len(d.links_of_racks([rack.id]))
            report.add(
                size,
                "pipeline: panel fresh after a rack move",
                min(fresh),
                peak_rss_mb(),
                target="<= 150 ms" if size == "XL" else "",
                note=f"{_mm(fresh)}; floor: worker incremental analysis {_mm(workers)}; "
                f"{links} links moved",
            )
            report.add(
                size,
                "pipeline: longest GUI block during it",
                min(blocks),
                peak_rss_mb(),
                target="<= 50 ms" if size == "XL" else "",
                note=f"{_mm(blocks)}; snapshot {_mm(snaps)}, bundles+fill {_mm(counts)}",
            )
            window.document.stack.setClean()
            window.close()
            app.processEvents()
