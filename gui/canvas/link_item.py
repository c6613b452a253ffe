"""LinkItem: one cable drawn along its routed path in the colour of its medium."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style

HIT_WIDTH_M = 0.12


class LinkItem(QGraphicsItem):
    def __init__(self, object_id: str) -> None:
        super().__init__()
        self.object_id = object_id
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setZValue(20)
        self._path = QPainterPath()
        self._shape = QPainterPath()
        self._color = QColor(style.NO_MEDIUM_COLOR)

    def set_route(self, points, offset: tuple[float, float] = (0.0, 0.0)) -> None:
        self.prepareGeometryChange()
        dx, dy = offset
        path = QPainterPath(QPointF(points[0][0] + dx, points[0][1] + dy))
        for x, y in points[1:]:
            path.lineTo(x + dx, y + dy)
        self._path = path
        stroker = QPainterPathStroker()
        stroker.setWidth(HIT_WIDTH_M)
        self._shape = stroker.createStroke(path)
        self.update()

    def set_color(self, color: QColor) -> None:
        self._color = color
        self.update()

    def boundingRect(self) -> QRectF:
        return self._shape.boundingRect()

    def shape(self) -> QPainterPath:
        return self._shape

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        # The view skips saving painter state between items (DontSavePainterState): the brush
        # the previous item left would fill the route's polygon, so clear it before any stroke.
        painter.setBrush(Qt.NoBrush)
        if self.isSelected():
            halo = QPen(QColor(style.SELECTION), 6.0, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
            halo.setCosmetic(True)
            painter.setPen(halo)
            painter.drawPath(self._path)
        pen = QPen(self._color, 2.2, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawPath(self._path)
