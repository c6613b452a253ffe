"""The trunk layer in the editor: what an adopted layout changes and which trunks get an item
(see gui/canvas/trunk_layer.py and trunk_items.py)."""

from __future__ import annotations

import pytest

from gui.commands import MoveRacksCommand
from model.fileio import save_design
from tests.gui.analysis_support import close_quietly
from tests.gui.conftest import make_window
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
