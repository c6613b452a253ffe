"""Small dialogs: a new hall's size, and the hall's properties (an undoable SetHallCommand)."""

from __future__ import annotations

import msgspec
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
)

from gui.commands import SetHallCommand
from gui.document import empty_design
from model.design import Design


def _spin(value: float, lo: float, hi: float, suffix: str = " m", step: float = 0.6) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(lo, hi)
    spin.setDecimals(2)
    spin.setSingleStep(step)
    spin.setSuffix(suffix)
    spin.setValue(value)
    return spin


def _buttons(dialog: QDialog) -> QDialogButtonBox:
    box = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
    box.accepted.connect(dialog.accept)
    box.rejected.connect(dialog.reject)
    return box


class NewHallDialog(QDialog):
    """Name and rectangular size of a new, empty hall."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New hall")
        self.name = QLineEdit("Untitled hall")
        self.width = _spin(24.0, 1.2, 2000)
        self.depth = _spin(18.0, 1.2, 2000)
        self.tile = _spin(0.6, 0.1, 5, step=0.1)
        form = QFormLayout(self)
        form.addRow("Name", self.name)
        form.addRow("Width (x)", self.width)
        form.addRow("Depth (y)", self.depth)
        form.addRow("Floor tile", self.tile)
        form.addRow(_buttons(self))

    def design(self) -> Design:
        return empty_design(self.width.value(), self.depth.value(), self.tile.value(),
                            self.name.text().strip() or "Untitled hall")


class HallDialog(QDialog):
    """Edit a hall: rectangular size (when it is a rectangle), tile, tray height, raised floor."""

    def __init__(self, design: Design, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Hall properties")
        self.design = design
        hall = design.hall
        xs = [p[0] for p in hall.outline]
        ys = [p[1] for p in hall.outline]
        self.rectangular = len(hall.outline) == 4 and len(set(xs)) == 2 and len(set(ys)) == 2
        self.width = _spin(max(xs) - min(xs), 1.2, 2000)
        self.depth = _spin(max(ys) - min(ys), 1.2, 2000)
        self.width.setEnabled(self.rectangular)
        self.depth.setEnabled(self.rectangular)
        self.tile = _spin(hall.tile_m, 0.1, 5, step=0.1)
        self.tray = _spin(hall.tray_elevation_m, 0.1, 20, step=0.1)
        self.raised = QCheckBox("Raised floor")
        self.raised.setChecked(hall.raised_floor)
        form = QFormLayout(self)
        form.addRow("Width (x)", self.width)
        form.addRow("Depth (y)", self.depth)
        form.addRow("Floor tile", self.tile)
        form.addRow("Tray elevation", self.tray)
        form.addRow("", self.raised)
        form.addRow(_buttons(self))

    def command(self) -> SetHallCommand | None:
        hall = self.design.hall
        outline = hall.outline
        if self.rectangular:
            x0 = min(p[0] for p in outline)
            y0 = min(p[1] for p in outline)
            w, d = self.width.value(), self.depth.value()
            outline = [(x0, y0), (x0 + w, y0), (x0 + w, y0 + d), (x0, y0 + d)]
        new = msgspec.structs.replace(hall, outline=outline, tile_m=self.tile.value(),
                                      tray_elevation_m=self.tray.value(),
                                      raised_floor=self.raised.isChecked())
        return SetHallCommand(self.design, new) if new != hall else None
