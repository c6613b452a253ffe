"""The runner's two-step result: the report is published (``finished``, the panel fresh) before
the bundles, their stretches and the length histogram of the same snapshot (``completed``,
the runner settled); each view shows one revision's figures throughout, never a mix."""

from __future__ import annotations

import threading

import pytest

from gui.edit.commands import MoveRacksCommand
from model.analysis.analyzer import Analyzer
from tests.benchmarks.workloads import build
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh


@pytest.fixture
def s_window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, build("S"))
    yield window
    close_quietly(window)


class _HeldBundles:
    """Holds the worker's bundle count (the first of the figures that follow the report) until
    ``let_go``; records what the runner sends meanwhile."""

    def __init__(self, monkeypatch, runner) -> None:
        self.held, self.gate = threading.Event(), threading.Event()
        self.sent: list[tuple[str, object]] = []
        runner.finished.connect(lambda result: self.sent.append(("finished", result)))
        runner.completed.connect(lambda result: self.sent.append(("completed", result)))
        count = Analyzer.cables_by_tray

        def held(analyzer, *args):
            self.held.set()
            assert self.gate.wait(30), "the bundle count was never let go"
            return count(analyzer, *args)

        monkeypatch.setattr(Analyzer, "cables_by_tray", held)

    def let_go(self) -> None:
        self.gate.set()


def _move_a_rack(window, dx: float) -> None:
    design = window.document.design
    rack = next(r for r in design.racks.values() if design.links_of_racks([r.id]))
    window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + dx, rack.y + 1.0)}))


def test_the_report_is_shown_fresh_before_its_bundles_and_histogram_come(
    s_window, qtbot, monkeypatch
):
    window = s_window
    d, scene, design = docks(window), window.scene, window.document.design
    runner = d.runner
    wait_fresh(qtbot, window)
    before = runner.result
    hold = _HeldBundles(monkeypatch, runner)
    try:
        _move_a_rack(window, 3.0)
        # The worker starts the bundles once the GUI thread has taken the report (it waits for
        # that, so the two do not share the interpreter while the panel is made fresh).
        qtbot.waitUntil(lambda: len(hold.sent) == 1 and hold.held.is_set(), timeout=20_000)
        kind, report_only = hold.sent[0]
        assert kind == "finished" and report_only.revision == design.revision
        # The panel is fresh and shows the new report ...
        assert runner.fresh and not runner.settled
        assert d.panel.report is report_only.report
        assert "recomputing" not in d.panel.status.text()
        assert (report_only.bundles, report_only.lengths, report_only.used) == (None, None, None)
        # ... while the plan's bundles and the charts still show the previous revision's whole
        # result, and say they wait (the charts show the report and the histogram together).
        assert scene.tray_load.busy
        assert scene.tray_load.counts == before.bundles
        assert "recomputing" in d.charts.status.text()
    finally:
        hold.let_go()
    qtbot.waitUntil(lambda: runner.settled, timeout=20_000)
    assert [kind for kind, _ in hold.sent] == ["finished", "completed"]
    whole = hold.sent[1][1]
    assert runner.result is whole
    assert whole.report is report_only.report and whole.revision == report_only.revision
    assert whole.bundles is not None and whole.lengths is not None and whole.used is not None
    assert whole.bundles != before.bundles  # the move changed the bundles: the check can fail
    qtbot.waitUntil(lambda: not scene.tray_load.busy, timeout=10_000)
    assert scene.tray_load.counts == whole.bundles
    assert scene.tray_load.fill == whole.report.tray_fill
    assert d.charts.status.text().endswith(f"revision {whole.revision}")


def test_an_edit_while_the_bundles_are_counted_makes_the_panel_stale_at_once(
    s_window, qtbot, monkeypatch
):
    window = s_window
    d, design = docks(window), window.document.design
    runner = d.runner
    wait_fresh(qtbot, window)
    hold = _HeldBundles(monkeypatch, runner)
    try:
        _move_a_rack(window, 3.0)
        qtbot.waitUntil(lambda: len(hold.sent) == 1 and hold.held.is_set(), timeout=20_000)
        first = hold.sent[0][1]
        assert runner.fresh
        _move_a_rack(window, 3.0)  # while the first job still counts its bundles
        assert not runner.fresh and not runner.settled
        assert "recomputing" in d.panel.status.text()
        assert design.revision != first.revision
    finally:
        hold.let_go()
    wait_fresh(qtbot, window)
    assert runner.result.revision == design.revision
    assert d.panel.report is runner.result.report
    # The first revision's result completed (what the plan showed until the next), then the
    # second revision's was published and completed.
    kinds = [(kind, result.revision) for kind, result in hold.sent]
    assert kinds == [
        ("finished", first.revision),
        ("completed", first.revision),
        ("finished", design.revision),
        ("completed", design.revision),
    ]
