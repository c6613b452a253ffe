"""FLOOR_ROUTE_BLOCKED: links with no tray path are measured on the floor as the Manhattan
distance between their racks, which assumes an L-shaped run; an obstacle (column, CRAH/CDU
unit, keep-out zone) that cuts both L-shaped runs between two racks makes that length an
underestimate and the run one that cannot be laid as drawn: a warning naming the obstacle.

Only rack pairs that have floor-routed links are checked (one finding per pair and obstacle),
so the cost follows the warnings, not the hall.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shapely import LineString, Polygon, prepared

from model.common.findings import Finding
from model.design.design import Design

_KIND_WORDS = {"column": "column", "crac": "CRAH/CDU unit", "keep-out": "keep-out zone"}


def floor_block_findings(
    design: Design, pairs: Mapping[tuple[str, str], Sequence[str]]
) -> list[Finding]:
    """One warning per (rack pair, obstacle) whose two L-shaped floor runs both cross it.

    ``pairs``: (rack a, rack b) -> the ids of their links routed on the floor."""
    obstacles = [
        (o, prepared.prep(Polygon(o.polygon))) for o in design.hall.obstacles if len(o.polygon) >= 3
    ]
    if not obstacles or not pairs:
        return []
    out: list[Finding] = []
    for (ra, rb), links in sorted(pairs.items()):
        a, b = design.racks.get(ra), design.racks.get(rb)
        if a is None or b is None or ra == rb:
            continue
        x_first = LineString([(a.x, a.y), (b.x, a.y), (b.x, b.y)])
        y_first = LineString([(a.x, a.y), (a.x, b.y), (b.x, b.y)])
        for obstacle, shape in obstacles:
            if shape.crosses(x_first) or shape.contains(x_first):
                blocked = shape.crosses(y_first) or shape.contains(y_first)
            else:
                blocked = False
            if not blocked:
                continue
            what = _KIND_WORDS.get(obstacle.kind, "obstacle")
            out.append(
                Finding(
                    code="FLOOR_ROUTE_BLOCKED",
                    severity="warning",
                    message=(
                        f"{what} {obstacle.name or obstacle.id} stands across the floor run "
                        f"between racks {a.name} and {b.name} ({len(links)} link(s) with no "
                        "tray path): their lengths assume a run around it is not needed; "
                        "add a tray or move a rack"
                    ),
                    objects=(obstacle.id, ra, rb, *links),
                )
            )
    return out
