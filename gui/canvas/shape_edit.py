"""Corner editing in Select mode: drag a corner of the selected tray, obstacle or hall outline
(or an end of the selected dimension line), double-click a segment to insert a corner,
double-click a corner to delete it, drag a selected tray, obstacle or dimension line to move it
whole.

The items show a preview while the button is held; the model changes once, at release, through
one undo command (gui/edit/commands.py), and the routed links follow its change event as they
follow a rack move.
"""

from __future__ import annotations

import math

import msgspec
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from gui.canvas.handles_item import GRAB_PX
from gui.canvas.interaction import item_at, plain_left_press
from gui.canvas.measure_interaction import MEASURE_SNAP_M
from gui.edit.commands import (
    DimensionsCommand,
    JoinTraysCommand,
    MoveObstaclesCommand,
    MoveTraysCommand,
    ObstaclesCommand,
    OutlineCommand,
    SplitTrayCommand,
    TrayPointsCommand,
)
from model.design import placement
from model.plant.tray_products import polyline_length_m

Point = tuple[float, float]


def nearest_corner(points: list[Point], x: float, y: float, reach_m: float) -> int | None:
    best = min(range(len(points)), key=lambda i: math.dist(points[i], (x, y)), default=None)
    if best is None or math.dist(points[best], (x, y)) > reach_m:
        return None
    return best


def nearest_segment(
    points: list[Point], x: float, y: float, reach_m: float, closed: bool
) -> tuple[int, Point] | None:
    """(index the new corner takes, the point on the segment nearest (x, y)) or None."""
    pairs = list(zip(points, points[1:], strict=False))
    if closed:
        pairs.append((points[-1], points[0]))
    found = None
    for i, ((ax, ay), (bx, by)) in enumerate(pairs):
        dx, dy = bx - ax, by - ay
        span = dx * dx + dy * dy
        t = 0.0 if span == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / span))
        px, py = ax + t * dx, ay + t * dy
        d = math.hypot(x - px, y - py)
        if d <= reach_m and (found is None or d < found[0]):
            found = (d, i + 1, (px, py))
    return None if found is None else (found[1], found[2])


def split_entry(scene, tray_ids: list[str], pos: QPointF) -> list:
    """The context menu's "Split Tray Here": on an inner corner of the one tray clicked."""
    from gui.canvas.context_menu import MenuEntry

    tray = scene.design.trays.get(tray_ids[0]) if len(tray_ids) == 1 else None
    if tray is None:
        return []
    reach_m = max(ShapeEdit(scene).reach_m(), tray.width_m / 2)
    corner = nearest_corner(tray.points, pos.x(), pos.y(), reach_m)
    inner = corner is not None and 0 < corner < len(tray.points) - 1
    return [
        MenuEntry(
            "Split Tray Here",
            lambda: scene.push(SplitTrayCommand(scene.design, tray.id, corner)),
            inner,
            "" if inner else "Right-click an inner corner of the tray to cut it in two there",
        )
    ]


def join_entry(scene, tray_ids: list[str]) -> list:
    """The context menu's "Join Trays": two trays selected (the model checks their ends meet)."""
    from gui.canvas.context_menu import MenuEntry

    if len(tray_ids) != 2:
        return []
    order = list(scene.design.trays)  # the tray drawn first keeps its id and direction
    keep, other = sorted(tray_ids, key=order.index)
    return [
        MenuEntry("Join Trays", lambda: scene.push(JoinTraysCommand(scene.design, keep, other)))
    ]


