"""Where a rack may stand: the one collision rule the analysis warnings and the canvas share.

A rack clashes when its footprint overlaps another rack's or an obstacle's by more than
``OVERLAP_EPS_M2`` (racks touching side by side in a row are fine), or when the footprint is
not inside the hall outline (within 1 µm). Footprints are axis-aligned boxes: racks turn by
multiples of 90 degrees (``plan_size``).

``rack_clashes`` checks the design as it stands, or as it would stand with some racks at other
places (a drag in progress, a rack about to be placed), so the canvas shows red exactly where
the analysis would warn once the edit is made.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import shapely

from model.design.design import Design

OVERLAP_EPS_M2 = 1e-4
OUTLINE_TOLERANCE_M = 1e-6
# Up to this many racks checked (a move, a paste), they are tested against every rack's box
# directly (a few thousand comparisons each) instead of building a spatial index of all racks.
_DIRECT_MAX = 64

# x, y of the centre, width, depth (metres), rotation (degrees)
Footprint = tuple[float, float, float, float, int]


@dataclass(frozen=True)
class Clash:
    """One broken placement rule: ``code`` is the warning code, ``other`` the second rack of an
    overlap or the obstacle stood on (None for a rack outside the hall)."""

    code: str  # RACK_OVERLAP, RACK_OUTSIDE_HALL or RACK_ON_OBSTACLE
    rack: str
    other: str | None = None


def rack_clashes(
    design: Design,
    footprints: Mapping[str, Footprint] | None = None,
    only: Iterable[str] | None = None,
) -> list[Clash]:
    """Clashes of the design's racks, with ``footprints`` (rack id -> footprint) replacing
    racks' places or adding racks not in the design. With ``only``, just the clashes that
    involve one of those racks (cheap: the others are not checked against each other)."""
    places = {
        r.id: (r.x, r.y, r.width_m, r.depth_m, r.rotation) for r in design.racks.values()
    } | dict(footprints or {})
    ids = list(places)
    if not ids:
        return []
    boxes = _boxes(list(places.values()))
    row = {r: i for i, r in enumerate(ids)}
    subject = (
        np.arange(len(ids))
        if only is None
        else np.array(sorted({row[r] for r in only if r in row}), dtype=np.int64)
    )
    out: list[Clash] = []
    if not len(subject):
        return out
    if only is None or len(subject) > _DIRECT_MAX:
        polys = _polys(boxes)
        tree = shapely.STRtree(polys)
        k, j = tree.query(polys[subject], predicate="intersects")
        i = subject[k]
    else:
        # A few racks (a move): test them against every box directly, without building a tree
        # of all racks. Boxes that merely intersect are the tree's candidates; the overlap test
        # below keeps the same pairs either way.
        polys, tree = None, None
        sub = boxes[subject]
        near = (
            (sub[:, None, 0] <= boxes[None, :, 2])
            & (boxes[None, :, 0] <= sub[:, None, 2])
            & (sub[:, None, 1] <= boxes[None, :, 3])
            & (boxes[None, :, 1] <= sub[:, None, 3])
        )
        k, j = np.nonzero(near)
        i = subject[k]
    keep = i != j
    i, j = np.minimum(i[keep], j[keep]), np.maximum(i[keep], j[keep])
    if len(i):
        pairs = np.unique(i * len(ids) + j)
        i, j = pairs // len(ids), pairs % len(ids)
    w = np.minimum(boxes[i, 2], boxes[j, 2]) - np.maximum(boxes[i, 0], boxes[j, 0])
    h = np.minimum(boxes[i, 3], boxes[j, 3]) - np.maximum(boxes[i, 1], boxes[j, 1])
    hit = (w > 0) & (h > 0) & (w * h > OVERLAP_EPS_M2)
    out += [
        Clash("RACK_OVERLAP", ids[p], ids[q])
        for p, q in zip(i[hit].tolist(), j[hit].tolist(), strict=True)
    ]
    shown = polys[subject] if polys is not None else _polys(boxes[subject])
    outline = shapely.Polygon(design.hall.outline).buffer(OUTLINE_TOLERANCE_M)
    shapely.prepare(outline)  # thousands of covers() tests against one polygon: ~4x faster
    inside = shapely.covers(outline, shown)
    out += [Clash("RACK_OUTSIDE_HALL", ids[p]) for p in subject[~inside].tolist()]
    wanted = set(subject.tolist())
    for obstacle in design.hall.obstacles:
        shape = shapely.Polygon(obstacle.polygon)
        if tree is not None:
            touching = tree.query(shape, predicate="intersects").tolist()
        else:  # the few racks checked, in row order
            touching = subject[shapely.intersects(shown, shape)].tolist()
        for p in touching:
            poly = polys[p] if polys is not None else shown[np.searchsorted(subject, p)]
            if p in wanted and shapely.area(shapely.intersection(poly, shape)) > OVERLAP_EPS_M2:
                out.append(Clash("RACK_ON_OBSTACLE", ids[p], obstacle.id))
    return out


def _boxes(places: list[Footprint]) -> np.ndarray:
    """(x0, y0, x1, y1) per footprint, the centre plus or minus half the plan size
    (``plan_size``)."""
    cols = np.array(places, dtype=float).reshape(-1, 5)
    x, y, width_m, depth_m, rotation = cols.T
    square = np.isin(rotation, (0, 180))  # plan_size: width along x unless turned 90/270
    w, d = np.where(square, width_m, depth_m), np.where(square, depth_m, width_m)
    return np.stack([x - w / 2, y - d / 2, x + w / 2, y + d / 2], axis=1)


def _polys(boxes: np.ndarray) -> np.ndarray:
    return shapely.box(boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3])


def clashing_racks(
    design: Design, footprints: Mapping[str, Footprint], only: Iterable[str]
) -> set[str]:
    """Which of ``only`` would clash with ``footprints`` applied (the canvas's red racks)."""
    only = set(only)
    out: set[str] = set()
    for clash in rack_clashes(design, footprints, only):
        out.update(r for r in (clash.rack, clash.other) if r is not None and r in only)
    return out
