"""The optimiser's clash check: a candidate's footprints against boxes of every rack, kept.

:func:`model.design.rack_clashes.rack_clashes` lays out every rack's box at each call (~5 ms at
XL's ~4,500 racks, per candidate). :class:`ClashIndex` keeps those boxes in one array, follows
the design's rack moves (it listens to the design's changes and re-reads the moved rows), and
tests only the candidate's racks: the same rule (overlap above ``OVERLAP_EPS_M2``, the outline
within ``OUTLINE_TOLERANCE_M``, obstacles), so it refuses exactly what ``rack_clashes`` would.
Any other edit (racks added or removed, the hall or its obstacles) rebuilds it at the next
query.
"""

from __future__ import annotations

import weakref

import numpy as np
import shapely

from model.design.changes import Change, ChangeKind
from model.design.design import Design
from model.design.entities import plan_size
from model.design.rack_clashes import OUTLINE_TOLERANCE_M, OVERLAP_EPS_M2

Position = tuple[float, float]


class ClashIndex:
    """Boxes of the design's racks, kept while racks move; close it when done."""

    def __init__(self, design: Design) -> None:
        self.design = design
        self._built = False
        # Held weakly by its listener, so an index left unclosed (a run that raised) goes
        # with its last user instead of following the design's moves for good.
        follow = weakref.ref(self)

        def heard(change: Change) -> None:
            index = follow()
            if index is not None:
                index._changed(change)

        self._subscription = design.subscribe(heard)
        weakref.finalize(self, self._subscription.close)

    def close(self) -> None:
        self._subscription.close()

    def _changed(self, change: Change) -> None:
        if not self._built:
            return
        if change.kinds - {ChangeKind.RACKS_MOVED}:
            self._built = False  # racks added or removed, the hall: rebuilt when next asked
            return
        for rack_id in change.ids(ChangeKind.RACKS_MOVED):
            row = self._row.get(rack_id)
            if row is None:
                self._built = False
                return
            rack = self.design.racks[rack_id]
            w, d = plan_size(rack.width_m, rack.depth_m, rack.rotation)
            self._half[row] = (w / 2, d / 2)
            self._boxes[row] = self._box(rack.x, rack.y, row)

    def _build(self) -> None:
        racks = list(self.design.racks.values())
        self._row = {r.id: i for i, r in enumerate(racks)}
        half = [plan_size(r.width_m, r.depth_m, r.rotation) for r in racks]
        self._half = np.array(half, dtype=float).reshape(-1, 2) / 2
        self._boxes = np.zeros((len(racks), 4))
        for i, r in enumerate(racks):
            self._boxes[i] = self._box(r.x, r.y, i)
        hall = self.design.hall
        self._outline = shapely.Polygon(hall.outline).buffer(OUTLINE_TOLERANCE_M)
        shapely.prepare(self._outline)
        self._obstacles = [shapely.Polygon(o.polygon) for o in hall.obstacles]
        for shape in self._obstacles:
            shapely.prepare(shape)
        self._built = True

    def _box(self, x: float, y: float, row: int) -> tuple[float, float, float, float]:
        # The centre plus or minus half the plan size, as rack_clashes lays a box out (its
        # halves are the plan size divided by 2, so the edges are the same floats).
        hw, hd = self._half[row]
        return (x - hw, y - hd, x + hw, y + hd)

    def clashes(self, moves: dict[str, Position]) -> bool:
        """Whether any rack of ``moves`` (rack id -> new centre, the others staying) would
        overlap a rack, stand on an obstacle or leave the hall outline."""
        if not self._built:
            self._build()
        rows = np.array([self._row[r] for r in moves], dtype=np.int64)
        sub = np.array(
            [
                self._box(x, y, row)
                for (x, y), row in zip(moves.values(), rows.tolist(), strict=True)
            ]
        ).reshape(-1, 4)
        boxes = self._boxes.copy() if len(rows) > 1 else self._boxes
        if len(rows) > 1:
            boxes[rows] = sub  # moved racks are tested against each other at their new places
        w = np.minimum(sub[:, None, 2], boxes[None, :, 2]) - np.maximum(
            sub[:, None, 0], boxes[None, :, 0]
        )
        h = np.minimum(sub[:, None, 3], boxes[None, :, 3]) - np.maximum(
            sub[:, None, 1], boxes[None, :, 1]
        )
        hit = (w > 0) & (h > 0) & (w * h > OVERLAP_EPS_M2)
        hit[np.arange(len(rows)), rows] = False  # a rack does not clash with itself
        if hit.any():
            return True
        polys = shapely.box(sub[:, 0], sub[:, 1], sub[:, 2], sub[:, 3])
        if not shapely.covers(self._outline, polys).all():
            return True
        for shape in self._obstacles:
            near = shapely.intersects(shape, polys)
            if (
                near.any()
                and (shapely.area(shapely.intersection(polys[near], shape)) > OVERLAP_EPS_M2).any()
            ):
                return True
        return False
