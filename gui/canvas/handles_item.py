"""HandlesItem: the corner handles of the one tray, obstacle or outline being edited."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style

HANDLE_PX = 9.0  # side of a handle on screen, whatever the zoom
GRAB_PX = 8.0  # how near a press must be to a handle or a segment to take it


class HandlesItem(QGraphicsItem):
    """Squares of a fixed screen size at given scene points; knows nothing of the model."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(80)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.points: list[tuple[float, float]] = []
        self._rect = QRectF()

    def set_points(self, points) -> None:
        self.prepareGeometryChange()
        self.points = [(float(x), float(y)) for x, y in points]
        if self.points:
            xs = [p[0] for p in self.points]
            ys = [p[1] for p in self.points]
            # Generous margin in metres: the squares are drawn in pixels around each point.
            self._rect = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)).adjusted(
                -2, -2, 2, 2
            )
        else:
            self._rect = QRectF()
        self.setVisible(bool(self.points))
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        scale = painter.worldTransform().m11() or 1.0
        half = HANDLE_PX / 2 / abs(scale)
        pen = QPen(QColor(style.SELECTION), 1.5)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(QColor("white"))
        for x, y in self.points:
            painter.drawRect(QRectF(QPointF(x - half, y - half), QPointF(x + half, y + half)))
