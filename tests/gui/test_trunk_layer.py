"""The trunk layer in the editor: what an adopted layout changes and which trunks get an item,
a click, a hover and a right-click on a trunk (see gui/canvas/trunk_layer.py, trunk_items.py
and interaction.py's item_at)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from gui.commands import MoveRacksCommand
from model.fileio import save_design
from tests.gui.analysis_support import close_quietly
from tests.gui.conftest import make_window
from tests.gui.test_editor_tools import right_click_and_choose
from tests.gui.test_structured_editor import settle, two_dgx_racks_cross_connected


@pytest.fixture
def window(qtbot, tmp_path):
    """The editor on two DGX racks cross-connected to a leaf rack, its analysis shown."""
    path = tmp_path / "xc.hall.json"
    save_design(two_dgx_racks_cross_connected(), path)
    win = make_window(qtbot, tmp_path, path)
    settle(qtbot, win)
    yield win
    close_quietly(win)


def trunk_of_link(window, link_id: str):
    """The layout's trunk drawn along ``link_id``."""
    return next(t for t in window.scene.trunk_layer.layout().trunks if t.route_link == link_id)


def middle_of_route(window, link_id: str) -> QPointF:
    """The middle of the longest stretch of the link's plan route: on the tray, off the racks."""
    points = window.scene.link_points(link_id)
    (x0, y0), (x1, y1) = max(
        zip(points, points[1:], strict=False),
        key=lambda s: abs(s[1][0] - s[0][0]) + abs(s[1][1] - s[0][1]),
    )
    return QPointF((x0 + x1) / 2, (y0 + y1) / 2)


def on_view(window, point: QPointF) -> QPoint:
    """``point`` (scene metres) in the viewport, centred there first."""
    view = window.view
    view.centerOn(point)
    QApplication.processEvents()
    return view.mapFromScene(point)


def move_rack(qtbot, window, rack_id: str, dx: float) -> None:
    """Move a rack along x as one undo step and wait for the analysis of it to be shown."""
    design = window.document.design
    rack = design.racks[rack_id]
    window.scene.push(MoveRacksCommand(design, {rack_id: (rack.x + dx, rack.y)}))
    settle(qtbot, window)


def test_an_adopted_layout_gives_items_only_to_selected_trunks_and_they_follow(window, qtbot):
    """Every trunk of the layout is drawn, but only a selected trunk has an item: a new layout
    moves the selected trunks' items along their new routes (the same items, still selected,
    the unchanged one on the very same route) and lets go of items no longer selected."""
    scene, layer = window.scene, window.scene.trunk_layer
    moved, still = trunk_of_link(window, "l-1"), trunk_of_link(window, "l-2")
    assert sorted(layer.trunks()) == sorted([moved.id, still.id])
    assert len(layer.field.routes()) == 2
    assert layer.items == {}  # drawn by the field alone
    scene.select_ids([moved.id, still.id])
    settle(qtbot, window)
    items = dict(layer.items)
    routes = {i: item.route for i, item in items.items()}
    assert sorted(items) == sorted([moved.id, still.id])
    move_rack(qtbot, window, "r1", 3.0)
    assert trunk_of_link(window, "l-1").id == moved.id  # the same trunk in the new layout
    assert layer.items == items and all(item.isSelected() for item in items.values())
    assert layer.items[still.id].route is routes[still.id]
    new_route = layer.items[moved.id].route
    assert new_route is not routes[moved.id]
    assert new_route.points == tuple(map(tuple, scene.link_points("l-1")))
    assert sorted(scene.selected_ids()) == sorted([moved.id, still.id])
    scene.clearSelection()
    move_rack(qtbot, window, "r1", -3.0)
    assert layer.items == {}
    assert sorted(layer.trunks()) == sorted([moved.id, still.id])


def test_a_click_on_a_trunk_selects_it_and_the_inspector_shows_it(window, qtbot):
    """A click on the plan where a trunk runs over a tray selects the trunk (drawn above the
    tray), unless a link is drawn over it there; a click on a rack still selects the rack."""
    scene = window.scene
    scene.clearSelection()
    settle(qtbot, window)
    trunk = trunk_of_link(window, "l-2")
    at = on_view(window, middle_of_route(window, "l-2"))
    assert scene.rack_at(window.view.mapToScene(at)) is None
    qtbot.mouseClick(window.view.viewport(), Qt.LeftButton, pos=at)
    settle(qtbot, window)
    assert scene.selected_ids() == [trunk.id]
    assert window.inspector.title.text() == f"Trunk {trunk.id}"
    # Where the link is drawn along its trunk (the link selected), the link drawn on top wins.
    scene.select_ids(["l-2"])
    settle(qtbot, window)
    qtbot.mouseClick(window.view.viewport(), Qt.LeftButton, pos=at)
    settle(qtbot, window)
    assert scene.selected_ids() == ["l-2"]
    rack = window.document.design.racks["r2"]
    at = on_view(window, QPointF(rack.x, rack.y))
    qtbot.mouseClick(window.view.viewport(), Qt.LeftButton, pos=at)
    settle(qtbot, window)
    assert scene.selected_ids() == ["r2"]


def test_hovering_a_trunk_shows_its_part_length_legs_and_channels(window):
    trunk = trunk_of_link(window, "l-1")
    at = on_view(window, middle_of_route(window, "l-1"))
    viewport = window.view.viewport()
    QApplication.sendEvent(viewport, QHelpEvent(QEvent.ToolTip, at, viewport.mapToGlobal(at)))
    assert QToolTip.text() == (
        f"{trunk.id}: {trunk.part}, {trunk.ordered_m:g} m ordered "
        f"({trunk.length_m:.1f} m needed), {trunk.legs} MPO leg(s), 1 channel(s)"
    )
    QToolTip.hideText()
    assert window.scene.trunk_layer.items.keys() <= {trunk.id}  # no item for another trunk


def test_right_click_on_a_trunk_selects_it_and_zooms_to_it(window, qtbot):
    trunk = trunk_of_link(window, "l-1")
    middle = middle_of_route(window, "l-1")
    on_view(window, middle)
    scale = window.view.scale_factor()
    seen = right_click_and_choose(qtbot, window.view, middle.x(), middle.y(), "Zoom to Trunk")
    assert "Zoom to Trunk" in seen and "Delete Tray" not in seen  # a trunk's menu, not a tray's
    assert window.scene.selected_ids() == [trunk.id]
    assert window.view.scale_factor() > scale
