"""The input half of the hall scene: mouse and key events forwarded to the active interaction
(one class per mouse mode, see interactions.py), hover tooltips, and catalog drops from the
palette onto the plan. A mixin of :class:`gui.canvas.scene.HallScene`, which holds what these
methods read (the design and plant, the rack items, the interaction, the drop target).
"""

from __future__ import annotations

from PySide6.QtWidgets import QGraphicsSceneMouseEvent, QToolTip

from gui.canvas.link_item import LinkItem
from gui.canvas.rack_item import RackItem
from gui.canvas.trunk_items import TrunkItem

MIME_TYPE = "application/x-hallwright-type"  # a palette entry being dragged: "kind:type id"


class SceneInput:
    """Event handlers of :class:`~gui.canvas.scene.HallScene` (listed before QGraphicsScene
    among its bases, so that these override Qt's and ``super()`` reaches Qt's)."""

    _interaction = None
    drop_target: str | None = None

    # ------------------------------------------------------------------ interactions

    @property
    def interaction(self):
        return self._interaction

    def set_interaction(self, interaction) -> None:
        if self._interaction is not None:
            self._interaction.cancel()
        self._interaction = interaction

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._interaction is not None and self._interaction.press(event):
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._interaction is not None and self._interaction.move(event):
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._interaction is not None and self._interaction.release(event):
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._interaction is not None and self._interaction.double_click(event):
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event) -> None:
        if self._interaction is not None and self._interaction.key_press(event):
            event.accept()
            return
        super().keyPressEvent(event)

    def helpEvent(self, event) -> None:
        """Hover tooltips, built on demand: a rack's contents and power, a link's route, a
        trunk's part and length (from its record in the layout shown)."""
        from gui.canvas.interaction import item_at
        from gui.canvas.tooltips import link_tooltip, rack_tooltip, trunk_tooltip

        item = item_at(self, event.scenePos())
        text = ""
        if isinstance(item, RackItem) and item.object_id in self.design.racks:
            text = rack_tooltip(self.design, self.plant, item.object_id)
        elif isinstance(item, LinkItem) and item.object_id in self.design.links:
            text = link_tooltip(self.design, self.plant, item.object_id)
        elif isinstance(item, TrunkItem):
            trunk = self.trunk_layer.trunk(item.object_id)
            text = trunk_tooltip(trunk) if trunk is not None else ""
        if text:
            QToolTip.showText(event.screenPos(), text)
            event.accept()
        else:
            QToolTip.hideText()
            event.ignore()

    # ------------------------------------------------------------------ drops from the palette

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME_TYPE):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME_TYPE):
            event.acceptProposedAction()
            self._drop_feedback(event)
        else:
            super().dragMoveEvent(event)

    def dragLeaveEvent(self, event) -> None:
        self._set_drop_target(None)
        super().dragLeaveEvent(event)

    def _set_drop_target(self, rack_id: str | None) -> None:
        for object_id, item in self.racks.items():
            item.set_drop_target(object_id == rack_id)
        self.drop_target = rack_id

    def _drop_feedback(self, event) -> None:
        """While a catalog device is dragged: outline the rack it would go into and say which
        U it would take (or why it cannot)."""
        from model.design.placement import free_u

        kind, _, type_id = bytes(event.mimeData().data(MIME_TYPE)).decode().partition(":")
        if kind != "device":
            return
        rack_id = self.rack_at(event.scenePos())
        if rack_id == self.drop_target:
            return
        self._set_drop_target(rack_id)
        if rack_id is None:
            self.message.emit("Drop the device onto a rack")
            return
        dtype = self.design.catalog.device_type(type_id)
        rack = self.design.racks[rack_id]
        u = free_u(self.design, rack_id, dtype.u_height)
        self.message.emit(
            f"Into {rack.name} at U{u}–U{u + dtype.u_height - 1}"
            if u is not None
            else f"{rack.name} has no {dtype.u_height} U free"
        )

    def dropEvent(self, event) -> None:
        if not event.mimeData().hasFormat(MIME_TYPE):
            super().dropEvent(event)
            return
        from gui.canvas.interactions import drop_type

        kind, _, type_id = bytes(event.mimeData().data(MIME_TYPE)).decode().partition(":")
        self._set_drop_target(None)
        drop_type(self, kind, type_id, event.scenePos())
        event.acceptProposedAction()
