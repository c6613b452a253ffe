"""HallItem: the hall outline and the floor tile grid (drawn only when legible); the outline is
selectable along its edge, to edit its corners. Obstacles are items of their own (obstacle_item)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style

MIN_TILE_PX = 7.0  # below this the grid is noise, not information
EDGE_GRAB_M = 0.4  # a click this near the outline (either side) selects it


def polygon(points) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in points])


class HallItem(QGraphicsItem):
    """Draws the floor; knows nothing of the model beyond the polygons it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setZValue(-100)
        self._outline = QPolygonF()
        self._edge = QPainterPath()
        self._tile = 0.6
        self._path = QPainterPath()
        self._rect = QRectF()

    def set_floor(self, outline, tile_m: float) -> None:
        self.prepareGeometryChange()
        self._outline = polygon(outline)
        self._tile = tile_m
        self._path = QPainterPath()
        self._path.addPolygon(self._outline)
        self._path.closeSubpath()
        self._rect = self._outline.boundingRect().adjusted(-0.5, -0.5, 0.5, 0.5)
        stroker = QPainterPathStroker()
        stroker.setWidth(2 * EDGE_GRAB_M)
        self._edge = stroker.createStroke(self._path)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        """The band along the outline: the floor inside is for racks, trays and rubber bands."""
        return self._edge

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        painter.setPen(Qt.NoPen)
        painter.setBrush(QColor(style.HALL_FILL))
        painter.drawPath(self._path)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        if self._tile * lod >= MIN_TILE_PX:
            self._paint_grid(painter, option.exposedRect)
        pen = QPen(QColor(style.SELECTION if self.isSelected() else style.HALL_EDGE), 2.0)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.NoBrush)
        painter.drawPath(self._path)

    def _paint_grid(self, painter: QPainter, exposed: QRectF) -> None:
        area = exposed.intersected(self._outline.boundingRect())
        if area.isEmpty():
            return
        pen = QPen(QColor(style.TILE_LINE), 1.0)
        pen.setCosmetic(True)
        painter.save()
        painter.setClipPath(self._path)
        painter.setPen(pen)
        t = self._tile
        x = math.floor(area.left() / t) * t
        lines = []
        from PySide6.QtCore import QLineF

        while x <= area.right():
            lines.append(QLineF(x, area.top(), x, area.bottom()))
            x += t
        y = math.floor(area.top() / t) * t
        while y <= area.bottom():
            lines.append(QLineF(area.left(), y, area.right(), y))
            y += t
        painter.drawLines(lines)
        painter.restore()
