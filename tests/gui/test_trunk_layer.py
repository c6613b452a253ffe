"""The trunk layer in the editor: what an adopted layout changes and which trunks get an item,
a click, a hover and a right-click on a trunk, the field's far look (see
gui/canvas/trunk_layer.py, trunk_items.py and interaction.py's item_at)."""

from __future__ import annotations

import weakref

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QHelpEvent, QImage, QPainter, QTransform
from PySide6.QtWidgets import QApplication, QStyleOptionGraphicsItem, QToolTip

from gui.edit.commands import MoveRacksCommand
from model.files.design_file import save_design
from model.structured.channel_view import trunk_part_text
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


def test_the_layout_shown_before_is_let_go_after_the_adopt_not_during_it(window, qtbot):
    """Freeing a zoned XL hall's previous layout at once held the GUI thread ~0.35 s after
    every analysis: the adopt leaves it to the retirer, which takes it apart on idle turns."""
    layer, runner = window.scene.trunk_layer, window.analysis_docks.runner
    before = weakref.ref(layer.layout())
    seen = []
    runner.finished.connect(lambda _r: seen.append(before() is not None))  # after the layer's
    move_rack(qtbot, window, "r1", 3.0)
    assert layer.layout() is not before() and seen == [True]
    qtbot.waitUntil(lambda: before() is None)


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
        f"{trunk.id}: {trunk_part_text(trunk)}, {trunk.ordered_m:g} m ordered "
        f"({trunk.length_m:.1f} m needed), {trunk.legs} MPO leg(s), 1 channel(s)"
    )
    assert trunk.part not in QToolTip.text()  # the BOM's number, not the catalog's trunk id
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


class RecordingPainter(QPainter):
    """A painter that notes the field's drawing calls (and draws them)."""

    def __init__(self, device) -> None:
        super().__init__(device)
        self.polylines: list = []
        self.lines: list = []

    def drawPolyline(self, polygon) -> None:
        self.polylines.append(polygon)
        super().drawPolyline(polygon)

    def drawLines(self, lines) -> None:
        self.lines.extend(lines)
        super().drawLines(lines)


def paint_field(field, px_per_m: float) -> tuple[RecordingPainter, QImage]:
    """The whole field painted at ``px_per_m`` pixels per metre, antialiased as in the view."""
    image = QImage(600, 600, QImage.Format_ARGB32)
    image.fill(Qt.white)
    painter = RecordingPainter(image)
    painter.setRenderHint(QPainter.Antialiasing)
    painter.setTransform(QTransform.fromScale(px_per_m, px_per_m))
    option = QStyleOptionGraphicsItem()
    option.exposedRect = field.boundingRect()
    field.paint(painter, option)
    painter.end()
    return painter, image


def test_zoomed_out_the_field_draws_each_stretch_once_and_near_each_route(qapp):
    """Below FAR_PX_PER_M the field draws each straight stretch of its routes once (a stretch
    two routes share, whichever way they run it, once), still in the trunk colour; nearer, each
    route as one polyline, as before. A selected route's halo is its polyline at any zoom."""
    from gui import style
    from gui.canvas.trunk_items import FAR_PX_PER_M, TrunkField, TrunkItem

    field = TrunkField()
    east = field.route_for([(1, 1), (1, 2), (9, 2), (9, 5)])
    west = field.route_for([(9, 2), (1, 2), (1, 8)])  # the stretch (1, 2)-(9, 2) the other way
    field.set_routes([east, west])
    far, image = paint_field(field, FAR_PX_PER_M / 4)
    assert far.polylines == []
    ends = sorted((line.x1(), line.y1(), line.x2(), line.y2()) for line in far.lines)
    assert ends == [(1, 1, 1, 2), (1, 2, 1, 8), (1, 2, 9, 2), (9, 2, 9, 5)]
    on_shared = [image.pixelColor(round(x * FAR_PX_PER_M / 4), 20) for x in (3, 4, 5, 6, 7)]
    assert QColor(style.TRUNK_COLOR) in on_shared  # dashed: some of its pixels are the trunks'
    near, _ = paint_field(field, FAR_PX_PER_M)
    assert near.lines == [] and [p.size() for p in near.polylines] == [4, 3]
    # Selected: the halo along the whole route, at either zoom.
    item = TrunkItem("trunk-1", field)
    item.set_route(west)
    item.setSelected(True)
    far, _ = paint_field(field, FAR_PX_PER_M / 4)
    assert [p.size() for p in far.polylines] == [3] and len(far.lines) == 4
    near, _ = paint_field(field, FAR_PX_PER_M)
    assert [p.size() for p in near.polylines] == [3, 4, 3]
    # A route gone: the stretches only it ran go too; the shared one stays for the other.
    field.set_routes([east])
    far, _ = paint_field(field, FAR_PX_PER_M / 4)
    assert len(far.lines) == 3


def test_a_picture_lays_out_the_trunks_only_and_draws_them(qtbot, tmp_path, monkeypatch):
    import gui.canvas.trunk_paths as trunk_paths  # the picture's routes (trunk_paths.py)
    from gui.pictures.render import render_design

    asked = []
    real = trunk_paths.structured_layout

    def layout(plant, *args, **kwargs):
        got = real(plant, *args, **kwargs)
        asked.append((kwargs.get("trunks_only", False), len(got.trunks), len(got.channels)))
        return got

    monkeypatch.setattr(trunk_paths, "structured_layout", layout)
    design = two_dgx_racks_cross_connected()
    render_design(design, tmp_path / "hall.png", width_px=400)
    assert asked and all(only and trunks and not channels for only, trunks, channels in asked)
    assert (tmp_path / "hall.png").stat().st_size > 0


def test_while_the_trays_reroute_on_the_worker_the_trunks_ask_the_plant_nothing(
    window, monkeypatch
):
    """During a tray edit's re-route on the analysis worker, the trunk layer drawing again (a
    layer toggled, a selection) keeps the routes it drew: asking the plant would apply the
    tray edit on the GUI thread, unannounced, and the worker's copy would then be refused."""
    scene, layer = window.scene, window.scene.trunk_layer
    drawn = len(layer.field.routes())
    assert drawn == 2
    asked: list[str] = []
    plant = scene.plant
    for name in ("rack_points", "route_keys", "route", "plan_points_of"):
        real = getattr(plant, name)

        def spy(*args, _name=name, _real=real, **kwargs):
            asked.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(plant, name, spy)
    monkeypatch.setattr(scene.feed, "_rerouting", True)
    layer._read_at.clear()  # as after a renumbering: every trunk would be asked again
    layer.refresh()
    assert asked == []
    assert len(layer.field.routes()) == drawn
    monkeypatch.setattr(scene.feed, "_rerouting", False)
    layer.refresh()
    assert asked  # the same refresh asks the plant once the re-route is in
