"""The structured layout's channel grouping and cords as they were made link by link (a tuple
per member, a dict lookup per channel), before :mod:`model.structured.channel_groups` and
:func:`model.structured.cords.lay_cords` made them numpy columns: kept only as the oracle of
tests/model/test_structured_columns_oracle.py, never used by the model.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from itertools import chain

import numpy as np

from model.catalog.parts import FibrePart
from model.common.findings import Finding
from model.design.structured_edit import panel_types
from model.structured.channel_groups import _via_nodes
from model.structured.channel_table import ChannelTable
from model.structured.channels import CONNECTOR_FAMILY
from model.structured.cords import _recorded_cords, _typed_cords, _unorderable_cords
from model.structured.layout_records import StructuredLayout
from model.structured.paths import style_path, zone_hubs


def group_channels_by_link(
    plant, direct: dict, fpp_of: dict, findings: list[Finding]
) -> tuple[dict[tuple, list[tuple[str, float, float, float]]], dict[str, tuple], dict]:
    """Step 1: the channels grouped by path (racks and named panels), mode and connector.

    Returns (groups, each link's two ends (device, port) lowest first: the order of the legs,
    and per rack pair the link whose tray route a trunk between those racks follows)."""
    design = plant.design
    style = design.settings.cabling
    hubs = zone_hubs(design) if style == "zones" else {}
    ptypes = panel_types(design)
    groups: dict[tuple, list[tuple[str, float, float, float]]] = {}
    # Per rack pair: the link whose tray route a trunk between those racks follows (the
    # longest, so the trunk's tray fill follows the farthest-reaching route), as (its
    # horizontal length, its id). Found in the same pass, which reads every link's pieces.
    route_best: dict[tuple[str, str], tuple[float, str]] = {}
    # Every link's pieces as columns (plant.pieces_m's figures; a call per link was ~1 s).
    methods, ups_a, horizontals, ups_b = plant.pieces_columns()
    index, devices, links = plant.index, design.devices, design.links
    ends_of: dict[str, tuple] = {}
    # Per (racks, medium, mode, connector) of a link on the style's path: its group's members
    # and the ports each link takes; None: no path (one rack). A hall has a few thousand.
    slot_of: dict[tuple, tuple[list, int] | None] = {}
    for link_id, channel in direct.items():
        link = links[link_id]
        r = index[link_id]
        horizontal = horizontals[r]
        end_a, end_b = (link.a.device, link.a.port), (link.b.device, link.b.port)
        ends_of[link_id] = (end_a, end_b) if end_a <= end_b else (end_b, end_a)
        rack_a = devices[end_a[0]].rack
        rack_b = devices[end_b[0]].rack
        if rack_a != rack_b:
            best = route_best.get((rack_a, rack_b))
            if best is None or (horizontal, link_id) > best:
                route_best[(rack_a, rack_b)] = (horizontal, link_id)
        member = (link_id, ups_a[r], horizontal, ups_b[r])
        if link.via:
            nodes = _via_nodes(design, link_id, link.via, ptypes, findings)
            if nodes:
                key = (tuple(nodes), rack_a, rack_b, channel.mode, channel.connector)
                groups.setdefault(key, []).extend([member] * _ports(channel, fpp_of))
                continue
        if methods[r] == "same-rack":
            continue
        # No (valid) panels named: the style's own path.
        kind = (rack_a, rack_b, channel.medium, channel.mode, channel.connector)
        if kind in slot_of:
            slot = slot_of[kind]
        else:
            path = style_path(style, rack_a, rack_b, hubs)
            slot = slot_of[kind] = None
            if path:
                key = (tuple((r, "") for r in path), rack_a, rack_b, *kind[3:])
                slot = slot_of[kind] = (groups.setdefault(key, []), _ports(channel, fpp_of))
        if slot is not None:
            members, ports = slot
            if ports == 1:
                members.append(member)
            else:
                members += [member] * ports
    return groups, ends_of, route_best


def _ports(channel, fpp_of: dict) -> int:
    """Cassette ports a link takes: a duplex link of several fibre pairs one per pair (one
    channel each); any other link one (an MPO link of several fibres takes a leg per fibre)."""
    return fpp_of.get(channel.medium, 1) if CONNECTOR_FAMILY.get(channel.connector) == "LC" else 1


def lay_cords_by_member(
    layout: StructuredLayout,
    table: ChannelTable,
    per_leg: tuple[list, list, list, list, list],
    fibre_of,
    slack_m,
    typed_m: dict[str, float] | None = None,
    recorded: dict[str, tuple[float | None, ...]] | None = None,
    msa: dict[str, FibrePart] | None = None,
) -> None:
    """The cords of every leg's links, as columns; each link's channel row (its first leg) and,
    for a link of several fibres, their lengths (``leg_lengths_m``). A cord is the link's vertical at that end + the
    slack per end + the rack distance to its panel, ordered at the next orderable length of
    the link's fibre part (the first >= it, to 1 nm; here numpy's same search over every cord).

    ``typed_m``: per link with a typed length (as-built, else override), that length: the
    channel's too, so its two cords share what its trunks leave (:func:`_typed_cords`).
    ``recorded``: per link, its pieces' recorded lengths (``Link.as_built_pieces_m``); a
    recorded cord is that length, whatever the typed length would share out. ``msa``: per
    link on a module not NVIDIA's, the vendor-neutral fibre its cords are instead of the
    medium's (:func:`msa_cord_fibres`)."""
    # ``per_leg``: columns, one value per leg (its table leg, the cords' rack distances A and
    # B, its trunks' length, its members). The members (link, up A, horizontal, up B) one
    # after the other, as columns: one pass each over flat lists.
    leg_no, dist_a, dist_b, leg_trunk_m, chunks = per_leg
    members = list(chain.from_iterable(chunks))
    if not members:
        return
    sizes = list(map(len, chunks))
    link_col, up_a_col, _horizontal, up_b_col = zip(*members, strict=True)
    link_ids = list(link_col)
    leg_of = np.repeat(np.asarray(leg_no, dtype=np.int64), sizes)
    ports = list(chain.from_iterable(map(range, sizes)))
    up_a = np.asarray(up_a_col, dtype=np.float64)
    up_b = np.asarray(up_b_col, dtype=np.float64)
    # In the order the sum was written cord by cord: (vertical + slack) + distance.
    a_m = (up_a + slack_m) + np.repeat(np.asarray(dist_a, dtype=np.float64), sizes)
    b_m = (up_b + slack_m) + np.repeat(np.asarray(dist_b, dtype=np.float64), sizes)
    trunk_m = np.repeat(np.asarray(leg_trunk_m, dtype=np.float64), sizes)
    # The tuple columns are arrays now: let them go before the cords' own columns are made
    # (nine of 393k references at zoned XL, ~30 MB nearer the command's peak).
    del leg_no, dist_a, dist_b, leg_trunk_m, chunks, members, link_col, up_a_col, up_b_col
    del _horizontal
    if typed_m:
        _typed_cords(link_ids, typed_m, a_m, b_m, trunk_m)
    if recorded:
        _recorded_cords(link_ids, recorded, a_m, b_m, leg_of, table, layout.findings)
    parts, codes, part_ids, part_no = _cord_parts(link_ids, table.fibres, fibre_of, msa)
    got_a: list[float] = [math.nan] * len(link_ids)  # math.nan itself: one key when counted
    got_b: list[float] = [math.nan] * len(link_ids)
    for code in part_no.values():
        rows = np.flatnonzero(codes == code)
        if not len(rows):  # a medium's part every cord of which is a vendor-neutral one
            continue
        part = parts[int(rows[0])]
        lengths = [float(x) for x in part.lengths_m]  # as _round_up (below) returns them
        grid = np.asarray(lengths, dtype=np.float64)
        for got, wanted in ((got_a, a_m), (got_b, b_m)):
            # _round_up's lower-bound search (NaN, sorted last, finds no length), the length
            # taken from the part's own tuple.
            found = np.searchsorted(grid, wanted[rows] - 1e-9, side="left").tolist()
            pick = [*lengths, math.nan]  # k == len(lengths): none long enough
            if len(rows) == len(got):  # one fibre part for all (the usual hall)
                got[:] = [pick[k] for k in found]
                continue
            for row, k in zip(rows.tolist(), found, strict=True):
                got[row] = pick[k]
    _unorderable_cords(layout, link_ids, parts, a_m, b_m, got_a, got_b)
    cords = layout.cords
    cords.link_ids = link_ids
    cords.parts = part_ids
    cords.a_m, cords.b_m = a_m.tolist(), b_m.tolist()
    cords.a_ordered, cords.b_ordered = got_a, got_b
    # A link's first leg makes its channel; a further fibre (pair) adds its cords only. Most
    # halls have one pair per link: a dict made at once finds that (no repeat) without a
    # call per cord pair.
    first = dict(zip(link_ids, range(len(link_ids)), strict=True))
    if len(first) == len(link_ids):
        table.add_rows(link_ids, leg_of.tolist(), ports, got_a, got_b)
        return
    first = {}
    repeats = [row for row, lid in enumerate(link_ids) if first.setdefault(lid, row) != row]
    if repeats:  # each fibre's length (cords + its leg's trunks), for the skew check
        fibre_m = ((np.asarray(got_a) + trunk_m) + np.asarray(got_b)).tolist()
        leg_lengths = layout.leg_lengths_m
        for row in repeats:
            link_id = link_ids[row]
            leg_m = leg_lengths.get(link_id)
            if leg_m is None:
                leg_m = leg_lengths[link_id] = [fibre_m[first[link_id]]]
            leg_m.append(fibre_m[row])
    first_rows = list(first.values())
    legs = leg_of.tolist()
    table.add_rows(
        list(first),
        [legs[r] for r in first_rows],
        [ports[r] for r in first_rows],
        [got_a[r] for r in first_rows],
        [got_b[r] for r in first_rows],
    )


