"""Step 2 of the structured layout again after an edit: the last layout's legs, re-measured.

An editor lays the same hall out after every edit, and a rack move changes only lengths: the
moved rack's links' routes and the rack distances from it. Which legs a group makes, which
panel ports they take and how they pair into segments follow from the groups, their members,
the placed panels and the patch racks alone (:class:`~model.structured.legs.LegLayer`), so when
those are as before, the last layout's legs stand but for the lengths of the paths the edit
touched: :class:`LegMemo` keeps them and re-measures those paths' legs only (a zoned XL hall's
one-rack move: a handful of its ~7k paths, where laying all 393k legs was a third of the
layout). Steps 3 and 4 (trunks, channels, cords) are still made whole from the legs.

A full step 2 instead, the memo refilled, when the structure may differ (each checked here):
a group's key or members changed (a link added, removed or re-mediated; a zone hub or a via
changed), a member's ends or fibres changed, the placed panels or the patch racks changed
(panels placed or removed, a rack moved into another run), a rack came or went, the cabling
style changed, the tray graph changed (every distance may differ), or laying the legs found
something (PANEL_PORTS_EXCEEDED names a panel by its name, which may have changed).
"""

from __future__ import annotations

import copy

import numpy as np

from model.common.findings import Finding
from model.structured.channel_checks import ShapeGroups
from model.structured.channel_groups import ChannelColumns, KeptGroups
from model.structured.channel_reuse import ChannelLegMemo
from model.structured.channel_table import RowIndex
from model.structured.cords import KeptCords, link_entries
from model.structured.leg_runs import displace
from model.structured.legs import LegLayer
from model.structured.paths import PanelPool, RackDistances
from model.structured.trunk_reuse import TrunkMemo


def tray_graph_key(design) -> tuple:
    """What the plant's tray graph and its attachments are built from: each tray's id, line,
    elevation and floor side (not its width, depth or name), the hall and the join settings."""
    settings = design.settings
    return (
        tuple(
            (t.id, tuple(tuple(p) for p in t.points), t.elevation_m, t.under_floor)
            for t in design.trays.values()
        ),
        design.hall,
        settings.tray_join_tolerance_m,
        settings.tray_reach_m,
    )


class _Kept:
    """The last full step 2's inputs and legs (see :class:`LegMemo`)."""

    style: str
    trays: tuple  # tray_graph_key: every rack distance follows the tray graph
    group_keys: list[tuple]
    members: np.ndarray  # every group's member rows, the groups in sorted order
    sizes: np.ndarray  # members per group
    link_ids: list[str]
    end_key: np.ndarray
    fibres: np.ndarray
    horizontal: np.ndarray  # float64: each member's horizontal route (m)
    free: dict[tuple[str, str], list[tuple]]  # the pool's placed panels before any take
    overflow: dict[str, tuple[str, ...]]
    positions: dict[str, tuple[float, float]]  # rack id -> (x, y)
    legs: LegLayer
    pool: PanelPool  # as the legs left it
    findings: list[Finding]  # what laying the legs found
    row_path: np.ndarray  # per member row, the number of the path it is on (-1: none)


