"""When the analysis runner starts a job: at once for an edit made while the panel is fresh,
after the debounce delay for the edits of a burst (``gui.document.analysis_runner.DEBOUNCE_MS``)."""

from __future__ import annotations

import time

from PySide6.QtWidgets import QApplication

from gui.document.analysis_runner import AnalysisRunner
from model.engine.routed_links import RoutedLinks
from tests.builders import small_pod


def _spin(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        QApplication.processEvents()
        time.sleep(0.002)


def _nudge(design, rack_id: str, dx: float) -> None:
    rack = design.racks[rack_id]
    design.move_racks({rack_id: (rack.x + dx, rack.y)})


def test_an_edit_while_fresh_is_analysed_at_once_and_a_burst_waits_for_the_delay(qtbot):
    design = small_pod()
    # A delay no test waits out: whatever is analysed here was started without it.
    runner = AnalysisRunner(design, RoutedLinks(design), delay_ms=60_000)
    try:
        qtbot.waitUntil(lambda: runner.fresh, timeout=20_000)
        rack = next(iter(design.racks))
        _nudge(design, rack, 0.6)
        qtbot.waitUntil(lambda: runner.fresh, timeout=20_000)  # the leading edge
        assert runner.result.revision == design.revision
        # Two edits in a row: the first starts at once, the second waits for the delay (it
        # once started at once too: QTimer.start(0) had set the debounce interval to 0).
        _nudge(design, rack, 0.6)
        _nudge(design, rack, 0.6)
        _spin(1.5)
        assert not runner.fresh
        assert runner.result.revision < design.revision
    finally:
        runner.close()
