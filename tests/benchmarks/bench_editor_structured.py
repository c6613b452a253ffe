"""Editor benchmark on the workloads cabled in TIA-942 zones and cross-connected (#43 item 4).

The issue holds the structured halls to the direct-XL editor targets: open to first frame
<= 3 s, the analysis panel fresh <= 150 ms after a rack move, no GUI-thread block > 50 ms,
peak <= 1.5 GB. ``bench_editor`` measures those on the direct workloads only; this module opens
each size's zoned and cross-connected hall (``apply_cabling`` of the reference workload, built
and saved first by a child process, not timed) the same way, with ``bench_editor``'s mouse and findings helpers, and times:
open + first frame, until settled (analysis published, bundles counted), the longest GUI block
until settled, a rack drag's longest move event, the drop until the panel is fresh, the longest
GUI block from the drop until then, and the findings dock taking the published analysis.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

if __name__ == "__main__":  # a child of run(): the project on the path, as run_benchmarks does
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QEvent, QEventLoop, Qt

from tests.benchmarks.bench_editor import _findings_shown, _mouse, drag_moves
from tests.benchmarks.editor_session import (
    Gaps,
    app,
    close,
    new_window,
    open_to_first_frame,
    saved_workload,
    settle,
)
from tests.benchmarks.floors import bare_decode_s
from tests.benchmarks.run_benchmarks import Report, peak_rss_mb

CABLINGS = (("zones", "zoned"), ("cross-connect", "xc"))


def run(report: Report) -> None:
    # One hall per process, as bench_editor: a second window would hold a second design in
    # memory (the peak would be two halls') and the first one's heap would weigh on it.
    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        for style, _tag in CABLINGS:
            subprocess.run([sys.executable, __file__, size, style], check=False)


def _one_hall(report: Report, size: str, style: str) -> None:
    with saved_workload(size, style) as (path, folder):
        _session(report, size, dict(CABLINGS)[style], path, folder)


def _session(report: Report, size: str, tag: str, path: Path, folder: Path) -> None:
    """One window on ``path``: open, settle, drag a rack and wait for the panel, findings."""
    app()  # the QApplication, before the window
    xl = size == "XL"
    decode = min(bare_decode_s(path))
    window = new_window(folder)
    opened = open_to_first_frame(window, path)
    d = window.document.design
    report.add(
        size,
        f"{tag}: editor: open file + first frame",
        opened,
        peak_rss_mb(),
        target="<= 3 s" if xl else "",
        note=f"floor: bare decode {decode * 1000:.0f} ms ({opened / decode:.1f}x); "
        f"{len(d.racks):,} racks, {len(d.links):,} links",
    )
    gaps = Gaps()
    gaps.start()
    t0 = time.perf_counter()
    settle(window)
    settled = time.perf_counter() - t0
    report.add(
        size,
        f"{tag}: editor: first frame until settled",
        settled,
        peak_rss_mb(),
        note="analysis published, bundles counted and first drawn",
    )
    report.add(
        size,
        f"{tag}: editor: longest GUI block until settled",
        gaps.stop(),
        peak_rss_mb(),
        target="<= 50 ms" if xl else "",
    )
    _drag_rack(report, size, tag, window)
    _findings_shown(_Tagged(report, tag), size, window)
    close(window)


class _Tagged:
    """A report whose rows name the hall: ``bench_editor``'s helpers name the size only."""

    def __init__(self, report: Report, tag: str) -> None:
        self.report, self.tag = report, tag

    def add(self, workload: str, stage: str, *args, **kwargs) -> None:
        self.report.add(workload, f"{self.tag}: {stage}", *args, **kwargs)


def _drag_rack(report: Report, size: str, tag: str, window) -> None:
    """Drag a server rack two rows' worth with real mouse events, then wait for the panel."""
    application, xl = app(), size == "XL"
    d, view = window.document.design, window.view
    rack_id = next(r for r in d.racks if d.links_of_racks([r]))
    rack = d.racks[rack_id]
    view.resetTransform()
    view.scale(40, 40)
    view.centerOn(rack.x, rack.y)
    settle(window)
    moves = drag_moves(view, rack)
    runner, gaps = window.analysis_docks.runner, Gaps()
    gaps.start()
    t0, gui0, cpu0 = time.perf_counter(), time.thread_time(), time.process_time()
    _mouse(view, QEvent.MouseButtonRelease, rack.x + 2.4, rack.y + 1.2, Qt.NoButton)
    application.processEvents()
    release = time.perf_counter() - t0
    while not runner.fresh:  # waiting, not spinning: the GUI thread's CPU is its own work
        application.processEvents(QEventLoop.WaitForMoreEvents)
    fresh = time.perf_counter() - t0
    fresh_gui, fresh_cpu = time.thread_time() - gui0, time.process_time() - cpu0
    longest = gaps.stop()
    report.add(
        size,
        f"{tag}: editor: drag a rack, longest move event",
        max(moves),
        peak_rss_mb(),
        target="<= 50 ms" if xl else "",
        note=f"median {statistics.median(moves) * 1000:.1f} ms over 24 moves",
    )
    report.add(
        size,
        f"{tag}: editor: rack dropped, until panel fresh",
        fresh,
        peak_rss_mb(),
        target="<= 150 ms" if xl else "",
        note=f"release {release * 1000:.0f} ms; GUI thread CPU {fresh_gui * 1000:.0f} ms, "
        f"process CPU {fresh_cpu * 1000:.0f} ms; {len(d.links_of_racks([rack_id]))} links, "
        f"moved {d.racks[rack_id].x - rack.x:+.1f}/{d.racks[rack_id].y - rack.y:+.1f} m",
    )
    report.add(
        size,
        f"{tag}: editor: rack drop, longest GUI block",
        longest,
        peak_rss_mb(),
        target="<= 50 ms" if xl else "",
        note="from the release until the panel is fresh",
    )


if __name__ == "__main__":
    _one_hall(Report((sys.argv[1],)), sys.argv[1], sys.argv[2])
