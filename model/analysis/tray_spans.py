"""Along a tray: the peak of a load summed over the spans that share it, a polyline's corners,
the point at an arc length (the geometry TrayFill's figures are placed with), ranges
gathered in one index array, and span arrays grown in place (:func:`appended`)."""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np


def peak_along(span_route, span_tray, s0, s1, per_route) -> dict[int, tuple[float, float]]:
    """Per tray number: the peak over its length of the summed ``per_route`` figure of the
    routes present, and the arc length where it first peaks (vectorised interval sweep)."""
    out: dict[int, tuple[float, float]] = {}
    w = per_route[span_route] if len(span_route) else np.zeros(0)
    keep = (w > 0) & (span_tray >= 0)
    if not keep.any():
        return out
    trays, w, a, b = span_tray[keep], w[keep], s0[keep], s1[keep]
    tray = np.concatenate([trays, trays])
    pos = np.concatenate([a, b])
    joining = np.concatenate([np.ones(len(a), np.int8), np.zeros(len(b), np.int8)])
    ww = np.concatenate([w, w])
    order = np.lexsort((ww, joining, pos, tray))  # leaving sorts before joining
    tray, pos = tray[order], pos[order]
    signed = np.where(joining[order] == 1, ww[order], -ww[order])
    starts = np.flatnonzero(np.r_[True, tray[1:] != tray[:-1]])
    ends = np.r_[starts[1:], len(tray)]
    for lo, hi in zip(starts.tolist(), ends.tolist(), strict=True):
        level = np.cumsum(signed[lo:hi])
        # The first place of the peak: on a plateau, sums in another order may differ in the
        # last bit, which must not move the reported place.
        k = int(np.argmax(level >= level.max() * (1 - 1e-9)))
        out[int(tray[lo])] = (float(level[k]), float(pos[lo + k]))
    return out


def corners_along(points, min_turn_deg: float = 5.0) -> list[float]:
    """Arc lengths (m) of a tray polyline's corners (turns above ``min_turn_deg``)."""
    out, s = [], 0.0
    for (ax, ay), (bx, by), (cx, cy) in zip(points, points[1:], points[2:], strict=False):
        u, v = (bx - ax, by - ay), (cx - bx, cy - by)
        nu, nv = math.hypot(*u), math.hypot(*v)
        s += nu
        if nu and nv:
            cos = max(-1.0, min(1.0, (u[0] * v[0] + u[1] * v[1]) / (nu * nv)))
            if math.degrees(math.acos(cos)) > min_turn_deg:
                out.append(s)
    return out


def point_along(poly, s: float) -> tuple[float, float]:
    """The point at arc length ``s`` (m) along a polyline (its last point past the end)."""
    start = 0.0
    for (ax, ay), (bx, by) in pairwise(poly):
        seg = math.hypot(bx - ax, by - ay)
        if s <= start + seg or seg == 0:
            t = 0.0 if seg == 0 else max(0.0, min(1.0, (s - start) / seg))
            return (ax + t * (bx - ax), ay + t * (by - ay))
        start += seg
    return tuple(poly[-1])


def gather_runs(first: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """The concatenated ranges ``first[i]:stop[i]`` as one index array (one gather)."""
    sizes = stop - first
    offsets = np.repeat(first - np.cumsum(sizes) + sizes, sizes)
    return offsets + np.arange(int(sizes.sum()))


def appended(
    buffers: tuple[np.ndarray, ...], filled: int, new: tuple[np.ndarray, ...]
) -> tuple[np.ndarray, ...]:
    """``new`` written after the first ``filled`` entries of ``buffers``, which double when full:
    each optimiser move learns its new routes' spans, and copying every span known to append
    them grew with the run (0.25 ms a move at XL's start, 0.43 ms after 1,500 moves)."""
    end = filled + len(new[0])
    if end > len(buffers[0]):
        grown = []
        for buf in buffers:
            bigger = np.empty(max(end, 2 * len(buf)), dtype=buf.dtype)
            bigger[:filled] = buf[:filled]
            grown.append(bigger)
        buffers = tuple(grown)
    for buf, part in zip(buffers, new, strict=True):
        buf[filled:end] = part
    return buffers
