"""The trunks on the plan: one item paints every route, an item per trunk only when needed.

A zoned XL hall has ~100k trunks but only ~7k distinct routes: the trunks between two racks
follow the same link's tray route, so they lie exactly on top of each other. So:

- a :class:`TrunkRoute` is one distinct route (its points, polygon and bounds; its hit shape
  stroked when first asked), shared by every trunk that follows it;
- the :class:`TrunkField` paints each route once (the selected ones with their halo first),
  culling routes outside the exposed rectangle with one numpy box test, and finds the route
  under a point (:meth:`TrunkField.route_at`);
- a :class:`TrunkItem` is made for a trunk only when selection needs one (the layer makes it
  when the trunk is selected or clicked, see gui/canvas/trunk_layer.py): ``ItemHasNoContents``,
  so Qt never calls its ``paint``. An item for each of 100k trunks cost ~0.5-0.8 s of GUI
  thread per adopted layout and ~0.3 s of every whole-hall paint (Qt's index and sort of the
  items met).

The look is the one each trunk drew itself: a cosmetic dashed raspberry line, a wide halo when
selected. Zoomed out below FAR_PX_PER_M, the field draws each distinct straight stretch of the
routes once, in the same pen, rather than each route: trunks from many racks run the same tray
stretches, so a whole zoned XL hall is ~9.5k stretches for ~43k route segments, and its
~7k dashed polylines took ~140 ms to stroke against ~10 ms for the stretches. Where routes
share a stretch its dashes show once, instead of the shifted dashes of each route merging into
a solid line; a route's bends show as its stretches meeting, a few pixels across at that zoom.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style
from gui.canvas.row_labels_item import SHOW_BELOW_PX_PER_M

HIT_WIDTH_M = 0.15
# Below this zoom (pixels per metre) the far look (see the module docstring): the row labels'
# threshold, where the plan turns into an overview of rows that no rack name can be read in.
FAR_PX_PER_M = SHOW_BELOW_PX_PER_M
BOUNDS_SPARE_M = 5.0  # the field's bounds grow with room to spare: a moved trunk seldom grows them


class TrunkRoute:
    """One distinct trunk route on the plan, shared by the trunks along it."""

    __slots__ = ("points", "_polygon", "bounds", "_shape")

    def __init__(self, points: tuple[tuple[float, float], ...]) -> None:
        self.points = points
        self._polygon: QPolygonF | None = None
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        pad = HIT_WIDTH_M / 2
        self.bounds = QRectF(
            min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
        )
        self._shape: QPainterPath | None = None

    @property
    def polygon(self) -> QPolygonF:
        """Its points as a polygon, made when first drawn or hit: a whole hall far out is drawn
        as stretches (see the module docstring), so a picture of a zoned XL hall never drew
        the ~7k polygons it made (~0.05 s)."""
        if self._polygon is None:
            self._polygon = QPolygonF([QPointF(x, y) for x, y in self.points])
        return self._polygon

    def stretches(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """Its straight stretches, each as (lower end, higher end): the same stretch of two
        routes, whichever way they run it, is one key."""
        pts = self.points
        pairs = zip(pts, pts[1:], strict=False)
        return [(a, b) if a <= b else (b, a) for a, b in pairs if a != b]

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
        self.setZValue(15)  # above the bundles, below the drawn links
        self.route: TrunkRoute | None = None
        self.drawn_selected = False  # counted among its route's selected trunks by the field

    def set_route(self, route: TrunkRoute) -> None:
        """Follow ``route`` (the same route as now changes nothing: no geometry change)."""
        if route is self.route:
            return
        selected = self.drawn_selected
        if selected:
            self.field.selection_changed(self, False)  # the halo leaves the old route
        self.prepareGeometryChange()
        self.route = route
        if selected:
            self.field.selection_changed(self, True)

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
    """Paints every route of :meth:`set_routes` once, in one call (z 15, as the trunks)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(15)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)
        self._routes: dict[TrunkRoute, None] = {}  # the routes drawn, in painting order
        self._by_points: dict[tuple, TrunkRoute] = {}  # the same routes (and new ones) by points
        self._selected: dict[TrunkRoute, int] = {}  # route -> selected trunks along it
        self._boxes: np.ndarray | None = None  # (left, top, right, bottom) per route, or stale
        self._order: list[TrunkRoute] = []  # the routes in the rows of _boxes
        self._rect = QRectF()
        # The far look: each stretch of the drawn routes -> how many routes run it; its lines
        # and their boxes (left, top, right, bottom) made at the next far paint after a change.
        self._stretches: dict[tuple, int] = {}
        self._lines: list[QLineF] | None = None
        self._line_boxes: np.ndarray | None = None

    def routes(self) -> list[TrunkRoute]:
        """The distinct routes drawn, in painting order."""
        return list(self._routes)

    def route_for(self, points) -> TrunkRoute:
        """The route along ``points``: the one drawn there already, else a new one."""
        key = tuple(map(tuple, points))
        route = self._by_points.get(key)
        if route is None:
            route = self._by_points[key] = TrunkRoute(key)
        return route

    def set_routes(self, routes: Iterable[TrunkRoute]) -> bool:
        """Draw ``routes`` from now on: only where a route came or went is repainted (after a
        rack move of a zoned XL hall, a handful of ~7k). Routes drawn already keep their place
        in the painting order. False: the same routes as before, nothing to do."""
        new = dict.fromkeys(routes)
        old = self._routes
        gone = [r for r in old if r not in new]
        came = [r for r in new if r not in old]
        if not gone and not came:
            return False
        # In place: hashing every route's points again was ~7 ms of each adopt at zoned XL.
        for route in gone:
            del old[route]
            if self._by_points.get(route.points) is route:
                del self._by_points[route.points]
        for route in came:
            old[route] = None
            self._by_points.setdefault(route.points, route)
        self._boxes = None
        self._count_stretches(gone, came)
        for route in gone:
            self.update(route.bounds)
        if came:
            extent = QRectF(came[0].bounds)
            for route in came:
                extent = extent.united(route.bounds)
                self.update(route.bounds)
            if not self._rect.contains(extent):
                spare = BOUNDS_SPARE_M
                self.prepareGeometryChange()
                self._rect = self._rect.united(extent.adjusted(-spare, -spare, spare, spare))
        return True

    def _count_stretches(self, gone: list[TrunkRoute], came: list[TrunkRoute]) -> None:
        counts = self._stretches
        for route in gone:
            for stretch in route.stretches():
                left = counts[stretch] - 1
                if left:
                    counts[stretch] = left
                else:
                    del counts[stretch]
                    self._lines = None
        for route in came:
            for stretch in route.stretches():
                before = counts.get(stretch, 0)
                counts[stretch] = before + 1
                if not before:
                    self._lines = None

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
        """``item`` leaves the scene: its route loses a selected trunk if it was one."""
        self.selection_changed(item, False)

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        return QPainterPath()  # never hit by Qt: the layer asks route_at

    def contains(self, _point) -> bool:
        return False

    def _rows(self, left: float, top: float, right: float, bottom: float) -> np.ndarray:
        """Rows of the routes whose bounds meet the rectangle, in painting order."""
        if self._boxes is None:
            self._order = list(self._routes)
            self._boxes = np.array(
                [
                    (r.bounds.left(), r.bounds.top(), r.bounds.right(), r.bounds.bottom())
                    for r in self._order
                ],
                dtype=np.float64,
            ).reshape(-1, 4)
        return _meeting(self._boxes, left, top, right, bottom)

    def _hit(self, exposed: QRectF) -> list[TrunkRoute]:
        rows = self._rows(exposed.left(), exposed.top(), exposed.right(), exposed.bottom())
        order = self._order
        return [order[i] for i in rows.tolist()]

    def route_at(self, point: QPointF) -> TrunkRoute | None:
        """The route whose hit area holds ``point``: the one painted last (on top) there."""
        if not self._routes:
            return None
        x, y = point.x(), point.y()
        rows = self._rows(x, y, x, y)
        order = self._order
        for i in reversed(rows.tolist()):
            if order[i].shape().contains(point):
                return order[i]
        return None

    def _far_lines(self, exposed: QRectF) -> list[QLineF]:
        """The stretches of the far look that meet ``exposed``."""
        if self._lines is None:
            keys = list(self._stretches)
            self._lines = [QLineF(ax, ay, bx, by) for (ax, ay), (bx, by) in keys]
            self._line_boxes = np.array(
                [
                    (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
                    for (ax, ay), (bx, by) in keys
                ],
                dtype=np.float64,
            ).reshape(-1, 4)
        rect = (exposed.left(), exposed.top(), exposed.right(), exposed.bottom())
        rows = _meeting(self._line_boxes, *rect)
        if len(rows) == len(self._lines):
            return self._lines
        lines = self._lines
        return [lines[i] for i in rows.tolist()]

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        if not self._routes:
            return
        exposed = option.exposedRect if not option.exposedRect.isEmpty() else self._rect
        exposed = exposed.adjusted(-1, -1, 1, 1)
        far = option.levelOfDetailFromTransform(painter.worldTransform()) < FAR_PX_PER_M
        halo, pen = pens()
        painter.setBrush(Qt.NoBrush)
        if far:  # the selected routes' halos whole (a few), then the stretches
            routes, halos = [], list(self._selected)
        else:
            routes = self._hit(exposed)
            halos = [route for route in routes if route in self._selected] if self._selected else []
        if halos:
            painter.setPen(halo)
            for route in halos:
                painter.drawPolyline(route.polygon)
        painter.setPen(pen)
        if far:
            painter.drawLines(self._far_lines(exposed))
        for route in routes:
            painter.drawPolyline(route.polygon)


def _meeting(boxes: np.ndarray, left: float, top: float, right: float, bottom: float):
    """Rows of ``boxes`` (left, top, right, bottom) that meet the rectangle, edges included."""
    b = boxes
    keep = (b[:, 0] <= right) & (b[:, 2] >= left) & (b[:, 1] <= bottom) & (b[:, 3] >= top)
    return np.flatnonzero(keep)


@functools.cache
def pens() -> tuple[QPen, QPen]:
    """(selection halo, trunk) pens, made once."""
    halo = QPen(QColor(style.SELECTION), 7.0, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
    halo.setCosmetic(True)
    pen = QPen(QColor(style.TRUNK_COLOR), 3.0, Qt.DashLine, Qt.FlatCap, Qt.RoundJoin)
    pen.setCosmetic(True)
    return halo, pen