class LegMemo:
    """Keeps a design's last structured layout's legs from one layout to the next (an
    editor's analysis), and its rack distances; hand it to
    :func:`model.structured.layout.structured_layout` as ``memo``."""

    def __init__(self) -> None:
        self.distances: RackDistances | None = None
        self._kept: _Kept | None = None
        self.relaid_paths = -1  # paths re-measured by the last layout (-1: a full step 2)
        # The last step 2 re-measured these legs (the kept legs, the numbers of the legs
        # worked out again), None when it laid them anew: step 3's memo reads it.
        self.remeasured: tuple[LegLayer, np.ndarray] | None = None
        self.trunks = TrunkMemo()
        self.channel_legs = ChannelLegMemo()
        self.groups = KeptGroups()  # step 1's groups and port ranks while their inputs stand
        self.rows = RowIndex()  # the channel table's link -> row index while its rows stand
        self.shapes = ShapeGroups()  # the table's checks' groups by shape while they stand
        self.cords = KeptCords()  # step 4's cords while their legs and parts stand
        self._links: list = []  # the link records the kept entries were read off
        self._entries: tuple[dict, dict, dict] | None = None

    def distance(self, plant) -> RackDistances:
        """The rack distances for ``plant``: the pairs of the last layouts kept while the tray
        graph stands (a rack moved is searched again: the pairs are keyed by position)."""
        distances = self.distances
        if distances is None:
            distances = self.distances = RackDistances(plant)
        elif distances.plant is not plant:
            distances.use(plant)
        distances.follow(tray_graph_key(plant.design))
        return distances

    def lay(
        self,
        design,
        pool: PanelPool,
        findings: list[Finding],
        groups: dict,
        columns: ChannelColumns,
        distance,
    ) -> tuple[LegLayer, PanelPool]:
        """Step 2 of a full layout: the legs and the pool they took their panels from (the
        last layout's, re-measured, when its structure stands; else laid out anew)."""
        now = _inputs(design, pool, groups, columns)
        kept = self._kept
        if kept is not None and _same_structure(kept, now):
            base = kept.legs
            remeasured, (touched_legs, paths) = _remeasured(
                kept, now, design, findings, columns, distance
            )
            self.relaid_paths = len(paths)
            self.remeasured = (base, touched_legs)
            return remeasured, kept.pool
        self.relaid_paths = -1
        self.remeasured = None
        self._kept = None  # not held while the next one is made
        first = len(findings)
        legs = LegLayer(design, pool, findings, False)
        legs.lay(groups, columns, distance)
        kept = self._kept = now
        kept.legs, kept.pool, kept.findings = legs, pool, findings[first:]
        row_path = np.full(len(columns), -1, dtype=np.int64)
        for p, rows in enumerate(legs.leg_members):
            row_path[rows] = p
        kept.row_path = row_path
        return legs, pool

    def link_entries(self, design) -> tuple[dict, dict, dict]:
        """:func:`model.structured.cords.link_entries` of ``design``: the last ones while its
        links are equal to the records they were read off (the same records after a rack
        move: one pointer each), in the same order; the entries are only read."""
        links = list(design.links.values())
        if self._entries is None or links != self._links:
            self._entries = None  # not held while the next are read
            self._entries, self._links = link_entries(design), links
        return self._entries

    def bundle(self, layout, catalog, legs: LegLayer, route_of: dict, slack_pct: float, recorded):
        """Step 3 of a full layout on the legs :meth:`lay` returned (see
        :class:`~model.structured.trunk_reuse.TrunkMemo`)."""
        self.trunks.bundle(layout, catalog, legs, route_of, slack_pct, recorded, self.remeasured)

    def legs_of_channels(self, layout, table, legs: LegLayer, distance) -> tuple:
        """Step 4's legs of a full layout on the legs :meth:`bundle` bundled (see
        :class:`~model.structured.channel_reuse.ChannelLegMemo`)."""
        return self.channel_legs.channel_legs(
            layout, table, legs, distance, self.remeasured, self.trunks.changed_legs
        )


def _inputs(design, pool: PanelPool, groups: dict, columns: ChannelColumns) -> _Kept:
    """What step 2 reads, as it stands before the legs are laid (the pool untouched)."""
    now = _Kept()
    now.style = design.settings.cabling
    now.trays = tray_graph_key(design)
    now.group_keys = sorted(groups)
    members = [groups[k] for k in now.group_keys]
    now.sizes = np.fromiter(map(len, members), np.int64, len(members))
    now.members = np.concatenate(members) if members else np.zeros(0, dtype=np.int64)
    now.link_ids = columns.link_ids
    now.end_key, now.fibres = columns.end_key, columns.fibres
    now.horizontal = np.asarray(columns.horizontal, dtype=np.float64)
    now.free = {key: [tuple(slot) for slot in slots] for key, slots in pool.free.items()}
    now.overflow = pool.overflow
    now.positions = {r.id: (r.x, r.y) for r in design.racks.values()}
    return now


