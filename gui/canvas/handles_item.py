"""HandlesItem: the corner handles of the one tray, obstacle or outline being edited."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from gui import style

HANDLE_PX = 9.0  # side of a handle on screen, whatever the zoom
GRAB_PX = 8.0  # how near a press must be to a handle or a segment to take it

_PEN = QPen(QColor(style.SELECTION), 1.5)
_PEN.setCosmetic(True)


class HandlesItem(QGraphicsItem):
    """Squares of a fixed screen size at given scene points; knows nothing of the model.

    Each square is a child that ignores the view's scale (so it keeps its pixel size at any
    zoom, and its bounds are right at any zoom: a square drawn in pixels by this item itself
    would need bounds in metres it cannot know)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(80)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setFlag(QGraphicsItem.ItemHasNoContents, True)
        self.points: list[tuple[float, float]] = []
        self._squares: list[QGraphicsRectItem] = []

    def set_points(self, points) -> None:
        self.points = [(float(x), float(y)) for x, y in points]
        while len(self._squares) < len(self.points):
            half = HANDLE_PX / 2
            square = QGraphicsRectItem(QRectF(-half, -half, HANDLE_PX, HANDLE_PX), self)
            square.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
            square.setAcceptedMouseButtons(Qt.NoButton)
            square.setPen(_PEN)
            square.setBrush(QColor("white"))
            self._squares.append(square)
        for square, (x, y) in zip(self._squares, self.points, strict=False):
            square.setPos(x, y)
            square.setVisible(True)
        for square in self._squares[len(self.points) :]:
            square.setVisible(False)
        self.setVisible(bool(self.points))

    def boundingRect(self) -> QRectF:
        return QRectF()

    def paint(self, painter, option, widget=None) -> None:
        """Nothing of its own: the squares are its children."""
