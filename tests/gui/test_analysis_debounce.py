"""When the analysis runner starts a job: at once for an edit made while the panel is fresh,
after the debounce delay for the edits of a burst (``gui.document.analysis_runner.DEBOUNCE_MS``)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from gui.document.analysis_runner import AnalysisRunner
from model.engine.routed_links import RoutedLinks
from tests.builders import small_pod


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
        # The second edit restarted the wait with the whole delay (60 s): read off the timer,
        # not hoped from 1.5 s of waiting in which an immediate start would have shown.
        assert runner._timer.isActive() and runner._timer.remainingTime() > 50_000
        for _ in range(5):  # whatever was posted runs: no job starts
            QApplication.processEvents()
        assert not runner.fresh
        assert runner.result.revision < design.revision
    finally:
        runner.close()
