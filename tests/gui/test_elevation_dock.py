"""The rack elevation as a dock: it follows the plan's selection (rack, device, link end), shows
the front or the mirrored rear with the ports on the face they are on, takes the window's
shortcuts while it has focus, and comes back where it was left."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QGraphicsSimpleTextItem, QTabBar

from gui.edit.commands import AddObjectsCommand
from gui.panels.elevation import RACK_PX
from model.design.entities import Link, PortRef
from tests.gui.conftest import click, close_quietly, make_window


def _show_dock(window):
    window.elevation_dock.toggleViewAction().trigger()  # View → Rack elevation
    QApplication.processEvents()
    assert window.elevation_dock.isVisible()
    return window.elevation


def test_the_dock_follows_a_selected_rack_device_or_link(window, qtbot):
    panel = _show_dock(window)
    assert panel.rack_id is None and "Select a rack" in panel.summary.text()
    click(window.view, 1.5, 3.0)
    assert panel.rack_id == "r1" and set(panel.blocks) == {"a1", "a2", "a3"}
    click(window.view, 2.1, 3.0)
    assert panel.rack_id == "n1" and set(panel.blocks) == {"leaf1", "leaf2"}
    window.scene.select_ids(["l-1"])  # a1 (in R1) to leaf1 (in N1): N1 holds an end, stays
    assert panel.rack_id == "n1"
    click(window.view, 2.7, 3.0)
    window.scene.select_ids(["l-1"])  # from R2 the link's A end is shown
    assert panel.rack_id == "r1"
    click(window.view, 5.0, 6.0)  # the empty floor: the rack shown stays
    assert panel.rack_id == "r1"
    qtbot.mouseClick(panel.follow, Qt.LeftButton)  # pinned
    click(window.view, 2.7, 3.0)
    assert panel.rack_id == "r1"


def test_front_and_rear_views_show_where_the_ports_are(window, qtbot):
    design = window.document.design
    panel = window.open_elevation("r1")
    qtbot.waitUntil(lambda: window.elevation_dock.isVisible())
    a1 = panel.blocks["a1"]
    assert not a1.ports_here and "ports at the rear" in a1.label  # a DGX H100: rear ports
    qtbot.mouseClick(panel.rear_button, Qt.LeftButton)
    assert panel.face == "rear"
    a1 = panel.blocks["a1"]
    assert a1.ports_here and len(a1.ports_used) == len(design.ports("a1"))
    assert sum(a1.ports_used) == len(design.links_of_device("a1")) == 8
    assert sum(panel.blocks["a3"].ports_used) == 0  # the uncabled server: every port free
    assert "8/" in a1.label and "cabled" in a1.label
    # Seen from behind the U rail is on the right.
    rail = [i for i in panel.graphics.items() if isinstance(i, QGraphicsSimpleTextItem)]
    assert rail and all(i.pos().x() > RACK_PX for i in rail)
    qtbot.mouseClick(panel.front_button, Qt.LeftButton)
    rail = [i for i in panel.graphics.items() if isinstance(i, QGraphicsSimpleTextItem)]
    assert all(i.pos().x() < 0 for i in rail)
    # A new cable shows at once on the rear view's port marks.
    qtbot.mouseClick(panel.rear_button, Qt.LeftButton)
    cable = Link(id="new", a=PortRef("a3", "nic1"), b=PortRef("leaf2", "p60"))
    assert window.scene.push(AddObjectsCommand(design, "Connect", links=[cable]))
    assert sum(panel.blocks["a3"].ports_used) == 1


def _shown(panel):
    view = panel.view
    return view.mapToScene(view.viewport().rect()).boundingRect()


def test_a_new_rack_opens_on_its_devices_and_both_faces_show_the_whole_width(window, qtbot):
    panel = window.open_elevation("n1")  # two leaves at U20 and U22 of 48
    qtbot.waitUntil(lambda: panel.view.isVisible())
    qtbot.wait(50)  # the dock takes its room, the view its scale
    for device_id in ("leaf1", "leaf2"):
        assert _shown(panel).contains(panel.blocks[device_id].sceneBoundingRect())
    click(window.view, 1.5, 3.0)  # R1: servers at U2, U12, U30, more than the view holds
    qtbot.wait(50)
    assert _shown(panel).contains(panel.blocks["a3"].sceneBoundingRect())  # from the top one
    for button in (panel.rear_button, panel.front_button):
        qtbot.mouseClick(button, Qt.LeftButton)
        shown, whole = _shown(panel), panel.graphics.sceneRect()
        assert shown.left() <= whole.left() + 1 and shown.right() >= whole.right() - 1


def test_window_shortcuts_work_while_the_elevation_has_focus(window, qtbot):
    design = window.document.design
    panel = window.open_elevation("n1")
    qtbot.waitUntil(lambda: panel.view.isVisible())
    block = panel.blocks["leaf1"]
    pos = panel.view.mapFromScene(block.sceneBoundingRect().center())
    qtbot.mouseClick(panel.view.viewport(), Qt.LeftButton, pos=pos)
    assert block.isSelected() and window.scene.selected_ids() == ["leaf1"]
    panel.view.setFocus()
    qtbot.keyClick(panel.view, Qt.Key_Delete)
    assert "leaf1" not in design.devices and "leaf1" not in panel.blocks
    qtbot.keyClick(panel.view, Qt.Key_Z, Qt.ControlModifier)
    assert "leaf1" in design.devices and "leaf1" in panel.blocks
    qtbot.keyClick(panel.view, Qt.Key_F, Qt.ControlModifier)  # Find opens from the dock too
    assert window.find_dialog.isVisible()
    window.find_dialog.close()
    assert panel.rack_id == "n1"  # choosing in the elevation does not move it elsewhere


def _next_run(qtbot, tmp_path, pod_file, first):
    close_quietly(first)
    second = make_window(qtbot, tmp_path, pod_file)  # the same settings file: the next run
    qtbot.waitUntil(lambda: second.window_layout.restored, timeout=3000)
    return second


def test_the_elevation_dock_comes_back_as_it_was_left(qtbot, tmp_path, pod_file):
    # (Exact pixel widths are not compared: the offscreen screen is 800 x 600 and Qt fits a
    # restored 1400 px window into it; test_editor_tools checks the widths of the layout.)
    first = make_window(qtbot, tmp_path, pod_file)
    first.open_elevation("r1")
    qtbot.waitUntil(lambda: first.elevation_dock.isVisible())
    second = _next_run(qtbot, tmp_path, pod_file, first)
    try:
        assert second.elevation_dock.isVisible() and not second.elevation_dock.isFloating()
        qtbot.wait(20)
        bars = [
            b
            for b in second.findChildren(QTabBar, options=Qt.FindDirectChildrenOnly)
            if b.isVisible() and "History" in [b.tabText(i) for i in range(b.count())]
        ]
        assert len(bars) == 1  # no stale "History | Overview" left over the Warnings panel
        assert second.dockWidgetArea(second.elevation_dock) == Qt.RightDockWidgetArea
        click(second.view, 2.1, 3.0)  # and it follows the selection in the new run
        assert second.elevation.rack_id == "n1" and set(second.elevation.blocks) == {
            "leaf1",
            "leaf2",
        }
        second.elevation_dock.setFloating(True)  # undocked by the user
        qtbot.wait(50)
        third = _next_run(qtbot, tmp_path, pod_file, second)
    except BaseException:
        close_quietly(second)
        raise
    try:
        assert third.elevation_dock.isVisible() and third.elevation_dock.isFloating()
        third.elevation_dock.close()  # closed: the next run starts without it
        fourth = _next_run(qtbot, tmp_path, pod_file, third)
    except BaseException:
        close_quietly(third)
        raise
    try:
        assert not fourth.elevation_dock.isVisible()
    finally:
        close_quietly(fourth)
