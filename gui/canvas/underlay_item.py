"""UnderlayItem: the building's drawing under the plan, locked: DXF lines or an image page,
drawn where the model's transform puts them, never selected, never hit by a click."""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QTransform
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
        # The image halved again and again (smooth: each pixel the mean of four), built as a
        # zoom asks for it: a page drawn at an eighth of its pixels by bilinear sampling alone
        # loses most of its 5-pixel lines (a PDF sheet zoomed out to the hall showed two of its
        # four walls); from a level within 2x of the screen every line stays.
        self._levels: list[QImage] = []
        self._svg: QSvgRenderer | None = None
        self._rect = QRectF()
        self._present = True  # False: the design has no underlay now (lines kept for an undo)

    def set_present(self, present: bool) -> None:
        """Show or withhold the content without dropping it (the user's visibility toggle is
        ``setVisible``, apart)."""
        if present != self._present:
            self.prepareGeometryChange()
            self._present = present
            self.update()

    def set_lines(self, segments) -> None:
        """DXF lines: ``segments`` n x 4 (u0, v0, u1, v1) in drawing units, placed on the plan
        by :meth:`set_placement` (so a calibration moves them without rebuilding ~0.3 s of
        QLineF for 80k lines)."""
        self.prepareGeometryChange()
        self._image = self._svg = None
        self._lines = [QLineF(*row) for row in segments.tolist()]
        if len(segments):
            us, vs = segments[:, 0::2], segments[:, 1::2]
            rect = QRectF(us.min(), vs.min(), us.max() - us.min(), vs.max() - vs.min())
            margin = max(rect.width(), rect.height()) * 0.005  # the pen's half width, roughly
            self._rect = rect.adjusted(-margin, -margin, margin, margin)
        else:
            self._rect = QRectF()
        # Painted once per zoom into a pixmap the size of the view: a hall's repaint after an
        # edit or a pan blits it (80k lines drew in ~80 ms, over the 50 ms repaint budget).
        self.setCacheMode(QGraphicsItem.DeviceCoordinateCache)
        self.update()

    def set_placement(self, matrix: tuple[float, float, float, float, float, float]) -> None:
        """Drawing units to plan metres: the model's (m11, m12, m21, m22, dx, dy)
        (:meth:`model.design.underlay.Transform.matrix`: scaled, turned, moved)."""
        self.setTransform(QTransform(*matrix[:4], *matrix[4:]))

    def set_picture(
        self,
        picture: QImage | QSvgRenderer,
        rect_m: QRectF,
        rotation_deg: float = 0.0,
        levels: list[QImage] | None = None,
    ) -> None:
        """An image page (PNG, JPEG, a rendered PDF page) or an SVG drawing stretched over
        ``rect_m`` (plan metres), turned ``rotation_deg`` clockwise about the rectangle's first
        corner (its origin). ``levels``: the image's :func:`halved_levels` when made already
        (off the GUI thread), else they are made as zooms ask for them."""
        self.prepareGeometryChange()
        origin = rect_m.topLeft()
        turn = QTransform().translate(origin.x(), origin.y())
        self.setTransform(turn.rotate(rotation_deg).translate(-origin.x(), -origin.y()))
        self.setCacheMode(QGraphicsItem.DeviceCoordinateCache)
        self._lines = []
        self._image = picture if isinstance(picture, QImage) else None
        self._levels = levels or ([self._image] if self._image is not None else [])
        self._svg = picture if isinstance(picture, QSvgRenderer) else None
        self._rect = QRectF(rect_m)
        self.update()

    def clear(self) -> None:
        self.prepareGeometryChange()
        self.setTransform(QTransform())
        self._lines, self._image, self._svg, self._rect = [], None, None, QRectF()
        self._levels = []
        self.update()

    def image_for(self, world: QTransform) -> QImage:
        """The image, or the level of it halved until it is within twice the size it is drawn
        at through ``world`` (item to device pixels)."""
        shown_px = self._rect.width() * math.hypot(world.m11(), world.m12())
        level = 0
        while True:
            image = self._levels[level]
            if image.width() <= 2 * shown_px or image.width() < 64:
                return image
            level += 1
            if level == len(self._levels):
                self._levels.append(_halved(image))

    @property
    def line_count(self) -> int:
        """Lines drawn now (0 while the design has no underlay)."""
        return len(self._lines) if self._present else 0

    def boundingRect(self) -> QRectF:
        return self._rect if self._present else QRectF()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        if not self._present:
            return
        if self._lines:
            pen = QPen(QColor(UNDERLAY_LINE), 1.0)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.drawLines(self._lines)
        elif self._image is not None:
            painter.setRenderHint(QPainter.SmoothPixmapTransform, True)
            painter.drawImage(self._rect, self.image_for(painter.worldTransform()))
        elif self._svg is not None:
            self._svg.render(painter, self._rect)


def _halved(image: QImage) -> QImage:
    """Half the width and height, each pixel the mean of the four it covers."""
    return image.scaled(
        max(1, image.width() // 2),
        max(1, image.height() // 2),
        Qt.IgnoreAspectRatio,
        Qt.SmoothTransformation,
    )


def halved_levels(image: QImage, smallest_px: int = 64) -> list[QImage]:
    """``image`` and its halvings down to ``smallest_px`` wide: made once in a worker for a
    PDF sheet (an A1 page's ~0.4 s CPU, which a first zoom-out would block the GUI for)."""
    levels = [image]
    while levels[-1].width() >= 2 * smallest_px:
        levels.append(_halved(levels[-1]))
    return levels