def _same_structure(kept: _Kept, now: _Kept) -> bool:
    """Whether step 2 makes the same legs of ``now`` as of ``kept`` but for their lengths:
    the same groups and members (in order), ends, fibres, panels, patch racks and racks.
    A step 2 that found something (a panel named by hand over its ports) is laid again: its
    findings name the panel by a name no compared input holds."""
    return (
        not kept.findings
        and kept.style == now.style
        and kept.trays == now.trays
        and kept.positions.keys() == now.positions.keys()
        and kept.group_keys == now.group_keys
        and np.array_equal(kept.sizes, now.sizes)
        and np.array_equal(kept.members, now.members)
        and np.array_equal(kept.end_key, now.end_key)
        and np.array_equal(kept.fibres, now.fibres)
        and kept.link_ids == now.link_ids
        and kept.free == now.free
        and kept.overflow == now.overflow
    )


def _remeasured(
    kept: _Kept, now: _Kept, design, findings: list[Finding], columns, distance
) -> tuple[LegLayer, tuple[np.ndarray, list[int]]]:
    """The kept legs with the lengths of ``now``: each path whose racks moved or whose
    members' routes changed has its legs' segment lengths (and cords' ways to patch racks)
    worked out again as :class:`LegLayer` does; returns the legs, and the numbers of the
    legs and of the paths worked out again."""
    old = kept.legs
    moved = {r for r, at in now.positions.items() if kept.positions[r] != at}
    # Bit for bit: a length that changed in any way is measured again.
    changed_rows = np.flatnonzero(kept.horizontal.view(np.int64) != now.horizontal.view(np.int64))
    touched = set(np.unique(kept.row_path[changed_rows]).tolist()) - {-1}
    home = kept.pool.home
    # A patch rack moved: every leg with a panel there is ordered longer by another way.
    home_moved = any(rack in moved for rack in home.values())
    for p, path in enumerate(old.paths):
        if p in touched:
            continue
        if moved.intersection(path[3]) or (path[2] and home_moved):
            touched.add(p)
    legs = copy.copy(old)
    legs.design, legs.findings, legs.columns = design, findings, columns
    legs.trunks = np.empty((0, 1), dtype=object)  # step 3 makes the slots again
    legs.seg_m, legs.cord_off_m = list(old.seg_m), list(old.cord_off_m)
    horizontal = columns.horizontal
    racks_of = design.racks
    paths = sorted(touched)
    spans = []
    for p in paths:
        start, end, displaced, racks, (rack_a, rack_b, _), _group = old.paths[p]
        spans.append(np.arange(start, end, dtype=np.int64))
        own_route = len(racks) == 2 and (racks[0], racks[1]) == (rack_a, rack_b)
        fixed_m = (
            ()
            if own_route
            else tuple(distance(ra, rb) for ra, rb in zip(racks, racks[1:], strict=False))
        )
        rows, sizes = old.leg_members[p], old.leg_sizes[p]
        if sizes is None:
            chunks = [[r] for r in rows.tolist()]
        else:
            bounds = np.cumsum(sizes)[:-1]
            chunks = [c.tolist() for c in np.split(rows, bounds)]
        for k, chunk in zip(range(start, end), chunks, strict=True):
            seg_m: tuple[float, ...]
            if own_route:
                seg_m = (
                    (horizontal[chunk[0]],)
                    if len(chunk) == 1
                    else (max([horizontal[c] for c in chunk]),)
                )
            else:
                seg_m = fixed_m
            cord_off_m = (0.0, 0.0)
            holders = old.holders[k]
            if displaced and not home.keys().isdisjoint(holders):
                seg_m, cord_off_m = displace(racks, holders, seg_m, home, racks_of)
            legs.seg_m[k], legs.cord_off_m[k] = seg_m, cord_off_m
    # The next edit is compared with this design's lengths, on these legs.
    kept.horizontal, kept.positions, kept.legs = now.horizontal, now.positions, legs
    touched_legs = np.concatenate(spans) if spans else np.zeros(0, dtype=np.int64)
    return legs, (touched_legs, paths)
