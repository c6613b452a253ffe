"""Headless render of a design's floor plan to PNG, SVG or PDF — the same scene as the editor."""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QPen,
    QUndoStack,
)
from PySide6.QtWidgets import QGraphicsItem

from gui import style
from gui.canvas.scene import MAX_LINK_ITEMS, HallScene
from gui.document.plant_feed import close_feed
from gui.pictures.png_file import png_bytes
from model.analysis.tray_fill import PlanTrayFigures
from model.common.wording import count
from model.design.design import Design
from model.engine.routed_links import RoutedLinks
from model.files.design_file import DesignFileError, write_atomic
from model.runtime.gc_policy import collector_paused

FORMATS = (".png", ".svg", ".pdf")
FOOTER_PX = 130
# The plan's height in pixels at most: a hall the loader accepts may be 9 m by 100 km, whose
# plan at 1800 px across would be 20 million pixels tall (no QImage can hold it: the render
# crashed). Past this the plan keeps its aspect inside a shorter picture (KeepAspectRatio).
MAX_PLAN_PX = 16_000
MAX_PLAN_ASPECT = 8  # height / width at most


PICTURE_UNDERLAY_OPACITY = 0.6  # the building reads under the design, which stays in front


def render_design(
    design: Design,
    out: Path | None,
    width_px: int = 1800,
    plant=None,
    show_links: bool = True,
    title_block: bool = True,
    printer=None,
    tray_figures: Callable[[], PlanTrayFigures] | None = None,
    underlay_folder: Path | None = None,
) -> Path | None:
    """Draw ``design`` into ``out`` (format from the extension), or onto ``printer`` (a
    QPrinter, the page fitted as for a PDF) when given. Needs a QApplication.

    ``tray_figures``: gives the bundles and fill of ``plant`` (``plan_tray_figures``), asked
    for once the scene is built: the command line counts them in a forked child meanwhile.
    Without it the scene counts them itself.

    With ``title_block`` a strip under the plan carries the medium legend, a scale bar in
    metres, the design name, today's date and the rack, GPU, device and link counts.

    ``underlay_folder``: the design file's folder, to draw the building's drawing under the
    plan (None: the plan alone)."""
    out = Path(out) if out is not None else None
    suffix = "printer" if printer is not None else out.suffix.lower()
    if printer is None and suffix not in FORMATS:
        raise ValueError(f"cannot render to {out.name}: use .png, .svg or .pdf")
    # The cyclic collector paused while the picture is built: the plant, the scene's items and
    # the counts are ~10^5 objects that make no garbage cycles, yet their allocation triggered
    # collections walking them (XL: ~0.1 s of a render). Nothing outlives the render but the
    # picture, and the collector runs again as before once it is written.
    with collector_paused():
        return _render(
            design,
            out,
            suffix,
            width_px,
            plant,
            show_links,
            title_block,
            printer,
            tray_figures,
            underlay_folder,
        )


