"""Measure mode: straight, floor (Manhattan) and along-the-trays distances between two points."""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsSimpleTextItem,
)

from gui.canvas.interaction import Interaction
from model.design import placement

MEASURE_SNAP_M = 0.05


class MeasureInteraction(Interaction):
    """Click two points (snapped to 5 cm; hold Shift for no snap): straight distance, floor
    (Manhattan) distance, and the distance along trays when the engine offers it."""

    name = "Measure"
    hint = "Click two points to measure (Shift: no snapping); Esc to leave"

    def _point(self, event) -> QPointF:
        pos = event.scenePos()
        if event.modifiers() & Qt.ShiftModifier:
            return pos
        return QPointF(*placement.snap_point(pos.x(), pos.y(), MEASURE_SNAP_M))

    def __init__(self, scene, on_done=None) -> None:
        super().__init__(scene, on_done)
        self.start: QPointF | None = None
        self._line = QGraphicsPathItem()
        pen = QPen(QColor("#c2255c"), 2.0)
        pen.setCosmetic(True)
        self._line.setPen(pen)
        self._line.setZValue(70)
        self._label = QGraphicsSimpleTextItem()
        self._label.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
        self._label.setBrush(QColor("#c2255c"))
        self._label.setZValue(71)
        scene.addItem(self._line)
        scene.addItem(self._label)
        self.last: str = ""

    def press(self, event) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        if self.start is None:
            self.start = self._point(event)
        else:
            self._show(self._point(event))
            self.start = None
        return True

    def move(self, event) -> bool:
        if self.start is not None:
            self._show(self._point(event))
        return True

    def release(self, event) -> bool:
        return True

    def _show(self, end: QPointF) -> None:
        a, b = self.start, end
        path = QPainterPath(a)
        path.lineTo(b)
        self._line.setPath(path)
        straight = QLineF(a, b).length()
        manhattan = abs(a.x() - b.x()) + abs(a.y() - b.y())
        self.last = f"Straight {straight:.2f} m · along the floor grid {manhattan:.2f} m"
        trays = tray_distance(self.scene, (a.x(), a.y()), (b.x(), b.y()))
        if trays is not None:
            self.last += f" · along trays {trays:.2f} m"
        self._label.setText(self.last)
        self._label.setPos(b)
        self.scene.message.emit(self.last)

    def cancel(self) -> None:
        for item in (self._line, self._label):
            if item.scene() is not None:
                self.scene.removeItem(item)


def tray_distance(scene, a, b) -> float | None:
    """Distance along the trays from the scene's cable plant (None when the trays do not join
    the points)."""
    if not scene.design.trays:
        return None
    scene.feed.ensure_fresh()  # through the feed, so every consumer hears what changed
    return scene.plant.tray_distance(a, b)
