"""Headless render of a design's floor plan to PNG, SVG or PDF — the same scene as the editor."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPageSize, QPainter, QPdfWriter, QUndoStack

from gui.canvas.scene import MAX_LINK_ITEMS, HallScene
from gui.canvas.view import draw_legend
from gui.document import make_plant
from model.design import Design

FORMATS = (".png", ".svg", ".pdf")
FOOTER_PX = 130


def render_design(design: Design, out: Path, width_px: int = 1800, plant=None,
                  show_links: bool = True) -> Path:
    """Draw ``design`` into ``out`` (format from the extension). Needs a QApplication."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"cannot render to {out.name}: use .png, .svg or .pdf")
    plant = plant if plant is not None else make_plant(design)
    stack = QUndoStack()
    scene = HallScene(design, stack, plant)
    scene.tray_load.run_to_end()
    if show_links and len(design.links) <= MAX_LINK_ITEMS:
        scene.show_links(design.links)
    source = scene.hall_rect().adjusted(-0.5, -0.5, 0.5, 0.5)
    plan_px = max(200, int(width_px * source.height() / max(source.width(), 1e-6)))
    height_px = plan_px + FOOTER_PX
    plan = QRectF(0, 0, width_px, plan_px)
    target = QRectF(0, 0, width_px, height_px)

    def paint(painter: QPainter) -> None:
        painter.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        painter.fillRect(target, QColor("#ffffff"))
        scene.render(painter, plan, source, Qt.KeepAspectRatio)
        scale = min(width_px / source.width(), plan_px / source.height())
        draw_legend(painter, target.toRect(), None, scale, None)
        font = QFont("Sans Serif")
        font.setPixelSize(18)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor("#222"))
        gpus = design.gpu_count()
        painter.drawText(QRectF(240, plan_px + 12, width_px - 260, 30), Qt.AlignLeft | Qt.AlignVCenter,
                         design.name)
        font.setBold(False)
        font.setPixelSize(14)
        painter.setFont(font)
        painter.drawText(QRectF(240, plan_px + 44, width_px - 260, 24), Qt.AlignLeft | Qt.AlignVCenter,
                         f"{len(design.racks)} racks · {gpus} GPUs · {len(design.devices)} devices · "
                         f"{len(design.links)} links · {len(design.trays)} trays")

    if suffix == ".png":
        image = QImage(QSize(width_px, height_px), QImage.Format_ARGB32_Premultiplied)
        image.fill(QColor("#ffffff"))
        painter = QPainter(image)
        paint(painter)
        painter.end()
        if not image.save(str(out)):
            raise OSError(f"could not write {out}")
    elif suffix == ".svg":
        from PySide6.QtSvg import QSvgGenerator

        generator = QSvgGenerator()
        generator.setFileName(str(out))
        generator.setSize(QSize(width_px, height_px))
        generator.setViewBox(target)
        generator.setTitle(design.name)
        painter = QPainter(generator)
        paint(painter)
        painter.end()
    else:
        writer = QPdfWriter(str(out))
        writer.setTitle(design.name)
        writer.setPageSize(QPageSize(QPageSize.A3))
        writer.setPageOrientation(writer.pageLayout().orientation().Landscape)
        writer.setPageMargins(QMarginsF(10, 10, 10, 10))
        painter = QPainter(writer)
        page = painter.viewport()
        painter.setWindow(0, 0, width_px, height_px)
        painter.setViewport(0, 0, page.width(), int(page.width() * height_px / width_px))
        paint(painter)
        painter.end()
    scene.detach()
    scene.clear()
    import shiboken6

    shiboken6.delete(scene)  # before the application goes: no teardown in the wrong order
    if plant is not None and hasattr(plant, "close"):
        plant.close()
    return out