def _render(
    design: Design,
    out: Path | None,
    suffix: str,
    width_px: int,
    plant,
    show_links: bool,
    title_block: bool,
    printer,
    tray_figures: Callable[[], PlanTrayFigures] | None,
    underlay_folder: Path | None = None,
) -> Path | None:
    """:func:`render_design` once its arguments are checked (``suffix``: the format, or
    "printer")."""
    own_plant = plant is None  # a caller's plant (the editor's) stays open
    # The plant itself, not gui.document.document's make_plant: that module (recent files,
    # its thread pool) took ~17 ms of a picture's imports.
    plant = RoutedLinks(design) if own_plant else plant
    stack = QUndoStack()
    scene = HallScene(design, stack, plant, picture=True)
    if underlay_folder is not None and design.hall.underlay is not None:
        scene.underlay.follow_folder(lambda: underlay_folder)
        scene.underlay.set_opacity(PICTURE_UNDERLAY_OPACITY)
        # Drawn once, as lines: the editor's pixmap cache would put a bitmap in an SVG or PDF.
        scene.underlay.item.setCacheMode(QGraphicsItem.NoCache)
    if tray_figures is not None:
        scene.tray_load.take_figures(tray_figures())
    else:
        scene.tray_load.fill_wanted = scene.show_tray_fill  # the fill tint shows only when shown
        scene.tray_load.run_to_end()
    if show_links and len(design.links) <= MAX_LINK_ITEMS:
        scene.show_links(design.links)
    source = _room_for_row_labels(scene, scene.hall_rect().adjusted(-0.5, -0.5, 0.5, 0.5), width_px)
    plan_px = plan_height_px(width_px, source.width(), source.height())
    height_px = plan_px + (FOOTER_PX if title_block else 0)
    plan = QRectF(0, 0, width_px, plan_px)
    target = QRectF(0, 0, width_px, height_px)

    def paint(painter: QPainter) -> None:
        painter.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        painter.fillRect(target, QColor("#ffffff"))
        scene.render(painter, plan, source, Qt.KeepAspectRatio)
        if title_block:
            _draw_title_block(
                painter,
                design,
                width_px,
                plan_px,
                min(width_px / source.width(), plan_px / source.height()),
                trunks=scene.trunk_layer.shows_trunks(),
            )

    # Every format is drawn into memory and then replaces ``out`` atomically: a full disk or a
    # failing device leaves the previous picture as it was, never a truncated one.
    buffer = QBuffer()
    buffer.open(QIODevice.WriteOnly)
    if printer is not None:
        printer.setPageOrientation(
            QPageLayout.Landscape if width_px >= height_px else QPageLayout.Portrait
        )
        painter = QPainter(printer)
        paint_fitted(painter, painter.viewport(), width_px, height_px, paint)
        painter.end()
    elif suffix == ".png":
        # Opaque (the plan is drawn on white): RGB32 encodes a third faster than ARGB32 and
        # the PNG is smaller (no alpha channel); every pixel is the same colour.
        image = QImage(QSize(width_px, height_px), QImage.Format_RGB32)
        if image.isNull():  # no memory for it: a sentence, not png_bytes's ValueError
            raise OSError(f"no memory for a picture of {width_px} x {height_px} pixels")
        image.fill(QColor("#ffffff"))
        painter = QPainter(image)
        paint(painter)
        painter.end()
        buffer.write(png_bytes(image))  # numpy and zlib: see gui/pictures/png_file.py
    elif suffix == ".svg":
        from PySide6.QtSvg import QSvgGenerator

        generator = QSvgGenerator()
        generator.setOutputDevice(buffer)
        generator.setSize(QSize(width_px, height_px))
        generator.setViewBox(target)
        generator.setTitle(design.name)
        painter = QPainter(generator)
        paint(painter)
        painter.end()
    else:
        writer = QPdfWriter(buffer)
        writer.setTitle(design.name)
        writer.setPageSize(QPageSize(QPageSize.A3))
        writer.setPageOrientation(
            QPageLayout.Landscape if width_px >= height_px else QPageLayout.Portrait
        )
        writer.setPageMargins(QMarginsF(10, 10, 10, 10))
        painter = QPainter(writer)
        paint_fitted(painter, painter.viewport(), width_px, height_px, paint)
        painter.end()
        del writer  # finishes the PDF into the buffer
    buffer.close()
    if printer is None:
        data = bytes(buffer.data())
        replace_file(out, svg_text(data) if suffix == ".svg" else data)
    scene.detach()
    scene.clear()
    import shiboken6

    shiboken6.delete(scene)  # before the application goes: no teardown in the wrong order
    if own_plant and plant is not None and hasattr(plant, "close"):
        close_feed(plant)
        plant.close()
    return out


# The control characters XML 1.0 forbids (all below U+0020 but tab, LF and CR), as bytes: in
# UTF-8 they never occur inside a multi-byte character, so they can be dropped byte by byte.
_XML_ILLEGAL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def svg_text(data: bytes) -> bytes:
    """QSvgGenerator's file with the control characters a name may hold dropped: it escapes
    ``<&>`` but writes U+0001 as it is, which makes the whole file invalid XML."""
    return _XML_ILLEGAL.sub(b"", data)


def plan_height_px(width_px: int, width_m: float, height_m: float) -> int:
    """The plan's height in pixels for ``width_px`` across: the hall's aspect, bounded (a
    very tall hall is drawn smaller inside the bounded picture)."""
    natural = width_px * height_m / max(width_m, 1e-6)
    return int(max(200, min(natural, MAX_PLAN_ASPECT * width_px, MAX_PLAN_PX)))


def replace_file(out: Path, data: bytes) -> None:
    """Write a finished picture atomically; raises OSError with a sentence when it cannot."""
    if not data:
        raise OSError(f"nothing was drawn for {out.name}")
    try:
        write_atomic(out, data)
    except DesignFileError as exc:
        raise OSError(str(exc)) from None


def _room_for_row_labels(scene, source: QRectF, width_px: int) -> QRectF:
    """``source`` widened leftwards until the row labels fit in the picture.

    The labels keep their pixel size while the plan is small (a large hall), so near the hall's
    left wall they reached past the picture's edge ("ow AA" at 131k GPUs). Widening the plan
    shrinks its scale and so widens the labels in metres: a few rounds settle it."""
    for _ in range(4):
        left_m = scene.row_labels.left_edge_m(width_px / source.width())
        if left_m is None or left_m >= source.left():
            break
        source.setLeft(left_m - 0.25)
    return source


