"""An edit made with any analysis tab showing marks the panel stale, then shows the analysis of
the design as edited (and of the design as it was, after undo).

How long the event loop is held meanwhile is a benchmark figure, not a test (timings on a shared
2-core machine are flaky): ``tests/benchmarks/bench_pipeline.py``, "longest GUI block".
"""

from __future__ import annotations

from gui.edit.commands import MoveRacksCommand
from model.analysis import analyze
from tests.benchmarks.workloads import build
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh


def test_an_edit_with_each_tab_showing_refreshes_the_panel(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, build("S"))
    d = docks(window)
    design, plant = window.document.design, window.document.plant
    assert d.panel.report.gpus == 1_024
    rack = next(
        r
        for r in design.racks.values()
        if any(dev.role != "gpu-server" for dev in design.devices_in_rack(r.id))
    )
    before = d.runner.result.report.to_json()
    for step, tab in enumerate((d.warnings, d.links, d.charts_page), start=1):
        d.tabs.setCurrentWidget(tab)
        qtbot.wait(20)
        window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + 3.0 * step, rack.y)}))
        assert "recomputing" in d.panel.status.text()
        wait_fresh(qtbot, window, timeout_ms=60_000)
        shown = d.runner.result.report.to_json()
        assert shown == analyze(design, plant).to_json()
        assert shown != before  # the move changed lengths: the panel is not the old report
        window.document.stack.undo()
        wait_fresh(qtbot, window, timeout_ms=60_000)
        assert d.runner.result.report.to_json() == before
    close_quietly(window)
