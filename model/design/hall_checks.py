"""The hall's geometry rules (outline, obstacles, trays, names) that the edit API and the loader
share: the edit API asks for one sentence (:func:`hall_problem`, :func:`trays_problem`), the
loader (:mod:`model.files.checks`) for every :class:`LoadProblem` with its JSON path. Kept in the
design layer so that the edit API does not import the file loader.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from model.design import limits


class LoadProblem(NamedTuple):
    """One thing wrong with a file. ``record`` is (section, index) when dropping that record
    (``"trays"``, ``"racks"``, ``"devices"``, ``"links"`` or ``"obstacles"``) removes it."""

    json_path: str
    message: str
    record: tuple[str, int] | None = None


def check_polygon(path: str, points: Sequence[tuple[float, float]], what: str) -> list[LoadProblem]:
    """A simple polygon of 3 to MAX_POLYGON_POINTS corners with an area (shapely's is_valid)."""
    if len(points) > limits.MAX_POLYGON_POINTS:
        return [
            LoadProblem(
                path, f"{what} has {len(points)} corners, more than {limits.MAX_POLYGON_POINTS}"
            )
        ]
    if len(set(points)) < 3:
        return [LoadProblem(path, f"{what} needs at least 3 distinct corners")]
    from shapely.geometry import Polygon
    from shapely.validation import explain_validity

    polygon = Polygon(points)
    if not polygon.is_valid:
        reason = explain_validity(polygon)
        return [LoadProblem(path, f"{what} is not a simple polygon ({reason})")]
    if polygon.area < limits.MIN_POLYGON_AREA_M2:
        return [LoadProblem(path, f"{what} encloses no area")]
    return []


def check_count(path: str, records: Sequence, limit: int) -> list[LoadProblem]:
    if len(records) > limit:
        return [LoadProblem(path, f"{len(records):,} entries, more than the limit of {limit:,}")]
    return []


def check_text(path: str, text: str, limit: int = limits.MAX_NAME_LENGTH) -> list[LoadProblem]:
    if len(text) > limit:
        return [LoadProblem(path, f"{len(text):,} characters, more than the limit of {limit:,}")]
    return []


def check_segments(path: str, trays: Iterable) -> list[LoadProblem]:
    segments = sum(max(len(t.points) - 1, 0) for t in trays)
    if segments > limits.MAX_TRAY_SEGMENTS_TOTAL:
        return [
            LoadProblem(
                path,
                f"{segments:,} tray segments in all, more than the limit of "
                f"{limits.MAX_TRAY_SEGMENTS_TOTAL:,}",
            )
        ]
    return []


def check_tray(path: str, tray) -> list[LoadProblem]:
    """A polyline of 2 to MAX_TRAY_POINTS points without zero-length segments, of a real size."""
    found = check_text(f"{path}.name", tray.name)
    points = tray.points
    if len(points) < 2:
        found.append(LoadProblem(f"{path}.points", "a tray needs at least 2 points"))
    elif len(points) > limits.MAX_TRAY_POINTS:
        found.append(
            LoadProblem(
                f"{path}.points",
                f"{len(points):,} points, more than the limit of {limits.MAX_TRAY_POINTS}",
            )
        )
    else:
        for j in range(1, len(points)):
            (x0, y0), (x1, y1) = points[j - 1], points[j]
            if math.hypot(x1 - x0, y1 - y0) < limits.MIN_TRAY_SEGMENT_M:
                found.append(
                    LoadProblem(
                        f"{path}.points[{j}]",
                        f"repeats the previous point (segments must be at least "
                        f"{limits.MIN_TRAY_SEGMENT_M * 1000:g} mm long)",
                    )
                )
                break
    for field in ("width_m", "depth_m"):
        size = getattr(tray, field)
        if size < limits.MIN_TRAY_SIZE_M:
            found.append(
                LoadProblem(
                    f"{path}.{field}",
                    f"{size:g} m is smaller than the smallest tray ({limits.MIN_TRAY_SIZE_M:g} m)",
                )
            )
    return found


def trays_problem(trays: Sequence, all_trays: Sequence) -> str | None:
    """For the edit API: why ``trays`` cannot be part of a design whose trays would then be
    ``all_trays``, as one sentence, or None."""
    for tray in trays:
        found = check_tray("", tray)
        if found:
            return f"tray {tray.name or tray.id!r}: {field_of(found[0])}{found[0].message}"
    found = check_count("", all_trays, limits.MAX_TRAYS) + check_segments("", all_trays)
    return f"the design's trays: {found[0].message}" if found else None


def hall_problem(hall) -> str | None:
    """For the edit API: why ``hall`` cannot be a design's hall (its outline and obstacles), or
    None."""
    found = check_polygon("", hall.outline, "the hall outline") + check_count(
        "", hall.obstacles, limits.MAX_OBSTACLES
    )
    for obstacle in hall.obstacles:
        found += check_polygon("", obstacle.polygon, f"obstacle {obstacle.id!r}")
    return found[0].message if found else None


def field_of(problem: LoadProblem) -> str:
    return f"{problem.json_path.lstrip('.')} " if problem.json_path else ""
