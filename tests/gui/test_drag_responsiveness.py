"""While a person holds a rack to drag it, nothing else takes the event loop: the inspector
builds the rack's form once the button is up, and the drag shows red exactly where
``clashing_racks`` says."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication

from model.design.rack_clashes import clashing_racks
from tests.gui.conftest import mouse


def test_the_inspector_waits_for_the_button_to_come_up(window, qtbot):
    rack = window.document.design.racks["r1"]
    window.scene.clearSelection()
    qtbot.wait(100)
    shown_before = window.inspector.title.text()
    mouse(window.view, QEvent.MouseButtonPress, rack.x, rack.y)
    qtbot.wait(150)
    assert window.scene.selected_ids() == ["r1"]
    assert window.inspector.title.text() == shown_before  # held: no form built yet
    mouse(window.view, QEvent.MouseMove, rack.x + 0.6, rack.y, buttons=Qt.LeftButton)
    qtbot.wait(100)
    assert window.inspector.title.text() == shown_before
    mouse(window.view, QEvent.MouseButtonRelease, rack.x + 0.6, rack.y)
    qtbot.waitUntil(lambda: window.inspector.title.text() == f"Rack {rack.name}", timeout=2000)


def test_red_during_a_drag_is_the_models_clash_rule(window):
    design = window.document.design
    r1 = design.racks["r1"]
    others = [r for r in design.racks.values() if r.id != "r1"]
    target = min(others, key=lambda r: abs(r.x - r1.x) + abs(r.y - r1.y))
    view = window.view
    mouse(view, QEvent.MouseButtonPress, r1.x, r1.y)
    for t in (0.25, 0.5, 0.75, 1.0):  # over the nearest rack, step by step
        x, y = r1.x + (target.x - r1.x) * t, r1.y + (target.y - r1.y) * t
        mouse(view, QEvent.MouseMove, x, y, buttons=Qt.LeftButton)
        QApplication.processEvents()
        item = window.scene.racks["r1"]
        footprint = {"r1": (item.pos().x(), item.pos().y(), r1.width_m, r1.depth_m, r1.rotation)}
        assert item._collision == ("r1" in clashing_racks(design, footprint, {"r1"}))
    assert window.scene.racks["r1"]._collision  # standing on its neighbour
    mouse(view, QEvent.MouseButtonRelease, target.x, target.y)
