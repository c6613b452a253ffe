"""Step 4 of the structured layout, its legs: each trunk leg added to the channel table with
the elements its channels share, and per leg what its cords' lengths read (moved here from
:mod:`model.structured.layout` so the layout and its memo of the last layout's legs,
:mod:`model.structured.channel_reuse`, share them)."""

from __future__ import annotations

from itertools import chain
from operator import attrgetter

import numpy as np

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

    Returns columns, one value per leg: (table leg and the cords' rack distances A and B as
    arrays, the trunks' length, its members). ``lean``: only what the cords' lengths read
    (distances and the trunks' length), no table leg (0) and no trunk leg: the findings'
    layout."""
    numbers: list[range] = []  # per path, its legs' numbers in the table
    trunk_sum: list[float] = []
    trunk_legs = layout.legs
    # A fresh layout's legs are laid's, in order (the paths' spans cover them): their links
    # are laid's own, set once, made only when read.
    fresh = not lean and not len(trunk_legs)
    for start, end, _, racks, (_, _, cassettes), group in laid.paths:
        # Each leg's trunks: its one trunk's element (most paths), or a list of them.
        single = len(racks) == 2
        trunks = laid.trunks[start:end, 0 if single else slice(len(racks) - 1)].tolist()
        if lean:
            # Most paths: each leg's one trunk (its sum), its length mapped in C
            trunk_sum += map(_LENGTH_M, trunks) if single else map(_trunks_m, trunks)
            continue
        trunk_ids, trunk_m, middles = leg_tuples(laid.nodes[start:end], trunks, single)
        links = None if fresh else laid.link_ids.made()[start:end]
        trunk_legs.add(links, laid.holders[start:end], trunk_ids, cassettes)
        numbers.append(table.add_legs(middles, cassettes, group, trunk_m))
        # A leg of one trunk: its length, not a sum over its 1-tuple (the same float).
        trunk_sum += map(_LENGTH_M, trunks) if single else map(sum, trunk_m)
    if fresh:
        trunk_legs.links = laid.link_ids
    dist_a, dist_b = cord_distances(laid, distance)
    # The members of every leg, in the same order (the paths' spans cover the legs).
    return _leg_numbers(numbers, len(dist_a)), dist_a, dist_b, trunk_sum, laid.members_by_leg()


def _leg_numbers(numbers: list[range], n: int) -> np.ndarray:
    """Every leg's number in the table (int64), from the paths' ranges of them (none: the
    findings' layout, 0 each). A fresh table numbers the legs 0, 1, ... in order: an arange,
    not a Python int per leg."""
    if not numbers:
        return np.zeros(n, dtype=np.int64)
    if numbers[0].start == 0 and all(
        a.stop == b.start for a, b in zip(numbers, numbers[1:], strict=False)
    ):
        return np.arange(numbers[-1].stop, dtype=np.int64)
    return np.fromiter(chain.from_iterable(numbers), np.int64, n)


def cord_distances(laid: LegLayer, distance) -> tuple[np.ndarray, np.ndarray]:
    """Every leg's cords' rack distances, A and B (float64, the legs in layout order): a cord
    runs from its device to the leg's end panel, in the device's rack or (a panel named in
    another rack) over to it, found once per path (``laid.paths``), and on to the panel's
    patch rack where a leg's panel is in one (LegLayer's displace): one repeat per end, not
    lists grown path by path that the cords made arrays again."""
    paths = laid.paths
    far_a: list[float] = []
    far_b: list[float] = []
    for _, _, _, racks, (rack_a, rack_b, _), _ in paths:
        far_a.append(distance(rack_a, racks[0]))
        far_b.append(distance(rack_b, racks[-1]))
    n_legs = [end - start for start, end, *_ in paths]
    dist_a = np.repeat(np.asarray(far_a, dtype=np.float64), n_legs)
    dist_b = np.repeat(np.asarray(far_b, dtype=np.float64), n_legs)
    # A path that may have a panel in a patch rack: where one has, that end's cord runs on
    # to it (LegLayer's displace), its legs' distances written over the path's slice.
    at_leg = 0
    for (start, end, displaced, *_), n, at_a, at_b in zip(paths, n_legs, far_a, far_b, strict=True):
        offs = laid.cord_off_m[start:end] if displaced else []
        if offs and offs.count((0.0, 0.0)) != n:
            dist_a[at_leg : at_leg + n] = [at_a + off[0] if off[0] else at_a for off in offs]
            dist_b[at_leg : at_leg + n] = [at_b + off[1] if off[1] else at_b for off in offs]
        at_leg += n
    return dist_a, dist_b


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
