"""Editor live pipeline: panel fresh after a rack move, and the GUI thread's longest block.

Opens the workload in the editor window and moves one server rack three times (undoing in
between), each time with another analysis tab showing (warnings, links, charts: what the timed
GUI test of the L workload used to check), and reports: push to a fresh analysis panel
(min/median); the longest gap between ticks of a 2 ms timer meanwhile, the GUI block (its
largest over the three runs, as the target is that none exceeds 50 ms; min/median beside it);
and min/median of the pieces on the GUI thread (snapshot, bundle/fill count) and on the worker
(incremental analysis, the floor of "panel fresh": the panel cannot be fresh before the worker
is done).
Usage: ``python tests/benchmarks/run_benchmarks.py --only pipeline --sizes L``.
"""

from __future__ import annotations

import time

from tests.benchmarks.editor_session import (
    Gaps,
    app,
    close,
    min_median,
    new_window,
    saved_workload,
    settle,
)
from tests.benchmarks.run_benchmarks import Report, peak_rss_mb


def run(report: Report) -> None:
    from gui.edit.commands import MoveRacksCommand

    application = app()
    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        with saved_workload(size) as (path, folder):
            window = new_window(folder)
            window.open_path(path)
            runner, docks = window.analysis_docks.runner, window.analysis_docks
            d = window.document.design
            settle(window)
            rack = next(r for r in d.racks.values() if d.links_of_racks([r.id]))
            fresh, blocks, snaps, counts, workers = [], [], [], [], []
            gaps = Gaps()
            for i, tab in enumerate((docks.warnings, docks.links, docks.charts_page)):
                docks.tabs.setCurrentWidget(tab)
                settle(window)
                gaps.start()
                t0 = time.perf_counter()
                window.scene.push(MoveRacksCommand(d, {rack.id: (rack.x + 1.2 + i, rack.y)}))
                while not runner.fresh:
                    application.processEvents()
                fresh.append(time.perf_counter() - t0)
                while window.scene.tray_load.busy:
                    application.processEvents()
                blocks.append(gaps.stop())
                snaps.append(runner.snapshot_s)
                counts.append(window.scene.tray_load.last_count_s)
                workers.append(runner.result.seconds)
                window.document.stack.undo()
                settle(window)
            links = len(d.links_of_racks([rack.id]))
            report.add(
                size,
                "pipeline: panel fresh after a rack move",
                min(fresh),
                peak_rss_mb(),
                target="<= 150 ms" if size == "XL" else "",
                note=f"{min_median(fresh)}; floor: worker incremental analysis "
                f"{min_median(workers)}; {links} links moved",
            )
            # The longest of the three runs: the target is that no block exceeds 50 ms.
            report.add(
                size,
                "pipeline: longest GUI block during it (max)",
                max(blocks),
                peak_rss_mb(),
                target="<= 50 ms" if size == "XL" else "",
                note=f"{min_median(blocks)} (warnings, links, charts tab); snapshot "
                f"{min_median(snaps)}, bundles+fill {min_median(counts)}",
            )
            close(window)
