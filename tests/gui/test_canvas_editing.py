"""The plan driven like a person: place, move, rotate, delete, draw, connect — each undone and
redone, comparing the serialized design before and after."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QEvent, QMimeData, QPoint, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from gui.canvas import connect_interaction
from gui.canvas.link_item import LinkItem
from gui.canvas.scene_input import MIME_TYPE
from tests.gui.conftest import click, double_click, drag, mouse, snapshot, view_point


def undo_redo_roundtrip(window, before: bytes) -> None:
    after = snapshot(window)
    assert after != before
    window.undo_action.trigger()
    assert snapshot(window) == before
    window.redo_action.trigger()
    assert snapshot(window) == after


def drop_type(view, key: str, x: float, y: float) -> None:
    """Drag a catalog entry from the palette and drop it at scene point (x, y)."""
    mime = QMimeData()
    mime.setData(MIME_TYPE, QByteArray(key.encode()))
    pos = view_point(view, x, y)
    target = view.viewport()
    for cls in (QDragEnterEvent, QDragMoveEvent):
        event = cls(pos.toPoint(), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
        QApplication.sendEvent(target, event)
    QApplication.sendEvent(
        target, QDropEvent(pos, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    )


def test_drop_rack_from_palette_places_it_snapped_and_undoably(window):
    design = window.document.design
    before = snapshot(window)
    count = window.document.stack.count()
    drop_type(window.view, "rack:rack-48u-600x1200", 6.13, 6.07)
    new = [r for r in design.racks.values() if r.id not in ("r1", "r2", "n1")]
    assert len(new) == 1
    rack = new[0]
    # footprint corner on a tile corner: 0.6 wide, 1.2 deep, tiles of 0.6 m
    assert (rack.x, rack.y) == (6.3, 6.0)
    assert rack.id in window.scene.racks
    assert window.scene.selected_ids() == [rack.id]
    assert window.document.stack.count() == count + 1
    undo_redo_roundtrip(window, before)


def test_click_rack_type_in_palette_then_click_plan_places_rack(window, qtbot):
    design = window.document.design
    item = window.palette.item_for("rack:rack-52u-800x1200")
    window.palette.tree.itemClicked.emit(item, 0)
    assert window.mode_label.text().strip() == "Place rack mode"
    mouse(window.view, QEvent.MouseMove, 9.0, 7.0, buttons=Qt.NoButton)
    click(window.view, 9.0, 7.0)
    racks = [r for r in design.racks.values() if r.type == "rack-52u-800x1200"]
    assert len(racks) == 1 and racks[0].name == "A01"  # a new row, its first position
    qtbot.keyClick(window.view, Qt.Key_Escape)
    assert window.mode_label.text().strip() == "Select mode"


def test_drop_device_on_rack_adds_it_at_lowest_free_u(window):
    design = window.document.design
    before = snapshot(window)
    drop_type(window.view, "device:sn5600", 2.1, 3.0)
    added = [d for d in design.devices.values() if d.type == "sn5600"]
    assert len(added) == 1 and added[0].rack == "n1" and added[0].u == 1
    undo_redo_roundtrip(window, before)


def test_drag_rack_snaps_to_tiles_and_makes_one_undo_entry(window):
    design = window.document.design
    before = snapshot(window)
    count = window.document.stack.count()
    drag(window.view, (1.5, 3.0), (5.43, 5.2), steps=12)
    assert (design.racks["r1"].x, design.racks["r1"].y) == (5.7, 5.4)  # corner on tile (5.4, 4.8)
    assert window.document.stack.count() == count + 1
    assert window.document.stack.undoText() == "Move rack R1"
    assert window.scene.racks["r1"].pos().x() == 5.7
    undo_redo_roundtrip(window, before)


def test_dragging_onto_another_rack_shows_collision_until_release(window):
    from gui.canvas.interactions import SelectInteraction

    view = window.view
    mouse(view, QEvent.MouseButtonPress, 1.5, 3.0)
    for x in (1.6, 1.8, 2.0, 2.1):
        mouse(view, QEvent.MouseMove, x, 3.0, buttons=Qt.LeftButton)
    assert isinstance(window.scene.interaction, SelectInteraction)
    assert window.scene.racks["r1"]._collision
    assert window.document.design.racks["r1"].x == 1.5  # the model moves only at release
    mouse(view, QEvent.MouseButtonRelease, 2.1, 3.0)
    assert window.document.design.racks["r1"].x == 2.1
    assert not window.scene.racks["r1"]._collision


def test_click_shift_click_and_rubber_band_select(window):
    view = window.view
    click(view, 1.5, 3.0)
    assert window.scene.selected_ids() == ["r1"]
    click(view, 2.7, 3.0, modifiers=Qt.ShiftModifier)
    assert set(window.scene.selected_ids()) == {"r1", "r2"}
    click(view, 10.0, 7.5)  # empty floor clears
    assert window.scene.selected_ids() == []
    drag(view, (1.0, 2.0), (2.3, 2.6))  # a box touching R1 and N1 only
    assert set(window.scene.selected_ids()) == {"r1", "n1"}


def test_rotate_with_shortcut_and_rotate_mode(window, qtbot):
    design = window.document.design
    before = snapshot(window)
    click(window.view, 2.7, 3.0)
    qtbot.keyClick(window.view, Qt.Key_R)
    assert design.racks["r2"].rotation == 90
    undo_redo_roundtrip(window, before)
    window.set_mode("rotate")
    click(window.view, 1.5, 3.0)
    assert design.racks["r1"].rotation == 90


def test_delete_key_removes_rack_with_devices_and_links_and_undo_restores(window, qtbot):
    design = window.document.design
    before = snapshot(window)
    click(window.view, 2.7, 3.0)
    qtbot.keyClick(window.view, Qt.Key_Delete)
    assert "r2" not in design.racks and "b1" not in design.devices
    assert not any(lk.a.device in ("b1", "b2") for lk in design.links.values())
    assert "r2" not in window.scene.racks
    undo_redo_roundtrip(window, before)


def test_draw_tray_polyline_double_click_finishes(window, qtbot):
    design = window.document.design
    before = snapshot(window)
    qtbot.keyClick(window.view, Qt.Key_T)
    assert window.mode_label.text().strip() == "Draw tray mode"
    click(window.view, 1.02, 6.98)
    click(window.view, 8.1, 7.0)
    double_click(window.view, 8.1, 4.2)
    new = [t for t in design.trays.values() if t.id not in ("t-row", "t-cross")]
    assert len(new) == 1
    assert new[0].points == [(0.9, 6.9), (8.1, 6.9), (8.1, 4.2)]
    assert new[0].id in window.scene.trays
    undo_redo_roundtrip(window, before)


def test_connect_two_devices_draws_the_routed_link_with_its_medium(window, qtbot, monkeypatch):
    design = window.document.design
    before = snapshot(window)
    chosen = []

    def pick(options, screen_pos):  # the user picks from the popup menu of choose()
        text, value = next(o for o in options if o[0].startswith(("a3 · nic", "leaf1 ·")))
        chosen.append(text)
        return value

    monkeypatch.setattr(connect_interaction, "choose", pick)
    qtbot.keyClick(window.view, Qt.Key_C)
    click(window.view, 1.5, 3.0)  # rack R1: pick a3's NICs
    click(window.view, 2.1, 3.0)  # rack N1: pick leaf1
    new = [lk for lk in design.links.values() if lk.a.device == "a3"]
    assert len(new) == 1
    link = new[0]
    assert (link.a.port, link.b.device) == ("nic1", "leaf1")
    assert link.b.port == "p5"  # the first free port of the same role and speed
    item = window.scene.link_items.get(link.id)
    assert isinstance(item, LinkItem) and item.isVisible()
    plant = window.document.plant
    if plant is not None:
        medium = plant.medium(link.id)
        assert medium is not None
        assert item._color.name() == __import__("gui.style").style.medium_color(medium.kind).name()
        assert plant.route(link.id).total_m > 0
    undo_redo_roundtrip(window, before)


def test_measure_mode_reports_straight_distance(window, qtbot):
    messages = []
    window.scene.message.connect(messages.append)
    qtbot.keyClick(window.view, Qt.Key_M)
    click(window.view, 1.0, 1.0)
    click(window.view, 4.0, 5.0)
    assert any("Straight 5.00 m" in m and "7.00 m" in m for m in messages), messages


def test_double_click_opens_elevation_where_devices_are_added_moved_and_removed(window, qtbot):
    from gui.panels.elevation import U_PX

    design = window.document.design
    before = snapshot(window)
    double_click(window.view, 2.1, 3.0)
    dialog = window.elevation
    assert window.elevation_dock.isVisible() and dialog.rack_id == "n1"
    assert set(dialog.blocks) == {"leaf1", "leaf2"}
    assert dialog.add_device("sn5600", 40)
    new = next(d for d in design.devices.values() if d.type == "sn5600")
    assert (new.rack, new.u) == ("n1", 40)
    assert new.id in dialog.blocks  # the elevation follows the model
    # drag leaf2 up by 3 U
    block = dialog.blocks["leaf2"]
    scene = dialog.graphics
    centre = block.sceneBoundingRect().center()
    view = dialog.view
    for kind, dy, buttons in (
        (QEvent.MouseButtonPress, 0, Qt.LeftButton),
        (QEvent.MouseMove, -U_PX * 1.5, Qt.LeftButton),
        (QEvent.MouseMove, -U_PX * 3, Qt.LeftButton),
        (QEvent.MouseButtonRelease, -U_PX * 3, Qt.NoButton),
    ):
        from PySide6.QtCore import QPointF
        from PySide6.QtGui import QMouseEvent

        p = QPointF(view.mapFromScene(QPointF(centre.x(), centre.y() + dy)))
        button = Qt.NoButton if kind == QEvent.MouseMove else Qt.LeftButton
        QApplication.sendEvent(
            view.viewport(),
            QMouseEvent(
                kind,
                p,
                QPointF(view.viewport().mapToGlobal(p.toPoint())),
                button,
                buttons,
                Qt.NoModifier,
            ),
        )
    assert design.devices["leaf2"].u == 25
    scene.clearSelection()
    dialog.blocks["leaf1"].setSelected(True)
    assert window.inspector.scene.selected_ids() == ["leaf1"]
    qtbot.keyClick(view, Qt.Key_Delete)
    assert "leaf1" not in design.devices
    for _ in range(3):
        window.undo_action.trigger()
    assert snapshot(window) == before


def test_links_of_the_selection_are_drawn_and_nothing_else(window):
    click(window.view, 1.5, 3.0)
    QApplication.processEvents()
    shown = set(window.scene.link_items)
    assert shown == window.document.design.links_of_racks(["r1"])
    click(window.view, 10.0, 7.5)
    QApplication.processEvents()
    assert window.scene.link_items == {}


def test_zoom_wheel_and_fit(window):
    from PySide6.QtGui import QWheelEvent

    view = window.view
    s0 = view.scale_factor()
    pos = view_point(view, 6, 4)
    event = QWheelEvent(
        pos,
        QPoint(),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.NoButton,
        Qt.NoModifier,
        Qt.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), event)
    assert view.scale_factor() > s0
    window.fit_action.trigger()
    assert abs(view.scale_factor() - s0) / s0 < 0.05


def test_bundles_along_trays_and_tray_fill_follow_the_cabling(window, qtbot):
    scene = window.scene
    if window.document.plant is None:
        return
    qtbot.waitUntil(lambda: bool(scene.tray_load.counts), timeout=3000)
    counts = scene.tray_load.counts
    assert sum(counts.get("t-row", {}).values()) > 0  # the pod's cables run along the row tray
    assert scene.bundle_item._lines
    window.tray_fill_action.trigger()
    assert (
        scene.trays["t-row"]._fill_fraction is not None and scene.trays["t-row"]._fill_fraction > 0
    )
    window.bundles_action.trigger()
    assert scene.bundle_item._lines == []
    # deleting every rack empties the trays once the edits pause
    qtbot.keyClick(window.view, Qt.Key_A, Qt.ControlModifier)
    qtbot.keyClick(window.view, Qt.Key_Delete)
    qtbot.waitUntil(lambda: not scene.tray_load.counts, timeout=3000)


def test_draw_hall_outline_is_undoable(window, qtbot):
    design = window.document.design
    before = snapshot(window)
    qtbot.keyClick(window.view, Qt.Key_O)
    for x, y in ((0.1, 0.1), (13.2, 0.0), (13.2, 9.55)):
        click(window.view, x, y)
    double_click(window.view, 0.0, 9.6)
    assert design.hall.outline == [(0.0, 0.0), (13.2, 0.0), (13.2, 9.6), (0.0, 9.6)]
    assert window.mode_label.text().strip() == "Select mode"
    undo_redo_roundtrip(window, before)


def test_drop_device_type_into_an_elevation_slot(window):
    design = window.document.design
    dialog = window.open_elevation("n1")
    view = dialog.view
    from gui.panels.elevation import U_PX

    rack = design.racks["n1"]
    y = (rack.height_u - 30) * U_PX + U_PX / 2  # the middle of slot U30
    mime = QMimeData()
    mime.setData(MIME_TYPE, QByteArray(b"device:sn5600"))
    pos = view.mapFromScene(100, y)
    for cls in (QDragEnterEvent, QDragMoveEvent):
        QApplication.sendEvent(
            view.viewport(), cls(pos, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
        )
    QApplication.sendEvent(
        view.viewport(),
        QDropEvent(pos.toPointF(), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier),
    )
    new = [d for d in design.devices.values() if d.type == "sn5600"]
    assert len(new) == 1 and (new[0].rack, new[0].u) == ("n1", 30)
    assert new[0].id in dialog.blocks


def test_status_bar_shows_cursor_position_in_metres(window):
    mouse(window.view, QEvent.MouseMove, 4.2, 3.3, buttons=Qt.NoButton)
    text = window.position_label.text()  # e.g. "x    4.19 m   y    3.30 m"
    numbers = [float(word) for word in text.split() if word.replace(".", "", 1).isdigit()]
    assert text.count(" m") == 2 and len(numbers) == 2
    pixel_m = 1 / window.view.transform().m11()  # the mouse lands on a whole pixel
    assert abs(numbers[0] - 4.2) <= pixel_m and abs(numbers[1] - 3.3) <= pixel_m


def test_open_recent_menu_reopens_a_file(window, tmp_path, pod_file):
    from gui.document.document import empty_design
    from model.files.design_file import save_design

    other = tmp_path / "b.hall.json"
    save_design(empty_design(8, 8, name="B"), other)
    assert window.open_path(other)
    window.recent_menu.aboutToShow.emit()
    action = next(a for a in window.recent_menu.actions() if a.text() == "pod.hall.json")
    action.trigger()
    assert window.document.path == pod_file


def test_measure_along_trays(window, qtbot):
    messages = []
    window.scene.message.connect(messages.append)
    window.set_mode("measure")
    click(window.view, 4.0, 3.0)  # on the row tray
    click(window.view, 6.0, 5.5)  # on the cross tray
    assert any("along trays 4.50 m" in m for m in messages), messages


def test_a_patch_panel_dropped_into_an_elevation_takes_its_u_and_shows_its_ports(window):
    """Structured panels are rack devices: dropped on a slot, drawn there with their ports."""
    design = window.document.design
    dialog = window.open_elevation("n1")
    view = dialog.view
    from gui.panels.elevation import U_PX

    rack = design.racks["n1"]
    y = U_PX / 2  # the middle of the top slot
    mime = QMimeData()
    mime.setData(MIME_TYPE, QByteArray(b"device:panel-mpo-1u-72"))
    pos = view.mapFromScene(100, y)
    for cls in (QDragEnterEvent, QDragMoveEvent):
        QApplication.sendEvent(
            view.viewport(), cls(pos, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
        )
    QApplication.sendEvent(
        view.viewport(),
        QDropEvent(pos.toPointF(), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier),
    )
    (panel,) = [d for d in design.devices.values() if d.type == "panel-mpo-1u-72"]
    assert (panel.rack, panel.u, panel.role) == ("n1", rack.height_u, "patch-panel")
    block = dialog.blocks[panel.id]
    assert block.label.endswith("0/72 used")  # the elevation block's own label (main's rework)
