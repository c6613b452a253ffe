"""The editor's one live pipeline: the worker analyses a snapshot (an edit made while it runs
does not leak into its result), and every plant refresh, whoever asks for it, reaches the
runner, the bundles and the links table with the links it changed."""

from __future__ import annotations

import threading

from gui.edit.commands import DeleteCommand, MoveRacksCommand
from model.analysis import analyze
from model.analysis.analyzer import Analyzer
from model.analysis.tray_fill import TrayFill
from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes, read_design_bytes
from tests.benchmarks.workloads import build
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh


def test_an_edit_during_a_running_analysis_does_not_reach_its_result(qtbot, tmp_path, monkeypatch):
    window = open_window(qtbot, tmp_path, build("S"))
    d = docks(window)
    design = window.document.design
    wait_fresh(qtbot, window)
    gate, started, seen = threading.Event(), threading.Event(), []
    advance = Analyzer.advance

    def held(self, frozen, plant, changes, links):
        started.set()
        gate.wait(10)  # the worker is mid-analysis while the GUI edits the live design
        report = advance(self, frozen, plant, changes, links)
        seen.append((frozen.revision, design_to_bytes(frozen), report))
        return report

    monkeypatch.setattr(Analyzer, "advance", held)
    racks = list(design.racks.values())
    window.scene.push(MoveRacksCommand(design, {racks[0].id: (racks[0].x + 2.0, racks[0].y)}))
    at_edit = design_to_bytes(design)
    qtbot.waitUntil(started.is_set, timeout=10_000)
    window.scene.push(MoveRacksCommand(design, {racks[1].id: (racks[1].x, racks[1].y + 2.0)}))
    gate.set()
    wait_fresh(qtbot, window, timeout_ms=30_000)
    revision, frozen_bytes, report = seen[0]
    assert frozen_bytes == at_edit  # the worker read the design as it was when the job began
    at_job = read_design_bytes(at_edit)
    assert report.to_json() == analyze(at_job, RoutedLinks(at_job)).to_json()
    # The published result is the current design's, computed by the job that ran after it.
    assert d.runner.result.revision == design.revision != revision
    assert d.runner.result.report.to_json() == analyze(design, window.document.plant).to_json()
    close_quietly(window)


def test_a_refresh_asked_for_by_one_view_reaches_every_consumer(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, build("S"))
    d = docks(window)
    scene, design = window.scene, window.document.design
    wait_fresh(qtbot, window)
    heard: list[set[str]] = []
    d.runner.plant_refreshed.connect(heard.append)
    rack = next(r for r in design.racks.values() if design.links_of_racks([r.id]))
    window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + 3.0, rack.y + 1.0)}))
    scene.feed.ensure_fresh()  # a view needing the plant now (as the link summary does)
    assert len(heard) == 1 and not scene.feed.dirty  # one refresh, heard by the runner too
    assert heard[0] <= design.links_of_racks([rack.id])  # only the moved rack's links
    assert heard[0]  # and they did change
    wait_fresh(qtbot, window)
    qtbot.waitUntil(lambda: not scene.tray_load.busy, timeout=10_000)
    report = d.runner.result.report
    assert scene.tray_load.fill == report.tray_fill
    assert scene.tray_load.counts == d.runner.result.bundles
    # The bundles' stretches come from the worker too: those of the live plant, counted afresh.
    assert d.runner.result.used is not None
    assert scene.tray_load.used == TrayFill().used_stretches(window.document.plant)
    close_quietly(window)


def test_finished_jobs_let_go_of_their_snapshots(qtbot, tmp_path, monkeypatch):
    """Memory stays flat while editing: the snapshots of finished jobs are freed (the thread pool
    keeps each started job; a job that held its snapshot kept ~85 MB per edit alive at XL)."""
    import gc
    import weakref

    from gui.document.analysis_runner import _Job

    window = open_window(qtbot, tmp_path, build("S"))
    design = window.document.design
    wait_fresh(qtbot, window)
    handed: list[weakref.ref] = []
    start = _Job.__init__

    def watched(self, analyzer, work, signals):
        handed.append(weakref.ref(work.plant))
        start(self, analyzer, work, signals)

    rack = next(r for r in design.racks.values() if design.links_of_racks([r.id]))
    monkeypatch.setattr(_Job, "__init__", watched)
    for step in range(4):
        window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + step + 1.0, rack.y)}))
        wait_fresh(qtbot, window)
    gc.unfreeze()  # the runner freezes what a result keeps: count every object
    gc.collect()
    alive = [ref for ref in handed if ref() is not None]
    assert len(handed) >= 4
    assert len(alive) <= 1  # only the analyzer's current snapshot
    close_quietly(window)


def test_the_links_tables_tiers_come_with_the_analysis(qtbot, tmp_path, monkeypatch):
    """The Tier column shows the analysis's classification without inferring the topology on
    the GUI thread (1.5 s at XL the first time the Links tab was shown)."""
    import gui.panels.links_model as links_model
    from gui.panels.links_model import COL_TIER
    from model.analysis.topology import link_tiers

    window = open_window(qtbot, tmp_path, build("S"))
    d = docks(window)
    design = window.document.design
    wait_fresh(qtbot, window)

    def refused(_design):
        raise AssertionError("the GUI thread inferred the topology")

    monkeypatch.setattr(links_model, "infer_topology", refused)
    d.tabs.setCurrentWidget(d.links)
    model = d.links.model
    expected = link_tiers(design)
    shown = {model.link_id(r): model.index(r, COL_TIER).data() for r in range(model.rowCount())}
    assert shown == expected
    # A link deleted: the column waits for the next result ("…") instead of computing here.
    window.scene.push(DeleteCommand(design, [next(iter(design.links))]))
    assert model.index(0, COL_TIER).data() in ("…", expected[model.link_id(0)])
    wait_fresh(qtbot, window)
    shown = {model.link_id(r): model.index(r, COL_TIER).data() for r in range(model.rowCount())}
    assert shown == link_tiers(design)
    close_quietly(window)
