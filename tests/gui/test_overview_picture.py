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
