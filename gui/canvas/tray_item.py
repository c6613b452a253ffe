"""TrayItem: a cable tray drawn to scale as a band along its polyline, optionally with its fill."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style
from model.analysis.warnings import tray_fill_severity


def _cosmetic_pen(color: str, width_px: float, line=Qt.SolidLine) -> QPen:
    pen = QPen(QColor(color), width_px, line)
    pen.setCosmetic(True)
    return pen


def _fill_color(fraction: float | None) -> QColor:
    """The band's fill: plain, or the analysis's own rule for the fill (amber where it warns,
    red where it reports an error)."""
    if fraction is None:
        fill = QColor(style.TRAY_FILL)
    else:
        severity = tray_fill_severity(fraction)
        fill = QColor({None: "#b2f2bb", "warning": "#ffe066"}.get(severity, "#ff8787"))
    fill.setAlpha(200)
    return fill


# Built once: a repaint of the bundles after a rack move paints ~40-150 trays, and the pens,
# the colours and the severity lookup were made again in each paint.
_EDGE = _cosmetic_pen(style.TRAY_EDGE, 1.0)
_EDGE_SELECTED = _cosmetic_pen(style.SELECTION, 2.0)
_CENTRE = _cosmetic_pen(style.TRAY_EDGE, 1.0, Qt.DashLine)


class TrayItem(QGraphicsItem):
    def __init__(self, object_id: str) -> None:
        super().__init__()
        self.object_id = object_id
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setZValue(-10)
        self._band = QPainterPath()
        self._centre = QPainterPath()
        self._rect = QRectF()
        self._fill_fraction: float | None = None
        self._fill = _fill_color(None)

    def set_path(self, points, width_m: float) -> None:
        self.prepareGeometryChange()
        centre = QPainterPath(QPointF(*points[0]))
        for x, y in points[1:]:
            centre.lineTo(x, y)
        stroker = QPainterPathStroker()
        stroker.setWidth(width_m)
        stroker.setJoinStyle(Qt.MiterJoin)
        stroker.setCapStyle(Qt.FlatCap)
        self._centre = centre
        self._band = stroker.createStroke(centre).simplified()
        self._rect = self._band.boundingRect().adjusted(-0.1, -0.1, 0.1, 0.1)
        self.update()

    def set_fill(self, fraction: float | None) -> None:
        """Tray fill (0..1+, the analysis's figure) shown as a tint, or None to hide it."""
        if fraction == self._fill_fraction:
            return  # every tray is told after each count: repaint only those that changed
        self._fill_fraction = fraction
        self._fill = _fill_color(fraction)
        self.setToolTip(
            "" if fraction is None else f"Tray fill {fraction:.1%} at its fullest point"
        )
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        return self._band

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        painter.setPen(_EDGE_SELECTED if self.isSelected() else _EDGE)
        painter.setBrush(self._fill)
        painter.drawPath(self._band)
        painter.setPen(_CENTRE)
        painter.setBrush(Qt.NoBrush)
        painter.drawPath(self._centre)
