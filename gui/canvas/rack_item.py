"""RackItem: a rack footprint with its front marker and name; dumb, driven by setters."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style

FRONT_FRACTION = 0.12  # depth share of the strip that marks the front (the cold aisle side)
LABEL_MIN_PX = 16.0


class RackItem(QGraphicsItem):
    """Position = footprint centre (metres); rotation clockwise as in the model."""

    def __init__(self, object_id: str) -> None:
        super().__init__()
        self.object_id = object_id
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self._rect = QRectF(-0.3, -0.6, 0.6, 1.2)
        # Kept, not derived per paint: the whole hall paints thousands of racks, and building
        # a QRectF and a QColor in each paint call was a third of the repaint.
        self._bounds = self._rect.adjusted(-0.02, -0.02, 0.02, 0.02)
        self._label = ""
        self._fill = QColor(style.ROLE_COLORS["empty"])
        self._far_fill = self._fill.darker(115)  # the one rectangle painted when a rack is tiny
        self._selected_fill = QColor(style.SELECTION)
        self._collision = False
        self._drop_target = False  # a catalog device is being dragged over this rack
        self._font = QFont("Sans Serif")
        self._font.setPixelSize(12)

    def set_geometry(
        self, x: float, y: float, width_m: float, depth_m: float, rotation: int
    ) -> None:
        rect = QRectF(-width_m / 2, -depth_m / 2, width_m, depth_m)
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
            self._bounds = rect.adjusted(-0.02, -0.02, 0.02, 0.02)
        self.setPos(x, y)
        self.setRotation(rotation)

    def set_label(self, text: str) -> None:
        if text != self._label:
            self._label = text
            self.update()

    def set_fill(self, fill: QColor) -> None:
        if fill != self._fill:
            self._fill = fill
            self._far_fill = fill.darker(115)
            self.update()

    def set_collision(self, on: bool) -> None:
        if on != self._collision:
            self._collision = on
            self.update()

    def set_drop_target(self, on: bool) -> None:
        if on != self._drop_target:
            self._drop_target = on
            self.update()

    def footprint(self) -> QRectF:
        return self._rect

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        r = self._rect
        if lod * r.width() < 3:  # a few pixels: one filled rectangle is all the eye can see
            painter.fillRect(r, self._selected_fill if self.isSelected() else self._far_fill)
            return
        edge_color = (
            QColor(style.DROP_TARGET)
            if self._drop_target
            else QColor(style.COLLISION)
            if self._collision
            else QColor(style.SELECTION)
            if self.isSelected()
            else QColor(style.RACK_EDGE)
        )
        pen = QPen(
            edge_color,
            4.0 if self._drop_target else 2.5 if (self._collision or self.isSelected()) else 1.0,
        )
        pen.setCosmetic(True)
        painter.setPen(pen)
        fill = QColor(self._fill)
        if self._collision:
            fill = QColor("#ffc9c9")
        painter.setBrush(fill)
        painter.drawRect(r)
        front = QRectF(r.left(), r.top(), r.width(), r.height() * FRONT_FRACTION)
        painter.fillRect(front, QColor(style.FRONT_MARK))
        if self._label and lod * min(r.width(), r.height()) >= LABEL_MIN_PX:
            self._paint_label(painter, lod)

    def _paint_label(self, painter: QPainter, lod: float) -> None:
        r = self._rect
        painter.save()
        # The label sits just behind the front strip, clear of the cable drops at the centre,
        # and stays upright whatever the rack's rotation.
        anchor = QTransform().rotate(self.rotation()).map(QPointF(0, r.top() + r.height() * 0.3))
        painter.rotate(-self.rotation())
        across = r.width() if self.rotation() in (0, 180) else r.height()
        size_m = min(across * 0.3, 13.0 / lod)
        scale = size_m / 12.0
        painter.translate(anchor)
        painter.scale(scale, scale)
        box = QRectF(-across / 2 / scale, -size_m / scale, across / scale, 2 * size_m / scale)
        painter.setFont(self._font)
        painter.setPen(QColor("#111"))
        painter.drawText(box, Qt.AlignCenter | Qt.TextWrapAnywhere, self._label)
        painter.restore()