def _cord_parts(link_ids, fibres, fibre_of, msa):
    """Per cord: its fibre part (or None), the part's number (-1: none) and id (""); and the
    numbers by part id. A cord is its medium's fibre part, or the link's ``msa`` one."""
    part_no: dict[str, int] = {}  # fibre part id -> its number; "" (no part): -1
    media = [fibres[lid].medium for lid in link_ids]
    # Per medium (a hall has a few): its fibre part, the part's number and id.
    of_medium = {}
    for medium in dict.fromkeys(media):
        p = fibre_of.get(medium)
        of_medium[medium] = (
            p,
            part_no.setdefault(p.id, len(part_no)) if p else -1,
            p.id if p else "",
        )
    parts = [of_medium[m][0] for m in media]
    codes = np.asarray([of_medium[m][1] for m in media], dtype=np.int64)
    part_ids = [of_medium[m][2] for m in media]
    if msa:  # an AMD or Broadcom hall's cords (an NVIDIA hall has none: no pass per cord)
        for row, link_id in enumerate(link_ids):
            own = msa.get(link_id)
            if own is not None:
                parts[row], part_ids[row] = own, own.id
                codes[row] = part_no.setdefault(own.id, len(part_no))
    return parts, codes, part_ids, part_no


def plant_fibres_by_link(plant) -> dict:
    """:func:`model.structured.channels.plant_fibres` as it was: a dict of one Fibre per link,
    made link by link."""
    from model.structured.channels import Fibre, _medium_fibres, fibre_rows

    fibre_of = _medium_fibres(plant)
    rows = fibre_rows(plant, fibre_of)
    media = [(m.id, fibre_of[k]) for k, m in enumerate(plant.media)]
    out = {}
    for r, k, length in zip(
        rows.tolist(),
        np.asarray(plant.medium_index)[rows].tolist(),
        np.asarray(plant.ordered_m, dtype=np.float64)[rows].tolist(),
        strict=True,
    ):
        medium_id, fibre = media[k]
        out[plant.link_ids[r]] = Fibre(medium_id, fibre.mode, fibre.connector, length)
    return out


