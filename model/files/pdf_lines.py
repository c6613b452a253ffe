"""The straight lines a PDF page draws (its path objects, through nested forms), for snapping a
traced point to a PDF underlay's walls as to a DXF's: a plan exported from CAD to PDF keeps its
lines as vector paths, which the rendered pixels lose.

Read through PDFium's page-object API (pypdfium2.raw); curves are cut into chords. Coordinates
are returned in the page's points as shown: u right from the crop box's left edge, v down from
its top edge (the rendered image's axes), after the page's own /Rotate (a viewer, and PDFium's
rendering, shows a page turned by /Rotate 90 clockwise: its lines are turned the same way).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

import numpy as np

# Read in the reading worker at ~11 us CPU a two-point path (measured: 100k lines in 1.1 s): a
# floor's walls, columns and grid fit; what is beyond (hatching, text outlines) is not read.
MAX_PDF_SEGMENTS = 200_000
MAX_FORM_DEPTH = 8  # forms inside forms (a CAD block inside a block), as for a DXF's blocks
BEZIER_CHORDS = 8  # a quarter circle cut in 8 is within 0.2 % of its radius

Matrix = tuple[float, float, float, float, float, float]  # PDF's [a b c d e f]
Point = tuple[float, float]
Segment = tuple[float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def page_segments(page: Any) -> np.ndarray:
    """The lines of a pypdfium2 ``PdfPage`` (n x 4: u0, v0, u1, v1 in points as shown, the
    page's /Rotate applied), at most MAX_PDF_SEGMENTS."""
    import pypdfium2.raw as pdfium

    left, bottom, right, top = page.get_cropbox()
    out: list[Segment] = []
    _walk(
        pdfium, pdfium.FPDFPage_CountObjects, pdfium.FPDFPage_GetObject, page.raw, _IDENTITY, 0, out
    )
    if not out:
        return np.empty((0, 4))
    segments = np.array(out, dtype=float)
    segments[:, 0::2] -= left
    segments[:, 1::2] = top - segments[:, 1::2]  # PDF's y runs up; the page as shown runs down
    return turned(segments, page.get_rotation(), right - left, top - bottom)


def turned(
    segments: np.ndarray, rotation_deg: int, width_pt: float, height_pt: float
) -> np.ndarray:
    """``segments`` (u right, v down on the unturned crop box of ``width_pt`` x ``height_pt``)
    as the page is shown after /Rotate ``rotation_deg`` (a multiple of 90, clockwise)."""
    u0, v0, u1, v1 = segments.T
    quarter = (rotation_deg // 90) % 4
    if quarter == 1:  # the top-left corner goes to the top-right
        return np.column_stack([height_pt - v0, u0, height_pt - v1, u1])
    if quarter == 2:
        return np.column_stack([width_pt - u0, height_pt - v0, width_pt - u1, height_pt - v1])
    if quarter == 3:  # the top-left corner goes to the bottom-left
        return np.column_stack([v0, width_pt - u0, v1, width_pt - u1])
    return segments


def _walk(
    pdfium: Any,
    count: Callable[[Any], int],
    get: Callable[[Any, int], Any],
    parent: Any,
    matrix: Matrix,
    depth: int,
    out: list[Segment],
) -> None:
    """The segments of ``parent``'s objects (a page, a form), placed by ``matrix``."""
    for i in range(count(parent)):
        if len(out) >= MAX_PDF_SEGMENTS:
            return
        obj = get(parent, i)
        kind = pdfium.FPDFPageObj_GetType(obj)
        if kind not in (pdfium.FPDF_PAGEOBJ_PATH, pdfium.FPDF_PAGEOBJ_FORM):
            continue
        own = pdfium.FS_MATRIX()
        if not pdfium.FPDFPageObj_GetMatrix(obj, own):
            continue
        placed = _compose((own.a, own.b, own.c, own.d, own.e, own.f), matrix)
        if kind == pdfium.FPDF_PAGEOBJ_FORM:
            if depth < MAX_FORM_DEPTH:
                count_in, get_in = pdfium.FPDFFormObj_CountObjects, pdfium.FPDFFormObj_GetObject
                _walk(pdfium, count_in, get_in, obj, placed, depth + 1, out)
        else:
            _path(pdfium, obj, placed, out)


def _path(pdfium: Any, obj: Any, m: Matrix, out: list[Segment]) -> None:
    """One path object's segments, placed on the page by ``m``."""
    x, y = ctypes.c_float(), ctypes.c_float()
    start: Point | None = None
    current: Point | None = None
    bezier: list[Point] = []
    for k in range(pdfium.FPDFPath_CountSegments(obj)):
        segment = pdfium.FPDFPath_GetPathSegment(obj, k)
        if not pdfium.FPDFPathSegment_GetPoint(segment, x, y):
            continue
        point = _apply(m, x.value, y.value)
        kind = pdfium.FPDFPathSegment_GetType(segment)
        if kind == pdfium.FPDF_SEGMENT_MOVETO:
            start = current = point
            bezier = []
        elif current is None:
            continue  # a path must start with a move; a damaged one is skipped
        elif kind == pdfium.FPDF_SEGMENT_LINETO:
            out.append((*current, *point))
            current = point
        elif kind == pdfium.FPDF_SEGMENT_BEZIERTO:
            bezier.append(point)
            if len(bezier) == 3:  # two control points, then the end
                for chord_end in _bezier_points(current, *bezier):
                    out.append((*current, *chord_end))
                    current = chord_end
                bezier = []
        if pdfium.FPDFPathSegment_GetClose(segment) and start is not None and current != start:
            out.append((*current, *start))
            current = start


def _bezier_points(p0: Point, p1: Point, p2: Point, p3: Point) -> list[Point]:
    points = []
    for i in range(1, BEZIER_CHORDS + 1):
        t = i / BEZIER_CHORDS
        s = 1 - t
        a, b, c, d = s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t
        points.append(
            (
                a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1],
            )
        )
    return points


def _apply(m: Matrix, x: float, y: float) -> Point:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _compose(inner: Matrix, outer: Matrix) -> Matrix:
    """The matrix applying ``inner`` then ``outer`` (a form's object inside the form)."""
    a1, b1, c1, d1, e1, f1 = inner
    a2, b2, c2, d2, e2, f2 = outer
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )
