"""Mouse modes, one class each (connect and measure live in their own modules). The scene
forwards its mouse and key events to the active one; a handler returns True when it consumed
the event.

Interactions change the design only by pushing undo commands through ``scene.push``. While a
drag is in progress they move items as a preview; the model changes once, at release.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsItem,
    QGraphicsPathItem,
)

from gui import style
from gui.canvas.connect_interaction import ConnectInteraction  # noqa: F401 - the mode list
from gui.canvas.group_move import GroupMove
from gui.canvas.interaction import SELECTION_MODIFIERS, Interaction
from gui.canvas.measure_interaction import MeasureInteraction  # noqa: F401 - the mode list
from gui.canvas.rack_item import RackItem
from gui.canvas.shape_edit import ShapeEdit
from gui.edit.commands import AddObjectsCommand, MoveRacksCommand, RotateRacksCommand
from model.design import placement
from model.design.entities import Tray
from model.design.rack_clashes import clashing_racks
from model.design.rows import name_for_new_rack

EPS = 1e-6


NEW_RACK = "\0new rack"  # the id of the rack about to be placed, in the clash check


class SelectInteraction(Interaction):
    """Click, shift-click and rubber band select; dragging selected racks moves them (snapped to
    floor tiles, collisions shown live, one undo command at release); double-click opens a rack.
    The selected tray, obstacle or outline shows its corners: drag one, double-click a segment to
    add one, double-click one to delete it, drag the tray or obstacle to move it (ShapeEdit)."""

    name = "Select"
    hint = (
        "Click to select, Shift+click to add, drag to move or box-select; corners of a "
        "selected tray, obstacle or wall: drag, double-click an edge to add, a corner to delete"
    )

    def __init__(self, scene, on_done=None) -> None:
        super().__init__(scene, on_done)
        self._drag: dict[str, QPointF] | None = None
        self._anchor: str | None = None
        self._press_screen = None
        self._moved = False
        self._delta = (0.0, 0.0)
        self.shapes = ShapeEdit(scene)
        self.group = GroupMove(scene)  # several trays / obstacles (and racks) dragged together

    def press(self, event) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        if self.shapes.press(event):  # a corner handle, or the selected tray or obstacle
            return True
        if self.group.press(event):  # a tray or obstacle of a larger selection
            return True
        item = self._top_item(event.scenePos())
        if item is None:
            if not event.modifiers() & SELECTION_MODIFIERS:
                self.scene.clearSelection()
            return False  # the view starts a rubber band
        if event.modifiers() & SELECTION_MODIFIERS:
            item.setSelected(not item.isSelected())
            return True
        if not item.isSelected():
            self.scene.clearSelection()
            item.setSelected(True)
        if isinstance(item, RackItem):
            racks = [i for i in self.scene.selectedItems() if isinstance(i, RackItem)]
            self._drag = {i.object_id: QPointF(i.pos()) for i in racks}
            self._anchor = item.object_id
            self._press_scene = event.scenePos()
            self._press_screen = event.screenPos()
            self._moved = False
            self._delta = (0.0, 0.0)
            self.scene.tray_load.pause()  # nothing but the drag competes for the event loop
        else:
            self.shapes.press(event)  # just selected: a tray or obstacle moves in the same drag
        return True

    @property
    def dragging(self) -> bool:
        """Racks, a tray, an obstacle or a corner are held under the pointer (pressed, maybe
        not moved yet)."""
        return self._drag is not None or self.shapes.dragging or self.group.dragging

    def move(self, event) -> bool:
        if self.shapes.move(event) or self.group.move(event):
            return True
        if self._drag is None:
            return False
        if not self._moved:
            if (
                event.screenPos() - self._press_screen
            ).manhattanLength() < QApplication.startDragDistance():
                return True
            self._moved = True
        design = self.scene.design
        anchor = design.racks[self._anchor]
        shift = event.scenePos() - self._press_scene
        sx, sy = placement.snap_rack_centre(
            anchor.x + shift.x(),
            anchor.y + shift.y(),
            anchor.width_m,
            anchor.depth_m,
            anchor.rotation,
            self.scene.snap_step(design.hall.tile_m),
        )
        delta = (sx - anchor.x, sy - anchor.y)
        if delta == self._delta:
            # Snapped to the same tile as the previous event: the racks stand where they stood
            # and the collision check (a spatial query over every rack of the hall) would
            # give the same answer, so this event costs nothing.
            return True
        self._delta = delta
        moving = set(self._drag)
        for rack_id, start in self._drag.items():
            item = self.scene.racks[rack_id]
            item.setPos(start.x() + self._delta[0], start.y() + self._delta[1])
        racks = design.racks
        footprints = {
            r: (
                racks[r].x + self._delta[0],
                racks[r].y + self._delta[1],
                racks[r].width_m,
                racks[r].depth_m,
                racks[r].rotation,
            )
            for r in moving
        }
        red = clashing_racks(design, footprints, moving)  # the analysis's rule, before the edit
        for rack_id in self._drag:
            self.scene.racks[rack_id].set_collision(rack_id in red)
        self.scene.message.emit(f"Move by Δx {self._delta[0]:+.2f} m, Δy {self._delta[1]:+.2f} m")
        return True

    def release(self, event) -> bool:
        if self.shapes.release(event) or self.group.release(event):
            return True
        if self._drag is None:
            return False
        drag, self._drag = self._drag, None
        self.scene.tray_load.resume()
        dx, dy = self._delta
        if self._moved and (abs(dx) > EPS or abs(dy) > EPS):
            design = self.scene.design
            positions = {
                r: (round(design.racks[r].x + dx, 6), round(design.racks[r].y + dy, 6))
                for r in drag
            }
            self.scene.push(MoveRacksCommand(design, positions))
        else:
            self._restore(drag)
        return True

    def double_click(self, event) -> bool:
        if self.shapes.double_click(event):
            return True
        item = self._top_item(event.scenePos())
        if isinstance(item, RackItem):
            self.scene.rack_activated.emit(item.object_id)
            return True
        return False

    def key_press(self, event) -> bool:
        if event.key() == Qt.Key_Escape and self.dragging:
            self.cancel()
            return True
        step = {Qt.Key_Left: (-1, 0), Qt.Key_Right: (1, 0), Qt.Key_Up: (0, -1), Qt.Key_Down: (0, 1)}
        if event.key() in step and self._drag is None:
            racks = [r for r in self.scene.selected_ids() if r in self.scene.design.racks]
            if racks:
                design = self.scene.design
                tile = design.hall.tile_m
                dx, dy = step[event.key()]
                positions = {
                    r: (
                        round(design.racks[r].x + dx * tile, 6),
                        round(design.racks[r].y + dy * tile, 6),
                    )
                    for r in racks
                }
                self.scene.push(MoveRacksCommand(design, positions, mergeable=True))
                return True
        return False

    def cancel(self) -> None:
        self.shapes.cancel()
        self.group.cancel()
        if self._drag is not None:
            self._restore(self._drag)
            self._drag = None
            self.scene.tray_load.resume()

    def _restore(self, drag: dict[str, QPointF]) -> None:
        for rack_id, start in drag.items():
            item = self.scene.racks.get(rack_id)
            if item is not None:
                item.setPos(start)
                item.set_collision(False)


class RotateInteraction(Interaction):
    name = "Rotate"
    hint = "Click a rack to turn it 90° clockwise (the selection turns together); Esc to leave"

    def press(self, event) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        rack_id = self.scene.rack_at(event.scenePos())
        if rack_id is None:
            return True
        selected = [r for r in self.scene.selected_ids() if r in self.scene.design.racks]
        ids = selected if rack_id in selected else [rack_id]
        rotate_racks(self.scene, ids, 90)
        return True


def rotate_racks(scene, ids, degrees: int) -> None:
    design = scene.design
    rotations = {r: (design.racks[r].rotation + degrees) % 360 for r in ids}
    if rotations:
        scene.push(RotateRacksCommand(design, rotations))


class PlaceRackInteraction(Interaction):
    """Click to place racks of one type; a ghost follows the cursor, snapped, red on collision."""

    name = "Place rack"

    def __init__(self, scene, type_id: str, on_done=None) -> None:
        super().__init__(scene, on_done)
        self.type_id = type_id
        rtype = scene.design.catalog.rack_type(type_id)
        self.hint = (
            f"Click to place a {rtype.model} (named by row and position); R turns it; "
            "Shift+click places it over another; Esc to stop placing"
        )
        self.rotation = 0
        self._ghost = RackItem("")
        self._ghost.setOpacity(0.6)
        self._ghost.setZValue(50)
        self._ghost.setFlag(QGraphicsItem.ItemIsSelectable, False)
        self._ghost.setVisible(False)
        scene.addItem(self._ghost)

    def _snapped(self, pos: QPointF) -> tuple[float, float]:
        rtype = self.scene.design.catalog.rack_type(self.type_id)
        return placement.snap_rack_centre(
            pos.x(),
            pos.y(),
            rtype.width_m,
            rtype.depth_m,
            self.rotation,
            self.scene.snap_step(self.scene.design.hall.tile_m),
        )

    def move(self, event) -> bool:
        rtype = self.scene.design.catalog.rack_type(self.type_id)
        x, y = self._snapped(event.scenePos())
        self._ghost.set_geometry(x, y, rtype.width_m, rtype.depth_m, self.rotation)
        self._ghost.setVisible(True)
        footprint = (x, y, rtype.width_m, rtype.depth_m, self.rotation)
        self._ghost.set_collision(
            bool(clashing_racks(self.scene.design, {NEW_RACK: footprint}, {NEW_RACK}))
        )
        return True

    def press(self, event) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        design = self.scene.design
        rtype = design.catalog.rack_type(self.type_id)
        x, y = self._snapped(event.scenePos())
        footprint = (x, y, rtype.width_m, rtype.depth_m, self.rotation)
        forced = bool(event.modifiers() & Qt.ShiftModifier)
        if not forced and clashing_racks(design, {NEW_RACK: footprint}, {NEW_RACK}):
            self.scene.message.emit(
                "Not placed: the rack would overlap a rack or an obstacle, or stand outside the hall "
                "(hold Shift to place it anyway)"
            )
            return True
        rack = placement.new_rack(
            design,
            self.type_id,
            event.scenePos().x(),
            event.scenePos().y(),
            self.rotation,
            name=name_for_new_rack(design, x, y, self.rotation),
            step_m=self.scene.snap_step(design.hall.tile_m),
        )
        if self.scene.push(AddObjectsCommand(design, f"Place rack {rack.name}", racks=[rack])):
            self.scene.select_ids([rack.id])
        return True

    def key_press(self, event) -> bool:
        if event.key() == Qt.Key_R:
            self.rotation = (self.rotation + 90) % 360
            return True
        return super().key_press(event)

    def cancel(self) -> None:
        if self._ghost.scene() is not None:
            self.scene.removeItem(self._ghost)


class DrawTrayInteraction(Interaction):
    """Click to add corners (snapped to half tiles), double-click or Enter to finish."""

    name = "Draw tray"
    length_caption = "Tray length"
    hint = "Click to add tray corners, double-click or Enter to finish, Backspace undoes a corner, Esc cancels"

    def __init__(self, scene, on_done=None) -> None:
        super().__init__(scene, on_done)
        self.points: list[tuple[float, float]] = []
        self._preview = QGraphicsPathItem()
        pen = QPen(QColor(style.SELECTION), 2.0, Qt.DashLine)
        pen.setCosmetic(True)
        self._preview.setPen(pen)
        self._preview.setZValue(60)
        scene.addItem(self._preview)
        self._cursor: tuple[float, float] | None = None

    def _snap(self, pos: QPointF) -> tuple[float, float]:
        on_drawing = self.scene.underlay.snap(pos)  # tracing the building's drawing
        if on_drawing is not None:
            return on_drawing
        return placement.snap_point(
            pos.x(), pos.y(), self.scene.snap_step(self.scene.design.hall.tile_m / 2)
        )

    def press(self, event) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        point = self._snap(event.scenePos())
        if not self.points or self.points[-1] != point:
            self.points.append(point)
        self._update_preview()
        return True

    def move(self, event) -> bool:
        self._cursor = self._snap(event.scenePos())
        self._update_preview()
        if self.points:
            length = sum(
                placement.distance(a, b) for a, b in zip(self.points, self.points[1:], strict=False)
            )
            length += placement.distance(self.points[-1], self._cursor)
            self.scene.message.emit(f"{self.length_caption} {length:.2f} m")
        return True

    def release(self, event) -> bool:
        return True

    def double_click(self, event) -> bool:
        self.finish()
        return True

    def key_press(self, event) -> bool:
        if event.key() in (Qt.Key_Return, Qt.Key_Enter):
            self.finish()
            return True
        if event.key() == Qt.Key_Backspace and self.points:
            self.points.pop()
            self._update_preview()
            return True
        if event.key() == Qt.Key_Escape and self.points:
            self.points = []
            self._update_preview()
            return True
        return super().key_press(event)

    def finish(self) -> None:
        points = self.points
        self.points = []
        self._update_preview()
        if len(points) < 2:
            self.scene.message.emit("A tray needs at least two corners")
            return
        design = self.scene.design
        tray = Tray(id=design.new_id("tray"), points=points)
        if self.scene.push(AddObjectsCommand(design, "Draw tray", trays=[tray])):
            self.scene.select_ids([tray.id])

    def _update_preview(self) -> None:
        path = QPainterPath()
        pts = list(self.points)
        if pts and self._cursor is not None:
            pts.append(self._cursor)
        if pts:
            path.moveTo(*pts[0])
            for p in pts[1:]:
                path.lineTo(*p)
        self._preview.setPath(path)

    def cancel(self) -> None:
        self.points = []
        if self._preview.scene() is not None:
            self.scene.removeItem(self._preview)


class DrawOutlineInteraction(DrawTrayInteraction):
    """Click the corners of the hall's outline (snapped to tiles), double-click or Enter to finish."""

    name = "Draw hall outline"
    length_caption = "Outline so far"
    hint = "Click the hall's corners, double-click or Enter to close the outline, Esc cancels"

    def _snap(self, pos: QPointF) -> tuple[float, float]:
        on_drawing = self.scene.underlay.snap(pos)  # tracing the building's walls
        if on_drawing is not None:
            return on_drawing
        return placement.snap_point(
            pos.x(), pos.y(), self.scene.snap_step(self.scene.design.hall.tile_m)
        )

    def finish(self) -> None:
        points = self.points
        self.points = []
        self._update_preview()
        if len(points) > 3 and points[-1] == points[0]:
            points = points[:-1]
        if len(points) < 3:
            self.scene.message.emit("A hall outline needs at least three corners")
            return
        import msgspec

        from gui.edit.commands import SetHallCommand

        hall = msgspec.structs.replace(self.scene.design.hall, outline=points)
        if self.scene.push(SetHallCommand(self.scene.design, hall, "Draw hall outline")):
            self.on_done()


def drop_type(scene, kind: str, type_id: str, pos: QPointF) -> None:
    """A catalog type dropped on the plan: a rack type places a rack, a device type goes into the
    rack under the cursor at its lowest free U."""
    design = scene.design
    if kind == "rack":
        rack = placement.new_rack(
            design, type_id, pos.x(), pos.y(), step_m=scene.snap_step(design.hall.tile_m)
        )
        if scene.push(AddObjectsCommand(design, f"Place rack {rack.name}", racks=[rack])):
            scene.select_ids([rack.id])
        return
    rack_id = scene.rack_at(pos)
    if rack_id is None:
        scene.message.emit("Drop a device onto a rack (or into its elevation)")
        return
    dtype = design.catalog.device_type(type_id)
    u = placement.free_u(design, rack_id, dtype.u_height)
    if u is None:
        scene.message.emit(f"Rack {design.racks[rack_id].name} has no {dtype.u_height} U free")
        return
    device = placement.new_device(design, type_id, rack_id, u)
    rack_name = design.racks[rack_id].name
    if scene.push(AddObjectsCommand(design, f"Add {device.name} to {rack_name}", devices=[device])):
        top = u + dtype.u_height - 1
        scene.message.emit(f"Added {device.name} to {rack_name} at U{u}–U{top}")
