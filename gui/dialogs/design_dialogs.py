"""Small dialogs: a new design (empty hall or generated fabric) and the hall's properties."""

from __future__ import annotations

from collections.abc import Callable

import msgspec
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
)

from gui.document.document import empty_design
from gui.edit.commands import SetHallCommand
from gui.plain_text import escape
from gui.widgets import spin_box
from model.design.design import Design


def _buttons(dialog: QDialog) -> QDialogButtonBox:
    box = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
    box.accepted.connect(dialog.accept)
    box.rejected.connect(dialog.reject)
    return box


TEMPLATES = (
    ("Empty hall", None),
    ("Rail-optimized fabric", "rail-optimized"),
    ("Leaf-spine fabric", "leaf-spine"),
    ("Fat tree (k-ary)", "fat-tree"),
    ("GB200 NVL72 racks", "nvl72"),
    ("AMD Helios racks", "helios"),
)


class NewHallDialog(QDialog):
    """A new design: an empty rectangular hall, or a generated fabric placed in a hall."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        from model.catalog.components import builtin_catalog

        catalog = builtin_catalog()
        self.setWindowTitle("New design")
        self.name = QLineEdit("Untitled hall")
        self.template = QComboBox()
        for text, key in TEMPLATES:
            self.template.addItem(text, key)
        self.width = spin_box(24.0, 1.2, 2000)
        self.depth = spin_box(18.0, 1.2, 2000)
        self.tile = spin_box(0.6, 0.1, 5, step=0.1)
        self.nodes = QSpinBox()
        self.nodes.setRange(1, 100_000)
        self.nodes.setValue(128)
        self.su_nodes = QSpinBox()
        self.su_nodes.setRange(1, 10_000)
        self.su_nodes.setValue(32)
        self.k = QSpinBox()
        self.k.setRange(2, 128)
        self.k.setSingleStep(2)
        self.k.setValue(8)
        self.racks = QSpinBox()
        self.racks.setRange(1, 10_000)
        self.racks.setValue(8)
        self.node_type = QComboBox()
        self.switch = QComboBox()
        for dtype in catalog.device_types.values():
            if dtype.category == "server" and dtype.gpus and dtype.gpus.scale_up_domain == "device":
                self.node_type.addItem(f"{dtype.vendor} {dtype.model}", dtype.id)
            elif dtype.category == "switch" and dtype.default_role == "leaf":
                self.switch.addItem(f"{dtype.vendor} {dtype.model}", dtype.id)
        self.preview = QLabel()
        self.preview.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow("Name", self.name)
        form.addRow("Start from", self.template)
        self._rows = {}
        for key, label, widget in (
            ("width", "Width (x)", self.width),
            ("depth", "Depth (y)", self.depth),
            ("tile", "Floor tile", self.tile),
            ("nodes", "GPU servers", self.nodes),
            ("su_nodes", "Servers per scalable unit", self.su_nodes),
            ("k", "k (switch radix)", self.k),
            ("racks", "Racks (72 GPUs each)", self.racks),
            ("node_type", "Server type", self.node_type),
            ("switch", "Switch", self.switch),
        ):
            form.addRow(label, widget)
            self._rows[key] = (form.labelForField(widget), widget)
        form.addRow(self.preview)
        form.addRow(_buttons(self))
        for widget in (self.template, self.node_type, self.switch):
            widget.currentIndexChanged.connect(self._update)
        for widget in (self.nodes, self.su_nodes, self.k, self.racks):
            widget.valueChanged.connect(self._update)
        self._update()

    FIELDS = {
        None: ("width", "depth", "tile"),
        "rail-optimized": ("nodes", "su_nodes", "node_type", "switch"),
        "leaf-spine": ("nodes", "node_type", "switch"),
        "fat-tree": ("k",),
        "nvl72": ("racks",),
        "helios": ("racks",),
    }

    def params(self) -> dict:
        key = self.template.currentData()
        values = {
            "nodes": self.nodes.value(),
            "su_nodes": self.su_nodes.value(),
            "k": self.k.value(),
            "racks": self.racks.value(),
            "node_type": self.node_type.currentData(),
            "switch": self.switch.currentData(),
        }
        return {f: values[f] for f in self.FIELDS[key] if f in values}

    def _update(self) -> None:
        key = self.template.currentData()
        for field, (label, widget) in self._rows.items():
            shown = field in self.FIELDS[key]
            widget.setVisible(shown)
            if label is not None:
                label.setVisible(shown)
        if key is None:
            self.preview.setText("")
            return
        from model.generators.generate import GenerateError, preview

        try:
            counts = preview(key, **self.params())
        except GenerateError as exc:
            self.preview.setText(f"<span style='color:#c92a2a'>{escape(exc)}</span>")
            return
        self.preview.setText(
            ", ".join(
                f"{k.replace('_', ' ')}: {v:,}" if isinstance(v, int) else f"{k}: {v}"
                for k, v in counts.items()
                if k != "template"
            )
        )

    def builder(self) -> Callable[[], Design]:
        """What makes the new design, with the dialog's values read now (on the GUI thread), so
        it can run on a worker thread (see DocumentFiles.new_document)."""
        name = self.name.text().strip() or "Untitled hall"
        key = self.template.currentData()
        if key is None:
            size = (self.width.value(), self.depth.value(), self.tile.value())
            return lambda: empty_design(*size, name)
        from model.generators.generate import generate

        given = self.name.text().strip()
        params = self.params()
        named = given if given and given != "Untitled hall" else None
        return lambda: generate(key, name=named, **params)


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
        self.width = spin_box(max(xs) - min(xs), 1.2, 2000)
        self.depth = spin_box(max(ys) - min(ys), 1.2, 2000)
        self.width.setEnabled(self.rectangular)
        self.depth.setEnabled(self.rectangular)
        self.tile = spin_box(hall.tile_m, 0.1, 5, step=0.1)
        self.tray = spin_box(hall.tray_elevation_m, 0.1, 20, step=0.1)
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
        new = msgspec.structs.replace(
            hall,
            outline=outline,
            tile_m=self.tile.value(),
            tray_elevation_m=self.tray.value(),
            raised_floor=self.raised.isChecked(),
        )
        return SetHallCommand(self.design, new) if new != hall else None
