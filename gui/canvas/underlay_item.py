"""UnderlayItem: the building's drawing under the plan, locked: DXF lines or an image page,
drawn where the model's transform puts them, never selected, never hit by a click."""

from __future__ import annotations

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

# A blue-grey apart from every cable, tray and selection colour: the drawing is a reference,
# read under the design, never mistaken for part of it.
UNDERLAY_LINE = "#6f86b0"
UNDERLAY_Z = -95  # above the floor fill (-100), below obstacles (-50) and trays (-10)


class UnderlayItem(QGraphicsItem):
    """Draws segments (plan metres) or a picture in a plan rectangle; knows nothing else."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(UNDERLAY_Z)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setAcceptHoverEvents(False)
        self.setFlag(QGraphicsItem.ItemIsSelectable, False)
        self.setFlag(QGraphicsItem.ItemIsFocusable, False)
        self._lines: list[QLineF] = []
        self._image: QImage | None = None
        self._svg: QSvgRenderer | None = None
        self._rect = QRectF()

    def set_lines(self, segments_m) -> None:
        """DXF lines: ``segments_m`` n x 4 (x0, y0, x1, y1) in plan metres."""
        self.prepareGeometryChange()
        self._image = self._svg = None
        self._lines = [QLineF(*row) for row in segments_m.tolist()]
        if len(segments_m):
            xs, ys = segments_m[:, 0::2], segments_m[:, 1::2]
            self._rect = QRectF(xs.min(), ys.min(), xs.max() - xs.min(), ys.max() - ys.min())
        else:
            self._rect = QRectF()
        self.update()

    def set_picture(self, picture: QImage | QSvgRenderer, rect_m: QRectF) -> None:
        """An image page (PNG, JPEG) or an SVG drawing stretched over ``rect_m`` (plan metres)."""
        self.prepareGeometryChange()
        self._lines = []
        self._image = picture if isinstance(picture, QImage) else None
        self._svg = picture if isinstance(picture, QSvgRenderer) else None
        self._rect = QRectF(rect_m)
        self.update()

    def clear(self) -> None:
        self.prepareGeometryChange()
        self._lines, self._image, self._svg, self._rect = [], None, None, QRectF()
        self.update()

    @property
    def line_count(self) -> int:
        return len(self._lines)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-0.05, -0.05, 0.05, 0.05)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        if self._lines:
            pen = QPen(QColor(UNDERLAY_LINE), 1.0)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.drawLines(self._lines)
        elif self._image is not None:
            painter.setRenderHint(QPainter.SmoothPixmapTransform, True)
            painter.drawImage(self._rect, self._image)
        elif self._svg is not None:
            self._svg.render(painter, self._rect)
