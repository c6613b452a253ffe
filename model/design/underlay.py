"""The drawing under the plan: where its points land on the plan (scaled, turned, moved), its
calibration by two points and a distance (and the line's direction), and snapping a drawn point
to its lines.

Pure geometry over :class:`~model.design.entities.Underlay` and numpy arrays of segments; the
drawing file itself is read in :mod:`model.files.underlay_file`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import msgspec
import numpy as np

from model.design.entities import Point, Underlay
from model.design.records import DesignError

# Drawing units (DXF $INSUNITS codes) in metres: the scale an imported DXF starts with. An
# image has no unit: its pixels start at 1 cm (a scanned plan is calibrated anyway).
DXF_UNIT_M = {
    1: 0.0254,  # inches
    2: 0.3048,  # feet
    4: 0.001,  # millimetres
    5: 0.01,  # centimetres
    6: 1.0,  # metres
    14: 0.1,  # decimetres
}
DEFAULT_DXF_UNIT_M = 0.001  # unitless DXF: building drawings are drawn in millimetres
IMAGE_PIXEL_M = 0.01
# A PDF's unit is the point (1/72 inch on paper). Building plans are printed at 1:100 (or
# 1:50, 1:200): the page starts at 1:100, so an A1 sheet covers 84 m x 59 m, a hall's size,
# until it is calibrated by two points like any drawing.
PDF_POINT_M = 0.0254 / 72
PDF_START_RATIO = 100
MAX_CROSSING_SEGMENTS = 200  # near the pointer; pairs grow as the square (20k pairs ~1 ms)


class Transform(NamedTuple):
    """Plan (x, y) = (ox, oy) + R(rotation) (sx * u, sy * v), metres from drawing units; R
    turns clockwise on the plan as seen (plan y runs down)."""

    ox: float
    oy: float
    sx: float
    sy: float
    rotation_deg: float = 0.0

    def matrix(self) -> tuple[float, float, float, float, float, float]:
        """(m11, m12, m21, m22, dx, dy): x = m11 u + m21 v + dx, y = m12 u + m22 v + dy (Qt's
        QTransform order)."""
        c, s = _cos_sin(self.rotation_deg)
        return c * self.sx, s * self.sx, -s * self.sy, c * self.sy, self.ox, self.oy

    def on_plan(self, u: float, v: float) -> Point:
        m11, m12, m21, m22, dx, dy = self.matrix()
        return m11 * u + m21 * v + dx, m12 * u + m22 * v + dy


def _cos_sin(angle_deg: float) -> tuple[float, float]:
    """Exact for the quarter turns (a drawing turned 90 degrees keeps its lines on the grid)."""
    quarter = angle_deg / 90.0
    if quarter == round(quarter):
        return ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[int(round(quarter)) % 4]
    a = math.radians(angle_deg)
    return math.cos(a), math.sin(a)


def normal_angle(angle_deg: float) -> float:
    """``angle_deg`` in (-180, 180], rounded to 1e-6 degree (what the file keeps)."""
    a = math.fmod(angle_deg, 360.0)
    if a <= -180.0:
        a += 360.0
    elif a > 180.0:
        a -= 360.0
    return round(a, 6)


def transform(underlay: Underlay) -> Transform:
    flip = -1.0 if underlay.kind == "dxf" else 1.0
    return Transform(
        underlay.origin_x_m,
        underlay.origin_y_m,
        underlay.scale_m,
        flip * underlay.scale_m,
        underlay.rotation_deg,
    )


def segments_on_plan(underlay: Underlay, segments: np.ndarray) -> np.ndarray:
    """``segments`` (n x 4: u0, v0, u1, v1 in drawing units) as plan metres (x0, y0, x1, y1)."""
    m11, m12, m21, m22, dx, dy = transform(underlay).matrix()
    u, v = segments[:, 0::2].astype(float), segments[:, 1::2].astype(float)
    out = np.empty(segments.shape, dtype=float)
    out[:, 0::2] = m11 * u + m21 * v + dx
    out[:, 1::2] = m12 * u + m22 * v + dy
    return out


def page_edges(underlay: Underlay, width_u: float, height_u: float) -> np.ndarray:
    """The four edges of a page ``width_u`` x ``height_u`` drawing units (an image's pixels, a
    PDF page's points) on the plan (4 x 4 metres): what a drawn point snaps to on a picture,
    whose pixels hold no lines to snap to; its corners and edges are known points to align
    and calibrate the page by (a sheet's frame, a scanned plan cut to the walls)."""
    w, h = float(width_u), float(height_u)
    corners = np.array([(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)])
    page = np.hstack([corners, np.roll(corners, -1, axis=0)])
    return segments_on_plan(underlay, page)


def placed_at(underlay: Underlay, corner_uv: Point, at: Point) -> Underlay:
    """The underlay moved so that drawing point ``corner_uv`` lies on plan point ``at``."""
    t = transform(underlay)._replace(ox=0.0, oy=0.0)
    x, y = t.on_plan(*corner_uv)
    return msgspec.structs.replace(
        underlay, origin_x_m=round(at[0] - x, 6), origin_y_m=round(at[1] - y, 6)
    )


def moved_by(underlay: Underlay, dx_m: float, dy_m: float) -> Underlay:
    """The underlay shifted on the plan by (dx, dy) metres (aligned: a drawing point clicked,
    then where it belongs)."""
    if not (math.isfinite(dx_m) and math.isfinite(dy_m)):
        raise DesignError("a move is two finite distances")
    return msgspec.structs.replace(
        underlay,
        origin_x_m=round(underlay.origin_x_m + dx_m, 6),
        origin_y_m=round(underlay.origin_y_m + dy_m, 6),
    )


def line_angle_deg(first: Point, second: Point) -> float:
    """The direction from ``first`` to ``second`` on the plan, degrees clockwise from +x as
    seen (plan y runs down): 0 east, 90 south."""
    return math.degrees(math.atan2(second[1] - first[1], second[0] - first[0]))


def calibrated(
    underlay: Underlay,
    first: Point,
    second: Point,
    distance_m: float,
    angle_deg: float | None = None,
) -> Underlay:
    """The underlay rescaled so that two plan points clicked on it lie ``distance_m`` apart,
    and, with ``angle_deg``, turned so that the line from the first to the second runs at
    that angle on the plan (:func:`line_angle_deg`'s convention: 0 along +x).

    The first point stays where it is on the plan (the drawing grows, shrinks and turns about
    it), so a user who clicked a known corner keeps that corner in place."""
    measured_m = math.dist(first, second)
    if not (math.isfinite(distance_m) and distance_m > 0):
        raise DesignError("the distance between the two points must be a positive length")
    if measured_m < 1e-9:
        raise DesignError("click two different points to calibrate the drawing")
    if angle_deg is not None and not math.isfinite(angle_deg):
        raise DesignError("the direction of the line must be a finite angle")
    k = distance_m / measured_m
    scale_m = underlay.scale_m * k
    if not 0 < scale_m <= 1e4:
        raise DesignError(f"a scale of {scale_m:g} m per drawing unit is out of range")
    turn = 0.0 if angle_deg is None else angle_deg - line_angle_deg(first, second)
    rotation = normal_angle(underlay.rotation_deg + turn)
    c, s = _cos_sin(normal_angle(turn))
    fx, fy = first
    rx, ry = underlay.origin_x_m - fx, underlay.origin_y_m - fy
    return msgspec.structs.replace(
        underlay,
        scale_m=scale_m,
        rotation_deg=rotation,
        origin_x_m=round(fx + k * (c * rx - s * ry), 6),
        origin_y_m=round(fy + k * (s * rx + c * ry), 6),
    )


def rotated(underlay: Underlay, rotation_deg: float, about: Point) -> Underlay:
    """The underlay turned to ``rotation_deg`` (a typed angle) about plan point ``about``
    (the drawing's point there stays put)."""
    if not math.isfinite(rotation_deg):
        raise DesignError("the rotation must be a finite angle")
    target = normal_angle(rotation_deg)
    c, s = _cos_sin(normal_angle(target - underlay.rotation_deg))
    ax, ay = about
    rx, ry = underlay.origin_x_m - ax, underlay.origin_y_m - ay
    return msgspec.structs.replace(
        underlay,
        rotation_deg=target,
        origin_x_m=round(ax + c * rx - s * ry, 6),
        origin_y_m=round(ay + s * rx + c * ry, 6),
    )


def snap_to_segments(
    segments_m: np.ndarray, x: float, y: float, tolerance_m: float
) -> tuple[float, float] | None:
    """The point of the drawing's lines (plan metres, n x 4) a point at (x, y) snaps to: the
    nearest segment end within ``tolerance_m`` first (corners are what one traces), then the
    nearest crossing of two lines (a wall meeting a grid line), else the nearest point on a
    segment; None when no line is that close."""
    if len(segments_m) == 0 or tolerance_m <= 0:
        return None
    near = (
        (np.minimum(segments_m[:, 0], segments_m[:, 2]) <= x + tolerance_m)
        & (np.maximum(segments_m[:, 0], segments_m[:, 2]) >= x - tolerance_m)
        & (np.minimum(segments_m[:, 1], segments_m[:, 3]) <= y + tolerance_m)
        & (np.maximum(segments_m[:, 1], segments_m[:, 3]) >= y - tolerance_m)
    )
    seg = segments_m[near]
    if len(seg) == 0:
        return None
    ends = np.concatenate([seg[:, 0:2], seg[:, 2:4]])
    d_end = np.hypot(ends[:, 0] - x, ends[:, 1] - y)
    best = int(np.argmin(d_end))
    if d_end[best] <= tolerance_m:
        return float(ends[best, 0]), float(ends[best, 1])
    crossing = _nearest_crossing(seg[:MAX_CROSSING_SEGMENTS], x, y, tolerance_m)
    if crossing is not None:
        return crossing
    a, b = seg[:, 0:2], seg[:, 2:4]
    ab = b - a
    length2 = np.einsum("ij,ij->i", ab, ab)
    p = np.array([x, y])
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(length2 > 0, np.einsum("ij,ij->i", p - a, ab) / length2, 0.0)
    t = np.clip(t, 0.0, 1.0)
    foot = a + ab * t[:, None]
    d = np.hypot(foot[:, 0] - x, foot[:, 1] - y)
    best = int(np.argmin(d))
    if d[best] <= tolerance_m:
        return round(float(foot[best, 0]), 6), round(float(foot[best, 1]), 6)
    return None


def _nearest_crossing(
    seg: np.ndarray, x: float, y: float, tolerance_m: float
) -> tuple[float, float] | None:
    """The crossing of two of ``seg`` (the segments near the point) nearest (x, y), within
    the tolerance; pairs are few: only segments passing near the pointer are given."""
    if len(seg) < 2:
        return None
    a, d = seg[:, 0:2], seg[:, 2:4] - seg[:, 0:2]
    i, j = np.triu_indices(len(seg), k=1)
    cross = d[i, 0] * d[j, 1] - d[i, 1] * d[j, 0]
    ok = np.abs(cross) > 1e-12  # parallel lines do not cross at one point
    i, j, cross = i[ok], j[ok], cross[ok]
    if len(i) == 0:
        return None
    w = a[j] - a[i]
    t = (w[:, 0] * d[j, 1] - w[:, 1] * d[j, 0]) / cross
    u = (w[:, 0] * d[i, 1] - w[:, 1] * d[i, 0]) / cross
    inside = (t >= 0) & (t <= 1) & (u >= 0) & (u <= 1)
    if not inside.any():
        return None
    points = a[i[inside]] + d[i[inside]] * t[inside][:, None]
    dist = np.hypot(points[:, 0] - x, points[:, 1] - y)
    best = int(np.argmin(dist))
    if dist[best] > tolerance_m:
        return None
    return round(float(points[best, 0]), 6), round(float(points[best, 1]), 6)