def leg_tuples_per_leg(nodes_col: list, trunks_col: list, single: bool) -> tuple[list, list, list]:
    """:func:`model.structured.channel_legs.leg_tuples` as it was: tuples of its own for every leg
    (each leg's trunks as a list, also where ``single`` gives its one trunk's element)."""
    from model.structured.channel_legs import _middle

    legs = [([t] if single else t, nodes) for t, nodes in zip(trunks_col, nodes_col, strict=True)]
    trunk_ids = [tuple([t.object_id for t in trunks]) for trunks, _ in legs]
    trunk_m = [tuple([t.length_m for t in trunks]) for trunks, _ in legs]
    if single:
        middles = [(nodes[0], trunks[0], nodes[1]) for trunks, nodes in legs]
    else:
        middles = [_middle(nodes, trunks) for trunks, nodes in legs]
    return trunk_ids, trunk_m, middles


def bundle_trunks_per_segment(
    layout, catalog, laid, route_of: dict, slack_pct: float, recorded=None
) -> None:
    """:func:`model.structured.layout._bundle_trunks` as it was: a panel pair's segments read
    as (leg, segment) pairs, each trunk's length, links and elements found by a generator
    over its own legs (read off ``laid``'s columns by leg number) and set slot by slot."""
    from model.engine.patch_points import TRUNK_SERVICE_LOOP_M
    from model.structured.channels import Element
    from model.structured.layout import Trunk
    from model.structured.trunk_bundles import (
        _bendable,
        _recorded_m,
        _trunk_not_orderable,
    )

    n_trunk = 0
    slots = laid.trunk_slots()
    for (panel_a, panel_b, mode, width), (seg_legs, seg_nos) in laid.segments.items():
        members = list(zip(seg_legs, seg_nos, strict=True))
        parts = _bendable(
            catalog,
            sorted(
                (t for t in catalog.trunks.values() if t.mode == mode and t.fibres >= width),
                key=lambda t: t.fibres,
            ),
        )
        i = 0
        while i < len(members):
            remaining = len(members) - i
            fit = [p for p in parts if p.fibres // width >= remaining]
            tpart = (
                fit[0] if fit else (max(parts, key=lambda p: p.fibres // width) if parts else None)
            )
            n = min(remaining, tpart.fibres // width) if tpart else 1
            chunk, i = members[i : i + n], i + n
            n_trunk += 1
            leg0, s0 = chunk[0]
            ra, rb = laid.racks[leg0][s0], laid.racks[leg0][s0 + 1]
            recorded_m = None
            if recorded:
                recorded_m = _recorded_m(
                    [(laid.link_ids[leg], laid.seg_m[leg], s) for leg, s in chunk], recorded
                )
            if recorded_m is None:
                length = max(laid.seg_m[leg][s] for leg, s in chunk) * (1 + slack_pct / 100)
                length += TRUNK_SERVICE_LOOP_M
            else:
                length = recorded_m
            trunk = Trunk(
                f"trunk-{n_trunk}",
                tpart.id if tpart else "",
                ra,
                rb,
                length,
                _round_up(tpart.lengths_m, length) if tpart else math.nan,
                tuple(dict.fromkeys(lid for leg, _ in chunk for lid in laid.link_ids[leg])),
                1,
                tpart.fibres if tpart else width,
                len(chunk),
                panel_a,
                panel_b,
                route_of.get((ra, rb), route_of.get((rb, ra), "")),
                recorded_m is not None,
            )
            layout.trunks.append(trunk)
            if tpart is None or math.isnan(trunk.ordered_m):
                layout.findings.append(_trunk_not_orderable(trunk, mode, width))
            got = trunk.ordered_m if not math.isnan(trunk.ordered_m) else trunk.length_m
            for leg, s in chunk:
                slots[leg, s] = Element("trunk", trunk.id, trunk.part, got, "B" if s == 0 else "A")


def _round_up(lengths: tuple[float, ...], length_m: float) -> float:
    """The first orderable length >= ``length_m`` (to 1 nm), NaN when none is or the length is
    unknown. ``bisect_left`` is numpy's ``searchsorted`` search (the same lower-bound halving,
    so the same index on any tuple), without making an array per call. NaN is tested first,
    as numpy sorts it last."""
    if length_m != length_m:
        return math.nan
    k = bisect_left(lengths, length_m - 1e-9)
    return float(lengths[k]) if k < len(lengths) else math.nan
