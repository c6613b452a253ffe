"""A tray corner dragged on a generated hall is re-routed on the analysis worker, not the GUI
thread (issue 38): the tray moves and undo works at once, the plan says "updating…", the GUI
thread goes on handling events while the re-route runs, a second drag supersedes the first,
and the lengths the editor ends with equal a fresh routing of the edited design."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QTimer

import gui.document.analysis_runner as analysis_runner
from model.engine.routed_links import RoutedLinks
from tests.benchmarks.synthetic import synthetic_hall
from tests.gui.analysis_support import close_quietly, open_window, wait_fresh
from tests.gui.conftest import drag
from tests.model.test_retray_copy import _assert_same_figures
from tests.model.test_tray_reroute import _assert_same_plant

GUI_EVENTS = 5  # timer events the GUI thread must handle while the worker re-routes


class _Gate:
    """Wraps the worker's re-route: records its thread and edits, and holds it until the GUI
    thread has handled ``GUI_EVENTS`` timer events (or the test opens it)."""

    def __init__(self, monkeypatch) -> None:
        self.threads: list[int] = []  # ids of the threads that re-routed
        self.edits: list[int] = []
        self.entered = threading.Event()
        self.open = threading.Event()
        self.analysis_open = threading.Event()
        self.analysis_open.set()  # the analysis after the re-route runs unless a test holds it
        self.ticks = 0
        self.ticks_seen = 0  # ticks the GUI thread had handled when a re-route went on
        self.timer = QTimer()
        self.timer.setInterval(0)
        self.timer.timeout.connect(self._tick)
        real = analysis_runner.retray

        def gated(snap):
            self.threads.append(threading.get_ident())
            self.edits.append(len(snap._pending))
            self.ticks = 0
            self.entered.set()
            assert self.open.wait(30), "the GUI thread stopped handling events"
            self.ticks_seen = self.ticks
            return real(snap)

        monkeypatch.setattr(analysis_runner, "retray", gated)
        advance = analysis_runner.Analyzer.advance

        def held(analyzer, *args):
            assert self.analysis_open.wait(30), "the analysis was never let go"
            return advance(analyzer, *args)

        monkeypatch.setattr(analysis_runner.Analyzer, "advance", held)

    def _tick(self) -> None:
        self.ticks += 1
        if self.ticks >= GUI_EVENTS and self.entered.is_set() and self.auto:
            self.open.set()

    auto = True


def _busiest_tray(plant) -> str:
    load: dict[str, int] = {}
    keys = plant.route_keys()
    for key in range(plant.route_count):
        n = int((keys == key).sum())
        for tray_id, _, _ in plant.tray_spans(key):
            load[tray_id] = load.get(tray_id, 0) + n
    return max(load, key=load.__getitem__)


def _drag_corner(window, tray_id: str, step_m: float) -> tuple[float, float]:
    """Select the tray and drag its first corner ``step_m`` across its first segment."""
    design, view = window.document.design, window.view
    window.scene.select_ids([tray_id])
    (x0, y0), (x1, y1) = design.trays[tray_id].points[:2]
    nx, ny = -(y1 - y0), x1 - x0
    norm = (nx * nx + ny * ny) ** 0.5
    view.resetTransform()
    view.scale(40, 40)
    view.centerOn(x0, y0)
    end = (round(x0 + nx / norm * step_m, 1), round(y0 + ny / norm * step_m, 1))
    drag(view, (x0, y0), end)
    return end


@pytest.fixture
def hall_window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, synthetic_hall(512))
    yield window
    close_quietly(window)


def test_a_tray_corner_drop_is_rerouted_on_the_worker(hall_window, qtbot, monkeypatch):
    window = hall_window
    design, plant, feed = window.document.design, window.document.plant, window.scene.feed
    tray_id = _busiest_tray(plant)
    before = plant.routed_m.copy()
    corner = design.trays[tray_id].points[0]
    gate = _Gate(monkeypatch)
    gate.analysis_open.clear()
    # Held until the checks below are done: let go by itself after GUI_EVENTS ticks, a worker
    # that re-routes fast could publish before waitUntil next looked (seen on a loaded machine)
    gate.auto = False
    gate.timer.start()
    try:
        end = _drag_corner(window, tray_id, 1.2)
        # The geometry is applied at once: the tray moved (to the tile snap), one undo step
        assert design.trays[tray_id].points[0] != corner
        assert design.trays[tray_id].points[0] == pytest.approx(end, abs=0.35)
        assert window.document.stack.undoText() == f"Move a corner of tray {tray_id}"
        qtbot.waitUntil(gate.entered.is_set, timeout=10_000)
        # The re-route waits on the worker; the plan says so and the live plant is as it was.
        assert feed.rerouting and window.scene.rerouting
        assert (plant.routed_m == before).all()
        # The GUI thread goes on handling events while the worker waits
        qtbot.waitUntil(lambda: gate.ticks >= GUI_EVENTS, timeout=10_000)
        gate.open.set()
        # Re-routed, the copy comes back before its analysis: the plan's cables first.
        qtbot.waitUntil(lambda: not feed.rerouting, timeout=20_000)
        assert not window.analysis_docks.runner.fresh
        assert (plant.routed_m != before).any()
        gate.analysis_open.set()
        wait_fresh(qtbot, window)
    finally:
        gate.timer.stop()
        gate.open.set()
        gate.analysis_open.set()
    assert gate.threads and threading.main_thread().ident not in gate.threads
    # The GUI thread handled GUI_EVENTS timer events while the re-route was held on the worker:
    # the drop returned to the event loop without re-routing anything itself.
    assert gate.ticks_seen >= GUI_EVENTS
    assert not feed.rerouting and not plant.has_unapplied_edits
    assert (plant.routed_m != before).any()
    _assert_same_plant(plant, RoutedLinks(design))
    # Undo: the corner goes back, re-routed the same way, to the lengths before the drag
    window.document.stack.undo()
    wait_fresh(qtbot, window)
    assert (plant.routed_m == before).all()
    _assert_same_plant(plant, RoutedLinks(design))


def test_a_second_drag_supersedes_the_first_reroute(hall_window, qtbot, monkeypatch):
    window = hall_window
    design, plant = window.document.design, window.document.plant
    runner = window.analysis_docks.runner
    published = []
    runner.finished.connect(published.append)
    tray_id = _busiest_tray(plant)
    gate = _Gate(monkeypatch)
    gate.auto = False  # held until the second drag is done
    try:
        _drag_corner(window, tray_id, 1.2)
        qtbot.waitUntil(gate.entered.is_set, timeout=10_000)
        gate.entered.clear()
        # The first re-route is held on the worker: the GUI thread takes a second drag.
        _drag_corner(window, tray_id, 0.6)
        gate.open.set()
        wait_fresh(qtbot, window)
    finally:
        gate.open.set()
    # The first job stopped after its re-route (no analysis of a superseded revision was
    # published); the second re-routed both drags at once from the plant before them.
    assert gate.edits == [1, 2]
    assert len(published) == 1 and published[0].revision == design.revision
    assert not plant.has_unapplied_edits
    _assert_same_plant(plant, RoutedLinks(design))


def test_a_failed_reroute_on_the_worker_is_applied_on_the_gui_thread(
    hall_window, qtbot, monkeypatch
):
    """The worker's re-route raising leaves no plan a step behind for good: the edit is then
    applied on the GUI thread, as before the worker did it, and the failure is said."""
    window = hall_window
    design, plant, feed = window.document.design, window.document.plant, window.scene.feed
    runner = window.analysis_docks.runner
    failures = []
    runner.failed.connect(failures.append)

    def broken(_snap):
        raise RuntimeError("re-route failed")

    monkeypatch.setattr(analysis_runner, "retray", broken)
    _drag_corner(window, _busiest_tray(plant), 1.2)
    qtbot.waitUntil(lambda: bool(failures), timeout=10_000)
    assert "re-route failed" in failures[0]
    assert not feed.rerouting and not plant.has_unapplied_edits
    _assert_same_plant(plant, RoutedLinks(design))


def test_a_rack_moved_while_the_trays_reroute_waits_for_their_copy(hall_window, qtbot, monkeypatch):
    """A rack dragged while the worker re-routes a tray edit is applied on top of the worker's
    copy, not together with the tray edit on the GUI thread (one refresh of both kinds
    rebuilds the whole plant there)."""
    window = hall_window
    design, plant, feed = window.document.design, window.document.plant, window.scene.feed
    rebuilt_here = []
    full = RoutedLinks._full

    def counted(self):
        if threading.get_ident() == threading.main_thread().ident:
            rebuilt_here.append(self)
        return full(self)

    gate = _Gate(monkeypatch)
    gate.auto = False
    monkeypatch.setattr(RoutedLinks, "_full", counted)
    try:
        _drag_corner(window, _busiest_tray(plant), 1.2)
        qtbot.waitUntil(gate.entered.is_set, timeout=10_000)
        rack = design.racks["p7-r16"]  # the last rack of the second row, with links
        assert design.links_of_racks([rack.id])
        window.view.centerOn(rack.x, rack.y)
        drag(window.view, (rack.x, rack.y), (rack.x, rack.y + 2.4))
        assert design.racks[rack.id].y > rack.y + 2.0  # moved at once (onto the tile grid)
        assert feed.rerouting and len(plant._pending) == 2  # its cables wait for the copy
        gate.open.set()
        wait_fresh(qtbot, window)
    finally:
        gate.open.set()
    assert rebuilt_here == []
    assert not feed.rerouting and not plant.has_unapplied_edits
    monkeypatch.undo()
    _assert_same_figures(plant, RoutedLinks(design))
