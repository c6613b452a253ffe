"""HallView: the canvas widget — zoom to cursor, pan with the middle button or Space+drag,
fit to view, rubber-band selection, cursor position in metres, a medium legend."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsView

from gui import style

ZOOM_STEP = 1.2
MIN_SCALE, MAX_SCALE = 0.5, 2000.0  # pixels per metre


class HallView(QGraphicsView):
    cursor_moved = Signal(float, float)  # scene metres
    files_dropped = Signal(list)  # local paths
    context_menu_requested = Signal(QPointF, QPoint)  # scene metres, global screen position

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        # Minimal, not Smart: past 50 dirty rectangles Smart repaints their bounding rectangle,
        # and the changed bundle segments of one moved rack's links are ~60 small rectangles
        # whose bounds are most of the hall (every rack under them was repainted). Each pixel of
        # the region is repainted from scratch either way, so the picture is the same.
        self.setViewportUpdateMode(QGraphicsView.MinimalViewportUpdate)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.AnchorViewCenter)
        self.setDragMode(QGraphicsView.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.IntersectsItemShape)
        self.setMouseTracking(True)
        self.setAcceptDrops(True)
        self.setOptimizationFlags(QGraphicsView.DontSavePainterState)
        self.show_legend = True
        self.fitted = False  # showing the whole hall, untouched since: refit on resize
        self._pan_from: QPointF | None = None
        self._space = False

    # ------------------------------------------------------------------ zoom and pan

    def scale_factor(self) -> float:
        return self.transform().m11()

    def zoom(self, factor: float) -> None:
        new = self.scale_factor() * factor
        if MIN_SCALE <= new <= MAX_SCALE:
            self.scale(factor, factor)
            self.fitted = False

    def fit(self) -> None:
        scene = self.scene()
        if scene is None:
            return
        rect = scene.hall_rect() if hasattr(scene, "hall_rect") else scene.itemsBoundingRect()
        self.fitInView(rect.adjusted(-1, -1, 1, 1), Qt.KeepAspectRatio)
        self.fitted = True

    def zoom_to(self, rect: QRectF) -> None:
        """Show ``rect`` (scene metres) whole, with a margin: zoom to the selection or a find."""
        if rect.isNull():
            return
        margin = max(rect.width(), rect.height(), 2.0) * 0.25
        self.fitInView(rect.adjusted(-margin, -margin, margin, margin), Qt.KeepAspectRatio)
        self.fitted = False

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        # The rack field paints only the racks in the parts of the viewport being repainted:
        # Qt hands each item the bounding rectangle of those parts, which for a rack move is
        # the whole hall (the moved links' trays cross it) though the parts are a few strips.
        field = getattr(self.scene(), "rack_field", None)
        if field is None:
            super().paintEvent(event)
            return
        field.set_view_region(self.viewport(), event.region(), self.mapToScene)
        try:
            super().paintEvent(event)
        finally:
            field.set_view_region(None, None, None)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.fitted:  # the whole hall was shown: keep it so when the window is maximised
            self.fit()

    def wheelEvent(self, event) -> None:
        if event.angleDelta().y() == 0:
            return super().wheelEvent(event)
        self.zoom(ZOOM_STEP if event.angleDelta().y() > 0 else 1 / ZOOM_STEP)
        event.accept()

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.OpenHandCursor)
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:
        if event.key() == Qt.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().unsetCursor()
            event.accept()
            return
        super().keyReleaseEvent(event)

    def take_focus(self) -> None:
        """Keyboard to the plan (Return, Esc, arrows): a click or a drop here means the user
        works on the plan now. The window is activated too, for window systems that do not
        activate on click (a bare X server), where focus would stay in another window."""
        if not self.isActiveWindow():
            self.activateWindow()
        self.setFocus(Qt.MouseFocusReason)

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        # Scrolling moves the viewport's pixels, the legend drawn in viewport coordinates with
        # them: repaint it where it belongs instead of smearing it across the plan.
        if self.show_legend:
            self.viewport().update()

    def mousePressEvent(self, event) -> None:
        self.take_focus()
        if event.button() == Qt.MiddleButton or (self._space and event.button() == Qt.LeftButton):
            self._pan_from = event.position()
            self.viewport().setCursor(Qt.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        pos = self.mapToScene(event.position().toPoint())
        self.cursor_moved.emit(pos.x(), pos.y())
        if self._pan_from is not None:
            self.fitted = False
            delta = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._pan_from is not None and event.button() in (Qt.MiddleButton, Qt.LeftButton):
            self._pan_from = None
            if self._space:
                self.viewport().setCursor(Qt.OpenHandCursor)
            else:
                self.viewport().unsetCursor()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def contextMenuEvent(self, event) -> None:
        self.take_focus()
        self.context_menu_requested.emit(self.mapToScene(event.pos()), event.globalPos())
        event.accept()

    # ------------------------------------------------------------------ files dropped on the canvas

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()
            return
        super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()
            return
        super().dragMoveEvent(event)

    def dropEvent(self, event) -> None:
        if event.mimeData().hasUrls():
            paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
            event.acceptProposedAction()
            if paths:
                self.files_dropped.emit(paths)
            return
        super().dropEvent(event)
        self.take_focus()  # a catalog drop: Return now opens what was dropped

    # ------------------------------------------------------------------ legend and scale bar

    def update_legend(self, marks: int) -> None:
        """Repaint the legend's corner only (its overlay lines changed), sized for ``marks``
        overlay lines (the larger of the old and new count) and every other line it can show:
        a whole-viewport repaint after each edit cost the big hall's plan a full redraw."""
        if not self.show_legend:
            return
        rows = len(style.MEDIUM_KIND_LABELS) + 1 + len(style.POWER_KEY) + marks
        height = LEGEND_ROW * rows + LEGEND_PAD + LEGEND_MARGIN + 2
        bottom = self.viewport().rect().bottom()
        self.viewport().update(0, bottom - height, LEGEND_WIDTH + LEGEND_MARGIN + 2, height + 1)

    def update_banner(self) -> None:
        """Repaint the corner where "updating…" is shown (the scene's re-route began or ended)."""
        self.viewport().update(
            0, 0, BANNER_WIDTH + BANNER_MARGIN + 2, BANNER_HEIGHT + BANNER_MARGIN + 2
        )

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        if getattr(self.scene(), "rerouting", False):
            draw_banner(painter, "Cables updating… (re-routing on the trays)")
        if not self.show_legend:
            return
        power = getattr(self.scene(), "color_mode", "role") == "power"
        draw_legend(
            painter,
            self.viewport().rect(),
            self.mapToScene,
            self.scale_factor(),
            self.viewportTransform(),
            power_key=power,
            overlays=self.scene().overlay_key() if hasattr(self.scene(), "overlay_key") else [],
            trunks=bool(
                getattr(self.scene(), "trunk_layer", None)
                and self.scene().trunk_layer.shows_trunks()
            ),
        )


