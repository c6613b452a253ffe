"""Select mode: a selection of several trays and obstacles (with any racks) dragged together by a
tray or obstacle of it. The items are shifted as a preview; at release one undo command moves
every record by the same offset (tiles when racks come along, half tiles otherwise)."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from gui.canvas.interaction import item_at, plain_left_press
from gui.canvas.obstacle_item import ObstacleItem
from gui.canvas.rack_item import RackItem
from gui.canvas.tray_item import TrayItem
from gui.edit.commands import MoveSelectionCommand
from model.design import placement


class GroupMove:
    """The drag of :class:`~gui.canvas.interactions.SelectInteraction` for mixed selections."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self._items: dict[str, tuple[object, QPointF]] | None = None  # id -> (item, start pos)
        self._press = QPointF()
        self._press_screen = None
        self._step_m = 1.0
        self._delta = (0.0, 0.0)
        self._moved = False

    @property
    def dragging(self) -> bool:
        return self._items is not None

    def press(self, event) -> bool:
        """Take a press on a selected tray or obstacle when more than one thing is selected."""
        if not plain_left_press(event):
            return False
        selected = self.scene.selectedItems()
        item = item_at(self.scene, event.scenePos())
        if (
            len(selected) < 2
            or not isinstance(item, (TrayItem, ObstacleItem))
            or not item.isSelected()
        ):
            return False
        movable = [i for i in selected if isinstance(i, (TrayItem, ObstacleItem, RackItem))]
        self._items = {i.object_id: (i, QPointF(i.pos())) for i in movable}
        tile = self.scene.design.hall.tile_m
        with_racks = any(isinstance(i, RackItem) for i in movable)
        self._step_m = self.scene.snap_step(tile if with_racks else tile / 2)
        self._press, self._press_screen = event.scenePos(), event.screenPos()
        self._delta, self._moved = (0.0, 0.0), False
        self.scene.tray_load.pause()
        return True

    def move(self, event) -> bool:
        if self._items is None:
            return False
        if not self._moved:
            travel = (event.screenPos() - self._press_screen).manhattanLength()
            if travel < QApplication.startDragDistance():
                return True
            self._moved = True
        shift = event.scenePos() - self._press
        delta = placement.snap_point(shift.x(), shift.y(), self._step_m)
        if delta != self._delta:
            self._delta = delta
            for item, start in self._items.values():
                item.setPos(start.x() + delta[0], start.y() + delta[1])
            self.scene.message.emit(f"Move by Δx {delta[0]:+.2f} m, Δy {delta[1]:+.2f} m")
        return True

    def release(self, event) -> bool:
        if self._items is None:
            return False
        items, self._items = self._items, None
        self.scene.tray_load.resume()
        dx, dy = self._delta
        if self._moved and (dx or dy):
            self.scene.push(MoveSelectionCommand(self.scene.design, list(items), dx, dy))
        self._put_back(items)
        return True

    def cancel(self) -> None:
        if self._items is not None:
            items, self._items = self._items, None
            self.scene.tray_load.resume()
            self._put_back(items)

    def _put_back(self, items) -> None:
        """Trays and obstacles are drawn from the model's coordinates at their origin; a rack
        item stands at its rack's centre (as the scene placed it after the edit, or before)."""
        design = self.scene.design
        for object_id, (item, start) in items.items():
            if isinstance(item, RackItem):
                rack = design.racks.get(object_id)
                item.setPos(rack.x, rack.y) if rack is not None else item.setPos(start)
            else:
                item.setPos(start)
