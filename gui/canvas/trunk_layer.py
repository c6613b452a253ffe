"""The trunk layer of the plan: every MPO trunk of a structured design along its tray route.

The trunks, their racks and the links they carry come from the model's structured layout
(:func:`model.structured_layout.structured_layout`); a trunk is drawn along the routed plan path
of the link the layout names for it (``Trunk.route_link``: one between the same two racks, so
along the same trays); a trunk no link runs alongside (to a zone's distribution rack) is drawn
rack centre to rack centre. The
layer keeps the layout of the design's current revision, so the inspector's channel view and the
warnings share one computation with the canvas. View > Trunks shows or hides the layer; a direct
design has no trunk.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style
from model.structured_layout import StructuredLayout, structured_layout, uses_structured

if TYPE_CHECKING:
    from model.channel_view import PlanObject

HIT_WIDTH_M = 0.15


class TrunkItem(QGraphicsItem):
    """One trunk: a dashed raspberry line along its route; selectable (its id is the trunk's)."""

    def __init__(self, object_id: str) -> None:
        super().__init__()
        self.object_id = object_id
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setZValue(15)  # above the bundles, below the drawn links
        self._path = QPainterPath()
        self._shape = QPainterPath()
        self._points: tuple = ()
        self._tip = ""

    def set_route(self, points) -> None:
        """Draw the trunk along ``points``; the same points as now change nothing (no geometry
        change: after a rack move of a zoned XL hall, ~100k unchanged trunks re-indexed one by
        one in the scene took over a minute)."""
        points = tuple(map(tuple, points))
        if points == self._points:
            return
        self._points = points
        self.prepareGeometryChange()
        path = QPainterPath(QPointF(*points[0]))
        for x, y in points[1:]:
            path.lineTo(x, y)
        self._path = path
        stroker = QPainterPathStroker()
        stroker.setWidth(HIT_WIDTH_M)
        self._shape = stroker.createStroke(path)
        self.update()

    def set_tip(self, text: str) -> None:
        """The tooltip; the same text as now is not set again (Qt's setToolTip costs ~10 us
        even then, a second per refresh of a zoned XL hall's 100k trunks)."""
        if text != self._tip:
            self._tip = text
            self.setToolTip(text)

    def boundingRect(self) -> QRectF:
        return self._shape.boundingRect()

    def shape(self) -> QPainterPath:
        return self._shape

    def itemChange(self, change, value):
        if change == QGraphicsItem.ItemSelectedHasChanged:
            self.setZValue(18 if value else 15)  # a selected trunk shows above its neighbours
        return super().itemChange(change, value)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        halo, pen = _pens()
        painter.setBrush(Qt.NoBrush)
        if self.isSelected():
            painter.setPen(halo)
            painter.drawPath(self._path)
        painter.setPen(pen)
        painter.drawPath(self._path)


@functools.cache
def _pens() -> tuple[QPen, QPen]:
    """(selection halo, trunk) pens, made once: a zoned XL hall paints ~100k trunks per
    whole-hall repaint, and two pens made per trunk were a third of it."""
    halo = QPen(QColor(style.SELECTION), 7.0, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
    halo.setCosmetic(True)
    pen = QPen(QColor(style.TRUNK_COLOR), 3.0, Qt.DashLine, Qt.FlatCap, Qt.RoundJoin)
    pen.setCosmetic(True)
    return halo, pen


class TrunkLayer:
    """The scene's trunk items (``items[trunk id]``) and the structured layout they show."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.items: dict[str, TrunkItem] = {}
        self.visible = True
        self._layout: tuple[int, StructuredLayout] | None = None
        self._objects: tuple[int, dict[str, PlanObject]] | None = None
        # After each plant refresh, once per burst: the layout of a 4-SU pod takes ~0.2 s.
        self._timer = QTimer(scene)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)
        # The feed is the plant's and may outlive this scene (a test's, a closed document's):
        # the connection is dropped on stop(), and a deleted timer is never touched.
        self._feed = scene.feed
        if self._feed is not None:
            self._feed.refreshed.connect(self._plant_refreshed)

    def _plant_refreshed(self, _update) -> None:
        if shiboken6.isValid(self._timer):
            self._timer.start()

    def stop(self) -> None:
        """The scene stops following its design: no refresh after this."""
        if self._feed is not None:
            try:
                self._feed.refreshed.disconnect(self._plant_refreshed)
            except (RuntimeError, TypeError):  # already gone with the feed
                pass
            self._feed = None
        if shiboken6.isValid(self._timer):
            self._timer.stop()
        self.visible = False

    def layout(self) -> StructuredLayout | None:
        """The structured layout of the design as it is now (None without a cable plant)."""
        scene = self.scene
        if scene.plant is None:
            return None
        if scene.feed is not None:
            scene.feed.ensure_fresh()
        revision = scene.design.revision
        if self._layout is None or self._layout[0] != revision:
            self._layout = (revision, structured_layout(scene.plant))
        return self._layout[1]

    def plan_objects(self) -> dict[str, PlanObject]:
        """Channel element id -> where it is on the plan (model.channel_view.channel_objects)."""
        # Imported here: the inspector's channel view needs it, a picture never (~16 ms).
        from model.channel_view import channel_objects

        layout = self.layout()
        if layout is None:
            return {}
        if self._objects is None or self._objects[0] != self._layout[0]:
            self._objects = (self._layout[0], channel_objects(layout, self.scene.design))
        return self._objects[1]

    def set_visible(self, visible: bool) -> None:
        self.visible = visible
        self.refresh()

    def refresh(self) -> None:
        """Make the items match the layout's trunks (none while the layer is hidden)."""
        scene = self.scene
        if not self.items and not uses_structured(scene.design):
            return  # no trunk to draw or remove: nothing computed on a direct design's edits
        layout = self.layout() if self.visible else None
        trunks = {t.id: t for t in layout.trunks} if layout is not None else {}
        selected = {i for i, item in self.items.items() if item.isSelected()}
        for trunk_id in [i for i in self.items if i not in trunks]:
            scene.removeItem(self.items.pop(trunk_id))
        for trunk_id, trunk in trunks.items():
            route_link = trunk.route_link or (trunk.links[0] if len(trunk.links) == 1 else "")
            if route_link:
                points = scene.link_points(route_link)
            else:  # a trunk to a zone's distribution rack: no link runs it, rack to rack
                racks = scene.design.racks
                a, b = racks[trunk.rack_a], racks[trunk.rack_b]
                points = [(a.x, a.y), (b.x, b.y)]
            if len(points) < 2:
                continue
            item = self.items.get(trunk_id)
            if item is None:
                item = self.items[trunk_id] = TrunkItem(trunk_id)
                scene.addItem(item)
                item.setSelected(trunk_id in selected)
            item.set_route(points)
            tip = (
                f"{trunk_id}: {trunk.part or 'no orderable trunk'}, "
                f"{trunk.ordered_m:g} m ordered ({trunk.length_m:.1f} m needed), "
                f"{trunk.legs} MPO leg(s), {len(set(trunk.links))} channel(s)"
            )
            item.set_tip(tip)
        scene.drawing_changed.emit()  # the overview's miniature shows the trunks too
