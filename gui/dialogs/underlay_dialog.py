"""ImportUnderlayDialog: choose the building's drawing (DXF, PDF, PNG, JPEG or SVG), see what
it holds, pick the DXF layers to show or the PDF's page; the result is the design's Underlay
record, placed with its top-left corner on the hall's and scaled by the drawing's own unit."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
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

from gui.canvas.underlay_layer import PdfPage, pdf_page, picture_size, read_picture
from gui.document.document import run_with_progress
from model.design.entities import Underlay
from model.design.underlay import (
    DEFAULT_DXF_UNIT_M,
    DXF_UNIT_M,
    IMAGE_PIXEL_M,
    PDF_POINT_M,
    PDF_START_RATIO,
    placed_at,
)
from model.files.underlay_file import (
    DxfDrawing,
    UnderlayError,
    file_sha256,
    read_dxf,
    recorded_path,
)
from model.files.underlay_pdf import pdf_page_sizes

DRAWING_FILTER = "Building drawings (*.dxf *.pdf *.png *.jpg *.jpeg *.svg);;All files (*)"
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
MM_PER_POINT = 25.4 / 72


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
        self.page: PdfPage | None = None  # the PDF page drawn, handed to the plan
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.path_edit = QLineEdit()
        self.path_edit.setPlaceholderText("A DXF, PDF, PNG, JPEG or SVG of the building")
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
        # A PDF of several sheets: which one is the floor (asked only when there is a choice).
        page_row = QHBoxLayout()
        self.page_label = QLabel("PDF page:")
        self.page_box = QComboBox()
        self.page_box.activated.connect(self._draw_page)
        page_row.addWidget(self.page_label)
        page_row.addWidget(self.page_box, 1)
        layout.addLayout(page_row)
        self._show_pages(False)
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

    def _show_pages(self, shown: bool) -> None:
        self.page_label.setVisible(shown)
        self.page_box.setVisible(shown)

    def _read(self) -> None:
        """Read what was chosen; a file that cannot be read is a sentence, and nothing changes."""
        if self.path_edit.text() == self._read_text:
            return
        self._read_text = self.path_edit.text()
        self.drawing, self.picture_units, self.page = None, None, None
        self.layers.clear()
        self.page_box.clear()
        self._show_pages(False)
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
            elif where.suffix.lower() == ".pdf":
                self._read_pdf(where)
                return
            elif where.suffix.lower() in PICTURE_SUFFIXES:
                picture = read_picture(where)
                if picture is None:
                    raise UnderlayError(f"{where.name} cannot be read as a picture")
                self.picture_units = picture_size(picture)
            else:
                raise UnderlayError(
                    f"{where.name}: choose a DXF drawing, a PDF or a PNG, JPEG or SVG page"
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

    def _read_pdf(self, where: Path) -> None:
        """List the PDF's pages (the choice offered when there are several), draw the first."""
        sizes = pdf_page_sizes(where)
        for number, (w_pt, h_pt) in enumerate(sizes, start=1):
            self.page_box.addItem(
                f"Page {number}: {w_pt * MM_PER_POINT:.0f} × {h_pt * MM_PER_POINT:.0f} mm"
            )
        self._show_pages(len(sizes) > 1)
        self._draw_page(0)

    def _draw_page(self, index: int) -> None:
        """Render page ``index`` (0-based, the list's row) of the PDF read; say what it is."""
        where = self.path()
        self.page = None
        self._ok().setEnabled(False)
        try:
            self.page = run_with_progress(
                lambda: pdf_page(where, index + 1), f"Drawing {where.name}…", self
            )
        except UnderlayError as exc:
            self.info.setText(f"<span style='color:#c92a2a'>{exc}</span>")
            return
        r = self.page.raster
        w_pt, h_pt = r.size_pt
        rows, columns = r.pixels.shape[:2]
        scale_m = PDF_POINT_M * PDF_START_RATIO
        self.info.setText(
            f"Page {r.page} of {r.pages}: {w_pt * MM_PER_POINT:.0f} × {h_pt * MM_PER_POINT:.0f}"
            f" mm, drawn at {r.dpi:.0f} dpi ({columns:,} × {rows:,} pixels). Placed at "
            f"1:{PDF_START_RATIO} ({w_pt * scale_m:.1f} m × {h_pt * scale_m:.1f} m) until you "
            "calibrate it by two points (Design > Calibrate Underlay)."
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
        if self.page is not None:
            base = Underlay(
                path=recorded_path(where, self.folder),
                sha256=file_sha256(where),
                kind="pdf",
                scale_m=PDF_POINT_M * PDF_START_RATIO,
                page=self.page.raster.page,
            )
            return placed_at(base, (0.0, 0.0), self.corner)
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
