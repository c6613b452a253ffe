"""ImportUnderlayDialog: choose the building's drawing (DXF, PNG, JPEG or SVG), see what it
holds, pick the DXF layers to show; the result is the design's Underlay record, placed with
its top-left corner on the hall's and scaled by the drawing's own unit."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
)

from gui.canvas.underlay_layer import picture_size, read_picture
from gui.document.document import run_with_progress
from model.design.entities import Underlay
from model.design.underlay import DEFAULT_DXF_UNIT_M, DXF_UNIT_M, IMAGE_PIXEL_M, placed_at
from model.files.underlay_file import (
    DxfDrawing,
    UnderlayError,
    file_sha256,
    read_dxf,
    recorded_path,
)

DRAWING_FILTER = "Building drawings (*.dxf *.png *.jpg *.jpeg *.svg);;All files (*)"
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
# PDF pages are not offered: Qt's PDF module is not part of PySide6-Essentials, and the PyPI
# readers that render PDF pages (PyMuPDF, pdfium) are large native packages; export the page
# as PNG or SVG instead.


class ImportUnderlayDialog(QDialog):
    """``folder``: the design file's folder (None when unsaved); ``corner``: the plan point
    (the hall's top-left) where the drawing's top-left corner is put."""

    def __init__(self, folder: Path | None, corner: tuple[float, float], parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import underlay")
        self.folder = folder
        self.corner = corner
        self.drawing: DxfDrawing | None = None
        self.picture_units: tuple[float, float] | None = None
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText("A DXF, PNG, JPEG or SVG of the building")
        # Return reads the typed path (and does not press OK: the layers are chosen next);
        # leaving the field reads it too. The same text is not read twice.
        self.path_edit.returnPressed.connect(self._read)
        self.path_edit.editingFinished.connect(self._read)
        self._read_text: str | None = None
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        layout.addLayout(row)
        self.info = QLabel("")
        self.info.setWordWrap(True)
        layout.addWidget(self.info)
        layout.addWidget(QLabel("DXF layers shown (and snapped to):"))
        self.layers = QListWidget()
        layout.addWidget(self.layers, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        for button in self.buttons.buttons():
            button.setAutoDefault(False)
            button.setDefault(False)
        self._ok().setEnabled(False)
        self.resize(520, 420)

    def keyPressEvent(self, event) -> None:
        """Return reads the typed drawing and never presses OK by itself: the layers are chosen
        before OK (the button box makes OK the default button when shown, and reading a large
        DXF shows a progress dialog that takes the focus from the path field meanwhile)."""
        if event.key() in (Qt.Key_Return, Qt.Key_Enter) and self.focusWidget() is not self._ok():
            self._read()
            event.accept()
            return
        super().keyPressEvent(event)

    def _ok(self):
        return self.buttons.button(QDialogButtonBox.Ok)

    def _browse(self) -> None:
        start = str(self.folder or Path.home())
        path, _ = QFileDialog.getOpenFileName(self, "Import underlay", start, DRAWING_FILTER)
        if path:
            self.path_edit.setText(path)
            self._read()

    def path(self) -> Path:
        typed = Path(self.path_edit.text().strip()).expanduser()
        if not typed.is_absolute() and self.folder is not None:
            typed = self.folder / typed
        return typed

    def _read(self) -> None:
        """Read what was chosen; a file that cannot be read is a sentence, and nothing changes."""
        if self.path_edit.text() == self._read_text:
            return
        self._read_text = self.path_edit.text()
        self.drawing, self.picture_units = None, None
        self.layers.clear()
        self._ok().setEnabled(False)
        text = self.path_edit.text().strip()
        if not text:
            self.info.setText("")
            return
        where = self.path()
        try:
            if where.suffix.lower() == ".dxf":  # seconds for a large one: off the GUI thread
                self.drawing = run_with_progress(
                    lambda: read_dxf(where), f"Reading {where.name}…", self
                )
            elif where.suffix.lower() in PICTURE_SUFFIXES:
                picture = read_picture(where)
                if picture is None:
                    raise UnderlayError(f"{where.name} cannot be read as a picture")
                self.picture_units = picture_size(picture)
            else:
                raise UnderlayError(
                    f"{where.name}: choose a DXF drawing or a PNG, JPEG or SVG page "
                    "(for a PDF, export its page as PNG or SVG)"
                )
        except UnderlayError as exc:
            self.info.setText(f"<span style='color:#c92a2a'>{exc}</span>")
            return
        if self.drawing is not None:
            d = self.drawing
            unit_m = DXF_UNIT_M.get(d.units, DEFAULT_DXF_UNIT_M)
            width_m = (d.extent[2] - d.extent[0]) * unit_m
            depth_m = (d.extent[3] - d.extent[1]) * unit_m
            unit = "its own unit" if d.units in DXF_UNIT_M else "millimetres (no unit given)"
            self.info.setText(
                f"{len(d.segments):,} line segments on {len(d.layers)} layers, "
                f"{width_m:.2f} m × {depth_m:.2f} m read in {unit}. "
                "Calibrate it afterwards by two points (Design > Calibrate Underlay)."
            )
            for name in d.layers:
                item = QListWidgetItem(name)
                item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
                item.setCheckState(Qt.Checked)
                self.layers.addItem(item)
        else:
            w, h = self.picture_units
            self.info.setText(
                f"A page of {w:.0f} × {h:.0f}, placed at 1 cm a pixel until you calibrate it "
                "by two points (Design > Calibrate Underlay)."
            )
        self._ok().setEnabled(True)

    def chosen_layers(self) -> tuple[str, ...]:
        """The checked layers; () when all are checked (a drawing's new layers show too)."""
        items = [self.layers.item(i) for i in range(self.layers.count())]
        checked = tuple(i.text() for i in items if i.checkState() == Qt.Checked)
        return () if len(checked) == len(items) else checked

    def underlay(self) -> Underlay:
        """The record for what was read, its top-left corner on ``corner``."""
        where = self.path()
        base = Underlay(
            path=recorded_path(where, self.folder),
            sha256=file_sha256(where),
            kind="dxf" if self.drawing is not None else "image",
            scale_m=(
                DXF_UNIT_M.get(self.drawing.units, DEFAULT_DXF_UNIT_M)
                if self.drawing is not None
                else IMAGE_PIXEL_M
            ),
            layers=self.chosen_layers(),
        )
        if self.drawing is not None:
            u0, _v0, _u1, v1 = self.drawing.extent
            return placed_at(base, (u0, v1), self.corner)  # DXF y runs up: top is v max
        return placed_at(base, (0.0, 0.0), self.corner)


class UnderlayLayersDialog(QDialog):
    """The DXF's layers with the shown ones checked; ``chosen()`` as ``Underlay.layers``."""

    def __init__(self, layers: tuple[str, ...], shown: tuple[str, ...], parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Underlay layers")
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Layers shown (and snapped to):"))
        self.layers = QListWidget()
        for name in layers:
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Checked if not shown or name in shown else Qt.Unchecked)
            self.layers.addItem(item)
        layout.addWidget(self.layers, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def chosen(self) -> tuple[str, ...]:
        """The checked layers; () when all are (new layers of an edited drawing show too)."""
        items = [self.layers.item(i) for i in range(self.layers.count())]
        checked = tuple(i.text() for i in items if i.checkState() == Qt.Checked)
        return () if len(checked) == len(items) else checked
