"""The optimiser's search space: which racks may move, the free floor positions, swap partners.

Network racks are those whose role (:func:`model.design.rack_role.rack_role`) is a switch tier
(leaf, spine, core), or the roles the caller names (storage, management, patch-panel...). A rack listed in ``settings.locked_racks`` (or passed as locked) never
moves, not even as the other half of a swap. Free positions are the tile-snapped centres where
the rack's footprint clashes with nothing (the canvas's rule, :mod:`model.design.rack_clashes`)
in the starting layout, plus the starting places of the other movable racks of the same plan
size (free once they move); whether a position is still free is checked again at each move.

By default a rack moves only along the existing rows: a free position whose row line (its y for
a rack facing 0/180 degrees, its x for 90/270) is that of a rack (itself too) of its rotation.
The design has no aisle or clearance notion yet, so a free tile in an aisle would pass the
clash rule while blocking the aisle; ``anywhere`` lifts the restriction.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable
from operator import attrgetter

from model.catalog.components import DEVICE_ROLES
from model.design.design import Design
from model.design.entities import plan_size
from model.design.rack_clashes import rack_clashes
from model.design.rack_role import rack_role

NETWORK_ROLES = ("leaf", "spine", "core")
# What ``--move`` may name: every rack role but a compute rack's (its servers' places are the
# SU's, and moving them is the server-assignment search, not this one).
MOVABLE_ROLES = tuple(r for r in DEVICE_ROLES if r != "gpu-server")
# What ``--move`` also may name: servers trading places within their SU
# (:mod:`model.optimise.servers`), an exact assignment rather than a rack search.
MOVE_SERVERS = "servers"
Position = tuple[float, float]
_DEVICE_A, _DEVICE_B = attrgetter("a.device"), attrgetter("b.device")


def network_racks(design: Design, tiers: Iterable[str] | None = None) -> list[str]:
    """Ids of racks whose role is one of ``tiers`` (default: the switch tiers), in the
    design's order."""
    wanted = set(NETWORK_ROLES if tiers is None else tiers)
    roles: dict[str, list[str]] = {}
    for dev in design.devices.values():
        roles.setdefault(dev.rack, []).append(dev.role)
    return [r for r in design.racks if rack_role(roles.get(r, ())) in wanted]


def locked_racks(design: Design, extra: Iterable[str] = ()) -> set[str]:
    """The design's locked racks and ``extra`` (ids or names), as ids of racks that exist."""
    by_name = {r.name.strip().casefold(): r.id for r in design.racks.values()}
    out = set()
    for key in (*design.settings.locked_racks, *extra):
        rack_id = key if key in design.racks else by_name.get(str(key).strip().casefold())
        if rack_id is not None:
            out.add(rack_id)
    return out


def _size(design: Design, rack_id: str) -> tuple[float, float, int]:
    r = design.racks[rack_id]
    w, d = plan_size(r.width_m, r.depth_m, r.rotation)
    return (round(w, 6), round(d, 6), r.rotation)


def _row_lines(design: Design, rack_id: str) -> set[float]:
    """The row lines of the racks turned as ``rack_id`` is (its own: it may slide along it)."""
    rotation = design.racks[rack_id].rotation
    along_x = rotation in (0, 180)
    return {
        round(r.y if along_x else r.x, 6) for r in design.racks.values() if r.rotation == rotation
    }


def _snapped_axis(lo: float, extent: float, size: float, tile: float) -> list[float]:
    """Snapped centres along one axis of every tile a footprint of ``size`` fits from ``lo``:
    the footprint's edge on the nearest tile line (``snap_rack_centre``'s rule on that axis)."""
    n = int(math.floor((extent - size) / tile + 1e-9)) + 1
    out = []
    for i in range(max(n, 0)):
        centre = lo + i * tile + size / 2
        edge = round((centre - size / 2) / tile) * tile
        out.append(round(edge + size / 2, 6))
    return out


def free_positions(
    design: Design, rack_id: str, anywhere: bool = False, memo: dict | None = None
) -> list[Position]:
    """Tile-snapped centres where ``rack_id`` would clash with nothing (other racks stay), on
    the existing rows' lines unless ``anywhere``; ``memo`` (a dict kept over calls on one
    unchanged design) shares the clash test between racks of one plan size and rotation."""
    rack = design.racks[rack_id]
    key = (rack.width_m, rack.depth_m, rack.rotation, anywhere)
    found = memo.get(key) if memo is not None else None
    if found is None:
        found = _free_by_rack(*_shape_candidates(design, rack_id, anywhere))
        if memo is not None:
            memo[key] = found
    places, clear, own, at = found
    # The candidates in their order: those clear of every rack, and those only this rack
    # stands on; not its own place. Gathered by index: a test of every candidate per rack was
    # ~4 s of an XL run's setup (448 racks x thousands of places).
    idx = sorted(clear + own[rack_id]) if rack_id in own else clear
    here = at.get((rack.x, rack.y))
    if here is not None:
        k = bisect_left(idx, here)
        if k < len(idx) and idx[k] == here:
            idx = idx[:k] + idx[k + 1 :]
    return list(map(places.__getitem__, idx))


