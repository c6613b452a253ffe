"""Port positions and routed cable lengths, as pure functions of numpy arrays.

Conventions (plan metres, x right, y down the page, heights above the floor):

* A rack at rotation 0 faces up the page: its front is the side at ``y - depth/2``. Rotation is
  clockwise, so the front direction is ``(sin r, -cos r)``: 90 -> +x, 180 -> +y, 270 -> -x.
* A device's ports are on the face its type names (``ports_face``: front or rear), at the middle
  of its U span (``port_height_m``).
* The **drop point** of a rack face is the middle of that face's top edge, where an installer
  lets cables out of the rack: from a port the cable rises (or falls, to a tray in the floor
  void) vertically to the tray's elevation, then hops horizontally from the drop point to the
  nearest point of the tray (the rack's attachment), follows the trays, and does the same at the
  other end.
* **Same rack**: the vertical distance between the two ports, plus the rack's depth when one
  port is on the front and the other on the rear (the cable goes round the side).
* **No tray path** (a rack farther than ``tray_reach_m`` from every tray, or the two racks on
  tray networks that do not meet): the cable is laid on the floor — down from each port to the
  floor and the Manhattan distance between the two drop points — and flagged ``NO_TRAY_PATH``.
* **Slack**: ``2 x slack_per_end_m`` plus ``slack_pct`` % of the run above, on every cable.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

import numpy as np

from model.design.entities import Hall, Tray

FACE_FRONT = 0
FACE_REAR = 1

METHOD_SAME_RACK = 0
METHOD_TRAY = 1
METHOD_NO_TRAY_PATH = 2
METHOD_NAMES = ("same-rack", "tray", "no-tray-path")


def front_vector(rotation_deg: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """Unit plan vector a rack's front faces, for clockwise rotations in degrees."""
    r = np.radians(np.asarray(rotation_deg, dtype=float))
    return np.round(np.sin(r), 12), np.round(-np.cos(r), 12)


def drop_points(
    x: np.ndarray,
    y: np.ndarray,
    rotation_deg: np.ndarray,
    depth_m: np.ndarray,
    face: np.ndarray | int,
) -> tuple[np.ndarray, np.ndarray]:
    """Plan point where cables leave a rack on ``face`` (FACE_FRONT/FACE_REAR): mid-face."""
    fx, fy = front_vector(rotation_deg)
    sign = np.where(np.asarray(face) == FACE_FRONT, 1.0, -1.0) * np.asarray(depth_m, float) / 2
    return np.asarray(x, float) + sign * fx, np.asarray(y, float) + sign * fy


def port_position(
    x: float, y: float, rotation_deg: float, depth_m: float, face: int, height_m: float
) -> tuple[float, float, float]:
    """3-D position (x, y, z) of a port: the drop point of its face, at its height."""
    px, py = drop_points(
        np.array([x]),
        np.array([y]),
        np.array([rotation_deg]),
        np.array([depth_m]),
        np.array([face]),
    )
    return float(px[0]), float(py[0]), float(height_m)


@dataclass
class RoutePieces:
    """Per-link pieces of routed lengths (arrays of equal length, metres)."""

    method: np.ndarray  # uint8 METHOD_*
    vertical_a: np.ndarray
    hop_a: np.ndarray
    tray: np.ndarray
    hop_b: np.ndarray
    vertical_b: np.ndarray
    floor: np.ndarray
    slack: np.ndarray
    total: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.total = (
            self.vertical_a
            + self.hop_a
            + self.tray
            + self.hop_b
            + self.vertical_b
            + self.floor
            + self.slack
        )


def compose_lengths(
    *,
    same_rack: np.ndarray,
    faces_differ: np.ndarray,
    rack_depth_m: np.ndarray,
    height_a: np.ndarray,
    height_b: np.ndarray,
    elev_a: np.ndarray,
    elev_b: np.ndarray,
    hop_a: np.ndarray,
    hop_b: np.ndarray,
    tray_m: np.ndarray,
    floor_m: np.ndarray,
    slack_per_end_m: float,
    slack_pct: float,
) -> RoutePieces:
    """Combine vertical runs, hops, tray distance (inf = no path) and slack into RoutePieces.

    ``floor_m`` is the Manhattan distance between the two drop points, used when there is no
    tray path. All inputs are arrays of one length per link.
    """
    same = np.asarray(same_rack, bool)
    on_tray = ~same & np.isfinite(tray_m)
    floor = ~same & ~on_tray
    method = np.where(same, METHOD_SAME_RACK, np.where(on_tray, METHOD_TRAY, METHOD_NO_TRAY_PATH))
    zero = np.zeros(len(same))
    same_vertical = np.abs(height_a - height_b) + np.where(faces_differ, rack_depth_m, 0.0)
    vertical_a = np.where(
        same, same_vertical, np.where(on_tray, np.abs(elev_a - height_a), height_a)
    )
    vertical_b = np.where(same, zero, np.where(on_tray, np.abs(elev_b - height_b), height_b))
    pieces_hop_a = np.where(on_tray, hop_a, zero)
    pieces_hop_b = np.where(on_tray, hop_b, zero)
    pieces_tray = np.where(on_tray, tray_m, zero)
    pieces_floor = np.where(floor, floor_m, zero)
    run = vertical_a + pieces_hop_a + pieces_tray + pieces_hop_b + vertical_b + pieces_floor
    slack = 2 * slack_per_end_m + run * (slack_pct / 100.0)
    return RoutePieces(
        method.astype(np.uint8),
        vertical_a,
        pieces_hop_a,
        pieces_tray,
        pieces_hop_b,
        vertical_b,
        pieces_floor,
        slack,
    )