BANNER_WIDTH, BANNER_HEIGHT, BANNER_MARGIN = 300, 22, 28  # px; below the top ruler


def draw_banner(painter: QPainter, text: str) -> None:
    """A short state line in the plan's top-left corner, in device pixels."""
    painter.save()
    painter.setWorldMatrixEnabled(False)
    painter.resetTransform()
    box = QRectF(BANNER_MARGIN, BANNER_MARGIN, BANNER_WIDTH, BANNER_HEIGHT)
    painter.setPen(QPen(QColor("#b35c00"), 1))
    painter.setBrush(QColor(255, 248, 235, 235))
    painter.drawRoundedRect(box, 4, 4)
    font = QFont("Sans Serif")
    font.setPixelSize(12)
    painter.setFont(font)
    painter.drawText(box.adjusted(8, 0, -8, 0), Qt.AlignVCenter | Qt.AlignLeft, text)
    painter.restore()


LEGEND_ROW = 16  # px per legend line
LEGEND_WIDTH = 190  # px
LEGEND_PAD = 36  # px: the box's padding and the scale bar under the lines
LEGEND_MARGIN = 10  # px from the viewport's bottom-left corner


def draw_legend(
    painter: QPainter,
    viewport,
    _map,
    pixels_per_m: float,
    transform,
    power_key: bool = False,
    trunks: bool = False,
    overlays: list[tuple[str, str, str]] | None = None,
) -> None:
    """Medium colours (the MPO trunks when the plan shows them; with racks coloured by power,
    the power key; the marks the overlays show now: finding dots, what-if and compare frames)
    and a scale bar in the bottom-left corner, in device pixels."""
    painter.save()
    painter.setWorldMatrixEnabled(False)
    painter.resetTransform()
    font = QFont("Sans Serif")
    font.setPixelSize(11)
    painter.setFont(font)
    entries = list(style.MEDIUM_KIND_LABELS.values())
    entries += [(style.TRUNK_LABEL, style.TRUNK_COLOR)] if trunks else []
    swatches = list(style.POWER_KEY) if power_key else []
    marks = list(overlays or [])
    row = LEGEND_ROW
    width = LEGEND_WIDTH
    height = row * (len(entries) + len(swatches) + len(marks)) + LEGEND_PAD
    x0 = viewport.left() + LEGEND_MARGIN
    y0 = viewport.bottom() - height - LEGEND_MARGIN
    painter.setPen(QPen(QColor("#9aa0a6"), 1))
    painter.setBrush(QColor(255, 255, 255, 225))
    painter.drawRoundedRect(QRectF(x0, y0, width, height), 4, 4)
    for i, (label, colour) in enumerate(entries):
        y = y0 + 8 + i * row
        trunk = label == style.TRUNK_LABEL  # dashed, as the trunks are drawn
        painter.setPen(
            QPen(
                QColor(colour),
                4,
                Qt.DashLine if trunk else Qt.SolidLine,
                Qt.FlatCap if trunk else Qt.RoundCap,
            )
        )
        painter.drawLine(QPointF(x0 + 10, y + 6), QPointF(x0 + 34, y + 6))
        painter.setPen(QColor("#222"))
        painter.drawText(QRectF(x0 + 42, y - 1, width - 46, row), Qt.AlignVCenter, label)
    for j, (label, colour) in enumerate(swatches):  # rack fills: a square each, not a line
        y = y0 + 8 + (len(entries) + j) * row
        painter.setPen(QPen(QColor("#6b7280"), 1))
        painter.setBrush(QColor(colour))
        painter.drawRect(QRectF(x0 + 14, y + 1, 16, 11))
        painter.setPen(QColor("#222"))
        painter.drawText(QRectF(x0 + 42, y - 1, width - 46, row), Qt.AlignVCenter, label)
    for k, (label, colour, shape) in enumerate(marks):  # drawn as the overlay draws them
        y = y0 + 8 + (len(entries) + len(swatches) + k) * row
        _draw_mark(painter, shape, QColor(colour), QRectF(x0 + 12, y + 1, 20, 11))
        painter.setPen(QColor("#222"))
        painter.drawText(QRectF(x0 + 42, y - 1, width - 46, row), Qt.AlignVCenter, label)
    # scale bar: a round number of metres about 80 px long
    target = 80 / max(pixels_per_m, 1e-9)
    nice = next(
        (n for n in (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500) if n >= target), 1000
    )
    px = nice * pixels_per_m
    y = y0 + height - 14
    painter.setPen(QPen(QColor("#222"), 2))
    painter.drawLine(QPointF(x0 + 10, y), QPointF(x0 + 10 + px, y))
    painter.drawLine(QPointF(x0 + 10, y - 4), QPointF(x0 + 10, y + 4))
    painter.drawLine(QPointF(x0 + 10 + px, y - 4), QPointF(x0 + 10 + px, y + 4))
    painter.drawText(QPointF(x0 + 16 + px, y + 4), f"{nice:g} m")
    painter.restore()


def _draw_mark(painter: QPainter, shape: str, colour: QColor, box: QRectF) -> None:
    """One overlay mark in the legend: a rack frame, a finding's dot or a dashed link."""
    if shape == "dot":
        painter.setPen(QPen(QColor("#ffffff"), 1))
        painter.setBrush(colour)
        painter.drawEllipse(box.center(), 5, 5)
    elif shape == "dash":
        painter.setPen(QPen(colour, 2, Qt.DashLine))
        painter.drawLine(
            QPointF(box.left(), box.center().y()), QPointF(box.right(), box.center().y())
        )
    else:
        fill = QColor(colour)
        fill.setAlpha(70)
        painter.setPen(QPen(colour, 2))
        painter.setBrush(fill)
        painter.drawRect(box.adjusted(2, 0, -2, 0))
