"""RackField: one item that paints every rack of the scene in a single paint call.

A RackItem per rack stays the model-to-item map's rack: it is what selection, hit tests,
tooltips and drags work on. But a whole-hall repaint at XL (4,544 racks) called 4,544 Python
``paint`` methods, ~15 µs each through the binding: ~80 ms against ~15 ms for Qt alone to fill
the same rectangles. So the scene's racks carry ``ItemHasNoContents`` (Qt never calls their
``paint``) and this item draws them, in their stacking order, from one Python call:

- a rack a few pixels wide (the far level of detail RackItem draws as one filled rectangle) is
  one ``fillRect`` of its footprint, kept in scene coordinates;
- a nearer rack is drawn by its own ``RackItem.paint_body`` under its scene transform, exactly as
  it drew itself.

A rack tells the field when it moved, turned, or changed what it shows (``rack_changed``); the
field repaints the rack's old and new bounds only. The racks an exposed rectangle meets are
found by one numpy box test over every rack's bounds (a per-rack ``QRectF.intersects`` in
Python was ~5 ms of every whole-hall paint, and the scene index's ``items()`` for a tray-long
strip ~15 ms); the test is ``QRectF.intersects``'s, so the same racks are painted, in the same
order. Its own bounds only grow (with room to
spare), as the row labels' do, so a move never repaints the whole hall.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui.canvas.rack_item import LABEL_MIN_PX
from gui.canvas.rack_overlaps import overlapping, overlapping_row

BOUNDS_SPARE_M = 5.0  # grown bounds: a rack moved just past them does not repaint the hall
# A repainted region of more rectangles than this is culled by its bounding rectangle alone (the
# box test is racks x rectangles; a view merges a region this ragged into one rectangle anyway).
MAX_CLIPS = 256


class RackField(QGraphicsItem):
    """Paints the racks registered with ``add``; z 0, as the racks themselves."""

    def __init__(self, on_change=None) -> None:
        """``on_change()``: called after any rack was added, removed or repainted."""
        super().__init__()
        self._on_change = on_change or (lambda: None)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)
        self.setAcceptedMouseButtons(Qt.NoButton)
        # Dict order is the racks' insertion order, their stacking order among themselves (all
        # at z 0).
        # item -> (scene bounds, place(item) or None until the next paint)
        self._racks: dict[QGraphicsItem, tuple] = {}
        self._rect = QRectF()
        self._selected: set = set()  # racks drawn selected
        # The racks' scene bounds as rows (left, top, right, bottom) in dict order, with each
        # item's row; None after a rack was added or removed (rebuilt at the next paint).
        self._boxes: np.ndarray | None = None
        self._items: list = []
        self._rows: dict = {}
        # What paint reads per row of _boxes, as arrays (see _Rows); None with _boxes.
        self._table: _Rows | None = None
        # The looks racks are drawn in (edge pen, body fill, front colour, far fill: objects
        # shared through _looks), each with its code, in the order first seen: for good, so
        # every paint, whole or in pieces, draws two racks in the same order.
        self._look_codes: dict[tuple, int] = {}
        self._look_list: list[tuple] = []
        # (viewport, clip boxes) of the view painting now (set_view_region), else None
        self._view_clips: tuple | None = None
        self._looks: dict[tuple, object] = {}  # equal edge pens and fills, one object each

    def selection_changed(self, selected) -> None:
        """The scene's selection is now ``selected`` (items): repaint the racks that joined or
        left it."""
        now = {item for item in selected if item in self._racks}
        for item in now ^ self._selected:
            self.rack_changed(item)
        self._selected = now

    def add(self, item) -> None:
        self.add_many([item])

    def add_many(self, items) -> None:
        """Paint ``items`` (placed racks) from now on: one repaint of them all."""
        dirty = QRectF()
        for item in items:
            bounds = item.sceneBoundingRect()
            self._racks[item] = (bounds, None)  # what to paint is read at the first paint
            dirty = dirty.united(bounds)
            self._boxes = None
        if dirty.isNull():
            return
        self._grow(dirty)
        self.update(dirty)
        self._on_change()

    def add_placed(self, keys, bounds, placed, boxes: np.ndarray) -> None:
        """Paint racks whose entries are computed already (a picture's, see picture_racks.py):
        ``keys`` stand for the racks (a near drawing calls their ``sceneTransform`` and
        ``paint_body``), with their scene ``bounds``, their ``place`` tuples and the bounds as
        rows of (left, top, right, bottom). The same field as ``add_many`` of the racks' items."""
        if not keys:
            return
        first = not self._racks
        for key, scene_bounds, entry in zip(keys, bounds, placed, strict=True):
            self._racks[key] = (scene_bounds, entry)
        if first:  # the culling boxes as entries() would build them
            self._items = list(keys)
            self._rows = {key: row for row, key in enumerate(self._items)}
            self._boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
            self._table = None
        else:
            self._boxes = None
        left, top = boxes[:, 0].min(), boxes[:, 1].min()
        right, bottom = boxes[:, 2].max(), boxes[:, 3].max()
        extent = QRectF(left, top, right - left, bottom - top)
        # The union add_many grows the bounds by, rectangle by rectangle (its float sums may end
        # an ulp past the extreme edges): taken only when the racks reach near the bounds.
        if not self._rect.contains(extent.adjusted(-1e-6, -1e-6, 1e-6, 1e-6)):
            dirty = QRectF()
            for scene_bounds in bounds:
                dirty = dirty.united(scene_bounds)
            self._grow(dirty)
            extent = dirty
        self.update(extent)
        self._on_change()

    def remove(self, item) -> None:
        placed = self._racks.pop(item, None)
        self._selected.discard(item)
        self._boxes = None
        if placed is not None:
            self.update(placed[0])
            self._on_change()

    def rack_changed(self, item) -> None:
        """``item`` moved, turned or looks different: repaint where it was and where it is."""
        old = self._racks.get(item)
        if old is None:
            return
        bounds = item.sceneBoundingRect()
        self._racks[item] = (bounds, None)
        if self._boxes is not None:
            row = self._rows[item]
            self._boxes[row] = _box(bounds)
            if self._table is not None:
                self._table.changed(row, self._boxes)
        self.update(old[0])
        if bounds != old[0]:
            self._grow(bounds)
            self.update(bounds)
        self._on_change()

    def place(self, item) -> tuple:
        """What painting ``item`` needs, read once per change of it rather than per paint:
        ((scene footprint, scene front strip) or None when the rack is not
        axis-aligned, shown, opacity, width m, side m its label needs or None, far fill,
        edge pen, body fill, front colour)."""
        r = item.footprint()
        rects = None
        if item.rotation() % 90 == 0:  # axis-aligned: footprint and strip are scene rectangles
            transform = item.sceneTransform()
            rects = (transform.mapRect(r), transform.mapRect(item.front()))
        pen, fill = item.look()
        # Equal pens and fills shared: the paint then sets them only when they change.
        pen = self._looks.setdefault(("pen", pen.color().rgba(), pen.widthF()), pen)
        fill = self._looks.setdefault(("fill", fill.rgba()), fill)
        far = item.far_fill()
        far = self._looks.setdefault(("fill", far.rgba()), far)
        return (
            rects,
            item.isVisible(),
            item.opacity(),
            r.width(),
            min(r.width(), r.height()) if item.label() else None,
            far,
            pen,
            fill,
            item.front_color(),
        )

    def cover(self, rect: QRectF) -> None:
        """Bounds at least ``rect`` (the hall): racks added inside it never grow them one by
        one (each growth re-indexes the item in the scene and repaints it whole)."""
        self._grow(rect)

    def _grow(self, rect: QRectF) -> None:
        if self._rect.contains(rect):
            return
        self.prepareGeometryChange()
        grown = rect.united(self._rect) if self._rect.isValid() else rect
        m = BOUNDS_SPARE_M
        self._rect = grown.adjusted(-m, -m, m, m)

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        # Never hit: clicks, tooltips and rubber bands between racks reach the trays, bundles
        # and floor under it, and a click on a rack reaches the RackItem, as before.
        return QPainterPath()

    def contains(self, _point) -> bool:
        return False

    def set_view_region(self, viewport, region, map_to_scene) -> None:
        """A view is about to repaint ``region`` (viewport pixels) of ``viewport``;
        ``map_to_scene(QRect) -> QPolygonF`` is the view's mapping. (None, None, None): done."""
        if viewport is None or region.rectCount() > MAX_CLIPS:
            self._view_clips = None
            return
        # One pixel of margin: a rack touching a repainted pixel only by its antialiased edge
        # is painted still.
        boxes = [_box(map_to_scene(r.adjusted(-1, -1, 1, 1)).boundingRect()) for r in region]
        self._view_clips = (viewport, np.array(boxes, dtype=np.float64).reshape(-1, 4))

    def _clips(self, painter: QPainter, widget) -> np.ndarray | None:
        """The scene boxes outside which nothing painted now shows: the view's repainted
        region, or the painter's clip (a picture rendered in strips); None: no such bound."""
        view = self._view_clips
        if view is not None and widget is not None and view[0] is widget:
            return view[1]
        if widget is None and painter.hasClipping():
            base = painter.worldTransform()
            inverse, invertible = base.inverted()
            if invertible:
                device = base.mapRect(painter.clipBoundingRect()).adjusted(-1, -1, 1, 1)
                return np.array([_box(inverse.mapRect(device))], dtype=np.float64)
        return None

    def _hit_rows(self, exposed: QRectF, clips: np.ndarray | None) -> np.ndarray:
        """The rows (ascending: stacking order) of the racks :meth:`entries` gives."""
        if self._boxes is None:
            self._items = list(self._racks)
            self._rows = {item: row for row, item in enumerate(self._items)}
            self._boxes = np.array(
                [_box(bounds) for bounds, _ in self._racks.values()], dtype=np.float64
            ).reshape(-1, 4)
            self._table = None
        left, top, right, bottom = _box(exposed)
        if left == right or top == bottom:  # QRectF.intersects: a null rectangle meets nothing
            return np.zeros(0, dtype=np.intp)
        b = self._boxes
        # QRectF.intersects with positive sizes: overlapping open intervals on both axes, and
        # neither rectangle null (a rack's bounds always have a size).
        hit = (
            (b[:, 0] < right)
            & (left < b[:, 2])
            & (b[:, 1] < bottom)
            & (top < b[:, 3])
            & (b[:, 0] != b[:, 2])
            & (b[:, 1] != b[:, 3])
        )
        if clips is not None and len(clips):
            c = clips[:, None, :]
            meets = (
                (b[None, :, 0] < c[..., 2])
                & (c[..., 0] < b[None, :, 2])
                & (b[None, :, 1] < c[..., 3])
                & (c[..., 1] < b[None, :, 3])
            )
            hit &= meets.any(axis=0)
        return np.flatnonzero(hit)

    def entries(self, exposed: QRectF, clips: np.ndarray | None = None) -> list[tuple]:
        """(item, (bounds, placed)) of the racks whose bounds intersect ``exposed`` and, given
        ``clips`` (rows of left, top, right, bottom), one of those boxes, in stacking order:
        exactly the racks ``bounds.intersects(exposed)`` selects, less those no clip box
        meets."""
        items, racks = self._items, self._racks
        return [(items[row], racks[items[row]]) for row in self._hit_rows(exposed, clips).tolist()]

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        """The racks under the exposed rectangle. Those drawn as plain rectangles (far: a
        filled footprint; near without a label: an edged footprint and its front strip) that
        overlap no other rack are drawn grouped by look, one ``drawRects`` per group; then the
        others, one by one in stacking order (a clash: which rack is on top shows).

        Why: one ``drawRect`` and one ``fillRect`` per rack through the binding, with the
        Python loop around them, was ~15-30 ms of a whole-hall repaint at XL (4,544 racks),
        against ~4 ms for Qt to draw the same rectangles from one call; the groups are picked
        by numpy over per-rack arrays read once per change of a rack (:class:`_Rows`).

        Grouped racks do not overlap, so their order shows only where two touch: there the one
        drawn later covers the inner half-pixel of its neighbour's edge. Groups are drawn in a
        fixed order, thin edges first (a selected rack's wide edge whole on top), all front
        strips after all bodies, so a repaint in pieces shows what a whole one does."""
        base = painter.worldTransform()
        lod = option.levelOfDetailFromTransform(base)
        rows = self._hit_rows(option.exposedRect, self._clips(painter, widget))
        table = self._table
        if table is None:
            table = self._table = _Rows(len(self._items), self._boxes)
        table.read(rows, self._items, self._racks, self.place, self._look_code)
        opacity = painter.opacity()
        grouped, one_by_one = table.split(rows, lod)
        painter.save()
        looks = self._look_list
        for code, alpha, rects in table.body_groups(grouped, lod, looks):
            pen, fill, _front, far = looks[code]
            painter.setOpacity(alpha * opacity)
            if pen is None:  # far: the filled footprint alone (RackItem's fillRect)
                painter.setPen(Qt.NoPen)
                painter.setBrush(far)
            else:
                painter.setPen(pen)
                painter.setBrush(fill)
            painter.drawRects(rects)
        painter.setPen(Qt.NoPen)
        for code, alpha, rects in table.strip_groups(grouped, lod):
            painter.setOpacity(alpha * opacity)
            painter.setBrush(looks[code][2])
            painter.drawRects(rects)
        items, racks = self._items, self._racks
        for row in one_by_one.tolist():
            item = items[row]
            rects, _shown, alpha, width, label_side, far, pen, fill, front = racks[item][1]
            painter.setOpacity(alpha * opacity)
            if rects is not None:  # RackItem.paint_body's drawing, in scene coordinates
                if lod * width < 3:
                    painter.fillRect(rects[0], far)
                    continue
                if label_side is None or lod * label_side < LABEL_MIN_PX:
                    painter.setPen(pen)
                    painter.setBrush(fill)
                    painter.drawRect(rects[0])
                    painter.fillRect(rects[1], front)
                    continue
            painter.save()
            painter.setWorldTransform(item.sceneTransform() * base)
            item.paint_body(painter, lod)
            painter.restore()
        painter.restore()

    def _look_code(self, pen, fill, front, far) -> int:
        """The code of a look (its objects' identities: equal pens and fills are one object,
        see place; QPen and QColor do not hash)."""
        key = (id(pen), id(fill), id(front), id(far))
        code = self._look_codes.get(key)
        if code is None:
            code = self._look_codes[key] = len(self._look_list)
            self._look_list.append((pen, fill, front, far))
            self._look_list.append((None, None, front, far))  # code + 1: the far drawing
        return code


class _Rows:
    """Per row of the rack field's boxes, what painting needs, as arrays: whether the rack is
    drawn as plain rectangles (axis-aligned and shown), its width and label side, its opacity,
    its look's code, whether it overlaps another rack, its footprint and front strip."""

    def __init__(self, n: int, boxes: np.ndarray) -> None:
        self.known = np.zeros(n, dtype=bool)  # read from the rack's placed tuple
        self.kind = np.zeros(n, dtype=np.int8)  # 0 hidden, 1 plain rectangles, 2 in detail
        self.width = np.zeros(n)
        self.label = np.zeros(n)  # the side a label needs; 0: no label
        self.alpha = np.ones(n)
        self.code = np.zeros(n, dtype=np.int64)
        self.foot = np.empty(n, dtype=object)
        self.strip = np.empty(n, dtype=object)
        self.overlaps = overlapping(boxes)

    def changed(self, row: int, boxes: np.ndarray) -> None:
        """The rack of ``row`` moved, turned or looks different (its box already updated)."""
        self.known[row] = False
        # Marked, never cleared until the boxes are rebuilt: a rack drawn one by one that no
        # longer overlaps is still drawn right.
        self.overlaps |= overlapping_row(boxes, row)

    def read(self, rows: np.ndarray, items, racks, place, look_code) -> None:
        """Fill the rows among ``rows`` not read yet from their racks' placed tuples (placed
        first where a rack was added or changed)."""
        for row in rows[~self.known[rows]].tolist():
            item = items[row]
            bounds, placed = racks[item]
            if placed is None:
                placed = place(item)
                racks[item] = (bounds, placed)
            rects, shown, alpha, width, label_side, far, pen, fill, front = placed
            self.kind[row] = 0 if not shown else 1 if rects is not None else 2
            self.width[row] = width
            self.label[row] = label_side or 0.0
            self.alpha[row] = alpha
            self.code[row] = look_code(pen, fill, front, far)
            if rects is not None:
                self.foot[row], self.strip[row] = rects
            self.known[row] = True

    def split(self, rows: np.ndarray, lod: float) -> tuple[np.ndarray, np.ndarray]:
        """(rows drawn grouped, rows drawn one by one), each in stacking order."""
        kind = self.kind[rows]
        plain = (kind == 1) & (
            (lod * self.width[rows] < 3) | (lod * self.label[rows] < LABEL_MIN_PX)
        )
        grouped = plain & ~self.overlaps[rows]
        return rows[grouped], rows[(kind > 0) & ~grouped]

    def _far(self, rows: np.ndarray, lod: float) -> np.ndarray:
        return lod * self.width[rows] < 3

    def body_groups(self, rows: np.ndarray, lod: float, looks: list):
        """(look code, opacity, footprints) per group of ``rows``: thin edges first, then the
        looks in the order first seen; the footprints in stacking order."""
        code = self.code[rows] + self._far(rows, lod)
        widths = np.array([0.0 if p is None else p.widthF() for p, *_ in looks])
        return self._groups(rows, code, widths[code], self.foot)

    def strip_groups(self, rows: np.ndarray, lod: float):
        """(look code, opacity, front strips) of the near racks among ``rows``, by look."""
        near = rows[~self._far(rows, lod)]
        return self._groups(near, self.code[near], np.zeros(len(near)), self.strip)

    def _groups(self, rows, code, first_key, rects):
        if not len(rows):
            return []
        alpha = self.alpha[rows]
        order = np.lexsort((rows, code, alpha, first_key))
        key = np.stack([first_key[order], alpha[order], code[order]])
        starts = np.flatnonzero(np.concatenate([[True], (key[:, 1:] != key[:, :-1]).any(0)]))
        ends = np.append(starts[1:], len(order))
        picked = rects[rows[order]].tolist()
        codes, alphas = code[order].tolist(), alpha[order].tolist()
        spans = zip(starts.tolist(), ends.tolist(), strict=True)
        return [(codes[s], alphas[s], picked[s:e]) for s, e in spans]


def _box(rect: QRectF) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of ``rect`` with its size made positive, as
    ``QRectF.intersects`` reads it."""
    x, y, w, h = rect.x(), rect.y(), rect.width(), rect.height()
    left, right = (x + w, x) if w < 0 else (x, x + w)
    top, bottom = (y + h, y) if h < 0 else (y, y + h)
    return left, top, right, bottom
