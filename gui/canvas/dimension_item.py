"""Dimension lines on the plan: DimensionItem draws one (the line, end ticks, its length in
metres at the middle) and is selectable; DimensionLayer keeps one item per record of
``design.hall.dimensions``. Lengths are the model's points' distance, shown, not stored."""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style

DIMENSION_INK = "#212529"  # drawing ink: annotations read like the architect's own
TICK_PX = 6.0  # half length of an end tick, on screen
GRAB_M = 0.25  # a click this near the line picks it


def length_words(a, b) -> str:
    return f"{math.dist(a, b):.2f} m"


class DimensionItem(QGraphicsItem):
    """Knows its id and two points; the layer sets them from the record."""

    def __init__(self, object_id: str) -> None:
        super().__init__()
        self.object_id = object_id
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setZValue(40)  # over racks and cables: read on top, like a drawing's dimensions
        self.a = QPointF()
        self.b = QPointF()
        self.text = ""
        self._shape = QPainterPath()

    def set_points(self, a, b) -> None:
        self.prepareGeometryChange()
        self.a, self.b = QPointF(*a), QPointF(*b)
        self.text = length_words(a, b)
        path = QPainterPath(self.a)
        path.lineTo(self.b)
        stroker = QPainterPathStroker()
        stroker.setWidth(2 * GRAB_M)
        self._shape = stroker.createStroke(path)
        self.update()

    def boundingRect(self) -> QRectF:
        # The label and ticks are drawn at screen size: a generous margin in metres holds
        # them at any zoom where they are legible.
        return QRectF(self.a, self.b).normalized().adjusted(-1.5, -1.5, 1.5, 1.5)

    def shape(self) -> QPainterPath:
        return self._shape

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        color = QColor(style.SELECTION if self.isSelected() else DIMENSION_INK)
        pen = QPen(color, 2.0 if self.isSelected() else 1.2)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawLine(QLineF(self.a, self.b))
        lod = option.levelOfDetailFromTransform(painter.worldTransform()) or 1.0
        line = QLineF(self.a, self.b)
        if line.length() == 0:
            return
        normal = line.normalVector().unitVector()
        nx, ny = normal.dx() * TICK_PX / lod, normal.dy() * TICK_PX / lod
        for p in (self.a, self.b):
            painter.drawLine(QPointF(p.x() - nx, p.y() - ny), QPointF(p.x() + nx, p.y() + ny))
        # The length at the middle, upright and at screen size, on a light plate.
        mid = line.center()
        painter.save()
        painter.translate(mid)
        painter.scale(1 / lod, 1 / lod)
        font = QFont(painter.font())
        font.setPointSizeF(8.5)
        painter.setFont(font)
        metrics = painter.fontMetrics()
        w, h = metrics.horizontalAdvance(self.text) + 6, metrics.height()
        plate = QRectF(-w / 2, -h - 2, w, h)
        painter.fillRect(plate, QColor(255, 255, 255, 220))
        painter.drawText(plate, Qt.AlignCenter, self.text)
        painter.restore()


class DimensionLayer:
    """One DimensionItem per dimension line of the design, kept by id."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.items: dict[str, DimensionItem] = {}

    def refresh(self) -> None:
        records = {d.id: d for d in self.scene.design.hall.dimensions}
        for gone in [i for i in self.items if i not in records]:
            item = self.items.pop(gone)
            if item.scene() is not None:
                self.scene.removeItem(item)
        for dim_id, record in records.items():
            item = self.items.get(dim_id)
            if item is None:
                item = self.items[dim_id] = DimensionItem(dim_id)
                self.scene.addItem(item)
            item.set_points(record.a, record.b)
