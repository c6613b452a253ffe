"""Calibrate Underlay mode: click two points of the building's drawing whose real distance is
known (they snap to its lines), type that distance, and the drawing is rescaled about the first
point. Align Underlay mode: click a point of the drawing, then where it belongs on the plan
(snapped to floor tiles), and the drawing moves there. Each one undo step through the model's
edit API (``Design.set_underlay``)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGraphicsPathItem,
    QLabel,
)

from gui.canvas.interaction import Interaction
from gui.edit.commands import UnderlayCommand
from model.design import placement
from model.design.design import DesignError
from model.design.underlay import calibrated, line_angle_deg, moved_by

CALIBRATE_COLOR = "#e8590c"  # an orange apart from cable, tray, selection and drawing colours


class CalibrateUnderlayInteraction(Interaction):
    """Two clicks, then the distance dialog; Esc leaves."""

    name = "Calibrate underlay"
    hint = (
        "Click two points of the drawing whose distance you know (they snap to its lines), "
        "then type that distance; Esc leaves"
    )

    def __init__(self, scene, on_done=None) -> None:
        super().__init__(scene, on_done)
        self.points: list[tuple[float, float]] = []
        self.dialog: CalibrateDistanceDialog | None = None
        self._line = QGraphicsPathItem()
        pen = QPen(QColor(CALIBRATE_COLOR), 2.0)
        pen.setCosmetic(True)
        self._line.setPen(pen)
        self._line.setZValue(70)
        scene.addItem(self._line)

    def _point(self, pos: QPointF) -> tuple[float, float]:
        on_drawing = self.scene.underlay.snap(pos)
        return on_drawing if on_drawing is not None else (pos.x(), pos.y())

    def press(self, event) -> bool:
        if event.button() != Qt.LeftButton or self.dialog is not None:
            return event.button() == Qt.LeftButton
        if self.scene.design.hall.underlay is None:
            self.scene.message.emit("Import an underlay first (File > Import Underlay)")
            return True
        self.points.append(self._point(event.scenePos()))
        self._draw(self.points)
        if len(self.points) == 2:
            self._ask()
        return True

    def move(self, event) -> bool:
        if len(self.points) == 1 and self.dialog is None:
            self._draw([self.points[0], self._point(event.scenePos())])
        return True

    def release(self, event) -> bool:
        return True

    def _draw(self, points) -> None:
        path = QPainterPath()
        if points:
            path.moveTo(*points[0])
            for p in points[1:]:
                path.lineTo(*p)
        self._line.setPath(path)

    def _ask(self) -> None:
        first, second = self.points
        views = self.scene.views()
        self.dialog = CalibrateDistanceDialog(
            math.dist(first, second), line_angle_deg(first, second), views[0] if views else None
        )
        self.dialog.finished.connect(self._answered)
        self.dialog.open()

    def _answered(self, result: int) -> None:
        dialog, self.dialog = self.dialog, None
        points, self.points = self.points, []
        self._draw([])
        if dialog is not None:
            dialog.deleteLater()
        if dialog is None or result != QDialog.Accepted:
            return
        design = self.scene.design
        try:
            new = calibrated(
                design.hall.underlay, points[0], points[1], dialog.distance_m, dialog.angle_deg
            )
        except DesignError as exc:
            self.scene.message.emit(str(exc))
            return
        factor = new.scale_m / design.hall.underlay.scale_m
        turned = new.rotation_deg - design.hall.underlay.rotation_deg
        if self.scene.push(UnderlayCommand(design, new, "Calibrate underlay")):
            self.scene.message.emit(
                f"Underlay calibrated: {dialog.distance_m:g} m between the two points "
                f"(scaled × {factor:.4g}"
                + (f", turned {turned:+.2f}°)" if abs(turned) >= 0.005 else ")")
            )
            self.on_done()

    def cancel(self) -> None:
        if self.dialog is not None:
            dialog, self.dialog = self.dialog, None
            dialog.finished.disconnect(self._answered)
            dialog.reject()
            dialog.deleteLater()
        self.points = []
        if self._line.scene() is not None:
            self.scene.removeItem(self._line)


class CalibrateDistanceDialog(QDialog):
    """Asks the real distance between the two clicked points (metres)."""

    def __init__(self, measured_m: float, measured_deg: float = 0.0, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Calibrate underlay")
        form = QFormLayout(self)
        form.addRow(
            QLabel(
                f"The two points are {measured_m:.3f} m apart on the plan now.\n"
                "Type their real distance; the drawing is scaled about the first point."
            )
        )
        self.distance = QDoubleSpinBox()
        self.distance.setDecimals(3)
        self.distance.setRange(0.001, 100_000.0)
        self.distance.setSuffix(" m")
        self.distance.setValue(max(measured_m, 0.001))
        self.distance.selectAll()
        form.addRow("Real distance", self.distance)
        # The line's direction: a scan a few degrees askew is squared by the same two clicks.
        # Offered ticked, at the nearest quarter turn, only for a line within 10 degrees of
        # one (a wall); a diagonal line is not turned unless the user asks.
        quarter = round(measured_deg / 90.0) * 90.0
        self.turn = QCheckBox(f"Also turn the drawing (the line runs at {measured_deg:.2f}° now)")
        self.turn.setChecked(abs(measured_deg - quarter) <= 10.0)
        self.angle = QDoubleSpinBox()
        self.angle.setDecimals(2)
        self.angle.setRange(-180.0, 180.0)
        self.angle.setSuffix(" °")
        self.angle.setWrapping(True)
        self.angle.setValue(quarter if quarter > -180.0 else 180.0)
        self.angle.setToolTip("Clockwise from the plan's x axis: 0 east, 90 south")
        self.angle.setEnabled(self.turn.isChecked())
        self.turn.toggled.connect(self.angle.setEnabled)
        form.addRow(self.turn)
        form.addRow("Line direction", self.angle)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.buttons = buttons

    @property
    def distance_m(self) -> float:
        return float(self.distance.value())

    @property
    def angle_deg(self) -> float | None:
        """The direction the line is to run on the plan, or None: not turned."""
        return float(self.angle.value()) if self.turn.isChecked() else None


class AlignUnderlayInteraction(Interaction):
    """Click a point of the drawing (snapped to its lines), then where it belongs on the plan
    (snapped to floor tiles; Shift: no snapping): the drawing moves by the difference."""

    name = "Align underlay"
    hint = (
        "Click a point of the drawing (a wall corner), then where it belongs on the plan "
        "(Shift: no snapping); Esc leaves"
    )

    def __init__(self, scene, on_done=None) -> None:
        super().__init__(scene, on_done)
        self.start: tuple[float, float] | None = None
        self._line = QGraphicsPathItem()
        pen = QPen(QColor(CALIBRATE_COLOR), 2.0, Qt.DashLine)
        pen.setCosmetic(True)
        self._line.setPen(pen)
        self._line.setZValue(70)
        scene.addItem(self._line)

    def _target(self, event) -> tuple[float, float]:
        pos = event.scenePos()
        if event.modifiers() & Qt.ShiftModifier:
            return pos.x(), pos.y()
        step = self.scene.snap_step(self.scene.design.hall.tile_m)
        return placement.snap_point(pos.x(), pos.y(), step)

    def press(self, event) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        underlay = self.scene.design.hall.underlay
        if underlay is None:
            self.scene.message.emit("Import an underlay first (File > Import Underlay)")
            return True
        if self.start is None:
            pos = event.scenePos()
            on_drawing = self.scene.underlay.snap(pos)
            self.start = on_drawing if on_drawing is not None else (pos.x(), pos.y())
            return True
        (x0, y0), (x1, y1) = self.start, self._target(event)
        self.start = None
        self._line.setPath(QPainterPath())
        moved = moved_by(underlay, x1 - x0, y1 - y0)
        if moved != underlay and self.scene.push(
            UnderlayCommand(self.scene.design, moved, "Align underlay")
        ):
            self.scene.message.emit(f"Underlay moved by Δx {x1 - x0:+.3f} m, Δy {y1 - y0:+.3f} m")
            self.on_done()
        return True

    def move(self, event) -> bool:
        if self.start is not None:
            path = QPainterPath()
            path.moveTo(*self.start)
            path.lineTo(*self._target(event))
            self._line.setPath(path)
        return True

    def release(self, event) -> bool:
        return True

    def cancel(self) -> None:
        self.start = None
        if self._line.scene() is not None:
            self.scene.removeItem(self._line)
