"""Rulers on the plan's top and left edges: plan metres from the drawing's origin, ticks at a
step that stays legible at any zoom (1-2-5 series, at least MIN_STEP_PX apart), following every
scroll, zoom and resize of the view (they repaint whenever its viewport does)."""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QWidget

RULER_PX = 22  # thickness of a ruler (the view's viewport gives it this margin)
MIN_STEP_PX = 60.0  # labelled ticks at least this far apart on screen
RULER_FILL = "#f4f5f7"
RULER_INK = "#495057"


def tick_step_m(px_per_m: float) -> float:
    """The smallest 1-2-5 step (metres) whose ticks are at least MIN_STEP_PX apart."""
    if px_per_m <= 0 or not math.isfinite(px_per_m):
        return 1.0
    raw = MIN_STEP_PX / px_per_m
    decade = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * decade >= raw - 1e-12:
            return factor * decade
    return 10 * decade


def tick_label(value_m: float, step_m: float) -> str:
    decimals = max(0, -math.floor(math.log10(step_m) + 1e-9))
    return f"{value_m:.{decimals}f}"


class Ruler(QWidget):
    """One ruler; ``horizontal``: along the top edge (x), else the left edge (y)."""

    def __init__(self, view, horizontal: bool) -> None:
        super().__init__(view)
        self.view = view
        self.horizontal = horizontal
        self.setAttribute(Qt.WA_TransparentForMouseEvents, True)
        font = QFont(self.font())
        font.setPointSizeF(max(6.5, font.pointSizeF() * 0.8))
        self.setFont(font)

    def span_m(self) -> tuple[float, float, float]:
        """(metre at the viewport's first pixel, metre at its last, pixels per metre)."""
        viewport = self.view.viewport()
        if self.horizontal:
            a = self.view.mapToScene(QPoint(0, 0)).x()
            b = self.view.mapToScene(QPoint(viewport.width(), 0)).x()
            length = viewport.width()
        else:
            a = self.view.mapToScene(QPoint(0, 0)).y()
            b = self.view.mapToScene(QPoint(0, viewport.height())).y()
            length = viewport.height()
        return a, b, (length / (b - a) if b != a else 0.0)

    def ticks(self) -> list[tuple[float, float]]:
        """(metres, pixels along the ruler from the viewport's edge) of each labelled tick."""
        a, b, px_per_m = self.span_m()
        step = tick_step_m(px_per_m)
        first = math.ceil(a / step) * step
        count = int((b - first) / step) + 1
        return [(first + i * step, (first + i * step - a) * px_per_m) for i in range(max(count, 0))]

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(RULER_FILL))
        pen = QPen(QColor(RULER_INK))
        painter.setPen(pen)
        a, _b, px_per_m = self.span_m()
        step = tick_step_m(px_per_m)
        minor = step / 5
        viewport = self.view.viewport().geometry()  # where the plan's first pixel is
        offset = viewport.x() if self.horizontal else viewport.y()
        ticks = self.ticks()
        if ticks:
            first_minor = math.ceil(a / minor) * minor
            n = int((ticks[-1][0] + step - first_minor) / minor) + 1
            for i in range(n):
                at = offset + (first_minor + i * minor - a) * px_per_m
                self._line(painter, at, RULER_PX - 4)
        for value, along in ticks:
            at = offset + along
            self._line(painter, at, 0)
            text = tick_label(value, step)
            if self.horizontal:
                painter.drawText(QRect(int(at) + 3, 1, 80, RULER_PX - 6), Qt.AlignLeft, text)
            else:
                painter.save()
                painter.translate(2, at - 3)
                painter.rotate(-90)
                painter.drawText(QRect(0, 0, 80, RULER_PX - 6), Qt.AlignLeft, text)
                painter.restore()
        edge = RULER_PX - 1
        if self.horizontal:
            painter.drawLine(0, edge, self.width(), edge)
        else:
            painter.drawLine(edge, 0, edge, self.height())
        painter.end()

    def _line(self, painter: QPainter, at: float, start: int) -> None:
        x = int(round(at))
        if self.horizontal:
            painter.drawLine(x, start, x, RULER_PX)
        else:
            painter.drawLine(start, x, RULER_PX, x)


class Rulers(QObject):
    """The two rulers of a view; ``set_visible`` toggles them and the margin they take."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self.top = Ruler(view, horizontal=True)
        self.left = Ruler(view, horizontal=False)
        self._shown = None  # (scene point at the viewport's corner, scale) last drawn
        view.viewport().installEventFilter(self)
        self.set_visible(True)

    def set_visible(self, visible: bool) -> None:
        margin = RULER_PX if visible else 0
        self.view.setViewportMargins(margin, margin, 0, 0)
        self.top.setVisible(visible)
        self.left.setVisible(visible)
        self._shown = None
        self._place()

    @property
    def visible(self) -> bool:
        return self.top.isVisible()

    def _place(self) -> None:
        viewport = self.view.viewport().geometry()
        top = max(viewport.y() - RULER_PX, 0)
        left = max(viewport.x() - RULER_PX, 0)
        self.top.setGeometry(QRect(0, top, viewport.right() + 1, RULER_PX))
        self.left.setGeometry(QRect(left, 0, RULER_PX, viewport.bottom() + 1))

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if event.type() in (QEvent.Paint, QEvent.Resize) and self.top.isVisible():
            if event.type() == QEvent.Resize:
                self._place()
                self._shown = None
            # The plan repaints for every drag step; the rulers only when the view moved.
            shown = (self.view.mapToScene(QPoint(0, 0)), self.view.transform().m11())
            if shown != self._shown:
                self._shown = shown
                self.top.update()
                self.left.update()
        return False
