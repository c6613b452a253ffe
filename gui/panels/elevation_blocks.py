"""DeviceBlockItem: one device in a rack elevation, drawn from the face being viewed.

A device whose ports are on the face shown gets a strip of port marks along its bottom edge —
filled where a cable is plugged in, hollow where the port is free — and its label says so; a
device whose ports are on the other face is drawn faded with "ports at the rear" (or front).
Which face a type's ports are on and which ports are cabled come from the model
(``DeviceType.ports_face``, :func:`model.design.port_map.port_rows`); this module only draws them.

Choice: the port marks run in the model's port order from the viewer's left on the port face.
The catalog gives no port positions across the face, so the strip shows order and use, not
where each cage sits on the faceplate.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from gui import style

PORT_STRIP_PX = 5.0  # height of the port marks along a block's bottom edge
OTHER_FACE_ALPHA = 110
LABEL_SCREEN_PX = 11.0  # a device's name, in screen pixels  # fill of a device seen from the side its ports are not on


class DeviceBlockItem(QGraphicsRectItem):
    """``ports_used`` is one bool per port (cabled or free), in port order; ``ports_here`` says
    whether the ports are on the face being viewed; ``align`` is where the label sits (right
    in the rear view, which is mirrored)."""

    def __init__(
        self,
        object_id: str,
        rect: QRectF,
        label: str,
        fill: QColor,
        *,
        ports_used: list[bool],
        ports_here: bool,
        align=Qt.AlignLeft,
        port_words: list[str] | None = None,
    ) -> None:
        super().__init__(rect)
        self.object_id = object_id
        self.label = label
        self.ports_used = ports_used
        # One sentence per port mark ("nic3 → leaf1:p3 in N1"), shown as the mark's tooltip:
        # the strip has no room for names, the pointer names each one.
        self.port_words = port_words or []
        self._device_tip: str | None = None
        self.setAcceptHoverEvents(bool(self.port_words) and ports_here)
        self.ports_here = ports_here
        self.align = align
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        if not ports_here:
            fill = QColor(fill)
            fill.setAlpha(OTHER_FACE_ALPHA)
        self.setBrush(fill)
        self.setZValue(5)
        self._font = QFont("Sans Serif")
        self._font.setPixelSize(11)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        rect = self.rect()
        selected = self.isSelected()
        painter.setPen(
            QPen(QColor(style.SELECTION if selected else style.RACK_EDGE), 3 if selected else 1)
        )
        painter.setBrush(self.brush())
        painter.drawRect(rect)
        strip = self.ports_here and bool(self.ports_used)
        text_rect = rect.adjusted(6, 1, -6, -(PORT_STRIP_PX + 1) if strip else -1)
        # The name at LABEL_SCREEN_PX on screen whatever the view's scale (a 48 U rack is
        # drawn at ~0.65 to fit its dock), a little smaller only where the block is shorter.
        scale = max(abs(painter.worldTransform().m22()), 1e-6)
        room_px = text_rect.height() * scale + 2
        self._font.setPixelSize(max(1, round(max(8.0, min(LABEL_SCREEN_PX, room_px)) / scale)))
        painter.setFont(self._font)
        painter.setPen(QColor("#111" if self.ports_here else "#555"))
        text = painter.fontMetrics().elidedText(self.label, Qt.ElideMiddle, int(text_rect.width()))
        painter.drawText(text_rect, self.align | Qt.AlignVCenter, text)
        if strip:
            self._paint_ports(painter, rect)

    def port_at(self, pos: QPointF) -> int | None:
        """The port whose mark is under ``pos`` (item coordinates): along the strip, in the
        block's lower half (the strip itself is a few pixels tall at a fitted scale)."""
        rect = self.rect()
        n = len(self.ports_used)
        if not (self.ports_here and n and len(self.port_words) == n):
            return None
        left, width = rect.left() + 4, rect.width() - 8
        if not (rect.center().y() <= pos.y() <= rect.bottom() and left <= pos.x() < left + width):
            return None
        return min(n - 1, int((pos.x() - left) / (width / n)))

    def hoverMoveEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if self._device_tip is None:
            self._device_tip = self.toolTip()
        port = self.port_at(event.pos())
        self.setToolTip(self._device_tip if port is None else self.port_words[port])
        super().hoverMoveEvent(event)

    def _paint_ports(self, painter: QPainter, rect: QRectF) -> None:
        n = len(self.ports_used)
        left, width = rect.left() + 4, rect.width() - 8
        pitch = width / n
        mark = max(1.0, min(PORT_STRIP_PX, pitch * 0.7))
        top = rect.bottom() - PORT_STRIP_PX - 1
        painter.setPen(QPen(QColor(style.RACK_EDGE), 0.6))
        for i, used in enumerate(self.ports_used):
            painter.setBrush(QColor(style.RACK_EDGE) if used else QColor("#ffffff"))
            painter.drawRect(
                QRectF(left + i * pitch + (pitch - mark) / 2, top, mark, PORT_STRIP_PX)
            )
