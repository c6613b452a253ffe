"""The two-step analysis result at its edges (issue #38; found by a review of the two-step
runner): a failure after the report is published, an edit between the report and its bundles, a
burst of edits meanwhile, and a rename at rest. Each failed before its fix."""

from __future__ import annotations

import pytest

from model.analysis.analyzer import Analyzer
from tests.benchmarks.workloads import build
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh
from tests.gui.test_analysis_two_step import _HeldBundles, _move_a_rack


@pytest.fixture
def s_window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, build("S"))
    yield window
    close_quietly(window)


def test_a_failure_after_the_report_does_not_leave_the_runner_settled_on_half_a_result(
    s_window, qtbot, monkeypatch
):
    window = s_window
    d, scene = docks(window), window.scene
    runner = d.runner
    wait_fresh(qtbot, window)
    before = runner.result
    sent = []
    runner.finished.connect(lambda r: sent.append(("finished", r.revision)))
    runner.completed.connect(lambda r: sent.append(("completed", r.revision)))
    runner.failed.connect(lambda e: sent.append(("failed", e)))

    def broken(analyzer, *args):
        raise RuntimeError("bundle count broke")

    monkeypatch.setattr(Analyzer, "cables_by_tray", broken)
    _move_a_rack(window, 3.0)
    qtbot.waitUntil(lambda: any(k == "failed" for k, _ in sent), timeout=20_000)
    qtbot.wait(200)
    # The report of the new revision was published, its bundles never came ...
    assert sent[0] == ("finished", window.document.design.revision)
    assert ("completed", window.document.design.revision) not in sent
    assert runner.result.bundles is None
    assert scene.tray_load.counts == before.bundles  # the plan: the previous revision's
    # ... yet the runner says the published result is whole (settled: "completed was sent"),
    # and the plan says it is not waiting for anything.
    assert not runner.settled, "settled although completed was never sent for this revision"
    # ... and nothing more is coming: the plan does not wait for it, the charts say it failed
    assert not scene.tray_load.busy
    assert "failed" in d.charts.status.text()


def test_bundles_of_a_revision_edited_since_do_not_mark_the_charts_up_to_date(
    s_window, qtbot, monkeypatch
):
    """An edit between ``finished`` and ``completed``: the charts said "recomputing" at the
    edit (stale); the first job's ``completed`` then makes them say "up to date · revision N"
    while the design is at N+1 and the panel says recomputing."""
    window = s_window
    d, design = docks(window), window.document.design
    runner = d.runner
    wait_fresh(qtbot, window)
    hold = _HeldBundles(monkeypatch, runner)
    statuses = []
    runner.completed.connect(
        lambda r: statuses.append((r.revision, design.revision, d.charts.status.text()))
    )
    try:
        _move_a_rack(window, 3.0)
        qtbot.waitUntil(lambda: len(hold.sent) == 1, timeout=20_000)
        first = hold.sent[0][1].revision
        # hold the second job too, so the state after the first completed can be looked at
        _move_a_rack(window, 3.0)
        assert "recomputing" in d.charts.status.text()
        hold.gate.set()
        qtbot.waitUntil(lambda: len(statuses) >= 1, timeout=20_000)
    finally:
        hold.let_go()
    revision_done, revision_now, text = statuses[0]
    assert revision_done == first and revision_now != first
    assert "recomputing" in text, (
        f"charts say {text!r} for revision {first}, design at {revision_now}"
    )


def test_renaming_the_design_at_rest_leaves_the_runner_settled(s_window, qtbot):
    """A design rename is in no figure (the runner ignores NAME_CHANGED) but bumps
    ``design.revision``: ``fresh``/``settled`` compare revisions, so they turn False for good
    and the plan's TrayLoad reports ``busy`` forever (pre-existing for ``fresh``; ``settled``
    and TrayLoad.busy now follow it)."""
    window = s_window
    runner = docks(window).runner
    wait_fresh(qtbot, window)
    window.document.design.set_name("renamed hall")
    qtbot.wait(1500)
    assert runner.settled
    assert not window.scene.tray_load.busy


def test_a_burst_of_edits_during_step_two_is_debounced_like_one_during_step_one(
    s_window, qtbot, monkeypatch
):
    """While the job in flight counts its bundles (``_finishing``) the runner counts as fresh
    in ``_on_change``: every edit of a burst then emits ``stale`` again and restarts the timer
    at 0 ms instead of the debounce delay (during step 1 only the first edit of a burst does)."""
    window = s_window
    runner = docks(window).runner
    wait_fresh(qtbot, window)
    hold = _HeldBundles(monkeypatch, runner)
    stale = []
    try:
        _move_a_rack(window, 3.0)
        qtbot.waitUntil(lambda: len(hold.sent) == 1, timeout=20_000)
        runner.stale.connect(lambda: stale.append(runner._timer.interval()))
        for _ in range(3):  # a drag: move events a few event-loop turns apart
            _move_a_rack(window, 0.6)
            qtbot.wait(30)
    finally:
        hold.let_go()
    wait_fresh(qtbot, window)
    assert len(stale) == 1, (
        f"stale emitted {len(stale)} times in one burst (timer intervals {stale})"
    )
