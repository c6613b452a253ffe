"""UnderlayLayer: the scene's side of the design's underlay — reads its file (once per file
content; a PDF page rendered to pixels, its lines read), places the item by the model's
transform, snaps drawn points to its lines (a DXF's, a PDF page's; a picture's edges), and says
when the drawing is missing, unreadable or changed. Visibility and opacity are the user's view, not saved."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QImage
from PySide6.QtSvg import QSvgRenderer

from gui.canvas.underlay_item import UnderlayItem, halved_levels
from model.design.entities import Underlay
from model.design.underlay import page_edges, segments_on_plan, snap_to_segments, transform
from model.files.underlay_file import (
    DxfDrawing,
    UnderlayError,
    UnderlayState,
    read_dxf,
    resolve_path,
    underlay_state,
)
from model.files.underlay_pdf import PdfRaster, render_pdf_page

SNAP_PX = 10.0  # a drawn point this near a line of the drawing (on screen) lands on it


class UnderlayLayer:
    """One per scene. ``folder_of()``: the design file's folder (relative paths start there).

    The drawing read last is kept (by resolved file and recorded hash) while the design's
    record comes and goes, so undoing an import, a removal, a calibration or an alignment never
    reads the file again; a read (seconds for a large DXF) goes through ``reader``, which the
    window sets to run it off the GUI thread with a progress dialog."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.item = UnderlayItem()
        scene.addItem(self.item)
        self.folder_of: Callable[[], Path | None] = lambda: None
        self.reader: Callable[[Callable[[], object], str], object] = lambda work, _label: work()
        self.state: UnderlayState | None = None  # None: the design has no underlay
        self.sentence = ""
        self.snapping = True
        self._drawing: DxfDrawing | None = None
        self._picture: QImage | QSvgRenderer | None = None
        self._levels: list[QImage] | None = None  # a PDF page's halvings, made in the worker
        self._page_lines = np.empty((0, 4))  # a PDF page's vector lines (points as shown)
        self._picture_units = (0.0, 0.0)  # the picture's size in drawing units (px, pt)
        self._read_key: tuple[str, str, int] | None = None  # (resolved path, hash, page) read
        self._read_state: tuple[UnderlayState, str] = (UnderlayState.MISSING, "")
        self._shown_key: tuple | None = None  # (read key, layers) the item holds lines of
        self._lines_m = np.empty((0, 4))

    # ------------------------------------------------------------------ following the design

    def follow_folder(self, folder_of: Callable[[], Path | None]) -> None:
        """Resolve relative paths from ``folder_of()``, asked at each refresh (Save As moves
        the design, and its recorded underlay path with it)."""
        self.folder_of = folder_of
        self._read_key = None
        self.refresh()

    def adopt(
        self, underlay: Underlay, drawing: DxfDrawing | None, page: PdfPage | None = None
    ) -> None:
        """Take the drawing (or PDF page) the import dialog has just read for ``underlay`` (no
        second read)."""
        where = resolve_path(underlay, self.folder_of()).resolve()
        self._read_key = (str(where), underlay.sha256, underlay.page)
        self._read_state = (UnderlayState.OK, f"Underlay {underlay.path}")
        self._drawing, self._picture, self._levels = drawing, None, None
        self._page_lines = np.empty((0, 4))
        if page is not None:
            self._take_page(page)
        elif drawing is None:
            self._picture = read_picture(where)
            if self._picture is not None:
                self._picture_units = picture_size(self._picture)
        self._shown_key = None

    def refresh(self) -> None:
        """Follow the design's underlay record: read its file if it is another, then place it."""
        underlay = self.scene.design.hall.underlay
        if underlay is None:  # removed (or undone): the lines stay in the item for a redo
            self.state, self.sentence = None, ""
            self._lines_m = np.empty((0, 4))
            self.item.set_present(False)
            return
        self.item.set_present(True)
        folder = self.folder_of()
        where = resolve_path(underlay, folder).resolve()
        key = (str(where), underlay.sha256, underlay.page)
        if key != self._read_key:
            self._read_key = key
            self._shown_key = None
            self._drawing = self._picture = self._levels = None
            self._page_lines = np.empty((0, 4))
            self._read_state = underlay_state(underlay, folder)
            if self._read_state[0] is not UnderlayState.MISSING:
                self._read(underlay, where)
        self.state, self.sentence = self._read_state
        self._place(underlay)

    def _read(self, underlay: Underlay, where: Path) -> None:
        if underlay.kind == "dxf":
            try:
                self._drawing = self.reader(lambda: read_dxf(where), f"Reading {where.name}…")
            except UnderlayError as exc:
                self._read_state = (UnderlayState.MISSING, f"The underlay: {exc}")
            return
        if underlay.kind == "pdf":
            try:
                page = self.reader(
                    lambda: pdf_page(where, underlay.page),
                    f"Drawing page {underlay.page} of {where.name}…",
                )
            except UnderlayError as exc:
                self._read_state = (UnderlayState.MISSING, f"The underlay: {exc}")
                return
            self._take_page(page)
            return
        self._picture = read_picture(where)
        if self._picture is None:
            sentence = f"The underlay {underlay.path} is not a PNG, JPEG or SVG picture"
            self._read_state = (UnderlayState.MISSING, sentence)
        else:
            self._picture_units = picture_size(self._picture)

    def _take_page(self, page: PdfPage) -> None:
        self._levels = page.levels
        self._page_lines = page.raster.segments
        self._picture, self._picture_units = page.levels[0], page.raster.size_pt

    def _place(self, underlay: Underlay) -> None:
        t = transform(underlay)
        if self._drawing is not None:
            shown = (self._read_key, underlay.layers)
            segments = self._drawing.shown(underlay.layers)
            if shown != self._shown_key:  # lines rebuilt only for another drawing or layers
                self._shown_key = shown
                self.item.set_lines(segments)
            self.item.set_placement(t.matrix())  # calibrate, align, turn: instant
            self._lines_m = segments_on_plan(underlay, segments)
        elif self._picture is not None:
            # The page's own lines (a PDF's vector paths) and its edges.
            edges = page_edges(underlay, *self._picture_units)
            self._lines_m = np.concatenate([segments_on_plan(underlay, self._page_lines), edges])
            rect = picture_rect(underlay, self._picture_units)
            self.item.set_picture(self._picture, rect, underlay.rotation_deg, self._levels)
        else:
            self._lines_m = np.empty((0, 4))
            self._shown_key = None
            self.item.clear()
            return
        # A drawing larger than the hall (the whole building) can be scrolled to and traced.
        self.scene.setSceneRect(self.scene.sceneRect().united(self.item.sceneBoundingRect()))

    # ------------------------------------------------------------------ view and snapping

    @property
    def drawing_layers(self) -> tuple[str, ...]:
        """The layers of the DXF read (all of them, shown or not); () for a picture."""
        return self._drawing.layers if self._drawing is not None else ()

    @property
    def lines_m(self) -> np.ndarray:
        """What drawn points snap to, in plan metres (n x 4): a DXF's shown lines, a PDF page's
        vector lines, and a picture's (image, SVG or PDF page) four edges."""
        return self._lines_m

    def set_visible(self, visible: bool) -> None:
        self.item.setVisible(visible)

    def set_opacity(self, opacity: float) -> None:
        self.item.setOpacity(opacity)

    def snap(self, pos: QPointF) -> tuple[float, float] | None:
        """Where a drawn point at ``pos`` lands on the drawing's lines, or None (then the
        grid decides). Only while the underlay is shown: one does not trace what one cannot see."""
        if not (self.snapping and self.item.isVisible() and len(self._lines_m)):
            return None
        views = self.scene.views()
        scale = abs(views[0].transform().m11()) if views else 1.0
        return snap_to_segments(self._lines_m, pos.x(), pos.y(), SNAP_PX / (scale or 1.0))


