"""Step 3 of the structured layout: the legs of each panel pair bundled into MPO trunks, as columns.

A panel pair's legs (:class:`~model.structured.legs.LegLayer` ``segments``) fill the smallest
trunk part of their mode that carries them all, else the largest, repeated (see
:mod:`model.structured.layout`). The pairs are walked once to cut their legs into trunks (a
few per pair); every figure of a trunk is then worked out for all trunks at once: the longest
leg by a reduce over the segments' lengths, the length with slack and service loop, the
orderable length by one search per part, the trunks made by ``map`` and each leg told its
trunk's element by one numpy assignment into the legs' (leg, segment) slots. A zoned XL hall has ~100k trunks over ~786k
segments: per trunk a Python call, a dozen lookups and a loop over its legs was ~1 s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import chain, repeat
from operator import getitem, itemgetter

import numpy as np

from model.catalog.structured import TrunkPart
from model.common.findings import Finding
from model.engine.patch_points import TRUNK_SERVICE_LOOP_M  # the media choice counts it too
from model.structured.channels import Element, ElementKind
from model.structured.layout_records import StructuredLayout, Trunk
from model.structured.stock_lengths import stock_lengths_at

_FIRST, _SECOND, _THIRD, _FOURTH = map(itemgetter, range(4))
_TRUNK: ElementKind = "trunk"


def bundle_trunks(
    layout: StructuredLayout,
    catalog,
    laid,
    route_of: dict,
    slack_pct: float,
    recorded: dict | None = None,
    for_channels: bool = True,
) -> TrunkBundling | None:
    """The legs of each panel pair of ``laid.segments`` (a
    :class:`~model.structured.legs.LegLayer`) bundled into trunks (``layout.trunks``, in the
    pairs' order), each leg told its trunks (``laid.trunks``); ``recorded``: per link, its
    pieces' recorded lengths (a trunk takes its links' record). Returns how the legs were
    bundled (None: no trunk), which :mod:`model.structured.trunk_reuse` keeps.
    ``for_channels`` False: the trunks alone, no trunk element made nor any leg told its
    trunks (a trunks-only layout makes no channel: ~60 ms of a zoned XL picture)."""
    slots = laid.trunk_slots() if for_channels else None
    cut = _cut(catalog, laid)
    if not cut.parts:
        return None
    starts, seg_m, seg_nos, seg_legs = cut.starts, cut.seg_m, cut.seg_nos, cut.legs
    sizes = np.diff(np.append(starts, len(seg_m)))
    lengths_m = _lengths(seg_m, starts, slack_pct)
    recorded_m: list[float | None] = [None] * len(starts)
    if recorded:
        legs = seg_legs.tolist()
        link_ids = list(map(laid.link_ids.made().__getitem__, legs))
        segs = list(map(laid.seg_m.__getitem__, legs))
        nos = seg_nos.tolist()
        recorded_m = [
            _recorded_m(zip(link_ids[i:j], segs[i:j], nos[i:j], strict=True), recorded)
            for i, j in zip(starts.tolist(), [*starts[1:].tolist(), len(seg_m)], strict=True)
        ]
        lengths_m = [m if r is None else r for m, r in zip(lengths_m, recorded_m, strict=True)]
    ordered = _ordered_by_code(cut.part_codes, cut.code_parts, lengths_m)
    n = len(starts)
    ids = [f"trunk-{k}" for k in range(1, n + 1)]
    part_ids = cut.part_ids
    trunk_of = np.repeat(np.arange(n, dtype=np.int64), sizes)
    links = _trunk_links(laid, seg_legs, seg_nos, starts)
    # Each trunk's racks: its first leg's at its segment's two ends (maps in C, not a loop).
    first_racks = list(map(laid.racks.__getitem__, seg_legs[starts].tolist()))
    first_s = seg_nos[starts]
    rack_a = list(map(getitem, first_racks, first_s.tolist()))
    rack_b = list(map(getitem, first_racks, (first_s + 1).tolist()))
    routes = _routes(route_of, rack_a, rack_b)
    trunks = list(
        map(
            Trunk,
            ids,
            part_ids,
            rack_a,
            rack_b,
            lengths_m,
            ordered,
            links,
            repeat(1, n),
            cut.fibres,
            sizes.tolist(),
            cut.panel_a,
            cut.panel_b,
            routes,
            [r is not None for r in recorded_m],
        )
    )
    layout.trunks += trunks
    # A trunk no part fits has no orderable length either (NaN, :func:`_ordered`).
    unorderable = np.flatnonzero(np.isnan(np.asarray(ordered, dtype=np.float64))).tolist()
    for k in unorderable:
        layout.findings.append(_trunk_not_orderable(trunks[k], cut.modes[k], cut.widths[k]))
    # One element per trunk and polarity, shared by the channels of its legs (as panels
    # are): the first trunk of a channel is Type B, any further one Type A; its length the
    # orderable one, else its own.
    elements = np.empty(0, dtype=object)
    if slots is not None:
        got = list(ordered)
        for k in unorderable:
            got[k] = lengths_m[k]
        elements = _elements(ids, part_ids, got, trunk_of, seg_nos)
        slots[seg_legs, seg_nos] = elements[trunk_of + n * (seg_nos > 0)]
    return TrunkBundling(
        seg_legs, seg_nos, seg_m, starts, trunk_of, cut, lengths_m, ordered, trunks, elements
    )


def _elements(
    ids: list[str], part_ids: list[str], got: list, trunk_of: np.ndarray, seg_nos: np.ndarray
) -> np.ndarray:
    """Per trunk its Type B element, then per trunk its Type A one (None where no segment
    of the trunk takes it: a trunk is mostly one segment of its legs' paths, so it is
    made once, not twice, ~100k Structs fewer at zoned XL)."""
    n = len(ids)
    used = np.zeros(2 * n, dtype=bool)
    used[trunk_of + n * (seg_nos > 0)] = True
    elements = np.empty(2 * n, dtype=object)
    for polarity, half in (("B", used[:n]), ("A", used[n:])):
        at = np.flatnonzero(half)
        rows = at.tolist()
        if len(rows) == n:  # every trunk's: no gathers
            made = list(map(Element, repeat(_TRUNK, n), ids, part_ids, got, repeat(polarity, n)))
        else:
            pick = [ids, part_ids, got]
            made = list(
                map(
                    Element,
                    repeat(_TRUNK, len(rows)),
                    *(map(column.__getitem__, rows) for column in pick),
                    repeat(polarity, len(rows)),
                )
            )
        elements[at + (n if polarity == "A" else 0)] = made
    return elements


class TrunkBundling:
    """How step 3 bundled the legs: per segment (in the pairs' order) its leg, segment number,
    length and trunk; per trunk its first segment, part, mode, width, length, orderable length
    and record; and the trunk elements (Type B, then Type A)."""

    def __init__(
        self,
        seg_legs: np.ndarray,
        seg_nos: np.ndarray,
        seg_m: np.ndarray,
        starts: np.ndarray,
        trunk_of: np.ndarray,
        cut: _Cut,
        lengths_m: list[float],
        ordered: list[float],
        trunks: list[Trunk],
        elements: np.ndarray,
    ) -> None:
        self.seg_legs, self.seg_nos, self.seg_m = seg_legs, seg_nos, seg_m
        self.starts, self.trunk_of = starts, trunk_of
        self.parts, self.modes, self.widths = cut.parts, cut.modes, cut.widths
        self.lengths_m, self.ordered = lengths_m, ordered
        self.trunks, self.elements = trunks, elements


class _Cut:
    """The segments of every panel pair, in the pairs' order, as columns (each leg's number,
    its segment number and that segment's length), and per trunk: the first segment's
    position, its part (None: no part fits), mode, leg width and panels."""

    def __init__(self) -> None:
        self.legs = np.zeros(0, dtype=np.int64)
        self.seg_nos = np.zeros(0, dtype=np.int64)
        self.seg_m = np.zeros(0, dtype=np.float64)
        self.starts = np.zeros(0, dtype=np.int64)
        self.part_ids: list[str] = []  # "": no part
        self.fibres: list[int] = []  # its part's fibres, else its legs' width
        self.part_codes = np.zeros(0, dtype=np.int64)  # its part's number (-1: none)
        self.code_parts: list[TrunkPart] = []  # the parts by number
        self.parts: list[TrunkPart | None] = []
        self.modes: list[str] = []
        self.widths: list[int] = []
        self.panel_a: list[str] = []
        self.panel_b: list[str] = []


def _cut(catalog, laid) -> _Cut:
    """Each panel pair's legs cut into trunks: the smallest part that carries all the legs
    left, else the largest. Pairs of the same mode, leg width and number of legs are cut
    alike, so each such *plan* (the trunks' first legs within the pair, their parts) is
    worked out once, and the trunks of all pairs are spread from the plans by numpy: a zoned
    XL hall has ~100k panel pairs and a handful of plans (a loop body per pair was ~0.1 s)."""
    cut = _Cut()
    segments = laid.segments
    if not segments:
        return cut
    values = list(segments.values())
    pair_legs = list(map(_FIRST, values))
    sizes = list(map(len, pair_legs))
    # The columns straight from the pairs' lists (no list of 398k made, then an array).
    total = sum(sizes)
    cut.legs = np.fromiter(chain.from_iterable(pair_legs), np.int64, total)
    cut.seg_nos = np.fromiter(chain.from_iterable(map(_SECOND, values)), np.int64, total)
    cut.seg_m = _segment_lengths(laid.seg_m, cut.legs, cut.seg_nos)
    # The trunk parts per (mode, leg width), and the plan per (mode, width, legs).
    parts_of: dict[tuple[str, int], list] = {}
    plan_no: dict[tuple[str, int, int], int] = {}
    plan_key = [
        plan_no.setdefault((mode, width, n), len(plan_no))
        for (_, _, mode, width), n in zip(segments, sizes, strict=True)
    ]
    offsets: list[int] = []  # the plans' trunks, plan after plan: first leg, part, fibres
    plan_parts: list[TrunkPart | None] = []
    plan_fibres: list[int] = []
    plan_first: list[int] = []
    for mode, width, n_legs in plan_no:
        parts = parts_of.get((mode, width))
        if parts is None:
            parts = parts_of[(mode, width)] = _bendable(
                catalog,
                sorted(
                    (t for t in catalog.trunks.values() if t.mode == mode and t.fibres >= width),
                    key=lambda t: t.fibres,
                ),
            )
        plan_first.append(len(offsets))
        i = 0
        while i < n_legs:
            remaining = n_legs - i
            fit = [p for p in parts if p.fibres // width >= remaining]
            tpart = (
                fit[0] if fit else (max(parts, key=lambda p: p.fibres // width) if parts else None)
            )
            offsets.append(i)
            plan_parts.append(tpart)
            plan_fibres.append(tpart.fibres if tpart else width)
            i += min(remaining, tpart.fibres // width) if tpart else 1
    plan_first.append(len(offsets))
    first = np.asarray(plan_first, dtype=np.int64)
    plan = np.asarray(plan_key, dtype=np.int64)
    k = (first[1:] - first[:-1])[plan]  # trunks per pair
    trunk_pair = np.repeat(np.arange(len(plan)), k)
    # Each trunk's place within its pair's plan, and the pair's first leg in the columns.
    within = np.arange(len(trunk_pair)) - np.repeat(np.cumsum(k) - k, k)
    at = first[:-1][plan[trunk_pair]] + within
    base = np.cumsum(sizes) - np.asarray(sizes, dtype=np.int64)
    cut.starts = base[trunk_pair] + np.asarray(offsets, dtype=np.int64)[at]
    # Per trunk, its plan trunk's part and figures: gathers, not a loop over ~100k trunks.
    at_list = at.tolist()
    cut.parts = list(map(plan_parts.__getitem__, at_list))
    cut.part_ids = list(map([p.id if p else "" for p in plan_parts].__getitem__, at_list))
    cut.fibres = list(map(plan_fibres.__getitem__, at_list))
    part_no: dict[str, int] = {}
    codes = [part_no.setdefault(p.id, len(part_no)) if p else -1 for p in plan_parts]
    cut.part_codes = np.asarray(codes, dtype=np.int64)[at]
    by_id = {p.id: p for p in plan_parts if p}
    cut.code_parts = [by_id[part_id] for part_id in part_no]
    keys = list(segments)  # each trunk's pair: (panel A, panel B, mode, width)
    if not (k == 1).all():  # some pair has several trunks (or, were one ever empty, none)
        keys = list(map(keys.__getitem__, trunk_pair.tolist()))
    cut.panel_a, cut.panel_b = list(map(_FIRST, keys)), list(map(_SECOND, keys))
    cut.modes, cut.widths = list(map(_THIRD, keys)), list(map(_FOURTH, keys))
    return cut


def _segment_lengths(seg_m: list, legs: np.ndarray, seg_nos: np.ndarray) -> np.ndarray:
    """Each segment's length (m, float64): ``seg_m[legs[i]][seg_nos[i]]``. Nearly every
    segment is its leg's first (a zoned XL hall's 398k segments: 5k are not), so the legs'
    first lengths are read once in C and gathered by numpy, and only the others looked up
    one by one (the gather per segment, leg then segment, was ~30 ms)."""
    try:
        first_m = np.fromiter(map(_FIRST, seg_m), np.float64, len(seg_m))
    except IndexError:  # a leg of no segment (a path of one panel): the gather per segment
        got = map(getitem, map(seg_m.__getitem__, legs.tolist()), seg_nos.tolist())
        return np.fromiter(got, np.float64, len(legs))
    lengths = first_m[legs]
    later = np.flatnonzero(seg_nos)
    if len(later):
        lengths[later] = list(
            map(getitem, map(seg_m.__getitem__, legs[later].tolist()), seg_nos[later].tolist())
        )
    return lengths


def _routes(route_of: dict, rack_a: list, rack_b: list) -> list:
    """Per trunk (racks A, B), the link between its racks whose tray route it follows, either
    way round ("" none)."""
    got: list[str | None] = list(map(route_of.get, zip(rack_a, rack_b, strict=True)))
    for k in [k for k, link in enumerate(got) if link is None]:
        got[k] = route_of.get((rack_b[k], rack_a[k]), "")
    return got


def _trunk_links(
    laid, seg_legs: np.ndarray, seg_nos: np.ndarray, starts: np.ndarray
) -> list[tuple[str, ...]]:
    """Per trunk (its segments ``starts[t]:starts[t + 1]`` of the columns ``seg_legs``,
    ``seg_nos``), its legs' links in order, each once: ``dict.fromkeys`` over them.

    Worked out on the legs' member rows where that is the same: when every member's legs are
    consecutive legs (LegLayer lays a link's fibres leg after leg, and a row is in one group
    only), a trunk whose legs carry one member each, are one segment number and rise in leg
    number holds each link's legs side by side, so a leg whose member is its predecessor's is
    the only repeat to drop. Any other trunk in Python, leg by leg (all ~100k trunks of a
    zoned XL hall that way were ~0.13 s)."""
    n, n_segs = len(starts), len(seg_legs)
    leg_links = laid.link_ids  # made (LegLinks.made) only where a trunk is worked out here
    members, sizes = laid.members_by_leg()
    runs = np.count_nonzero(members[1:] != members[:-1]) + 1 if len(members) else 0
    if runs != np.count_nonzero(np.bincount(members)) or len(sizes) != len(leg_links):
        fast, got = np.zeros(n, dtype=bool), []  # a member's legs apart: none on the rows
    else:
        row = members[np.cumsum(sizes) - sizes][seg_legs]
        first = np.zeros(n_segs, dtype=bool)
        first[starts] = True
        # Per segment: as its trunk's previous one (or the trunk's first), and one member.
        alike = np.ones(n_segs, dtype=bool)
        alike[1:] = (seg_nos[1:] == seg_nos[:-1]) & (seg_legs[1:] > seg_legs[:-1])
        alike = (alike | first) & (sizes == 1)[seg_legs]
        fast = np.logical_and.reduceat(alike, starts) if n_segs else np.zeros(n, dtype=bool)
        kept = first.copy()
        kept[1:] |= row[1:] != row[:-1]
        kept &= np.repeat(fast, np.diff(np.append(starts, n_segs)))
        counts = np.add.reduceat(kept, starts) if n_segs else np.zeros(n, dtype=np.int64)
        ids = laid.columns.link_ids_at(row[kept])
        got = _tuples(ids, counts)
        if fast.all():
            return got
    out: list[tuple[str, ...]] = [()] * n
    leg_links = leg_links.made()
    ends_all = [*starts[1:].tolist(), n_segs]
    legs = seg_legs.tolist()
    fast_list = fast.tolist()
    for t, (i, j) in enumerate(zip(starts.tolist(), ends_all, strict=True)):
        if fast_list[t]:
            out[t] = got[t]
        else:
            out[t] = tuple(
                dict.fromkeys(chain.from_iterable(map(leg_links.__getitem__, legs[i:j])))
            )
    return out


def _tuples(values: list, counts: np.ndarray) -> list[tuple]:
    """``values`` cut into consecutive tuples of ``counts[t]`` each. A run of equal counts is
    cut by ``zip`` over one iterator, in C (a zoned XL hall's ~100k trunks are all of 4 legs:
    one run; a slice and a tuple per trunk were ~0.035 s); a slice per tuple where the counts
    change often."""
    if not len(counts):
        return []
    ends = np.cumsum(counts)
    change = np.flatnonzero(counts[1:] != counts[:-1]) + 1
    if len(change) > len(counts) // 8:
        starts = (ends - counts).tolist()
        return list(map(tuple, map(values.__getitem__, map(slice, starts, ends.tolist()))))
    out: list[tuple] = []
    bounds = [0, *change.tolist(), len(counts)]
    firsts = (ends - counts).tolist()
    for i, j in zip(bounds, bounds[1:], strict=False):
        k, at = int(counts[i]), firsts[i]
        if k:
            out += zip(*[iter(values[at : at + k * (j - i)])] * k, strict=True)
        else:
            out += [()] * (j - i)
    return out


def _lengths(seg_m: np.ndarray, starts: np.ndarray, slack_pct: float) -> list[float]:
    """Per trunk: its longest leg's segment plus the slack and a service loop. The longest as
    Python's ``max`` over the trunk's legs finds it: NaN when the first is, else the largest
    of the others (a NaN further on never wins a comparison)."""
    longest = np.fmax.reduceat(seg_m, starts)
    longest[np.isnan(seg_m[starts])] = np.nan
    return (longest * (1 + slack_pct / 100) + TRUNK_SERVICE_LOOP_M).tolist()


def _ordered(parts: list, lengths_m: list[float]) -> list[float]:
    """Per trunk: the first orderable length of its part >= its length (to 1 nm: numpy's
    lower-bound search per part), NaN when none is or no part fits."""
    code_of: dict[str, int] = {}
    by_part = [code_of.setdefault(p.id, len(code_of)) if p else -1 for p in parts]
    tparts = {p.id: p for p in parts if p}
    codes = np.asarray(by_part, dtype=np.int64)
    return _ordered_by_code(codes, [tparts[part_id] for part_id in code_of], lengths_m)


def _ordered_by_code(codes: np.ndarray, parts: list, lengths_m: list[float]) -> list[float]:
    """:func:`_ordered` of trunks whose parts are ``parts[codes[t]]`` (-1: none)."""
    got = np.full(len(codes), math.nan, dtype=object)
    wanted = np.asarray(lengths_m, dtype=np.float64)
    for code, part in enumerate(parts):
        rows = np.flatnonzero(codes == code)
        got[rows] = stock_lengths_at(part.lengths_m, wanted[rows])
    return got.tolist()


def _recorded_m(chunk: Iterable[tuple], recorded: dict) -> float | None:
    """The length the links of a trunk's legs ``chunk`` (per leg: its links, its segments'
    lengths and the trunk's segment number) recorded for it (the longest, should two differ: it is one cable), None when none did. A
    link's record counts only when it has the leg's shape (a cord, a trunk per segment, a
    cord): a link re-routed since holds none (:func:`model.design.structured_edit.route_via`)."""
    found = [
        pieces[s + 1]
        for link_ids, seg_m, s in chunk
        for lid in link_ids
        if (pieces := recorded.get(lid)) is not None
        and len(pieces) == len(seg_m) + 2
        and pieces[s + 1] is not None
    ]
    return max(found) if found else None


def _trunk_not_orderable(trunk: Trunk, mode: str, width: int) -> Finding:
    """TRUNK_NOT_ORDERABLE: no part of the mode is as long as the trunk."""
    return Finding(
        code="TRUNK_NOT_ORDERABLE",
        severity="error",
        message=f"{trunk.id} {trunk.rack_a} to {trunk.rack_b}: {trunk.length_m:.1f} m of {mode} "
        f"trunk ({trunk.legs} x {width} fibres) is longer than any orderable "
        "trunk",
        objects=(trunk.id, *trunk.links),
    )


def _bendable(catalog, parts: list) -> list:
    """The trunk parts that can turn in the design's trays: an installer does not order a trunk
    whose minimum bend radius (fibre: 15 x OD, ``bend_rules``) exceeds the trays' corner radius
    (``tray_class``), since it would kink at the first corner (TRAY_BEND_RADIUS). Thicker
    trunks are used only when no part of the mode fits the corner (then the check reports it)."""
    tray = catalog.tray_class
    if tray is None:
        return parts
    fits = [
        p for p in parts if catalog.bend_radius_mm("trunk", p.diameter_mm) <= tray.corner_radius_mm
    ]
    return fits or parts
