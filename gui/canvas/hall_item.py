"""HallItem: the hall outline, its obstacles and the floor tile grid (drawn only when legible)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style

MIN_TILE_PX = 7.0  # below this the grid is noise, not information


def polygon(points) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in points])


class HallItem(QGraphicsItem):
    """Draws the floor; knows nothing of the model beyond the polygons it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)
        self.setZValue(-100)
        self._outline = QPolygonF()
        self._obstacles: list[tuple[QPolygonF, str]] = []
        self._tile = 0.6
        self._path = QPainterPath()
        self._rect = QRectF()

    def set_floor(self, outline, obstacles, tile_m: float) -> None:
        self.prepareGeometryChange()
        self._outline = polygon(outline)
        self._obstacles = [(polygon(o.polygon), o.name or o.kind) for o in obstacles]
        self._tile = tile_m
        self._path = QPainterPath()
        self._path.addPolygon(self._outline)
        self._path.closeSubpath()
        self._rect = self._outline.boundingRect().adjusted(-0.5, -0.5, 0.5, 0.5)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        painter.setPen(Qt.NoPen)
        painter.setBrush(QColor(style.HALL_FILL))
        painter.drawPath(self._path)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        if self._tile * lod >= MIN_TILE_PX:
            self._paint_grid(painter, option.exposedRect)
        painter.setPen(QPen(QColor(style.OBSTACLE_FILL).darker(140), 0))
        painter.setBrush(QBrush(QColor(style.OBSTACLE_FILL), Qt.BDiagPattern))
        for poly, _name in self._obstacles:
            painter.setBrush(QColor(style.OBSTACLE_FILL))
            painter.drawPolygon(poly)
        pen = QPen(QColor(style.HALL_EDGE), 2.0)
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
