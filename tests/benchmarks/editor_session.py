"""The editor benchmarks' shared set-up: a workload saved to a file and opened in a main window.

``bench_editor`` and ``bench_pipeline`` both open the reference hall the way a person does
(File > Open of a saved file: load in a worker thread, scene built, first frame painted) and
close it without the unsaved-changes prompt; this module holds that once, with the event-loop
watch (:class:`Gaps`) and the min/median wording both report with.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QAbstractEventDispatcher, QEventLoop, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

import gui  # noqa: E402,F401 - applies the PySide6 workaround before any Qt call

_ROOT = Path(__file__).resolve().parents[2]

# Run by a fresh interpreter: build workload argv[1], cabled argv[2] ("direct" as built), saved to argv[3].
_SAVE_IN_CHILD = """
import sys
from model.files.design_file import save_design
from model.generators.generate import apply_cabling
from tests.benchmarks.workloads import build
design = build(sys.argv[1])
if sys.argv[2] != "direct":
    design = apply_cabling(design, sys.argv[2])
save_design(design, sys.argv[3])
"""


class Gaps:
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


def min_median(values: list[float]) -> str:
    """ "min 12 / median 15 ms" of a list of seconds."""
    return f"min {min(values) * 1000:.0f} / median {statistics.median(values) * 1000:.0f} ms"


def app() -> QApplication:
    return QApplication.instance() or QApplication([])


def settle(window) -> None:
    """Process events until the analysis is fresh, the cable bundles are counted and the event
    loop has nothing left to do.

    The last turn that makes the panel fresh (or a tab switch before a timed edit) leaves the
    repaint it caused queued: the scene's dirty items, the viewport's update request, the new
    tab's paint. Returning with those pending put them in the next timed gap (the first move
    after opening the XL file measured the ~100 ms whole-view repaint of the bundles' first
    appearance, the tab switches 30-80 ms), so settle drains the dispatcher until a pass
    processes nothing, and starts over if that work made the analysis stale again.
    """
    runner, application = window.analysis_docks.runner, app()
    dispatcher = QAbstractEventDispatcher.instance()
    while True:
        while not runner.fresh or window.scene.tray_load.busy:
            application.processEvents()
        while dispatcher.processEvents(QEventLoop.AllEvents):
            pass  # a pass that ran a posted event, timer or paint: there may be more behind it
        if runner.fresh and not window.scene.tray_load.busy:
            return


@contextmanager
def saved_workload(size: str, cabling: str = "direct") -> Iterator[tuple[Path, Path]]:
    """(file of workload ``size`` cabled ``cabling``, scratch folder).

    The workload is built and saved by a child interpreter: built here, its heap (~250 MB at
    XL) would stay in the editor's process and count in the peak the editor is held to, though
    a user's editor only ever opens the file.
    """
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{size}-{cabling}.hall.json"
        subprocess.run(
            [sys.executable, "-c", _SAVE_IN_CHILD, size, cabling, str(path)], cwd=_ROOT, check=True
        )
        yield path, Path(tmp)


def new_window(folder: Path):
    """A shown 1600 x 1000 main window with its settings and recovery files in ``folder``."""
    from gui.main_window import MainWindow

    window = MainWindow(QSettings(str(folder / "s.ini"), QSettings.IniFormat), folder / "rec")
    window.resize(1600, 1000)
    window.show()
    app().processEvents()
    return window


def open_to_first_frame(window, path: Path) -> float:
    """Open ``path`` in ``window`` and paint its first frame: the seconds it took."""
    t0 = time.perf_counter()
    window.open_path(path)
    app().processEvents()
    window.view.viewport().repaint()
    return time.perf_counter() - t0


def close(window) -> None:
    """Close without the unsaved-changes prompt and let Qt delete the window."""
    window.document.stack.setClean()
    window.close()
    window.deleteLater()
    app().processEvents()