class ShapeEdit:
    """The corner and move drags of :class:`~gui.canvas.interactions.SelectInteraction`."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self._target: tuple[str, str, list[Point]] | None = None
        self._corner: int | None = None  # the corner dragged; None = the whole shape
        self._press: QPointF | None = None
        self._press_screen = None
        self._moved = False
        self._preview: list[Point] | None = None
        self._hovering = False  # the move cursor is shown over a handle

    # ------------------------------------------------------------------ geometry helpers

    def reach_m(self) -> float:
        """GRAB_PX on screen, in metres at the view's zoom."""
        views = self.scene.views()
        scale = abs(views[0].transform().m11()) if views else 1.0
        return GRAB_PX / (scale or 1.0)

    def _step(self, kind: str) -> float:
        tile = self.scene.design.hall.tile_m
        return self.scene.snap_step(tile if kind == "outline" else tile / 2)

    def _snap(self, kind: str, x: float, y: float) -> Point:
        on_drawing = self.scene.underlay.snap(QPointF(x, y))  # a corner onto the drawing
        if on_drawing is not None:
            return on_drawing
        if kind == "dimension":  # as the Draw Dimension mode places its ends
            return placement.snap_point(x, y, MEASURE_SNAP_M)
        return placement.snap_point(x, y, self._step(kind))

    def _name(self, kind: str, object_id: str) -> str:
        design = self.scene.design
        if kind == "tray":
            return f"tray {design.trays[object_id].name or object_id}"
        if kind == "obstacle":
            obstacle = next(o for o in design.hall.obstacles if o.id == object_id)
            return f"obstacle {obstacle.name or object_id}"
        if kind == "dimension":
            return "a dimension line"
        return "the hall outline"

    # ------------------------------------------------------------------ mouse

    @property
    def dragging(self) -> bool:
        return self._target is not None

    def press(self, event) -> bool:
        """Take a press on a corner handle, or on the selected tray or obstacle itself."""
        if not plain_left_press(event):
            return False
        target = self.scene.geometry_target()
        if target is None:
            return False
        kind, object_id, points = target
        pos = event.scenePos()
        corner = nearest_corner(points, pos.x(), pos.y(), self.reach_m())
        if corner is None:
            item = item_at(self.scene, pos)
            if kind == "outline" or item is None or not item.isSelected():
                return False
        self._target, self._corner = target, corner
        self._press, self._press_screen = pos, event.screenPos()
        self._moved = False
        self._preview = None
        self.scene.tray_load.pause()
        return True

    def hover(self, event) -> None:
        """The pointer over a corner handle shows that it can be taken (a move cursor)."""
        target = self.scene.geometry_target()
        pos = event.scenePos()
        over = target is not None and (
            nearest_corner(target[2], pos.x(), pos.y(), self.reach_m()) is not None
        )
        if over == self._hovering or not self.scene.views():
            return
        self._hovering = over
        viewport = self.scene.views()[0].viewport()
        if over:
            viewport.setCursor(Qt.SizeAllCursor)
        else:
            viewport.unsetCursor()

    def move(self, event) -> bool:
        if self._target is None:
            if not event.buttons():
                self.hover(event)
            return False
        if not self._moved:
            travel = (event.screenPos() - self._press_screen).manhattanLength()
            if travel < QApplication.startDragDistance():
                return True
            self._moved = True
        kind, object_id, points = self._target
        pos = event.scenePos()
        if self._corner is not None:
            new = list(points)
            new[self._corner] = self._snap(kind, pos.x(), pos.y())
        else:
            ax, ay = points[0]
            shift = pos - self._press
            sx, sy = self._snap(kind, ax + shift.x(), ay + shift.y())
            new = [(round(x + sx - ax, 6), round(y + sy - ay, 6)) for x, y in points]
        if new == self._preview:
            return True
        self._preview = new
        self._show(kind, object_id, new)
        self.scene.message.emit(self._sentence(kind, points, new))
        return True

    def release(self, event) -> bool:
        if self._target is None:
            return False
        (kind, object_id, points), preview = self._target, self._preview
        moved, corner = self._moved, self._corner
        self._target, self._preview = None, None
        self.scene.tray_load.resume()
        if not moved or preview is None or preview == points:
            self._show(kind, object_id, points)
            return True
        if kind == "dimension":
            words = "Move an end of {}" if corner is not None else "Move {}"
            done = self._reshape(kind, object_id, preview, words)
        elif corner is not None:
            done = self._reshape(kind, object_id, preview, "Move a corner of {}")
        else:
            dx, dy = preview[0][0] - points[0][0], preview[0][1] - points[0][1]
            design = self.scene.design
            command = (
                MoveTraysCommand(design, [object_id], dx, dy)
                if kind == "tray"
                else MoveObstaclesCommand(design, [object_id], dx, dy)
            )
            done = self.scene.push(command)
        if not done:
            self._show(kind, object_id, points)
        return True

    def double_click(self, event) -> bool:
        """On a corner: delete it. On a segment of the shape: insert a corner there."""
        target = self.scene.geometry_target()
        if target is None or event.button() != Qt.LeftButton:
            return False
        kind, object_id, points = target
        if kind == "dimension":  # two ends, always: no corner to insert or delete
            return False
        pos = event.scenePos()
        reach = self.reach_m()
        corner = nearest_corner(points, pos.x(), pos.y(), reach)
        if corner is not None:
            least = 2 if kind == "tray" else 3
            if len(points) <= least:
                self.scene.message.emit(
                    f"Not done: {self._name(kind, object_id)} needs at least {least} corners"
                )
                return True
            new = points[:corner] + points[corner + 1 :]
            self._reshape(kind, object_id, new, "Delete a corner of {}")
            return True
        if kind == "tray":  # anywhere across the band, not only on its centre line
            reach = max(reach, self.scene.design.trays[object_id].width_m / 2)
        hit = nearest_segment(points, pos.x(), pos.y(), reach, closed=kind != "tray")
        if hit is None:
            return False
        index, (x, y) = hit
        point = self._snap(kind, x, y)
        if point in points:
            point = (round(x, 6), round(y, 6))  # the snapped spot is a corner already
        new = [*points[:index], point, *points[index:]]
        self._reshape(kind, object_id, new, "Insert a corner in {}")
        return True

    def cancel(self) -> None:
        if self._target is not None:
            kind, object_id, points = self._target
            self._target, self._preview = None, None
            self.scene.tray_load.resume()
            self._show(kind, object_id, points)

    # ------------------------------------------------------------------ edits and previews

    def _reshape(self, kind: str, object_id: str, points: list[Point], words: str) -> bool:
        design = self.scene.design
        text = words.format(self._name(kind, object_id))
        if kind == "tray":
            return self.scene.push(TrayPointsCommand(design, object_id, points, text))
        if kind == "outline":
            return self.scene.push(OutlineCommand(design, points, text))
        if kind == "dimension":
            (ax, ay), (bx, by) = points
            dimensions = [
                msgspec.structs.replace(d, a=(ax, ay), b=(bx, by)) if d.id == object_id else d
                for d in design.hall.dimensions
            ]
            return self.scene.push(DimensionsCommand(design, dimensions, text))
        obstacles = [
            msgspec.structs.replace(o, polygon=points) if o.id == object_id else o
            for o in design.hall.obstacles
        ]
        return self.scene.push(ObstaclesCommand(design, obstacles, text))

    def _show(self, kind: str, object_id: str, points: list[Point]) -> None:
        """Draw the shape with ``points`` (a preview, or the model's own to put it back)."""
        scene = self.scene
        if kind == "tray":
            tray = scene.design.trays.get(object_id)
            item = scene.trays.get(object_id)
            if tray is not None and item is not None:
                item.set_path(points, tray.width_m)
        elif kind == "obstacle":
            item = scene.obstacles.get(object_id)
            if item is not None:
                item.set_polygon(points, item.kind)
        elif kind == "dimension":
            item = scene.dimension_layer.items.get(object_id)
            if item is not None:
                item.set_points(*points)
        else:
            scene.hall_item.set_floor(points, scene.design.hall.tile_m)
        scene.update_handles(points)

    def _sentence(self, kind: str, old: list[Point], new: list[Point]) -> str:
        if self._corner is not None:
            x, y = new[self._corner]
            where = f"Corner at x {x:.2f} m, y {y:.2f} m"
        else:
            dx, dy = new[0][0] - old[0][0], new[0][1] - old[0][1]
            where = f"Move by Δx {dx:+.2f} m, Δy {dy:+.2f} m"
        if kind == "dimension":
            return f"{where}; {math.dist(*new):.2f} m (was {math.dist(*old):.2f} m)"
        if kind != "tray":
            return where
        before, after = polyline_length_m(old), polyline_length_m(new)
        return f"{where}; tray {after:.2f} m ({after - before:+.2f} m)"
