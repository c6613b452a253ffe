"""The analysis runner's hand-over to its worker and back: the GUI thread's collector waits from
the moment a job is handed over (not from when the worker first runs it), and a job's second
step (bundles, stretches, histogram) waits until the GUI thread has taken its report."""

from __future__ import annotations

import threading

from gui.document import analysis_runner
from gui.document.analysis_runner import AnalysisRunner
from model.engine.routed_links import RoutedLinks
from model.runtime import gc_policy
from tests.builders import small_pod


def _nudge(design) -> None:
    rack_id = next(iter(design.racks))
    rack = design.racks[rack_id]
    design.move_racks({rack_id: (rack.x + 0.6, rack.y)})


def test_the_collector_waits_from_the_hand_over_until_the_job_is_done(qtbot, monkeypatch):
    design = small_pod()
    runner = AnalysisRunner(design, RoutedLinks(design))
    release = threading.Event()
    real_run = analysis_runner._Job.run

    def late_run(job):  # the worker thread not yet running the job's code
        release.wait(10)
        real_run(job)

    try:
        qtbot.waitUntil(lambda: runner.settled, timeout=20_000)
        monkeypatch.setattr(analysis_runner._Job, "run", late_run)
        assert not gc_policy.design_building()
        _nudge(design)
        qtbot.waitUntil(lambda: runner._job is not None, timeout=10_000)
        # handed over, not started: a collector tick now would walk what the job makes
        assert gc_policy.design_building()
        release.set()
        qtbot.waitUntil(lambda: runner.settled, timeout=20_000)
        assert not gc_policy.design_building()
    finally:
        release.set()
        runner.close()


def test_the_second_step_waits_for_the_report_to_be_taken(qtbot, monkeypatch):
    design = small_pod()
    runner = AnalysisRunner(design, RoutedLinks(design))
    order: list[str] = []
    real_take = AnalysisRunner._take_report
    real_bundles = analysis_runner.Analyzer.cables_by_tray

    def take(self, *args):
        order.append("report taken")
        return real_take(self, *args)

    def bundles(self, *args):
        order.append("bundles")
        return real_bundles(self, *args)

    try:
        qtbot.waitUntil(lambda: runner.settled, timeout=20_000)
        monkeypatch.setattr(AnalysisRunner, "_take_report", take)
        monkeypatch.setattr(analysis_runner.Analyzer, "cables_by_tray", bundles)
        # the waits are bounded: a wait that timed out would let the bundles go first here
        monkeypatch.setattr(analysis_runner, "REPORT_WAIT_S", 30.0)
        _nudge(design)
        qtbot.waitUntil(lambda: runner.settled, timeout=20_000)
        assert order == ["report taken", "bundles"]
    finally:
        runner.close()


def test_a_report_taken_after_its_job_ran_to_the_end_is_taken_quietly(qtbot, monkeypatch):
    """The GUI thread busy past the bounded wait: the job ends (its ``work`` let go on the
    worker) before its report is taken; taking it then raised in the event loop (a loaded CI
    run met it: `'NoneType' object has no attribute 'revision'`) instead of publishing it."""
    ended, armed = threading.Event(), threading.Event()
    real_run = analysis_runner._Job.run
    real_reported = AnalysisRunner._job_reported

    def run(job):
        real_run(job)
        if armed.is_set():
            ended.set()

    def reported(self, *args):  # the GUI thread busy until the job has ended
        if armed.is_set():
            assert ended.wait(20)
        return real_reported(self, *args)

    monkeypatch.setattr(analysis_runner._Job, "run", run)
    monkeypatch.setattr(AnalysisRunner, "_job_reported", reported)  # before the runner connects
    design = small_pod()
    runner = AnalysisRunner(design, RoutedLinks(design))
    try:
        qtbot.waitUntil(lambda: runner.settled, timeout=20_000)
        monkeypatch.setattr(analysis_runner, "REPORT_WAIT_S", 0.0)
        armed.set()
        _nudge(design)
        qtbot.waitUntil(lambda: runner.settled, timeout=20_000)
        assert ended.is_set()
        assert runner.fresh and runner.result.revision == design.revision
    finally:
        runner.close()
