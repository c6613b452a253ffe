"""RowLabelsItem: "Row A" beside each row of racks, drawn only when the plan is zoomed out so
far that the racks' own names are too small to read, and never in a thumbnail view (a view
whose ``shows_row_labels`` is False). Dumb: the scene hands it the labels."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style

SHOW_BELOW_PX_PER_M = 40.0  # about where a 0.6 m rack's name stops being legible
TEXT_PX = 13
LABEL_BOX_PX = QRectF(-86, -10, 80, 20)  # where a label's text goes, from its row's first rack
SHARED_LABEL_M = 0.5  # row labels nearer than this in y (and 3 m in x) would overlap
BOUNDS_SPARE_M = 5.0  # the bounds grow this much past the labels, so small moves stay inside


def _shows_row_labels(widget, scene=None) -> bool:
    """False in a view that draws the plan as a thumbnail (the Overview, which renders the
    scene into a picture with no widget, saying so on the scene): there the labels, kept at
    screen size, would cover the whole hall."""
    if getattr(scene, "rendering_thumbnail", False):
        return False
    view = widget.parent() if widget is not None else None
    return getattr(view, "shows_row_labels", True)


def _label_rect(label: tuple[str, float, float]) -> QRectF:
    """Where a row's label may be drawn (metres): the 20 m left of the row's first rack."""
    _text, x, y = label
    return QRectF(x - 20, y - 5, 20, 10)


class RowLabelsItem(QGraphicsItem):
    def __init__(self) -> None:
        super().__init__()
        self.setZValue(40)
        self._labels: list[tuple[str, float, float]] = []  # text, right edge x, centre y (m)
        self._rect = QRectF()
        self._font = QFont("Sans Serif")
        self._font.setPixelSize(TEXT_PX)
        self._font.setBold(True)

    def set_labels(self, labels: list[tuple[str, float, float]]) -> None:
        if labels == self._labels:
            return  # a move that keeps every row's leftmost rack: nothing to repaint
        before = set(self._labels)
        self._labels = labels
        rect = QRectF()
        for label in labels:
            rect = rect.united(_label_rect(label))
        if not self._rect.contains(rect):
            # The bounds only grow (a row moved out of them), with room to spare: a bounding
            # rect a little larger than the labels costs nothing, and a change of it repaints
            # the whole item, which is the whole hall.
            self.prepareGeometryChange()
            grown = rect.united(self._rect) if self._rect.isValid() else rect
            m = BOUNDS_SPARE_M
            self._rect = grown.adjusted(-m, -m, m, m)
            self.update()
            return
        # Only the rows whose label moved: the item spans the hall, and a whole-item update
        # after a rack move repainted every rack of the hall.
        dirty = QRectF()
        for label in before.symmetric_difference(labels):
            dirty = dirty.united(_label_rect(label))
        self.update(dirty)

    def labels(self) -> list[tuple[str, float, float]]:
        return list(self._labels)

    def left_edge_m(self, px_per_m: float) -> float | None:
        """The leftmost x (m) a label reaches when drawn at ``px_per_m``; None when none is."""
        if px_per_m >= SHOW_BELOW_PX_PER_M or not self._labels:
            return None
        return min(x for _text, x, _y in self._labels) + LABEL_BOX_PX.left() / px_per_m

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        if (
            lod >= SHOW_BELOW_PX_PER_M
            or not self._labels
            or not _shows_row_labels(widget, self.scene())
        ):
            return
        painter.save()
        painter.setFont(self._font)
        painter.setPen(QColor(style.ROW_LABEL))
        for text, x, y in self._labels:
            painter.save()
            painter.translate(QPointF(x, y))
            painter.scale(1 / lod, 1 / lod)  # pixels from here: the label keeps its size
            painter.drawText(LABEL_BOX_PX, Qt.AlignRight | Qt.AlignVCenter, text)
            painter.restore()
        painter.restore()


def shared_labels(labels: list[tuple[str, float, float]]) -> list[tuple[str, float, float]]:
    """Rows whose labels would be drawn on top of each other (racks named R1 and N1 side by
    side in one line of the floor) share one label, "Rows N, R", at the leftmost rack."""
    out: list[tuple[list[str], float, float]] = []
    for text, x, y in sorted(labels, key=lambda label: (label[2], label[1])):
        if out and abs(y - out[-1][2]) < SHARED_LABEL_M and abs(x - out[-1][1]) < 3.0:
            out[-1][0].append(text.removeprefix("Row "))
            continue
        out.append(([text.removeprefix("Row ")], x, y))
    return [
        (("Rows " if len(names) > 1 else "Row ") + ", ".join(sorted(names)), x, y)
        for names, x, y in out
    ]
