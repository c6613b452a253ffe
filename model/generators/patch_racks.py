"""Patch racks of a structured hall: beside the network racks whose switches leave no U for their panels.

A 48U network rack with 16 x 2U SN5600 run as 128 x 400G has 16 U left, and its trunks end on
~29 MPO panels (2,048 MPO legs, 72 per panel): the L hall zoned had 24 such racks
(PANELS_NOT_PLACED). Halls put those panels in dedicated patch racks beside the network racks
(zone and main distribution racks; TIA-942 as summarised by LEVIATHAN, the standard not read).

Choices, written down:

* **Where.** Each run of neighbouring short racks in a row (a network block) gets
  ``ceil(its missing U / a patch rack's U)`` patch racks (catalog ``rack-patch-48u-600x1200``,
  role ``patch``), one after each of as many equal groups of the block's racks, so no switch
  is more than a few racks from its panels. The racks of the row after each patch rack move
  along by one rack width; a row with room before it (a central network block) moves half
  its racks back instead, keeping its centre. The row trays, and the hall when a row grows
  past it, are lengthened to match (by the generator's margin); cross aisles keep their width.
* **Which panels.** The structured layout sends a rack's ports that its own panels cannot
  take to the patch racks of its run, nearest first
  (:func:`model.engine.patch_points.overflow_racks`, which the media choice counts too);
  :func:`model.structured.layout.place_panels` then places their panels there, top first.
* **Names.** ``{row letters}-P{n}`` (``B-P1``): the row's letters, so the elevation sheets and
  the zones (:func:`model.design.rack_rows.rack_rows`) count them in their row.
* U1 stays free as in every generated rack (``FIRST_U``): a patch rack holds 47 panels.
"""

from __future__ import annotations

import math
import re

import msgspec

from model.design.design import Design
from model.design.entities import Rack
from model.generators.placement import FIRST_U, MARGIN_TILES, TILE_M

PATCH_RACK = "rack-patch-48u-600x1200"
_LETTERS = re.compile(r"[A-Za-z]+")


def add_patch_racks(design: Design, short_u: dict[str, int]) -> list[str]:
    """Patch racks for the racks of ``short_u`` (rack id -> U of panels it has no room for);
    returns the new racks' ids (none when nothing is short)."""
    if not short_u:
        return []
    rtype = design.catalog.rack_types[PATCH_RACK]
    per_rack_u = rtype.height_u - (FIRST_U - 1)
    rows: dict[float, list[Rack]] = {}
    for rack in design.racks.values():
        rows.setdefault(round(rack.y, 6), []).append(rack)
    moves: dict[str, tuple[float, float]] = {}
    new: list[Rack] = []
    taken: set[str] = set()  # names given in this call (not yet the design's)
    for y in sorted(rows):
        racks = sorted(rows[y], key=lambda r: r.x)
        blocks = _blocks(racks, short_u)
        if not blocks:
            continue
        letters = _row_letters(racks)
        # Where each patch rack goes: after which rack of the row (by index).
        after: list[int] = []
        for block in blocks:
            need = sum(short_u[racks[i].id] for i in block)
            count = math.ceil(need / per_rack_u)
            for g in range(count):
                after.append(block[min(len(block), round((g + 1) * len(block) / count)) - 1])
        width = rtype.width_m
        # A row with room before it (a central network block) grows both ways and keeps its
        # centre, so its trunks spread over the cross trays as before (XL zoned: Row Q grown
        # one way only was 42 % full at its middle); a row from the margin grows one way.
        back = len(after) // 2
        if racks[0].x - racks[0].width_m / 2 - back * width < MARGIN_TILES * TILE_M - 1e-6:
            back = 0
        shift = [-back] * len(racks)  # racks along (+) or back (-), in patch rack widths
        for i in after:
            for j in range(i + 1, len(racks)):
                shift[j] += 1
        for j, rack in enumerate(racks):
            if shift[j]:
                moves[rack.id] = (round(rack.x + shift[j] * width, 6), rack.y)
        for n, i in enumerate(sorted(after), start=1):
            left = racks[i]
            # Right of its rack (after that rack's own shift), and of the patch racks before it.
            x = left.x + shift[i] * width + (left.width_m + width) / 2
            x += (sorted(after)[: n - 1].count(i)) * width
            name = _free_name(design, taken, f"{letters}-P", n)
            taken.add(name)
            new.append(
                Rack(
                    id=name,
                    name=name,
                    type=PATCH_RACK,
                    x=round(x, 6),
                    y=left.y,
                    width_m=rtype.width_m,
                    depth_m=rtype.depth_m,
                    height_u=rtype.height_u,
                    power_budget_kw=rtype.power_budget_kw,
                    rotation=left.rotation,
                )
            )
    _make_room(
        design,
        [*new, *(msgspec.structs.replace(design.racks[r], x=p[0]) for r, p in moves.items())],
    )
    with design.batch():
        design.move_racks(moves)
        design.add_racks(new)
    return [r.id for r in new]


def _blocks(racks: list[Rack], short_u: dict[str, int]) -> list[list[int]]:
    """Indices of the row's runs of neighbouring short racks (no gap between them)."""
    blocks: list[list[int]] = []
    for i, rack in enumerate(racks):
        if short_u.get(rack.id, 0) <= 0:
            continue
        if blocks and blocks[-1][-1] == i - 1:
            prev = racks[i - 1]
            if rack.x - prev.x <= (rack.width_m + prev.width_m) / 2 + 1e-6:
                blocks[-1].append(i)
                continue
        blocks.append([i])
    return blocks


def _row_letters(racks: list[Rack]) -> str:
    """The letters the row's rack names start with (the generator's row name), else "P"."""
    found = {m.group(0) for r in racks if (m := _LETTERS.match(r.name))}
    return found.pop() if len(found) == 1 else "P"


def _free_name(design: Design, taken: set[str], prefix: str, n: int) -> str:
    """``{prefix}{n}``, or the next number free in the design (a later round adds to a row
    that has patch racks) and among ``taken``."""
    while f"{prefix}{n}" in design.racks or f"{prefix}{n}" in taken:
        n += 1
    return f"{prefix}{n}"


def _make_room(design: Design, racks: list[Rack]) -> None:
    """Lengthen the row trays, and the hall, to reach the racks' far ends (the generator's
    rectangle and straight row trays; anything else is left as it is)."""
    if not racks:
        return
    far_x = max(r.x + r.width_m / 2 for r in racks)
    trays = []
    for tray in design.trays.values():
        if not tray.id.startswith("t-row-") or len(tray.points) != 2:
            continue
        (x0, y0), (x1, y1) = tray.points
        if y0 == y1 and x0 < x1 < far_x:
            trays.append(msgspec.structs.replace(tray, points=[(x0, y0), (round(far_x, 6), y1)]))
    outline = design.hall.outline
    xs = [p[0] for p in outline]
    width = round(far_x + MARGIN_TILES * TILE_M, 6)
    with design.batch():
        if len(outline) == 4 and max(xs) < width:
            design.set_outline([(width if x == max(xs) else x, y) for x, y in outline])
        if trays:
            design.update_trays(trays)
