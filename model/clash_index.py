"""ClashIndex: ``rack_clashes.clashing_racks`` for a drag in progress, with the still racks
indexed once.

While a person drags racks over the plan, the canvas asks after each snapped step which of the
dragged racks would clash. ``clashing_racks`` answers from the whole design each time: a box
per rack and a spatial tree of all of them, ~30–90 ms at 4,544 racks, on every step of the drag.
The racks that do not move are the same all along the drag, so this index builds their boxes,
their tree and the prepared hall outline once, and each step only places the moving racks'
boxes: the same rule (``model.rack_clashes``: overlap by more than ``OVERLAP_EPS_M2``, outside
the outline, on an obstacle), the same answer — ``tests/model/test_clash_index.py`` compares
both over random drags.

Valid while the design does not change (one drag); a pure helper, no Qt.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import shapely

from model.design import Design
from model.rack_clashes import OUTLINE_TOLERANCE_M, OVERLAP_EPS_M2, Footprint, footprint_box


class ClashIndex:
    """The racks of ``design`` other than ``moving``, indexed for repeated clash questions."""

    def __init__(self, design: Design, moving: Iterable[str]) -> None:
        self.design = design
        self.moving = set(moving)
        still = [r for r in design.racks.values() if r.id not in self.moving]
        self._boxes = np.array(
            [footprint_box((r.x, r.y, r.width_m, r.depth_m, r.rotation)) for r in still],
            dtype=float,
        ).reshape(-1, 4)
        self._tree = shapely.STRtree(
            shapely.box(self._boxes[:, 0], self._boxes[:, 1], self._boxes[:, 2], self._boxes[:, 3])
        )
        outline = shapely.Polygon(design.hall.outline).buffer(OUTLINE_TOLERANCE_M)
        shapely.prepare(outline)
        self._outline = outline
        self._obstacles = [shapely.Polygon(o.polygon) for o in design.hall.obstacles]

    def clashing(self, footprints: Mapping[str, Footprint]) -> set[str]:
        """Which moving racks would clash with the moving racks at ``footprints`` (every moving
        rack must have one): ``clashing_racks(design, footprints, moving)``."""
        ids = [r for r in footprints if r in self.moving]
        if not ids:
            return set()
        boxes = np.array([footprint_box(footprints[r]) for r in ids], dtype=float).reshape(-1, 4)
        polys = shapely.box(boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3])
        out: set[str] = set()
        # moving against still racks
        k, j = self._tree.query(polys, predicate="intersects")
        if len(k):
            hit = _overlaps(boxes[k], self._boxes[j])
            out.update(ids[p] for p in np.unique(k[hit]).tolist())
        # moving against moving racks (a group dragged together keeps its own gaps)
        if len(ids) > 1:
            tree = shapely.STRtree(polys)
            a, b = tree.query(polys, predicate="intersects")
            keep = a != b
            a, b = a[keep], b[keep]
            hit = _overlaps(boxes[a], boxes[b])
            out.update(ids[p] for p in np.unique(np.concatenate([a[hit], b[hit]])).tolist())
        inside = shapely.covers(self._outline, polys)
        out.update(ids[p] for p in np.flatnonzero(~inside).tolist())
        for shape in self._obstacles:
            for p, poly in enumerate(polys):
                if ids[p] in out or not shapely.intersects(poly, shape):
                    continue
                if shapely.area(shapely.intersection(poly, shape)) > OVERLAP_EPS_M2:
                    out.add(ids[p])
        return out


def _overlaps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per row: boxes ``a`` and ``b`` overlap by more than OVERLAP_EPS_M2 (rack_clashes' test)."""
    w = np.minimum(a[:, 2], b[:, 2]) - np.maximum(a[:, 0], b[:, 0])
    h = np.minimum(a[:, 3], b[:, 3]) - np.maximum(a[:, 1], b[:, 1])
    return (w > 0) & (h > 0) & (w * h > OVERLAP_EPS_M2)
