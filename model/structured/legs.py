"""Step 2 of the structured layout: the trunk legs of every path, their panels taken from the pool.

A *leg* is one MPO connector at each end of every segment of a path (see
:mod:`model.structured.layout`): an MPO channel's fibre, or the MPO-12 rear of an LC cassette
pair carrying up to six duplex channels. The legs of a path whose nodes are distinct racks'
pooled panels take each node's ports for all of them at once (the usual path; a zoned XL hall
has 393k legs on a few thousand paths), also when a rack spills into patch racks no other node
of the path can reach; a path with panels named by hand, or whose racks could take the same
patch-rack panel, takes them leg by leg.
"""

from __future__ import annotations

import math
from itertools import repeat
from operator import itemgetter

import numpy as np

from model.common.findings import Finding
from model.structured.channel_groups import ChannelColumns
from model.structured.channels import CONNECTOR_FAMILY, CONNECTOR_FIBRES, Element
from model.structured.layout_records import (
    LC_CASSETTE,
    LC_ENCLOSURE,
    MPO_PANEL,
    LegLinks,
    cassette_id,
)
from model.structured.leg_runs import displace, paired_runs, stretches
from model.structured.paths import PanelPool, patch_way_m
from model.structured.polarity import CASSETTE_PORTS  # 6 LC duplex ports per MPO-12 cassette

_FIRST = itemgetter(0)


