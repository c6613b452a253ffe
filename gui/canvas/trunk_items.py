"""The trunks on the plan: one selectable item per trunk, one item that paints them all.

A zoned XL hall has ~100k trunks but only ~7k distinct routes: the trunks between two racks
follow the same link's tray route, so they lie exactly on top of each other. Drawn one item
each, a whole-scene render (the overview's miniature, a picture) spent ~3.5 s in Qt's per-item
painting and raster work for lines nobody can tell apart. So:

- a :class:`TrunkRoute` is one distinct route (its points, polygon and bounds; its hit shape
  stroked when first asked), shared by every trunk that follows it;
- a :class:`TrunkItem` per trunk stays what selection, hit tests, tooltips and the inspector work
  on (``ItemHasNoContents``: Qt never calls its ``paint``);
- the :class:`TrunkField` paints each distinct route once (the selected ones with their halo
  first), culling routes outside the exposed rectangle with one numpy box test.

The look is the one each trunk drew itself: a cosmetic dashed raspberry line, a wide halo when
selected.
"""

from __future__ import annotations

import functools

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style

HIT_WIDTH_M = 0.15
BOUNDS_SPARE_M = 5.0  # the field's bounds grow with room to spare: a moved trunk seldom grows them


class TrunkRoute:
    """One distinct trunk route on the plan, shared by the trunks along it."""

    __slots__ = ("points", "polygon", "bounds", "_shape")

    def __init__(self, points: tuple[tuple[float, float], ...]) -> None:
        self.points = points
        self.polygon = QPolygonF([QPointF(x, y) for x, y in points])
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        pad = HIT_WIDTH_M / 2
        self.bounds = QRectF(
            min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
        )
        self._shape: QPainterPath | None = None

    def shape(self) -> QPainterPath:
        """The hit area: the route stroked HIT_WIDTH_M wide (made when first hit-tested)."""
        if self._shape is None:
            path = QPainterPath()
            path.addPolygon(self.polygon)
            stroker = QPainterPathStroker()
            stroker.setWidth(HIT_WIDTH_M)
            self._shape = stroker.createStroke(path)
        return self._shape


class TrunkItem(QGraphicsItem):
    """One trunk: selectable, hit along its route; drawn by the field (its id is the trunk's)."""

    def __init__(self, object_id: str, field: TrunkField) -> None:
        super().__init__()
        self.object_id = object_id
        self.field = field
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setFlag(QGraphicsItem.ItemHasNoContents, True)
        self.setAcceptHoverEvents(True)  # the tooltip is set when the pointer first comes
        self.setZValue(15)  # above the bundles, below the drawn links
        self.route: TrunkRoute | None = None
        self.drawn_selected = False  # counted among its route's selected trunks by the field
        self._tip = ""
        self._tip_set = ""

    def set_route(self, route: TrunkRoute) -> None:
        """Draw the trunk along ``route``; the same route as now changes nothing (no geometry
        change: after a rack move of a zoned XL hall, ~100k unchanged trunks re-indexed one by
        one in the scene took over a minute)."""
        if route is self.route:
            return
        old, selected = self.route, self.drawn_selected
        if selected:
            self.field.selection_changed(self, False)  # the halo leaves the old route
        self.prepareGeometryChange()
        self.route = route
        self.field.route_changed(old, route)
        if selected:
            self.field.selection_changed(self, True)

    def set_tip(self, text: str) -> None:
        """The tooltip, given to Qt when the pointer comes (``hoverEnterEvent``): Qt's
        setToolTip costs ~10 us, a second per refresh of a zoned XL hall's 100k trunks."""
        self._tip = text

    def tip(self) -> str:
        return self._tip

    def hoverEnterEvent(self, event) -> None:
        if self._tip != self._tip_set:
            self._tip_set = self._tip
            self.setToolTip(self._tip)
        super().hoverEnterEvent(event)

    def boundingRect(self) -> QRectF:
        return self.route.bounds if self.route is not None else QRectF()

    def shape(self) -> QPainterPath:
        return self.route.shape() if self.route is not None else QPainterPath()

    def itemChange(self, change, value):
        if change == QGraphicsItem.ItemSelectedHasChanged:
            self.field.selection_changed(self, bool(value))
        return super().itemChange(change, value)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        pass  # drawn by the TrunkField (ItemHasNoContents: Qt does not call this)


