"""Align and distribute racks: the new centres, computed from the footprints; the GUI applies
them as one move command.

Align: the chosen edge (left, right, top, bottom — of the plan footprints) of every rack is
brought to the outermost one of the selection (align left: to the leftmost left edge), the
centre lines to the centre of the selection's bounding box; no pick order is needed. Distribute: racks keep their order along the axis and the gaps
between neighbouring footprints are made equal, the two outermost racks staying put.
"""

from __future__ import annotations

import math

from model.design.design import Design
from model.design.entities import plan_size

EDGES = ("left", "right", "top", "bottom", "centre-x", "centre-y")


def _box(design: Design, rack_id: str) -> tuple[float, float, float, float]:
    r = design.racks[rack_id]
    w, d = plan_size(r.width_m, r.depth_m, r.rotation)
    return r.x - w / 2, r.y - d / 2, w, d


def align_racks(design: Design, rack_ids: list[str], edge: str) -> dict[str, tuple[float, float]]:
    """New centres aligning ``rack_ids`` on ``edge`` (unchanged racks left out)."""
    if edge not in EDGES:
        raise ValueError(f"unknown edge {edge!r}: use one of {', '.join(EDGES)}")
    if len(rack_ids) < 2:
        return {}
    boxes = {r: _box(design, r) for r in rack_ids}
    left = min(b[0] for b in boxes.values())
    top = min(b[1] for b in boxes.values())
    right = max(b[0] + b[2] for b in boxes.values())
    bottom = max(b[1] + b[3] for b in boxes.values())
    out = {}
    for rack_id, (_l, _t, w, d) in boxes.items():
        r = design.racks[rack_id]
        x, y = r.x, r.y
        if edge == "left":
            x = left + w / 2
        elif edge == "right":
            x = right - w / 2
        elif edge == "centre-x":
            x = (left + right) / 2
        elif edge == "top":
            y = top + d / 2
        elif edge == "bottom":
            y = bottom - d / 2
        else:
            y = (top + bottom) / 2
        x, y = round(x, 6), round(y, 6)
        if (x, y) != (r.x, r.y):
            out[rack_id] = (x, y)
    return out


def distribute_racks(
    design: Design, rack_ids: list[str], axis: str, tile_m: float | None = None
) -> dict[str, tuple[float, float]]:
    """New centres spacing ``rack_ids`` evenly along ``axis`` ("x" or "y"): equal gaps between
    footprints, the first and last (in position) unmoved. With ``tile_m`` each footprint's
    leading edge goes to the nearest tile line (the gaps then differ by at most a tile), so
    the racks stay on the floor grid their tile cut-outs need."""
    if axis not in ("x", "y"):
        raise ValueError(f"unknown axis {axis!r}: use x or y")
    if len(rack_ids) < 3:
        return {}
    k = 0 if axis == "x" else 1
    boxes = sorted(((_box(design, r), r) for r in rack_ids), key=lambda b: b[0][k])
    start = boxes[0][0][k]
    end = boxes[-1][0][k] + boxes[-1][0][k + 2]
    sizes = sum(b[k + 2] for b, _r in boxes)
    gap = (end - start - sizes) / (len(boxes) - 1)
    out = {}
    pos = start
    end_before = -math.inf  # the far edge of the rack placed before, for snapping
    for i, (box, rack_id) in enumerate(boxes):
        size = box[k + 2]
        r = design.racks[rack_id]
        edge = pos
        if tile_m and 0 < i < len(boxes) - 1:
            edge = round(pos / tile_m) * tile_m
            if edge < end_before - 1e-9:  # rounded into its neighbour: the next tile line
                edge = math.ceil(end_before / tile_m - 1e-9) * tile_m
        end_before = edge + size
        centre = round(edge + size / 2, 6)
        new = (centre, r.y) if axis == "x" else (r.x, centre)
        if new != (r.x, r.y):
            out[rack_id] = new
        pos += size + gap
    return out
