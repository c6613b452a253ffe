"""Step 4 of the structured layout, its legs: each trunk leg added to the channel table with
the elements its channels share, and per leg what its cords' lengths read (moved here from
:mod:`model.structured.layout` so the layout and its memo of the last layout's legs,
:mod:`model.structured.channel_reuse`, share them)."""

from __future__ import annotations

from itertools import repeat
from operator import attrgetter

from model.structured.channel_table import ChannelTable
from model.structured.layout_records import StructuredLayout
from model.structured.legs import LegLayer

_LENGTH_M = attrgetter("length_m")


def channel_legs(
    layout: StructuredLayout, table: ChannelTable, laid: LegLayer, distance, lean: bool = False
) -> tuple:
    """Step 4's legs: each added to the table with the elements its channels share, a path's
    legs at a time (step 2 lays them path by path as columns, ``laid.paths`` their spans,
    whether a leg may have a panel in a patch rack, and the racks, ends and shape they
    share).

    Returns columns, one value per leg: (table leg, the cords' rack distances A and B, the
    trunks' length, its members). ``lean``: only what the cords' lengths read (distances and
    the trunks' length), no table leg (0) and no trunk leg: the findings' layout."""
    leg_no: list[int] = []
    dist_a: list[float] = []
    dist_b: list[float] = []
    trunk_sum: list[float] = []
    trunk_legs = layout.legs
    # A fresh layout's legs are laid's, in order (the paths' spans cover them): their links
    # are laid's own, set once, made only when read.
    fresh = not lean and not len(trunk_legs)
    for start, end, displaced, racks, (rack_a, rack_b, cassettes), group in laid.paths:
        n = end - start
        cord_distances(laid, distance, start, end, displaced, racks, rack_a, rack_b, dist_a, dist_b)
        # Each leg's trunks: its one trunk's element (most paths), or a list of them.
        single = len(racks) == 2
        trunks = laid.trunks[start:end, 0 if single else slice(len(racks) - 1)].tolist()
        if lean:
            # Most paths: each leg's one trunk (its sum), its length mapped in C
            trunk_sum += map(_LENGTH_M, trunks) if single else map(_trunks_m, trunks)
            leg_no += repeat(0, n)
            continue
        trunk_ids, trunk_m, middles = leg_tuples(laid.nodes[start:end], trunks, single)
        links = None if fresh else laid.link_ids.made()[start:end]
        trunk_legs.add(links, laid.holders[start:end], trunk_ids, cassettes)
        leg_no += table.add_legs(middles, cassettes, group, trunk_m)
        # A leg of one trunk: its length, not a sum over its 1-tuple (the same float).
        trunk_sum += map(_LENGTH_M, trunks) if single else map(sum, trunk_m)
    if fresh:
        trunk_legs.links = laid.link_ids
    # The members of every leg, in the same order (the paths' spans cover the legs).
    return leg_no, dist_a, dist_b, trunk_sum, laid.members_by_leg()


def cord_distances(
    laid: LegLayer,
    distance,
    start: int,
    end: int,
    displaced: bool,
    racks: tuple,
    rack_a: str,
    rack_b: str,
    dist_a: list[float],
    dist_b: list[float],
) -> None:
    """The cords' rack distances of the legs ``start:end`` of one path of ``laid`` (its
    racks, ends and whether a panel may be in a patch rack), appended to ``dist_a`` and
    ``dist_b``."""
    n = end - start
    # A cord runs from its device to the leg's end panel, in the device's rack or (a
    # panel named in another rack) over to it.
    far_a, far_b = distance(rack_a, racks[0]), distance(rack_b, racks[-1])
    offs = laid.cord_off_m[start:end] if displaced else []
    if offs and offs.count((0.0, 0.0)) != n:
        # A panel in a patch rack: that end's cord runs on to it (LegLayer's displace).
        dist_a += [far_a + off[0] if off[0] else far_a for off in offs]
        dist_b += [far_b + off[1] if off[1] else far_b for off in offs]
    else:
        dist_a += [far_a] * n
        dist_b += [far_b] * n


def _trunks_m(trunks: list) -> float:
    """A leg's trunks' length: its trunk elements' lengths summed in order, as
    :func:`leg_tuples`' lengths are by ``sum``."""
    return sum([t.length_m for t in trunks])


def leg_tuples(nodes_col: list, trunks_col: list, single: bool) -> tuple[list, list, list]:
    """Per leg (its nodes' elements, ``nodes_col``, and its trunks', ``trunks_col``): its
    trunks' ids, their lengths, and what every channel of the leg shares, the panels and
    trunks between its two cords (a cassette's port is set per channel by the table).
    ``single``: the legs have one trunk each (panel - trunk - panel: most paths), and
    ``trunks_col`` holds that trunk's element, not a list.

    Consecutive legs through the same panels and trunks (a trunk carries up to a dozen) share
    one tuple of each: a zoned XL hall's 393k legs held ~0.1 GB of equal tuples for as long
    as its layout lived. Cassettes are each leg's own, so an LC leg's tuples are its own.
    (Trunk elements are compared by identity: step 3 makes one per trunk and polarity, so
    an equal trunk is the same one, and a leg of a single trunk is tested on it alone.)"""
    ids_col: list[tuple] = []
    m_col: list[tuple] = []
    middle_col: list[tuple] = []
    ids: tuple = ()
    m: tuple = ()
    middle: tuple = ()
    if single:
        was_trunk = was_nodes = None
        for trunk, nodes in zip(trunks_col, nodes_col, strict=True):
            if trunk is not was_trunk or nodes != was_nodes:
                was_trunk, was_nodes = trunk, nodes
                ids = (trunk.object_id,)
                m = (trunk.length_m,)
                middle = (nodes[0], trunk, nodes[1])
            ids_col.append(ids)
            m_col.append(m)
            middle_col.append(middle)
        return ids_col, m_col, middle_col
    was_trunks = was_nodes_many = None
    for trunks, nodes in zip(trunks_col, nodes_col, strict=True):
        if trunks != was_trunks or nodes != was_nodes_many:
            was_trunks, was_nodes_many = trunks, nodes
            ids = tuple([t.object_id for t in trunks])
            m = tuple([t.length_m for t in trunks])
            middle = _middle(nodes, trunks)
        ids_col.append(ids)
        m_col.append(m)
        middle_col.append(middle)
    return ids_col, m_col, middle_col


def _middle(nodes: tuple, trunks: list) -> tuple:
    """A leg's nodes with its trunks between them."""
    middle = []
    for n, node in enumerate(nodes):
        middle.append(node)
        if n < len(trunks):
            middle.append(trunks[n])
    return tuple(middle)
