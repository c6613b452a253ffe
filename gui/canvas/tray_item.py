"""TrayItem: a cable tray drawn to scale as a band along its polyline, optionally with its fill."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style
from model.analysis.warnings import tray_fill_severity


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
        self.setToolTip(
            "" if fraction is None else f"Tray fill {fraction:.1%} at its fullest point"
        )
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        return self._band

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        fill = QColor(style.TRAY_FILL)
        if self._fill_fraction is not None:
            # The analysis's own rule: amber where it warns, red where it reports an error.
            severity = tray_fill_severity(self._fill_fraction)
            fill = QColor({None: "#b2f2bb", "warning": "#ffe066"}.get(severity, "#ff8787"))
        fill.setAlpha(200)
        edge = QPen(
            QColor(style.SELECTION if self.isSelected() else style.TRAY_EDGE),
            2.0 if self.isSelected() else 1.0,
        )
        edge.setCosmetic(True)
        painter.setPen(edge)
        painter.setBrush(fill)
        painter.drawPath(self._band)
        centre = QPen(QColor(style.TRAY_EDGE), 1.0, Qt.DashLine)
        centre.setCosmetic(True)
        painter.setPen(centre)
        painter.setBrush(Qt.NoBrush)
        painter.drawPath(self._centre)
