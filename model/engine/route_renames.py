"""A whole naming of the routes read off names given piecemeal: what a tray edit restores after a rack move.

A tray edit renames every route (:meth:`~model.engine.routing.PlantRouting._retray`); when it
takes no row on or off the trays, the names a naming of every row gives are those before it,
renumbered: each row's route is its pair of drop positions, which a tray edit does not move.
Right after a whole naming they are those names as they are (each route's first row is kept,
``_route_firsts``). After a rack move its links' new routes were named piecemeal (new ids
appended, the routes the rack left kept), and a whole naming numbers them otherwise: this
module renumbers them as it would, from the route id per row and the rows' drops, in numpy.
At XL, naming every row again was ~21 ms of the worker's CPU in the editor's tray drop after a
rack move (a Python step per distinct pair of drops, its positions rounded and looked up).
"""

from __future__ import annotations

import numpy as np


def renamed_as_a_whole(
    keys: np.ndarray,
    drop_a: np.ndarray,
    drop_b: np.ndarray,
    drops: int,
    route_of: dict[tuple, int],
) -> tuple[np.ndarray, dict[tuple, int], np.ndarray]:
    """(route id per row, position pair -> id, each route's first row) that
    :meth:`~model.engine.routing.PlantRouting._name_routes` gives when it names every row, for
    rows named ``keys`` (every row named: a route id, or -1 off the trays) by ``route_of``
    (position pair -> id; it may hold routes no row follows), ``drop_a``/``drop_b`` the rows'
    drops (``drops`` of them in the plant).

    That naming takes the distinct pairs of drops in the order of their code (the smaller drop,
    then the larger), each at its first row, and gives a route its id, and its first row, at
    the first pair that follows it. Rows of one pair of drops have one route; rows of one id
    one pair of positions, and rows of two ids two (``route_of`` gives one id per pair), so the
    old ids taken in that order are the routes it numbers."""
    # Links between the same two drops sit in runs of rows: each pair's first row heads a run
    # (a run's rows have one route, or all -1), so only the heads are coded.
    starts = np.concatenate([[True], (drop_a[1:] != drop_a[:-1]) | (drop_b[1:] != drop_b[:-1])])
    heads = np.flatnonzero(starts & (keys >= 0))
    ha, hb = drop_a[heads], drop_b[heads]
    code = np.minimum(ha, hb) * (drops + 1) + np.maximum(ha, hb)
    _, first_head = np.unique(code, return_index=True)
    pair_rows = heads[first_head]  # each pair's first row, pairs in code order
    old_ids, first_pair = np.unique(keys[pair_rows], return_index=True)
    order = np.argsort(first_pair, kind="stable")
    old_in_order, firsts = old_ids[order], pair_rows[first_pair[order]]
    # one slot more, -1, for the rows off the trays (key -1 reads the last slot)
    renumber = np.full(int(old_ids[-1]) + 2 if len(old_ids) else 1, -1, dtype=np.int64)
    renumber[old_in_order] = np.arange(len(old_in_order))
    position_of = {route: pair for pair, route in route_of.items()}
    renamed = {position_of[route]: k for k, route in enumerate(old_in_order.tolist())}
    return renumber[keys], renamed, firsts
