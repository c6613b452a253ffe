"""The Overview paints a picture of the hall, drawn again in strips once the scene rests: edits
and drags do not make it repaint the whole hall on each change, yet it ends up showing them."""

from __future__ import annotations

from gui.canvas.overview import REFRESH_MS, STRIPS
from gui.edit.commands import MoveRacksCommand


def _render_counter(scene):
    calls = []
    render = scene.render

    def counting(*args):
        calls.append(args)
        return render(*args)

    scene.render = counting
    return calls


def test_overview_redraws_once_in_strips_after_a_burst_of_edits(window, qtbot):
    overview = window.overview
    window.overview_dock.show()
    window.overview_dock.raise_()
    qtbot.waitUntil(overview.isVisible)
    overview.viewport().repaint()
    qtbot.waitUntil(lambda: overview._next is None and not overview._stale.isActive())
    before = overview.viewport().grab().toImage()
    design = window.document.design
    rack = next(iter(design.racks.values()))
    calls = _render_counter(window.scene)
    # The burst must end before the scene has been still for REFRESH_MS: on a loaded machine
    # one edit and its repaint can take that long, so the rest the overview waits for is
    # stretched while the burst lasts (each change still restarts it) and set back after.
    overview._stale.setInterval(60_000)
    for i in range(5):  # a burst: each command changes the scene
        window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + 0.6 * (i + 1), rack.y)}))
        assert overview._stale.isActive()  # the change restarted the wait for a still scene
        qtbot.wait(10)
        overview.viewport().repaint()  # an outline repaint paints the picture, not the scene
    assert calls == []
    overview._stale.setInterval(REFRESH_MS)  # restarts it: the burst is over
    qtbot.waitUntil(lambda: len(calls) == STRIPS, timeout=REFRESH_MS * 10)
    qtbot.wait(20)
    assert len(calls) == STRIPS  # one picture, not one per edit
    after = overview.viewport().grab().toImage()
    assert after != before  # the moved rack shows in the miniature


def test_overview_waits_for_the_analysis_bundles_and_draws_one_picture(window, qtbot, monkeypatch):
    """An edit's bundles come with its analysis: the miniature drawn before them would be drawn
    again once they come. It waits for them (while they are held on the worker it draws
    nothing), then draws one picture with them."""
    import threading

    from model.analysis.analyzer import Analyzer

    overview = window.overview
    window.overview_dock.show()
    window.overview_dock.raise_()
    qtbot.waitUntil(overview.isVisible)
    overview.viewport().repaint()
    runner = window.analysis_docks.runner
    qtbot.waitUntil(lambda: runner.settled and overview._next is None)
    qtbot.waitUntil(lambda: not overview._stale.isActive())
    gate = threading.Event()
    count = Analyzer.cables_by_tray

    def held(analyzer, *args):
        assert gate.wait(30), "the bundle count was never let go"
        return count(analyzer, *args)

    monkeypatch.setattr(Analyzer, "cables_by_tray", held)
    calls = _render_counter(window.scene)
    settled_at_render: list[bool] = []
    render = window.scene.render

    def watched(*args):
        settled_at_render.append(runner.settled)
        return render(*args)

    window.scene.render = watched
    overview._stale.setInterval(20)  # many rests while the bundles are held
    design = window.document.design
    rack = next(r for r in design.racks.values() if design.links_of_racks([r.id]))
    try:
        window.scene.push(MoveRacksCommand(design, {rack.id: (rack.x + 3.0, rack.y)}))
        qtbot.waitUntil(lambda: runner.fresh, timeout=20_000)  # the report is out
        qtbot.wait(200)  # ten rests of the scene
        assert calls == [] and runner.analysing and not runner.settled
    finally:
        gate.set()
    qtbot.waitUntil(lambda: len(calls) == STRIPS, timeout=20_000)
    qtbot.wait(100)
    assert len(calls) == STRIPS  # one picture, not one before the bundles and one after
    assert all(settled_at_render)
    overview._stale.setInterval(REFRESH_MS)