class LegLayer:
    """Step 2: the trunk legs of every group, with their panels taken from the pool."""

    def __init__(self, design, pool: PanelPool, findings: list[Finding], panels_only: bool):
        self.design, self.pool, self.findings, self.panels_only = (
            design,
            pool,
            findings,
            panels_only,
        )
        # Per panel pair, mode and width: its segments as two columns, the legs' numbers and
        # each one's segment number (lists grown a run at a time, not a tuple per segment).
        self.segments: dict[tuple, tuple[list[int], list[int]]] = {}
        # Every leg as columns indexed by its number (layout order), not an object per leg
        # (393k at zoned XL): the channels it carries (LC: up to six, one per cassette port),
        # the path's racks, per node its panel or enclosure id and element (port set per
        # member), per segment its horizontal length (m, no slack), and per end the way from
        # its rack to the patch rack holding its panel (0: its own rack). Legs of one run of
        # panels share one tuple of each. ``trunks``: per leg and segment its trunk's element
        # (step 3 sets them, step 4 reads ids and lengths off them); made by
        # :meth:`trunk_slots`.
        self.link_ids = LegLinks()
        self.racks: list[tuple[str, ...]] = []
        self.holders: list[tuple[str, ...]] = []
        self.nodes: list[tuple[Element, ...]] = []
        self.seg_m: list[tuple[float, ...]] = []
        self.cord_off_m: list[tuple[float, float]] = []
        self.trunks: np.ndarray = np.empty((0, 1), dtype=object)
        # Per path laid, its legs' members (rows of the ChannelColumns of :meth:`lay`) one
        # after the other, and how many each leg has (None: one each, every MPO leg), as
        # arrays, not a tuple per leg; and per path laid, what its legs share: their span
        # (first, end), whether any of them may have a panel in a patch rack (else every
        # leg's ``cord_off_m`` is (0, 0): step 4 need not read 393k of them at zoned XL), its
        # racks, its links' ends (racks A, B; LC cassettes?) and its group number.
        self.leg_members: list[np.ndarray] = []
        self.leg_sizes: list[np.ndarray | None] = []
        self.paths: list[tuple[int, int, bool, tuple, tuple[str, str, bool], int]] = []
        self._displaced_here = False
        self.columns: ChannelColumns | None = None
        self.cassette_no: dict[str, int] = {}
        # One Element per panel (frozen, so the channels through it can share it).
        self._panel_element: dict[str, Element] = {}

    def lay(self, groups: dict, columns: ChannelColumns, distance) -> None:
        """Lays the legs of every group (its member rows of ``columns``), in the groups'
        sorted order."""
        self.columns = columns
        self.link_ids = LegLinks(columns.link_ids)

        # Ports of panels named by hand are theirs before any style path takes one: a style
        # path laid first would otherwise take them too (a design half routed by hand, as an
        # import of a site with virtual panels is, had its placed panels booked twice).
        for (nodes, _, _, _, connector), members in groups.items():
            if any(named for _, named in nodes):
                legs = _legs_of(members, connector, columns)
                for _, named in nodes:
                    if named:
                        self.pool.reserve(named, legs)
        laid = sorted(groups.items())
        ordered, single = _ordered_members([members for _, members in laid], columns)
        kinds: dict[str, tuple[bool, int]] = {}  # per connector: LC?, leg width
        for group, ((nodes, rack_a, rack_b, mode, connector), _) in enumerate(laid):
            order = ordered[group]
            members = order.tolist()
            kind = kinds.get(connector)
            if kind is None:
                lc = CONNECTOR_FAMILY.get(connector) == "LC"
                kind = kinds[connector] = (lc, 12 if lc else CONNECTOR_FIBRES[connector])
            lc, width = kind
            racks = tuple([r for r, _ in nodes])
            # What every leg of the group shares: each node's rack, named panel, holder kind and
            # whether it is an end; the segments' lengths unless the leg's own route sets them.
            # (position, rack, named panel, cassette?, the pool's key of its kind of panel)
            if lc:
                ends = (0, len(nodes) - 1)
                points = [
                    (
                        i,
                        rack_id,
                        named,
                        i in ends,
                        (rack_id, LC_ENCLOSURE if i in ends else MPO_PANEL),
                    )
                    for i, (rack_id, named) in enumerate(nodes)
                ]
            else:  # no cassette: an MPO panel at every node
                points = [
                    (i, rack_id, named, False, (rack_id, MPO_PANEL))
                    for i, (rack_id, named) in enumerate(nodes)
                ]
            leg_ends = (rack_a, rack_b, lc)  # an LC path has cassettes at both ends
            own_route = len(racks) == 2 and racks[0] == rack_a and racks[1] == rack_b
            if own_route:
                fixed_m: tuple[float, ...] = ()
            else:
                fixed_m = tuple(
                    [distance(ra, rb) for ra, rb in zip(racks, racks[1:], strict=False)]
                )
            # Each leg's members: a chunk of up to six channels (LC: ``chunks``), or one
            # member, once per fibre of an MPO link of several (800G SR8: one leg per fibre):
            # ``flat``, the members leg by leg (``chunks`` None).
            chunks: list[list[int]] | None = None
            if lc:
                chunks = [
                    members[i : i + CASSETTE_PORTS] for i in range(0, len(members), CASSETTE_PORTS)
                ]
                flat_rows = order
            elif single[group]:
                flat_rows = order
            else:
                flat_rows = np.repeat(order, columns.fibres[order])
                members = flat_rows.tolist()
            n_legs = len(members) if chunks is None else len(chunks)
            lay = self._lay_one_by_one
            if (
                not any([named for _, named in nodes])
                and len(set(racks)) == len(racks)
                and self._spills_apart(points, n_legs)
            ):
                # No named panel, no rack twice, and no two of its racks' takes can reach the
                # same panel (so the order of takes between them does not matter): the usual
                # path, and a path whose racks spill into patch racks of their own.
                lay = self._lay_in_columns
            start, self._displaced_here = len(self.link_ids), False
            shape = (racks, own_route, fixed_m)
            lay(points, chunks, shape, (mode, width), members)
            if len(self.link_ids) > start:
                self.paths.append(
                    (start, len(self.link_ids), self._displaced_here, racks, leg_ends, group)
                )
                self.leg_members.append(flat_rows)
                self.leg_sizes.append(
                    None if chunks is None else np.fromiter(map(len, chunks), np.int64, n_legs)
                )

    def trunk_slots(self) -> np.ndarray:
        """Per leg and segment, a slot for its trunk's element (None until step 3 sets it):
        ``trunks``, made for the legs laid (as many columns as the longest path has
        segments)."""
        widest = max((len(path[3]) - 1 for path in self.paths), default=1)
        self.trunks = np.full((len(self.link_ids), widest), None, dtype=object)
        return self.trunks

    def members_by_leg(self) -> tuple[np.ndarray, np.ndarray]:
        """Every leg's members one after the other (rows of the columns), and per leg how
        many (the legs in layout order)."""
        if not self.leg_members:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        members = np.concatenate(self.leg_members)
        sizes = np.ones(len(members), dtype=np.int64)  # a member per leg: every MPO path's
        at = 0
        for rows, n in zip(self.leg_members, self.leg_sizes, strict=True):
            if n is not None:  # an LC path's legs: up to six members each
                sizes[at : at + len(n)] = n
                at += len(n)
            else:
                at += len(rows)
        return members, sizes[:at]

    def _ids_and_horizontal(self) -> tuple[list[str], list[float]]:
        """The members' link ids and horizontal lengths (m), by row."""
        columns = self.columns
        assert columns is not None  # set by lay()
        return columns.link_ids, columns.horizontal

    def _spills_apart(self, points: list, n: int) -> bool:
        """Whether the takes of ``n`` legs at ``points`` (distinct racks) touch disjoint
        panels: each rack's own panels hold them all, or the racks short of ports spill into
        patch racks that are no other point's rack and no other short rack's overflow."""
        pool = self.pool
        short = [point for point in points if pool.free_ports(point[4]) < n]
        if not short:
            return True
        racks = {point[1] for point in points}
        reached: set[str] = set()
        for point in short:
            overflow = set(pool.overflow.get(point[1], ()))
            if overflow & racks or overflow & reached:
                return False
            reached |= overflow
        return True

    def _lay_one_by_one(
        self, points: list, chunks: list | None, shape: tuple, seg: tuple, flat=None
    ):
        """The legs of a path with panels named by hand (or a rack twice): leg after leg, each
        taking its panels from the pool in turn, as a named panel's use is checked per leg.
        ``chunks``: each leg's members, None when each leg has one, those of ``flat``."""
        racks, own_route, fixed_m = shape
        ids, horizontal = self._ids_and_horizontal()
        for chunk in chunks if chunks is not None else zip(flat, strict=True):
            holders, elements = self._take_panels(points, ids[chunk[0]])
            if self.panels_only:
                continue
            seg_m: tuple[float, ...]
            if own_route:
                seg_m = (
                    horizontal[chunk[0]] if len(chunk) == 1 else max(horizontal[c] for c in chunk),
                )
            else:
                seg_m = fixed_m
            link_ids = (ids[chunk[0]],) if len(chunk) == 1 else tuple(ids[c] for c in chunk)
            cord_off_m = (0.0, 0.0)
            home = self.pool.home  # panels taken in patch racks (filled as the legs are laid)
            if home and not home.keys().isdisjoint(holders):
                seg_m, cord_off_m = displace(racks, holders, seg_m, home, self.design.racks)
                self._displaced_here = True
            leg = len(self.link_ids)
            self.link_ids.append(link_ids)
            self.racks.append(racks)
            self.holders.append(holders)
            self.nodes.append(tuple(elements))
            self.seg_m.append(seg_m)
            self.cord_off_m.append(cord_off_m)
            for s in range(len(seg_m)):
                seg_key = (holders[s], holders[s + 1], *seg)
                seg_legs, seg_nos = self.segments.setdefault(seg_key, ([], []))
                seg_legs.append(leg)
                seg_nos.append(s)

    def _lay_in_columns(
        self, points: list, chunks: list | None, shape: tuple, seg: tuple, flat=None
    ):
        """The legs of a path whose nodes are distinct racks' pooled panels: each node takes
        its ports for all the path's legs at once, as runs of one panel
        (:meth:`PanelPool.take_runs`; the keys are distinct, so the order of takes between
        nodes does not change which panel a leg gets), and the legs are made from those
        columns: the same legs, panels, cassettes and segments as taken leg by leg (a zoned
        XL hall's 393k legs). A run's panel, element and way to its patch rack are found
        once per run, not once per leg."""
        if chunks is None and len(points) == 2:
            self._lay_pair(points, shape, seg, flat)
            return
        racks, own_route, fixed_m = shape
        n = len(flat) if chunks is None else len(chunks)
        cassette_no, panel_element = self.cassette_no, self._panel_element
        run_cols: list[list] = []
        element_cols: list[list[Element] | None] = []  # None: the node's panels (shared)
        for i, rack_id, _named, cassette, key in points:
            runs = self.pool.take_runs(key, n)
            first = cassette_no.get(rack_id, 0) + 1
            if cassette:
                cassette_no[rack_id] = first - 1 + n
            if self.panels_only:
                continue
            run_cols.append(runs)
            if cassette:
                reverse = i > 0
                element_cols.append(
                    [
                        Element("cassette", cassette_id(rack_id, k), LC_CASSETTE, reverse=reverse)
                        for k in range(first, first + n)
                    ]
                )
                continue
            for holder, _count in runs:
                if holder not in panel_element:
                    panel_element[holder] = Element("panel", holder, MPO_PANEL)
            element_cols.append(None)
        if self.panels_only or not n:
            return
        holder_rows, node_rows = self._node_rows(run_cols, element_cols, n)
        ids, horizontal = self._ids_and_horizontal()
        # A leg of one member (every MPO leg, ``flat`` its members; an LC leg of one
        # channel): its links and its own route's length are 1-tuples made by zip over the
        # members, in C.
        lone = chunks is None or max(map(len, chunks)) == 1
        link_cols = None  # a leg of one member: its row (LegLinks makes its 1-tuple if read)
        if not lone:
            assert chunks is not None
            link_cols = [tuple([ids[c] for c in chunk]) for chunk in chunks]
        if own_route and lone:
            seg_ms = _route_lengths(horizontal, flat)
        elif own_route:
            assert chunks is not None
            seg_ms = [(max([horizontal[c] for c in chunk]),) for chunk in chunks]
        else:
            seg_ms = [fixed_m] * n
        displaced = self._displaced(racks, run_cols, seg_ms)
        self._displaced_here |= displaced is not None
        start = len(self.link_ids)
        if link_cols is None:
            assert flat is not None
            self.link_ids.add_rows(flat)
        else:
            self.link_ids.add(link_cols)
        self.racks += repeat(racks, n)
        self.holders += holder_rows
        self.nodes += node_rows
        self.seg_m += seg_ms
        self.cord_off_m += repeat((0.0, 0.0), n) if displaced is None else displaced
        self._add_segments(start, run_cols, seg)

    def _lay_pair(self, points: list, shape: tuple, seg: tuple, flat: list) -> None:
        """The MPO legs of a path of two pooled panels (panel - trunk - panel: 7,008 of a zoned
        XL hall's 7,168 paths), as :meth:`_lay_in_columns` lays them, in one pass over the
        stretches of legs between the same two panels: each stretch's holders, elements,
        segment and ways to patch racks found at once, where the general way made a pass
        (and a stretch list) for each (~25 µs a path)."""
        racks, own_route, fixed_m = shape
        n = len(flat)
        take_runs = self.pool.take_runs
        runs_a = take_runs(points[0][4], n)
        runs_b = take_runs(points[1][4], n)
        if self.panels_only or not n:
            return
        segments = self.segments
        home = self.pool.home
        # Whether any leg has a panel in a patch rack (then every leg has its cords' ways,
        # (0, 0) where neither panel is one): the path's flag in ``paths``, as _displaced's.
        displaced = bool(home) and any(h in home for runs in (runs_a, runs_b) for h, _ in runs)
        if own_route:
            seg_ms = _route_lengths(self._ids_and_horizontal()[1], flat)
        else:
            seg_ms = [fixed_m] * n
        cord_offs = [(0.0, 0.0)] * n if displaced else None
        start = len(self.link_ids)
        # Each stretch's legs straight onto the layer's columns (no list per path copied on).
        holder_rows, node_rows, panel = self.holders, self.nodes, self._panel_element
        i = j = k = 0
        left_a, left_b = runs_a[0][1], runs_b[0][1]
        while True:
            m = min(left_a, left_b)
            holder_a, holder_b = runs_a[i][0], runs_b[j][0]
            holders = (holder_a, holder_b)
            node_a = panel[holder_a] if holder_a in panel else self._panel(holder_a)
            node_b = panel[holder_b] if holder_b in panel else self._panel(holder_b)
            holder_rows += [holders] * m
            node_rows += [(node_a, node_b)] * m
            seg_key = (holder_a, holder_b, *seg)
            pair = segments.get(seg_key)
            if pair is None:
                pair = segments[seg_key] = ([], [])
            pair[0].extend(range(start + k, start + k + m))
            pair[1].extend([0] * m)
            if cord_offs is not None:
                self._displace_stretch(racks, holders, seg_ms, cord_offs, (k, k + m))
            k += m
            left_a -= m
            left_b -= m
            if not left_a:
                i += 1
                if i == len(runs_a):
                    break
                left_a = runs_a[i][1]
            if not left_b:
                j += 1
                left_b = runs_b[j][1]
        self._displaced_here |= displaced
        self.link_ids.add_rows(flat)
        self.racks += repeat(racks, n)
        self.seg_m += seg_ms
        self.cord_off_m += repeat((0.0, 0.0), n) if cord_offs is None else cord_offs

    def _panel(self, holder: str) -> Element:
        """The element of the MPO panel ``holder`` (one per panel, shared)."""
        element = self._panel_element.get(holder)
        if element is None:
            element = self._panel_element[holder] = Element("panel", holder, MPO_PANEL)
        return element

    def _displace_stretch(
        self, racks: tuple, holders: tuple, seg_ms: list, cord_offs: list, span: tuple[int, int]
    ) -> None:
        """:meth:`_displaced` for the legs ``span`` (first, end) of a two-panel path between
        the same two ``holders``: where either is in a patch rack, their cords' ways, and each
        leg's one segment ordered that much longer (the same sums, segment + A's + B's)."""
        home, design_racks = self.pool.home, self.design.racks
        ways = [
            patch_way_m(design_racks[rack], design_racks[home[h]]) if h in home else 0.0
            for rack, h in zip(racks, holders, strict=True)
        ]
        if ways[0] == 0.0 and ways[1] == 0.0:
            return
        k0, k1 = span
        way_a, way_b = ways
        cord_offs[k0:k1] = [(way_a, way_b)] * (k1 - k0)
        stretch = seg_ms[k0:k1]
        if stretch.count(stretch[0]) == len(stretch):  # off its own route: one length
            seg_ms[k0:k1] = [(stretch[0][0] + way_a + way_b,)] * (k1 - k0)
        else:
            seg_ms[k0:k1] = [(m + way_a + way_b,) for (m,) in stretch]

    def _node_rows(
        self, run_cols: list, element_cols: list[list[Element] | None], n: int
    ) -> tuple[list, list]:
        """Per leg: its panel or enclosure per node, and their elements. Legs where no node's
        run of panels changes share one tuple of each (a zoned XL hall's 393k legs held two
        equal tuples each); a path through LC cassettes, each leg's own, has a tuple per leg."""
        holder_rows: list[tuple[str, ...]] = []
        node_rows: list[tuple[Element, ...]] = []
        if any(elements is not None for elements in element_cols):
            holder_cols: list[list[str]] = []
            for runs in run_cols:
                column: list[str] = []
                for holder, count in runs:
                    column += [holder] * count
                holder_cols.append(column)
            panel_element = self._panel_element
            for s, elements in enumerate(element_cols):
                if elements is None:  # a panel between the cassettes at the ends
                    element_cols[s] = list(map(panel_element.__getitem__, holder_cols[s]))
            return list(zip(*holder_cols, strict=True)), list(zip(*element_cols, strict=True))
        panel_element = self._panel_element
        for k0, k1, holders in stretches(run_cols):
            nodes = tuple(map(panel_element.__getitem__, holders))
            holder_rows += [holders] * (k1 - k0)
            node_rows += [nodes] * (k1 - k0)
        assert len(holder_rows) == n
        return holder_rows, node_rows

    def _displaced(self, racks: tuple, run_cols: list, seg_ms: list) -> list | None:
        """What :func:`displace` does to each leg with a panel in a patch rack, run by run:
        each run's way to its patch rack found once, and the legs' segment lengths
        (``seg_ms``, replaced in place) plus the ways at both their ends, worked out once per
        stretch of legs whose nodes' runs are the same (their ways are) and whose segment
        lengths are one tuple (a path not on its links' own route: all its legs'). Returns
        each leg's cords' ways (A, B), None when no leg has one."""
        home = self.pool.home
        if not home or all(h not in home for runs in run_cols for h, _ in runs):
            return None
        design_racks = self.design.racks
        way_runs = []
        for rack_id, runs in zip(racks, run_cols, strict=True):
            rack = design_racks[rack_id]
            way_runs.append(
                [
                    (patch_way_m(rack, design_racks[home[h]]) if h in home else 0.0, count)
                    for h, count in runs
                ]
            )
        cord_offs = [(0.0, 0.0)] * len(seg_ms)
        for k0, k1, ways in stretches(way_runs):
            if all(way == 0.0 for way in ways):
                continue
            # The same sums in the same order as displace's: segment + its A end's + its B
            # end's.
            cord_offs[k0:k1] = [(ways[0], ways[-1])] * (k1 - k0)
            stretch = seg_ms[k0:k1]
            # (The tests by count and map, in C: ~150k legs of a zoned XL hall spill.)
            if stretch.count(stretch[0]) == len(stretch):  # a path off its own route: equal
                seg_m = stretch[0]
                got = tuple([m + ways[s] + ways[s + 1] for s, m in enumerate(seg_m)])
                seg_ms[k0:k1] = [got] * (k1 - k0)
            elif max(map(len, stretch)) == 1:  # on its own route: one segment
                # The same float64 sums, (m + A) + B, over the stretch at once.
                one = np.fromiter(map(_FIRST, stretch), np.float64, k1 - k0)
                seg_ms[k0:k1] = list(zip(((one + ways[0]) + ways[1]).tolist(), strict=True))
            else:
                was = got = None
                for k in range(k0, k1):
                    seg_m = seg_ms[k]
                    if seg_m is not was:
                        was = seg_m
                        got = tuple([m + ways[s] + ways[s + 1] for s, m in enumerate(seg_m)])
                    seg_ms[k] = got
        return cord_offs

    def _add_segments(self, start: int, run_cols: list, seg: tuple) -> None:
        """Each segment of the legs from number ``start`` on in its panel pair's list, taken a run of legs between the
        same two panels at a time (where neither node's run of panels changes); a new panel
        pair enters ``segments`` where it would leg by leg (legs first, then segments), as
        the trunks are numbered in that order."""
        segments = self.segments
        new: dict[tuple, tuple[tuple[int, int], tuple[list, list]]] = {}
        for s in range(len(run_cols) - 1):
            k = 0
            for holder_a, holder_b, m in paired_runs(run_cols[s], run_cols[s + 1]):
                seg_key = (holder_a, holder_b, *seg)
                members = segments.get(seg_key)
                if members is None:
                    got = new.get(seg_key)
                    if got is None:
                        got = new[seg_key] = ((k, s), ([], []))
                    members = got[1]
                members[0].extend(range(start + k, start + k + m))
                members[1].extend([s] * m)
                k += m
        for seg_key, (_, members) in sorted(new.items(), key=lambda item: item[1][0]):
            segments[seg_key] = members

    def _take_panels(self, points: list, link_id: str) -> tuple[tuple[str, ...], list[Element]]:
        """One leg's panel or enclosure per node, and its elements (none when panels only)."""
        design, pool, cassette_no = self.design, self.pool, self.cassette_no
        panels_only, panel_element = self.panels_only, self._panel_element
        holders, elements = [], []
        for i, rack_id, named, cassette, key in points:
            if named:
                holder = named
                if pool.use(named) > pool.capacity.get(design.devices[named].type, math.inf):
                    self.findings.append(_ports_exceeded(design, named, link_id))
            else:
                holder = pool.take(key)
            if cassette:
                cassette_no[rack_id] = cassette_no.get(rack_id, 0) + 1
            if panels_only:
                continue  # no elements: only what the panels take is wanted
            holders.append(holder)
            if cassette:
                cas = cassette_id(rack_id, cassette_no[rack_id])
                elements.append(Element("cassette", cas, LC_CASSETTE, reverse=i > 0))
            else:
                element = panel_element.get(holder)
                if element is None:
                    element = panel_element[holder] = Element("panel", holder, MPO_PANEL)
                elements.append(element)
        return tuple(holders), elements


