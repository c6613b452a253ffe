"""The base of the mouse modes: a mode consumes nothing unless it overrides a handler; the scene
forwards its mouse and key events to the active one (handlers return True when they consumed it)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import (
    QGraphicsSceneMouseEvent,
)

from gui.canvas.dimension_item import DimensionItem
from gui.canvas.hall_item import HallItem
from gui.canvas.link_item import LinkItem
from gui.canvas.obstacle_item import ObstacleItem
from gui.canvas.rack_item import RackItem
from gui.canvas.tray_item import TrayItem


class Interaction:
    """Base mouse mode: consumes nothing. ``name`` and ``hint`` feed the status bar."""

    name = "Select"
    hint = ""

    def __init__(self, scene, on_done=None) -> None:
        self.scene = scene
        self.on_done = on_done or (lambda: None)

    def press(self, event: QGraphicsSceneMouseEvent) -> bool:
        return False

    def move(self, event: QGraphicsSceneMouseEvent) -> bool:
        return False

    def release(self, event: QGraphicsSceneMouseEvent) -> bool:
        return False

    def double_click(self, event: QGraphicsSceneMouseEvent) -> bool:
        return False

    def key_press(self, event) -> bool:
        if event.key() == Qt.Key_Escape:
            self.cancel()
            self.on_done()
            return True
        return False

    def cancel(self) -> None:
        """Abandon whatever is in progress and remove preview items."""

    def _top_item(self, pos: QPointF):
        return item_at(self.scene, pos)


# Shift and Ctrl add to or toggle the selection: a press with either is the rubber band's or
# the selection's, never a drag's.
SELECTION_MODIFIERS = Qt.ShiftModifier | Qt.ControlModifier


def plain_left_press(event) -> bool:
    """A left press with neither selection modifier: what starts a drag of a shape or group."""
    return event.button() == Qt.LeftButton and not event.modifiers() & SELECTION_MODIFIERS


def item_at(scene, pos: QPointF):
    """The object a click at ``pos`` means: what is drawn on top there, except that inside a
    rack's footprint the rack wins over the cables drawn on top of it (its own drops): a cable
    is picked along its run, or in the links table, never where it only enters a rack.

    Off the racks, in drawing order: a drawn link (z 20; the links of the selection, drawn
    over everything else of the cabling), then a trunk (z 15; the trunk layer finds it along
    its route and makes its item then), then a tray (z -10), an obstacle (z -50) and the hall
    outline's edge (z -100). So a click on a link drawn along
    a trunk picks the link, as the eye sees it on top; the trunk is picked where no drawn link
    covers it (or from the inspector's channel view)."""
    hits = [
        i
        for i in scene.items(pos)
        if isinstance(i, (RackItem, TrayItem, LinkItem, ObstacleItem, HallItem, DimensionItem))
    ]
    if hits and isinstance(hits[0], DimensionItem):  # drawn over everything: picked on top
        return hits[0]
    if hits and isinstance(hits[0], (RackItem, LinkItem)):  # a rack, or a link over the plan
        return next((i for i in hits if isinstance(i, RackItem)), hits[0])
    trunk = scene.trunk_layer.item_at(pos)
    if trunk is not None:
        return trunk
    return hits[0] if hits else None