@dataclass
class LinkRoute:
    """How one link's routed length is made up, for the inspector and the cabling schedule.

    ``points`` is the plan path for drawing: drop point A, the tray path, drop point B (for a
    floor route, the Manhattan corner between the two drop points). ``tray_ids`` are the trays
    followed, in order. ``hop_a_m``/``hop_b_m`` are the horizontal hops between each rack's drop
    point and its tray; ``tray_m`` is the distance along the trays only.
    """

    link_id: str
    method: str
    vertical_a_m: float
    hop_a_m: float
    tray_m: float
    hop_b_m: float
    vertical_b_m: float
    floor_m: float
    slack_m: float
    total_m: float
    points: list[tuple[float, float]]
    tray_ids: list[str]

    def describe(self) -> str:
        """One line of the pieces, e.g. "up 0.7 + hop 0.3 + tray 4.2 + ... + slack 1.3 = 7.1 m"."""
        if self.method == "same-rack":
            parts = [f"in rack {self.vertical_a_m:.2f}"]
        elif self.method == "tray":
            parts = [
                f"vertical A {self.vertical_a_m:.2f}",
                f"hop A {self.hop_a_m:.2f}",
                f"tray {self.tray_m:.2f}",
                f"hop B {self.hop_b_m:.2f}",
                f"vertical B {self.vertical_b_m:.2f}",
            ]
        else:
            parts = [
                f"down A {self.vertical_a_m:.2f}",
                f"floor {self.floor_m:.2f}",
                f"up B {self.vertical_b_m:.2f}",
            ]
        return " + ".join(parts + [f"slack {self.slack_m:.2f}"]) + f" = {self.total_m:.2f} m"


def merge_intervals(
    intervals: list[tuple[float, float]], tol_m: float = 1e-6
) -> list[tuple[float, float]]:
    """Union of (s0, s1) intervals of arc length, as sorted disjoint intervals."""
    out: list[tuple[float, float]] = []
    for s0, s1 in sorted((min(a, b), max(a, b)) for a, b in intervals):
        if out and s0 <= out[-1][1] + tol_m:
            out[-1] = (out[-1][0], max(out[-1][1], s1))
        else:
            out.append((s0, s1))
    return out


def polyline_between(
    points: list[tuple[float, float]], s0_m: float, s1_m: float
) -> list[tuple[float, float]]:
    """The part of a polyline between arc lengths ``s0_m <= s1_m`` from its first point (the
    stretch of a tray a cable runs along), with the corners in between."""
    out: list[tuple[float, float]] = []
    walked = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        seg = float(np.hypot(x1 - x0, y1 - y0))
        lo, hi = max(s0_m - walked, 0.0), min(s1_m - walked, seg)
        if seg > 0 and lo <= hi:
            for t in (lo, hi):
                p = (x0 + (x1 - x0) * t / seg, y0 + (y1 - y0) * t / seg)
                if not out or abs(out[-1][0] - p[0]) + abs(out[-1][1] - p[1]) > 1e-9:
                    out.append(p)
        walked += seg
    return out


def point_along(pts: list[tuple[float, float]], cum: list[float], s: float) -> tuple[float, float]:
    """Plan point at arc length ``s`` along a polyline (its points, cumulative lengths), in
    Python floats: the plan draws ~70k such points at zoned XL, numpy scalars cost ~0.4 s."""
    k = min(max(bisect_right(cum, s) - 1, 0), len(pts) - 2)
    seg_len = cum[k + 1] - cum[k]
    t = 0.0 if seg_len <= 0 else min(max((s - cum[k]) / seg_len, 0.0), 1.0)
    (x0, y0), (x1, y1) = pts[k], pts[k + 1]
    return x0 + t * (x1 - x0), y0 + t * (y1 - y0)


def points_along(
    pts: list[tuple[float, float]], cum: list[float], s1: float, s2: float
) -> list[tuple[float, float]]:
    """Plan points along a polyline from arc length s1 to s2 (either direction), bends included."""
    lo, hi = min(s1, s2), max(s1, s2)
    inner = [pts[k] for k, c in enumerate(cum) if lo < c < hi]
    if s1 > s2:
        inner.reverse()
    return [point_along(pts, cum, s1), *inner, point_along(pts, cum, s2)]


def dedupe_points(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The polyline without consecutive repeats (closer than 1 nm in x and y)."""
    out: list[tuple[float, float]] = []
    for p in points:
        if not out or abs(out[-1][0] - p[0]) > 1e-9 or abs(out[-1][1] - p[1]) > 1e-9:
            out.append(p)
    return out


def tray_elevation_m(tray: Tray, hall: Hall) -> float:
    """Elevation of a tray above the floor (negative under a raised floor).

    An explicit ``elevation_m`` wins; an under-floor tray without one runs in the middle of the
    floor void (``-hall.floor_void_m / 2``); an overhead one at ``hall.tray_elevation_m``.
    """
    if tray.elevation_m is not None:
        return float(tray.elevation_m)
    return -hall.floor_void_m / 2 if tray.under_floor else float(hall.tray_elevation_m)