def _free_by_rack(places, hard, overlaps):
    """The candidates of one shape, indexed once: the positions of those clear of every rack
    and obstacle, per rack those it alone overlaps, and each place's position."""
    clear, own = [], {}
    for i, (bad, over) in enumerate(zip(hard, overlaps, strict=True)):
        if bad or len(over) > 1:
            continue
        if over:
            own.setdefault(next(iter(over)), []).append(i)
        else:
            clear.append(i)
    return places, clear, own, {p: i for i, p in enumerate(places)}


def _shape_candidates(design: Design, rack_id: str, anywhere: bool):
    """Every on-row candidate centre of a footprint like ``rack_id``'s, whether it clashes with
    an obstacle or the outline, and which racks it overlaps (its own rack is not in its way)."""
    rack = design.racks[rack_id]
    lines = None if anywhere else _row_lines(design, rack_id)
    along_x = rack.rotation in (0, 180)
    tile = design.hall.tile_m
    xs = [p[0] for p in design.hall.outline]
    ys = [p[1] for p in design.hall.outline]
    w, d = plan_size(rack.width_m, rack.depth_m, rack.rotation)
    # The snap (:func:`model.design.placement.snap_rack_centre`) is one rule per axis, so each
    # tile column and row is snapped once and the rows off the existing lines are dropped
    # before pairing: a tile-by-tile snap was ~9 s of a 100-move run at L.
    col = _snapped_axis(min(xs), max(xs) - min(xs), w, tile)
    row = _snapped_axis(min(ys), max(ys) - min(ys), d, tile)
    if lines is not None:
        if along_x:
            row = [y for y in row if round(y, 6) in lines]
        else:
            col = [x for x in col if round(x, 6) in lines]
    cands = {f"\0cand{k}": (cx, cy) for k, (cx, cy) in enumerate((x, y) for x in col for y in row)}
    hard = dict.fromkeys(cands, False)
    overlaps: dict[str, set[str]] = {k: set() for k in cands}
    if cands:
        prints = {
            k: (x, y, rack.width_m, rack.depth_m, rack.rotation) for k, (x, y) in cands.items()
        }
        for clash in rack_clashes(design, prints, only=list(cands)):
            parties = {p for p in (clash.rack, clash.other) if p is not None}
            mine = [p for p in parties if p in cands]
            racks = parties - cands.keys()
            for p in mine:
                if clash.code != "RACK_OVERLAP":
                    hard[p] = True
                overlaps[p] |= racks
    return list(cands.values()), list(hard.values()), list(overlaps.values())


def search_space(
    design: Design,
    movable: list[str],
    locked: set[str],
    anywhere: bool = False,
    swap_compute: bool = False,
) -> tuple[dict[str, list[Position]], dict[str, list[str]]]:
    """Per movable rack: its free positions, and the racks of its plan size it may swap with:
    the other movable racks, or with ``swap_compute`` any unlocked rack (a compute rack then
    moves too). Off by default: on the bundled 4-SU SuperPOD, swaps with compute racks chained
    into 30 racks moved to save 0.3 % of the fibre bill beyond what the network racks alone
    saved, a reshuffle of the SUs' rows no architect would redraw the hall for."""
    sizes = {r: _size(design, r) for r in design.racks}
    memo: dict = {}
    free = {r: free_positions(design, r, anywhere, memo) for r in movable}
    # Racks by plan size, in their order: a rack's peers are those of its size (comparing
    # every pair's size was ~1 s of an XL run's setup).
    movable_of = _by_size(movable, sizes)
    racks = design.racks
    for r in movable:
        free[r] += [(racks[o].x, racks[o].y) for o in movable_of[sizes[r]] if o != r]
    pool = [o for o in design.racks if o not in locked] if swap_compute else movable
    pool_of = _by_size(pool, sizes)
    partners = {r: [o for o in pool_of.get(sizes[r], ()) if o != r] for r in movable}
    return free, partners


