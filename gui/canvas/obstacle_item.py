"""ObstacleItem: one column, CRAH/CDU unit or keep-out zone drawn on the floor, selectable."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style

# A keep-out zone is floor that must stay clear, not a solid thing: hatched, not filled.
_HATCHED = {"keep-out"}


def _pen(color: QColor, width_px: float) -> QPen:
    pen = QPen(color, width_px)
    pen.setCosmetic(True)
    return pen


_EDGE = _pen(QColor(style.OBSTACLE_FILL).darker(160), 1.0)
_EDGE_SELECTED = _pen(QColor(style.SELECTION), 2.0)


class ObstacleItem(QGraphicsItem):
    """Knows its id, polygon and kind; the scene sets them from the hall record."""

    def __init__(self, object_id: str) -> None:
        super().__init__()
        self.object_id = object_id
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setZValue(-50)  # over the floor, under the trays and racks
        self._path = QPainterPath()
        self._rect = QRectF()
        self.kind = "column"

    def set_polygon(self, points, kind: str) -> None:
        self.prepareGeometryChange()
        self._path = QPainterPath()
        self._path.addPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
        self._path.closeSubpath()
        self._rect = self._path.boundingRect().adjusted(-0.05, -0.05, 0.05, 0.05)
        self.kind = kind
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        return self._path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        painter.setPen(_EDGE_SELECTED if self.isSelected() else _EDGE)
        fill = QColor(style.OBSTACLE_FILL)
        if self.kind in _HATCHED:
            painter.setBrush(QBrush(fill.darker(130), Qt.BDiagPattern))
        else:
            painter.setBrush(fill)
        painter.drawPath(self._path)
