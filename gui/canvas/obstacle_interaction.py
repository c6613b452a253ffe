"""Draw Obstacle mode: drag a rectangle, or click the corners of a polygon (double-click or Enter
to close it); K changes the kind drawn (column, CRAH/CDU unit, keep-out zone, other). Each
obstacle drawn is one undo step through the model's edit API (``Design.set_obstacles``)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from gui.canvas.interactions import DrawTrayInteraction
from gui.edit.commands import ObstaclesCommand
from model.design.entities import Obstacle

# The kinds of Obstacle.kind in the order K cycles them, with the words the user reads.
KINDS = (
    ("column", "column"),
    ("crac", "CRAH/CDU unit"),
    ("keep-out", "keep-out zone"),
    ("other", "other obstacle"),
)


def kind_words(kind: str) -> str:
    return dict(KINDS).get(kind, kind)


class DrawObstacleInteraction(DrawTrayInteraction):
    """Rectangle by dragging, polygon by clicking; corners snap to half tiles."""

    name = "Draw obstacle"
    length_caption = "Edges so far"

    def __init__(self, scene, on_done=None) -> None:
        super().__init__(scene, on_done)
        self.kind = "column"
        self._press_screen = None
        self._rectangle = False  # the button is held and dragged from the first corner

    @property
    def hint(self) -> str:  # the status bar names the kind that will be drawn
        return (
            f"Drawing a {kind_words(self.kind)}: drag a rectangle, or click corners and "
            "double-click or Enter to close; K changes the kind; Esc cancels"
        )

    def press(self, event) -> bool:
        if event.button() == Qt.LeftButton:
            self._press_screen = event.screenPos()
            self._rectangle = False
        return super().press(event)

    def move(self, event) -> bool:
        held = event.buttons() & Qt.LeftButton and self._press_screen is not None
        if held and len(self.points) == 1:
            travel = (event.screenPos() - self._press_screen).manhattanLength()
            if self._rectangle or travel >= QApplication.startDragDistance():
                self._rectangle = True
                self._cursor = self._snap(event.scenePos())
                corners = self._rectangle_corners(self.points[0], self._cursor)
                self._preview_polygon(corners)
                (x0, y0), (x1, y1) = self.points[0], self._cursor
                self.scene.message.emit(f"{abs(x1 - x0):.2f} m × {abs(y1 - y0):.2f} m")
                return True
        return super().move(event)

    def release(self, event) -> bool:
        self._press_screen = None
        if self._rectangle and event.button() == Qt.LeftButton:
            self._rectangle = False
            start, end = self.points[0], self._snap(event.scenePos())
            self.points = []
            self._update_preview()
            if start[0] == end[0] or start[1] == end[1]:
                self.scene.message.emit("An obstacle needs an area: drag across a tile or more")
                return True
            self._add(self._rectangle_corners(start, end))
        return True

    def key_press(self, event) -> bool:
        if event.key() == Qt.Key_K:
            names = [k for k, _w in KINDS]
            self.kind = names[(names.index(self.kind) + 1) % len(names)]
            self.scene.message.emit(self.hint)
            return True
        return super().key_press(event)

    def finish(self) -> None:
        points = self.points
        self.points = []
        self._update_preview()
        if len(points) > 3 and points[-1] == points[0]:
            points = points[:-1]
        if len(points) < 3:
            self.scene.message.emit(
                "An obstacle needs at least three corners (or drag a rectangle)"
            )
            return
        self._add(points)

    @staticmethod
    def _rectangle_corners(a, b) -> list[tuple[float, float]]:
        (x0, y0), (x1, y1) = a, b
        left, right, top, bottom = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
        return [(left, top), (right, top), (right, bottom), (left, bottom)]

    def _preview_polygon(self, corners) -> None:
        from PySide6.QtGui import QPainterPath

        path = QPainterPath()
        path.moveTo(*corners[0])
        for p in corners[1:]:
            path.lineTo(*p)
        path.closeSubpath()
        self._preview.setPath(path)

    def _add(self, corners: list[tuple[float, float]]) -> None:
        design = self.scene.design
        obstacle = Obstacle(id=design.new_id("obstacle"), polygon=corners, kind=self.kind)
        obstacles = [*design.hall.obstacles, obstacle]
        text = f"Draw {kind_words(self.kind)}"
        if self.scene.push(ObstaclesCommand(design, obstacles, text)):
            self.scene.select_ids([obstacle.id])