class TrunkField(QGraphicsItem):
    """Paints every distinct route some trunk follows, once, in one call (z 15, as the trunks)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(15)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)
        self._users: dict[TrunkRoute, int] = {}  # route -> trunks along it (insertion order)
        self._by_points: dict[tuple, TrunkRoute] = {}  # the same routes by their points
        self._selected: dict[TrunkRoute, int] = {}  # route -> selected trunks along it
        self._boxes: np.ndarray | None = None  # (left, top, right, bottom) per route, or stale
        self._routes: list[TrunkRoute] = []
        self._rect = QRectF()

    def routes(self) -> list[TrunkRoute]:
        """The distinct routes drawn, in the order first used."""
        return list(self._users)

    def route_for(self, points) -> TrunkRoute:
        """The route along ``points``: the one trunks already follow there, else a new one."""
        key = tuple(map(tuple, points))
        route = self._by_points.get(key)
        if route is None:
            route = self._by_points[key] = TrunkRoute(key)
        return route

    def route_changed(self, old: TrunkRoute | None, new: TrunkRoute | None) -> None:
        for route, step in ((old, -1), (new, 1)):
            if route is None:
                continue
            count = self._users.get(route, 0) + step
            if count > 0:
                self._users[route] = count
            else:  # no trunk follows it any more: let it go
                self._users.pop(route, None)
                self._by_points.pop(route.points, None)
            self._boxes = None
            self.update(route.bounds)
        if new is not None and not self._rect.contains(new.bounds):
            spare = BOUNDS_SPARE_M
            self.prepareGeometryChange()
            self._rect = self._rect.united(new.bounds.adjusted(-spare, -spare, spare, spare))

    def selection_changed(self, item: TrunkItem, selected: bool) -> None:
        route = item.route
        if route is None or item.drawn_selected == selected:
            return
        item.drawn_selected = selected
        count = self._selected.get(route, 0) + (1 if selected else -1)
        if count > 0:
            self._selected[route] = count
        else:
            self._selected.pop(route, None)
        self.update(route.bounds.adjusted(-1, -1, 1, 1))

    def forget(self, item: TrunkItem) -> None:
        """``item`` leaves the scene: its route loses a user (and a selection)."""
        self.selection_changed(item, False)
        self.route_changed(item.route, None)

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        return QPainterPath()  # never hit: the trunks themselves are

    def contains(self, _point) -> bool:
        return False

    def _hit(self, exposed: QRectF) -> list[TrunkRoute]:
        if self._boxes is None:
            self._routes = list(self._users)
            self._boxes = np.array(
                [
                    (r.bounds.left(), r.bounds.top(), r.bounds.right(), r.bounds.bottom())
                    for r in self._routes
                ],
                dtype=np.float64,
            ).reshape(-1, 4)
        b = self._boxes
        keep = (
            (b[:, 0] <= exposed.right())
            & (b[:, 2] >= exposed.left())
            & (b[:, 1] <= exposed.bottom())
            & (b[:, 3] >= exposed.top())
        )
        routes = self._routes
        return [routes[i] for i in np.flatnonzero(keep).tolist()]

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        if not self._users:
            return
        exposed = option.exposedRect if not option.exposedRect.isEmpty() else self._rect
        routes = self._hit(exposed.adjusted(-1, -1, 1, 1))
        halo, pen = pens()
        painter.setBrush(Qt.NoBrush)
        if self._selected:
            painter.setPen(halo)
            for route in routes:
                if route in self._selected:
                    painter.drawPolyline(route.polygon)
        painter.setPen(pen)
        for route in routes:
            painter.drawPolyline(route.polygon)


@functools.cache
def pens() -> tuple[QPen, QPen]:
    """(selection halo, trunk) pens, made once."""
    halo = QPen(QColor(style.SELECTION), 7.0, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
    halo.setCosmetic(True)
    pen = QPen(QColor(style.TRUNK_COLOR), 3.0, Qt.DashLine, Qt.FlatCap, Qt.RoundJoin)
    pen.setCosmetic(True)
    return halo, pen