def slide_partners(
    design: Design, movable: list[str], locked: set[str], swap_compute: bool
) -> dict[str, list[str]]:
    """Per movable rack, the racks it may slide past along its row: none unless
    ``swap_compute`` (a slide moves a compute rack: the user's "may trade places with compute
    racks", off by default, is what allows it); else those of its plan size it
    is cabled to that stand on its row line (same rotation), neither locked nor of a role
    ``--move`` may name (:data:`MOVABLE_ROLES`: a leaf is not moved as the partner of a spine
    whose tier alone may move): the compute racks it serves.

    Trading places with a rack it is cabled to moves the rack along its row while their cables
    to each other keep their length, and only the other racks' distances change. In a
    generated rail-optimized hall each leaf stands inside a row full of the servers it serves:
    no free tile is near it, so a slide is its only short move (at XL the row's end leaf, one
    slot nearer its spines, brings 40 spine links under the SR4 reach)."""
    if not swap_compute:
        return {r: [] for r in movable}
    racks, skip = design.racks, locked | set(movable) | _placed_racks(design)
    sizes = {r: _size(design, r) for r in movable}
    order = {r: i for i, r in enumerate(racks)}  # the design's order: deterministic
    cabled = _cabled_racks(design, set(movable))
    out: dict[str, list[str]] = {}
    for rack_id in movable:
        rack = racks[rack_id]
        along_x = rack.rotation in (0, 180)
        line = round(rack.y if along_x else rack.x, 6)
        out[rack_id] = [
            o
            for o in sorted(cabled.get(rack_id, set()) - skip, key=order.__getitem__)
            if racks[o].rotation == rack.rotation
            and round(racks[o].y if along_x else racks[o].x, 6) == line
            and _size(design, o) == sizes[rack_id]
        ]
    return out


def _placed_racks(design: Design) -> set[str]:
    """Racks whose role is one ``--move`` may name: placed by the search, never slid past."""
    roles: dict[str, list[str]] = {}
    for dev in design.devices.values():
        roles.setdefault(dev.rack, []).append(dev.role)
    return {r for r, found in roles.items() if rack_role(found) in MOVABLE_ROLES}


def _cabled_racks(design: Design, rack_ids: set[str]) -> dict[str, set[str]]:
    """Per rack of ``rack_ids``, the other racks its links end in: one pass over the links'
    end devices (a rack's links looked up one rack at a time were ~4 s of an XL run's setup)."""
    rack_of = {d.id: d.rack for d in design.devices.values()}
    links = design.links.values()
    ends_a = map(rack_of.__getitem__, map(_DEVICE_A, links))
    ends_b = map(rack_of.__getitem__, map(_DEVICE_B, links))
    out: dict[str, set[str]] = {}
    for a, b in set(zip(ends_a, ends_b, strict=True)):
        if a == b:
            continue
        if a in rack_ids:
            out.setdefault(a, set()).add(b)
        if b in rack_ids:
            out.setdefault(b, set()).add(a)
    return out


def _by_size(rack_ids: list[str], sizes: dict) -> dict[tuple, list[str]]:
    out: dict[tuple, list[str]] = {}
    for r in rack_ids:
        out.setdefault(sizes[r], []).append(r)
    return out


def move_groups(
    start: dict[str, Position],
    target: dict[str, Position],
    sizes: dict[str, tuple[float, float]] | None = None,
) -> list[list[str]]:
    """Moved racks grouped so that each group can go back alone: a rack that took another
    moved rack's place is in that rack's group (swaps and chains). With ``sizes`` (plan width
    and depth per rack, metres) "took its place" means the rack's new footprint overlaps the
    other's old one, not only equal centres: a leaf that slid 3 m into a spot half of which
    another leaf left cannot go back while that one stays."""
    parent = {r: r for r in target}

    def find(r: str) -> str:
        while parent[r] != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        return r

    def took(rack_id: str, other: str) -> bool:
        if target[rack_id] == start[other]:
            return True
        if sizes is None:
            return False
        (x, y), (ox, oy) = target[rack_id], start[other]
        w, d = sizes[rack_id]
        ow, od = sizes[other]
        eps = 1e-6
        return abs(x - ox) < (w + ow) / 2 - eps and abs(y - oy) < (d + od) / 2 - eps

    for rack_id in target:
        for other in target:
            if other != rack_id and took(rack_id, other):
                parent[find(rack_id)] = find(other)
    groups: dict[str, list[str]] = {}
    for rack_id in target:
        groups.setdefault(find(rack_id), []).append(rack_id)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: g[0])


def plan_sizes(design: Design, rack_ids) -> dict[str, tuple[float, float]]:
    """Plan width and depth (metres, as the rack is turned) of each of ``rack_ids``."""
    racks = design.racks
    return {r: plan_size(racks[r].width_m, racks[r].depth_m, racks[r].rotation) for r in rack_ids}
