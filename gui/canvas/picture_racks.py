"""The racks of a picture (``main.py render``, File > Export picture): RackField's paint entries
for every rack, computed together from the model, with no QGraphicsItem per rack.

A picture never selects, drags or hovers a rack, yet the editor's scene made a RackItem per rack
and the field then read each one back through the binding: at XL (4,544 racks) ~0.16 s to build
the items and ~0.07 s to read them at the first paint, of a 2 s command. Here the footprint, the
front strip and the bounds of the racks turned 0 or 180 degrees are computed by numpy with the
arithmetic of Qt's ``QTransform::mapRect`` for the transform a RackItem would have (a
translation; for 180 degrees, a scale by -1 and a translation), so they are the same floats, and
their colours are one object per role. Any other rack, and any rack drawn large enough to show
its name, is drawn by a RackItem made for it on demand and never added to the scene: the same
``paint_body`` as in the editor.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QRectF

from gui.canvas.rack_item import FRONT_COLOR, FRONT_FRACTION, RackItem

BOUNDS_MARGIN_M = 0.02  # RackItem's bounds: its footprint grown by this on every side
TURNS = (0, 180)  # the rotations computed here; the others go through a RackItem


class PictureRack:
    """A rack of a picture as RackField paints it: its near drawing (and only that) needs a
    RackItem, made by ``make(rack_id)`` the first time it is asked for."""

    __slots__ = ("rack_id", "_make", "_item")

    def __init__(self, rack_id: str, make: Callable[[str], RackItem]) -> None:
        self.rack_id = rack_id
        self._make = make
        self._item: RackItem | None = None

    def item(self) -> RackItem:
        if self._item is None:
            self._item = self._make(self.rack_id)
        return self._item

    # What RackField.paint asks of a rack it draws near (label, odd rotation): the item's own.
    def sceneTransform(self):  # noqa: N802 - QGraphicsItem's name, as the field calls it
        return self.item().sceneTransform()

    def paint_body(self, painter, lod: float) -> None:
        self.item().paint_body(painter, lod)


def scene_rects(
    x: np.ndarray, y: np.ndarray, width_m: np.ndarray, depth_m: np.ndarray, rotation: np.ndarray
) -> dict[str, np.ndarray]:
    """Scene rectangles (rows of x, y, width, height) of racks centred at ``x``, ``y`` and turned
    0 or 180 degrees: "footprint", "front" (the front strip) and "bounds", each exactly as
    ``RackItem.sceneTransform().mapRect(...)`` and ``sceneBoundingRect()`` give them.

    Qt's arithmetic: the item rectangle is (-w/2, -d/2, w, d); at 0 degrees the transform is a
    translation (``QRectF.translated``: x + px); at 180 it is of scale type with m11 = m22 = -1
    (x' = -x + px, then w' = -w is negative: flipped, x' -= w)."""
    left, top = -width_m / 2, -depth_m / 2
    m = BOUNDS_MARGIN_M
    item_rects = {
        "footprint": (left, top, width_m, depth_m),
        "front": (left, top, width_m, depth_m * FRONT_FRACTION),
        # QRectF.adjusted(-m, -m, m, m): (x - m, y - m, (w + m) - (-m), (h + m) - (-m))
        "bounds": (left + -m, top + -m, (width_m + m) - -m, (depth_m + m) - -m),
    }
    turned = rotation == 180
    out = {}
    for name, (rx, ry, rw, rh) in item_rects.items():
        sx = np.where(turned, (-rx + x) - rw, rx + x)
        sy = np.where(turned, (-ry + y) - rh, ry + y)
        out[name] = np.stack(np.broadcast_arrays(sx, sy, rw, rh), axis=1)
    return out


def picture_entries(
    racks: list, look_of: Callable[[str], tuple], make: Callable[[str], RackItem], place
) -> tuple[list[PictureRack], list[QRectF], list[tuple], np.ndarray]:
    """RackField entries of ``racks`` (model records, in stacking order): the keys, their scene
    bounds, what painting each needs (RackField.place's tuple) and the bounds as rows of
    (left, top, right, bottom), the field's culling boxes.

    ``look_of(rack_id)``: (far fill, edge pen, body fill) of the rack as a RackItem of the
    editor's scene shows it unselected, equal ones one object; ``make(rack_id)``: a RackItem set
    up as the scene's; ``place(item)``: the field's placing of an item (racks at other
    rotations, drawn through their item)."""
    n = len(racks)
    keys = [PictureRack(r.id, make) for r in racks]
    x = np.fromiter((r.x for r in racks), dtype=np.float64, count=n)
    y = np.fromiter((r.y for r in racks), dtype=np.float64, count=n)
    w = np.fromiter((r.width_m for r in racks), dtype=np.float64, count=n)
    d = np.fromiter((r.depth_m for r in racks), dtype=np.float64, count=n)
    rot = np.fromiter((r.rotation for r in racks), dtype=np.float64, count=n)
    rects = scene_rects(x, y, w, d, rot)
    b = rects["bounds"]
    # QRectF.right() is x + width, bottom() y + height: the same sums, so the same boxes.
    boxes = np.stack([b[:, 0], b[:, 1], b[:, 0] + b[:, 2], b[:, 1] + b[:, 3]], axis=1)
    foot, front, bounds = rects["footprint"].tolist(), rects["front"].tolist(), b.tolist()
    label_side = np.minimum(w, d).tolist()
    computed = np.isin(rot, TURNS).tolist()
    out_bounds: list[QRectF] = []
    placed: list[tuple] = []
    for k, rack in enumerate(racks):
        if not computed[k]:
            item = keys[k].item()
            scene_bounds = item.sceneBoundingRect()
            out_bounds.append(scene_bounds)
            placed.append(place(item))
            boxes[k] = (
                scene_bounds.left(),
                scene_bounds.top(),
                scene_bounds.right(),
                scene_bounds.bottom(),
            )
            continue
        far_fill, pen, fill = look_of(rack.id)
        out_bounds.append(QRectF(*bounds[k]))
        placed.append(
            (
                (QRectF(*foot[k]), QRectF(*front[k])),
                True,  # shown: a picture hides no layer
                1.0,  # opacity
                foot[k][2],
                label_side[k] if rack.name else None,
                far_fill,
                pen,
                fill,
                FRONT_COLOR,
            )
        )
    return keys, out_bounds, placed, boxes.reshape(-1, 4)