def fit_on_page(page: QRect, width_px: int, height_px: int) -> QRect:
    """Where a ``width_px`` × ``height_px`` picture goes on ``page`` (device units): as large as
    fits both ways, aspect kept, centred across and at the top — never cut off at the bottom."""
    scale = min(page.width() / width_px, page.height() / height_px)
    w, h = int(width_px * scale), int(height_px * scale)
    return QRect(page.x() + (page.width() - w) // 2, page.y(), w, h)


def paint_fitted(painter: QPainter, page: QRect, width_px: int, height_px: int, paint) -> None:
    """Run ``paint(painter)`` (drawing in picture pixels) scaled onto ``page`` (PDF, printer)."""
    painter.setWindow(0, 0, width_px, height_px)
    painter.setViewport(fit_on_page(page, width_px, height_px))
    paint(painter)


def _font(px: int, bold: bool = False) -> QFont:
    font = QFont("Sans Serif")
    font.setPixelSize(px)
    font.setBold(bold)
    return font


def legend_entries(trunks: bool) -> list[tuple[str, str]]:
    """(label, colour) of the footer legend: the medium kinds, and the MPO trunks when the
    plan shows them (as the editor's on-canvas legend does)."""
    entries = list(style.MEDIUM_KIND_LABELS.values())
    return entries + [(style.TRUNK_LABEL, style.TRUNK_COLOR)] if trunks else entries


def _draw_title_block(
    painter: QPainter,
    design: Design,
    width_px: int,
    top: float,
    pixels_per_m: float,
    trunks: bool = False,
) -> None:
    """The strip under the plan: legend and scale bar on the left, title on the right."""
    painter.save()
    painter.setPen(QPen(QColor(style.HALL_EDGE), 2))
    painter.drawLine(QPointF(0, top + 1), QPointF(width_px, top + 1))
    painter.setFont(_font(14))
    row = 21
    entries = legend_entries(trunks)
    for i, (label, colour) in enumerate(entries):
        y = top + 14 + (i % 3) * row
        x = 16 + (i // 3) * 250
        trunk = label == style.TRUNK_LABEL  # dashed, as the trunks are drawn
        pen_style = Qt.DashLine if trunk else Qt.SolidLine
        painter.setPen(QPen(QColor(colour), 4 if trunk else 6, pen_style, Qt.RoundCap))
        painter.drawLine(QPointF(x, y + 8), QPointF(x + 30, y + 8))
        painter.setPen(QColor("#222"))
        painter.drawText(QRectF(x + 40, y, 200, 17), Qt.AlignLeft | Qt.AlignVCenter, label)
    target_m = 160 / max(pixels_per_m, 1e-9)
    nice = next((n for n in (0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500) if n >= target_m), 1000)
    bar = nice * pixels_per_m
    # The scale bar takes the free slot of the legend's second column (five medium kinds); with
    # the trunk entry filling it, a fourth row under the first column. The title keeps the
    # rest of the strip, right of the legend.
    slot = len(entries)
    if slot < 6:
        x0, y = 16.0 + (slot // 3) * 250, top + 14 + (slot % 3) * row + 8
    else:
        x0, y = 16.0, top + 14 + 3 * row + 8
    painter.setPen(QPen(QColor("#222"), 2))
    painter.drawLine(QPointF(x0, y), QPointF(x0 + bar, y))
    for tick in (0.0, 0.5, 1.0):
        painter.drawLine(QPointF(x0 + tick * bar, y - 5), QPointF(x0 + tick * bar, y + 5))
    painter.drawText(QPointF(x0 + bar + 8, y + 5), f"{nice:g} m")
    text_x = max(x0 + max(bar, 200) + 80, 16.0 + math.ceil(slot / 3) * 250)
    box = QRectF(text_x, top + 10, max(width_px - text_x - 16, 100), FOOTER_PX - 20)
    painter.setFont(_font(22, bold=True))
    painter.drawText(box, Qt.AlignRight | Qt.AlignTop, design.name)
    painter.setFont(_font(15))
    counts = (
        f"{count(design.gpu_count(), 'GPU')} · {count(len(design.racks), 'rack')} · "
        f"{count(len(design.devices), 'device')} · {count(len(design.links), 'link')}"
    )
    painter.drawText(box.adjusted(0, 36, 0, 0), Qt.AlignRight | Qt.AlignTop, counts)
    painter.setPen(QColor("#555"))
    painter.drawText(
        box.adjusted(0, 62, 0, 0),
        Qt.AlignRight | Qt.AlignTop,
        f"{datetime.date.today().isoformat()} · Hallwright floor plan",
    )
    painter.restore()
