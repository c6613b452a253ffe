"""Searches over the tray graph's station network: pure functions of adjacency lists and legs.

:func:`dijkstra` is the one shortest-path search of the tray graph (distance rows and paths;
:func:`distance_row` is the same search over the whole graph, its distances given as a row);
:func:`merge_legs` joins the consecutive runs of a route along one tray into one interval;
:func:`walk_path` reads a path back from a search's predecessors; :func:`station_points` gives
the plan points along a path of stations.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from heapq import heappop, heappush
from itertools import pairwise
from math import inf

import numpy as np

# a search's predecessor of each reached node (-1: source); a carried row's: an array (tray_rows)
Preds = dict[int, int] | list[int] | array
# Plan points along a path of stations (its first left out) and the trays it runs on, in order
StationPoints = tuple[list[tuple[float, float]], list[int]]


def merge_legs(legs: list[tuple[int, float, float]]) -> tuple[tuple[int, float, float], ...]:
    """Consecutive runs along one tray joined into one interval (s0 <= s1); empty runs dropped.

    The interval being grown is kept in locals and written out when the next run starts a new
    one (at XL with every fabric ~20k routes merge ~300k runs: list cells read and written per
    run were ~0.4 s)."""
    out: list[tuple[int, float, float]] = []
    tray_now, lo_now, hi_now = None, 0.0, 0.0  # None: no interval yet
    for tray, s0, s1 in legs:
        lo, hi = (s0, s1) if s0 <= s1 else (s1, s0)
        if hi - lo <= 1e-9:
            continue
        if tray == tray_now and (abs(hi_now - lo) <= 1e-9 or abs(lo_now - hi) <= 1e-9):
            if lo < lo_now:  # min() and max() as before: the earlier value kept on a tie
                lo_now = lo
            if hi > hi_now:
                hi_now = hi
        else:
            if tray_now is not None:
                out.append((tray_now, lo_now, hi_now))
            tray_now, lo_now, hi_now = tray, lo, hi
    if tray_now is not None:
        out.append((tray_now, lo_now, hi_now))
    return tuple(out)


def dijkstra(
    adjacency: list[list[tuple[int, float]]], source: int, targets: set[int] | None = None
) -> tuple[dict[int, float], dict[int, int]]:
    """Shortest distance from ``source`` of each node it reaches, in the order they are settled,
    and each one's predecessor on its shortest path (-1 at the source).

    This is networkx's ``single_source_dijkstra`` search (same heap order, same neighbour order,
    a node's predecessor replaced only by a strictly shorter way, so the same distances and the
    same path among equal ones) without a path list built for every node: at XL 287 sources
    cost ~0.5 s that way. One search gives both the distance row and the paths of a source.

    With ``targets`` the search stops once every target is settled: a settled node's
    predecessor never changes again and every node on its path was settled before it, so the
    paths to the targets are those of the whole search (the other entries are not final).
    """
    dist: dict[int, float] = {}
    done = [False] * len(adjacency)
    seen = [inf] * len(adjacency)  # best way found so far (networkx's ``seen``; inf: none)
    seen[source] = 0
    pred = {source: -1}
    order = 1  # networkx's push counter: equal distances leave the heap first pushed first
    fringe: list[tuple[float, int, int]] = [(0, 0, source)]
    left = len(targets) if targets is not None else -1
    while fringe:
        dist_v, _, v = heappop(fringe)
        if done[v]:
            continue
        done[v] = True
        dist[v] = dist_v
        if targets is not None and v in targets:
            left -= 1
            if not left:
                break
        for u, cost in adjacency[v]:
            if done[u]:
                continue
            vu_dist = dist_v + cost
            if vu_dist < seen[u]:
                seen[u] = vu_dist
                heappush(fringe, (vu_dist, order, u))
                order += 1
                pred[u] = v
    return dist, pred


def distance_row(
    adjacency: list[list[tuple[int, float]]], source: int
) -> tuple[list[float], dict[int, int]]:
    """:func:`dijkstra` from ``source`` over the whole graph, its distances as a row (inf where
    not reached) instead of a dict in settling order: the same search step by step (the same
    pushes, pops and predecessors), less one dict store per node settled and the row's copy.

    Without targets every node reached is settled, at the best way found to it: the search's
    ``seen`` list is the row. The tray distance rows of an XL hall are all 561 nodes' searches
    (0.205-0.228 -> 0.175-0.181 s CPU, rows and predecessors equal to :func:`dijkstra`'s)."""
    done = [False] * len(adjacency)
    seen = [inf] * len(adjacency)
    seen[source] = 0
    pred = {source: -1}
    order = 1
    fringe: list[tuple[float, int, int]] = [(0, 0, source)]
    while fringe:
        dist_v, _, v = heappop(fringe)
        if done[v]:
            continue
        done[v] = True
        for u, cost in adjacency[v]:
            if done[u]:
                continue
            vu_dist = dist_v + cost
            if vu_dist < seen[u]:
                seen[u] = vu_dist
                heappush(fringe, (vu_dist, order, u))
                order += 1
                pred[u] = v
    return seen, pred


def walk_path(pred: Preds, end: int) -> list[int]:
    """The nodes from a search's source to ``end``, read back from its predecessors."""
    path = [end]
    while (node := pred[path[-1]]) >= 0:
        path.append(node)
    path.reverse()
    return path


def station_points(
    path: list[int],
    graph: dict[int, dict[int, dict]],
    node_s: dict[tuple[int, int], float],
    node_xy: np.ndarray,
    along: Callable[[int, float, float], list[tuple[float, float]]],
) -> StationPoints:
    """:data:`StationPoints` of a path of station nodes: each tray piece's plan points (``along``
    the tray from one station's position to the next) but its first, where the previous piece
    ended; a join's far station."""
    points: list[tuple[float, float]] = []
    trays: list[int] = []
    for p, q in pairwise(path):
        tray = graph[p][q]["tray"]
        if tray >= 0:
            points += along(tray, node_s[(p, tray)], node_s[(q, tray)])[1:]
            trays.append(tray)
        else:
            points.append((float(node_xy[q][0]), float(node_xy[q][1])))
    return points, trays