def _route_lengths(horizontal: list[float], rows) -> list[tuple[float]]:
    """Per leg of one member (``rows``), its one segment's length: its member's own route
    (``horizontal``). The links of a path between the same two racks mostly share one tray
    route, so where every length is the first's (bit for bit: equal and non-zero, as
    only 0.0 and -0.0 are equal and differ), the legs share one 1-tuple: a zoned XL hall's
    393k legs held a tuple each."""
    lengths = list(map(horizontal.__getitem__, rows))
    if not lengths:
        return []
    first = lengths[0]
    if first != 0.0 and lengths.count(first) == len(lengths):
        return [(first,)] * len(lengths)
    return list(zip(lengths, strict=True))


def _ordered_members(members: list[np.ndarray], columns: ChannelColumns) -> tuple[list, list]:
    """Each group's members in the order of their links' ends (device, port; either way round),
    not of the links' ids or insertion: the same plant bundles the same legs into the same
    trunks, also after a round trip that gives the links new ids (import-netbox). Stable: a
    link's repeats stay together. And per group, whether each member has one fibre (pair).

    One sort of every member by (group, end) rather than one per group: a zoned XL hall has
    393k members in ~7k groups, and a handful of numpy calls per group was ~0.1 s."""
    sizes = np.fromiter(map(len, members), np.int64, len(members))
    if not len(members) or not sizes.sum():
        return [m[:0] for m in members], [True] * len(members)
    every = np.concatenate(members)
    group = np.repeat(np.arange(len(members)), sizes)
    every = every[np.lexsort((columns.end_key[every], group))]  # stable, as argsort's
    bounds = np.cumsum(sizes)[:-1]
    several = np.bincount(group, weights=columns.fibres[every] != 1, minlength=len(members))
    return np.split(every, bounds), (several == 0).tolist()


def _legs_of(members: np.ndarray, connector: str, columns: ChannelColumns) -> int:
    """How many legs :meth:`LegLayer.lay` makes of a group's ``members``: chunks of six
    channels through LC cassettes, else one per channel and fibre of its medium."""
    if CONNECTOR_FAMILY.get(connector) == "LC":
        return math.ceil(len(members) / CASSETTE_PORTS)
    return int(columns.fibres[members].sum())


def _ports_exceeded(design, panel_id: str, link_id: str) -> Finding:
    panel = design.devices[panel_id]
    return Finding(
        code="PANEL_PORTS_EXCEEDED",
        severity="warning",
        message=f"panel {panel.name or panel_id}: link {link_id} routed via it needs more "
        "ports than the panel has",
        objects=(panel_id, link_id),
    )
