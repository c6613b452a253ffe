"""RackItem: a rack footprint with its front marker and name; dumb, driven by setters.

A scene's racks are painted by the scene's RackField (one paint call for the hall, see
rack_field.py) when made with it; a rack on its own (the placement ghost) paints itself."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style

FRONT_FRACTION = 0.12  # depth share of the strip that marks the front (the cold aisle side)
LABEL_MIN_PX = 16.0
FRONT_COLOR = QColor(style.FRONT_MARK)  # a style constant, the same for every rack
# Per class, not per rack: OR-ing the flag enums and making a QFont in each of the XL
# hall's 4,544 racks was a fifth of building its scene (the font is only ever read).
_OWN_FLAGS = QGraphicsItem.ItemIsSelectable
_FIELD_FLAGS = QGraphicsItem.ItemIsSelectable | QGraphicsItem.ItemHasNoContents
_LABEL_FONT: list[QFont] = []  # made on first use: a QFont wants the application


_EDGE_PENS: dict[tuple[str, float], QPen] = {}  # (style colour, width px) -> cosmetic pen


def _edge_pen(color: str, width_px: float) -> QPen:
    """The cosmetic edge pen of that style colour and width, one per kind: a painter copies a
    pen it is given, and a new QPen and QColor per rack was a third of placing the XL racks."""
    pen = _EDGE_PENS.get((color, width_px))
    if pen is None:
        pen = _EDGE_PENS[(color, width_px)] = QPen(QColor(color), width_px)
        pen.setCosmetic(True)
    return pen


def _label_font() -> QFont:
    """The 12 px font every rack label is drawn in (scaled to the rack by the painter)."""
    if not _LABEL_FONT:
        font = QFont("Sans Serif")
        font.setPixelSize(12)
        _LABEL_FONT.append(font)
    return _LABEL_FONT[0]


class RackItem(QGraphicsItem):
    """Position = footprint centre (metres); rotation clockwise as in the model."""

    def __init__(self, object_id: str, field=None) -> None:
        """``field``: the scene's RackField, which paints this rack once it is ``add``ed to it
        (Qt then never calls this item's paint); without one the rack paints itself."""
        super().__init__()
        self._field = field
        self.object_id = object_id
        self.setFlags(_FIELD_FLAGS if field is not None else _OWN_FLAGS)
        self._rect = QRectF(-0.3, -0.6, 0.6, 1.2)
        # Kept, not derived per paint: the whole hall paints thousands of racks, and building
        # a QRectF and a QColor in each paint call was a third of the repaint.
        self._bounds = self._rect.adjusted(-0.02, -0.02, 0.02, 0.02)
        self._label = ""
        self._fill = QColor(style.ROLE_COLORS["empty"])
        self._far_fill = self._fill.darker(115)  # the one rectangle painted when a rack is tiny
        self._selected_fill = QColor(style.SELECTION)
        self._collision = False
        self._drop_target = False  # a catalog device is being dragged over this rack
        self._look: tuple[bool, QPen, QColor] | None = None  # see look()

    def _changed(self) -> None:
        """Repaint this rack (through its field when it has one)."""
        self._look = None
        if self._field is not None:
            self._field.rack_changed(self)
        else:
            self.update()

    # Where the rack stands or how it shows, changed from Python (the scene, the drag): the
    # field repaints it. No ``itemChange`` override for this: Qt would call into Python for
    # every change of every rack (flags, scene, position …), which was a third of building
    # the XL scene. The selection, changed inside Qt, reaches the field from the scene's
    # ``selectionChanged`` (RackField.selection_changed).
    def setPos(self, *args) -> None:
        super().setPos(*args)
        self._changed()

    def setRotation(self, angle: float) -> None:
        super().setRotation(angle)
        self._changed()

    def setOpacity(self, opacity: float) -> None:
        super().setOpacity(opacity)
        self._changed()

    def setVisible(self, visible: bool) -> None:
        super().setVisible(visible)
        self._changed()

    def set_geometry(
        self, x: float, y: float, width_m: float, depth_m: float, rotation: int
    ) -> None:
        rect = QRectF(-width_m / 2, -depth_m / 2, width_m, depth_m)
        resized = rect != self._rect
        if resized:
            self.prepareGeometryChange()
            self._rect = rect
            self._bounds = rect.adjusted(-0.02, -0.02, 0.02, 0.02)
        moved = self.pos() != QPointF(x, y) or self.rotation() != rotation
        if moved:
            QGraphicsItem.setPos(self, x, y)
            QGraphicsItem.setRotation(self, rotation)
        if resized or moved:
            self._changed()

    def set_label(self, text: str) -> None:
        if text != self._label:
            self._label = text
            self._changed()

    def set_fill(self, fill: QColor) -> None:
        if fill != self._fill:
            self._fill = fill
            self._far_fill = fill.darker(115)
            self._changed()

    def set_collision(self, on: bool) -> None:
        if on != self._collision:
            self._collision = on
            self._changed()

    def set_drop_target(self, on: bool) -> None:
        if on != self._drop_target:
            self._drop_target = on
            self._changed()

    def label(self) -> str:
        return self._label

    def footprint(self) -> QRectF:
        return self._rect

    def boundingRect(self) -> QRectF:
        return self._bounds

    def is_far(self, lod: float) -> bool:
        """A few pixels wide at ``lod``: one filled rectangle is all the eye can see."""
        return lod * self._rect.width() < 3

    def far_fill(self) -> QColor:
        return self._selected_fill if self.isSelected() else self._far_fill

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        self.paint_body(painter, option.levelOfDetailFromTransform(painter.worldTransform()))

    def paint_body(self, painter: QPainter, lod: float) -> None:
        """Draw the rack in item coordinates at level of detail ``lod`` (pixels per metre)."""
        r = self._rect
        if self.is_far(lod):
            painter.fillRect(r, self.far_fill())
            return
        pen, fill = self.look()
        painter.setPen(pen)
        painter.setBrush(fill)
        painter.drawRect(r)
        painter.fillRect(self.front(), FRONT_COLOR)
        if self.shows_label(lod):
            self._paint_label(painter, lod)

    def look(self) -> tuple[QPen, QColor]:
        """(edge pen, body fill) of the near drawing, kept until the rack's state changes."""
        selected = self.isSelected()
        if self._look is None or self._look[0] != selected:
            edge = (
                style.DROP_TARGET
                if self._drop_target
                else style.COLLISION
                if self._collision
                else style.SELECTION
                if selected
                else style.RACK_EDGE
            )
            pen = _edge_pen(
                edge, 4.0 if self._drop_target else 2.5 if (self._collision or selected) else 1.0
            )
            fill = QColor("#ffc9c9") if self._collision else QColor(self._fill)
            self._look = (selected, pen, fill)
        return self._look[1], self._look[2]

    def front(self) -> QRectF:
        """The strip that marks the front, in item coordinates."""
        r = self._rect
        return QRectF(r.left(), r.top(), r.width(), r.height() * FRONT_FRACTION)

    def front_color(self) -> QColor:
        return FRONT_COLOR

    def shows_label(self, lod: float) -> bool:
        r = self._rect
        return bool(self._label) and lod * min(r.width(), r.height()) >= LABEL_MIN_PX

    def _paint_label(self, painter: QPainter, lod: float) -> None:
        r = self._rect
        painter.save()
        # The label sits just behind the front strip, clear of the cable drops at the centre,
        # and stays upright whatever the rack's rotation.
        anchor = QTransform().rotate(self.rotation()).map(QPointF(0, r.top() + r.height() * 0.3))
        painter.rotate(-self.rotation())
        across = r.width() if self.rotation() in (0, 180) else r.height()
        size_m = min(across * 0.3, 13.0 / lod)
        scale = size_m / 12.0
        painter.translate(anchor)
        painter.scale(scale, scale)
        box = QRectF(-across / 2 / scale, -size_m / scale, across / scale, 2 * size_m / scale)
        painter.setFont(_label_font())
        painter.setPen(QColor("#111"))
        painter.drawText(box, Qt.AlignCenter | Qt.TextWrapAnywhere, self._label)
        painter.restore()