def read_picture(where: Path) -> QImage | QSvgRenderer | None:
    """An image page or an SVG drawing read by Qt; None when Qt cannot read it."""
    if where.suffix.lower() == ".svg":
        renderer = QSvgRenderer(str(where))
        return renderer if renderer.isValid() else None
    image = QImage(str(where))
    return None if image.isNull() else image


def picture_size(picture: QImage | QSvgRenderer) -> tuple[float, float]:
    """A picture's size in its own units (pixels, or the SVG's user units)."""
    if isinstance(picture, QSvgRenderer):
        size = picture.defaultSize()
    else:
        size = picture.size()
    return float(size.width()), float(size.height())


@dataclass(frozen=True)
class PdfPage:
    """A PDF page rendered (its pixels, size in points) and its image with its halvings."""

    raster: PdfRaster
    levels: list[QImage]


def pdf_page(where: Path, page: int) -> PdfPage:
    """Page ``page`` of the PDF at ``where`` drawn, ready to show (run off the GUI thread:
    an A1 sheet is ~0.4 s to render and ~0.4 s to halve); raises UnderlayError."""
    raster = render_pdf_page(where, page)
    return PdfPage(raster, halved_levels(pdf_picture(raster)))


def pdf_picture(raster: PdfRaster) -> QImage:
    """A rendered PDF page as a QImage that owns its pixels (the array may go)."""
    rows, columns = raster.pixels.shape[:2]
    view = QImage(raster.pixels.data, columns, rows, columns * 3, QImage.Format_RGB888)
    return view.copy()


def picture_rect(underlay: Underlay, size_units: tuple[float, float]) -> QRectF:
    """The plan rectangle (before turning) of a picture ``size_units`` drawing units large."""
    t = transform(underlay)
    w, h = size_units
    return QRectF(t.ox, t.oy, t.sx * w, t.sy * h)
