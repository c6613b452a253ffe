"""RackField: one item that paints every rack of the scene in a single paint call.

A RackItem per rack stays the model-to-item map's rack: it is what selection, hit tests,
tooltips and drags work on. But a whole-hall repaint at XL (4,544 racks) called 4,544 Python
``paint`` methods, ~15 µs each through the binding: ~80 ms against ~15 ms for Qt alone to fill
the same rectangles. So the scene's racks carry ``ItemHasNoContents`` (Qt never calls their
``paint``) and this item draws them, in their stacking order, from one Python call:

- a rack a few pixels wide (the far level of detail RackItem draws as one filled rectangle) is
  one ``fillRect`` of its footprint, kept in scene coordinates;
- a nearer rack is drawn by its own ``RackItem.paint_body`` under its scene transform, exactly as
  it drew itself.

A rack tells the field when it moved, turned, or changed what it shows (``rack_changed``); the
field repaints the rack's old and new bounds only. Its own bounds only grow (with room to
spare), as the row labels' do, so a move never repaints the whole hall.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

BOUNDS_SPARE_M = 5.0  # grown bounds: a rack moved just past them does not repaint the hall


class RackField(QGraphicsItem):
    """Paints the racks registered with ``add``; z 0, as the racks themselves."""

    def __init__(self, on_change=None) -> None:
        """``on_change()``: called after any rack was added, removed or repainted."""
        super().__init__()
        self._on_change = on_change or (lambda: None)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)
        self.setAcceptedMouseButtons(Qt.NoButton)
        # item -> (scene bounds, scene footprint and front strip, or None when the rack is not
        # axis-aligned); dict order is the racks' insertion order, their stacking order among
        # themselves (all at z 0).
        self._racks: dict[QGraphicsItem, tuple[QRectF, tuple[QRectF, QRectF] | None]] = {}
        self._rect = QRectF()

    def add(self, item) -> None:
        self._racks[item] = self._place(item)
        self._grow(self._racks[item][0])
        self.update(self._racks[item][0])
        self._on_change()

    def remove(self, item) -> None:
        placed = self._racks.pop(item, None)
        if placed is not None:
            self.update(placed[0])
            self._on_change()

    def rack_changed(self, item) -> None:
        """``item`` moved, turned or looks different: repaint where it was and where it is."""
        old = self._racks.get(item)
        if old is None:
            return
        new = self._place(item)
        self._racks[item] = new
        self.update(old[0])
        if new[0] != old[0]:
            self._grow(new[0])
            self.update(new[0])
        self._on_change()

    @staticmethod
    def _place(item) -> tuple[QRectF, tuple[QRectF, QRectF] | None]:
        transform = item.sceneTransform()
        rects = None
        if item.rotation() % 90 == 0:  # axis-aligned: footprint and strip are scene rectangles
            rects = (transform.mapRect(item.footprint()), transform.mapRect(item.front()))
        return transform.mapRect(item.boundingRect()), rects

    def _grow(self, rect: QRectF) -> None:
        if self._rect.contains(rect):
            return
        self.prepareGeometryChange()
        grown = rect.united(self._rect) if self._rect.isValid() else rect
        m = BOUNDS_SPARE_M
        self._rect = grown.adjusted(-m, -m, m, m)

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        # Never hit: clicks, tooltips and rubber bands between racks reach the trays, bundles
        # and floor under it, and a click on a rack reaches the RackItem, as before.
        return QPainterPath()

    def contains(self, _point) -> bool:
        return False

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        base = painter.worldTransform()
        lod = option.levelOfDetailFromTransform(base)
        exposed = option.exposedRect
        painter.save()
        opacity = painter.opacity()
        current = opacity
        for item, (bounds, rects) in self._racks.items():
            if not bounds.intersects(exposed) or not item.isVisible():
                continue
            alpha = opacity * item.opacity()
            if alpha != current:
                painter.setOpacity(alpha)
                current = alpha
            if rects is not None:
                if item.is_far(lod):
                    painter.fillRect(rects[0], item.far_fill())
                    continue
                if not item.shows_label(lod):  # RackItem.paint_body's drawing, in the scene
                    pen, fill = item.look()
                    painter.setPen(pen)
                    painter.setBrush(fill)
                    painter.drawRect(rects[0])
                    painter.fillRect(rects[1], item.front_color())
                    continue
            painter.save()
            painter.setWorldTransform(item.sceneTransform() * base)
            item.paint_body(painter, lod)
            painter.restore()
        painter.restore()
