"""Draw Dimension mode: click two points (snapped to the drawing's lines, else to 5 cm; Shift:
no snapping) and a dimension line with its length stays on the plan: one undo step through the
model's edit API (``Design.set_dimensions``)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from gui.canvas.measure_interaction import MEASURE_SNAP_M, MeasureInteraction
from gui.edit.commands import DimensionsCommand
from model.design import placement
from model.design.entities import Dimension


class DrawDimensionInteraction(MeasureInteraction):
    """Measure's two clicks and live distance, kept as a dimension line at the second click."""

    name = "Draw dimension"
    hint = (
        "Click two points to draw a dimension line (they snap to the drawing's lines; "
        "Shift: no snapping); Esc to leave"
    )

    def _point(self, event) -> QPointF:
        pos = event.scenePos()
        if event.modifiers() & Qt.ShiftModifier:
            return pos
        on_drawing = self.scene.underlay.snap(pos)
        if on_drawing is not None:
            return QPointF(*on_drawing)
        return QPointF(*placement.snap_point(pos.x(), pos.y(), MEASURE_SNAP_M))

    def press(self, event) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        if self.start is None:
            self.start = self._point(event)
            return True
        end = self._point(event)
        start, self.start = self.start, None
        self._line.setPath(type(self._line.path())())
        self._label.setText("")
        a = (round(start.x(), 6), round(start.y(), 6))
        b = (round(end.x(), 6), round(end.y(), 6))
        if a == b:
            self.scene.message.emit("A dimension line needs two different points")
            return True
        design = self.scene.design
        dimension = Dimension(id=design.new_id("dim"), a=a, b=b)
        command = DimensionsCommand(design, [*design.hall.dimensions, dimension], "Draw dimension")
        if self.scene.push(command):
            self.scene.select_ids([dimension.id])
        return True
