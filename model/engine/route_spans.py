"""Tray spans of many routes at once, kept from one naming to the next by what makes each one.

A tray edit names every route again (:meth:`~model.engine.routing.PlantRouting._retray`) and
finds each route's spans (:meth:`~model.engine.tray_graph.TrayGraph.spans`: the legs from its
first link's A drop along the trays to its B drop, merged) in a Python step per route: at XL
7,168 routes, ~20 ms of the worker's CPU in every tray drop. A corner dragged changes the spans
of the routes that run along the edited tray or change their way (XL, the busiest cross tray's
corner moved 1.2 m: 2,059); the other ~70 % are the spans they were.

A route's named spans are a pure function of the legs :meth:`TrayGraph.spans` merges: the
tray and position of each end on its tray, the station each end leaves the trays by and its
position there, and the legs between those two stations, all named by tray id (tray ids are
unique, so two legs are on one tray when their ids are equal, as when their numbers are).
:class:`SpanMemo` keeps the spans of the last naming under that key, the legs between two
stations interned as a number; :func:`named_spans` looks every route up (a C-level map over
the keys) and merges only the routes whose key it does not hold. The memo is never changed
once made (a naming makes a new one), so a snapshot and its live plant share it safely.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, cast

import numpy as np

from model.engine.tray_search import merge_legs

NamedSpans = tuple[tuple[str, float, float], ...]


class SpanMemo(NamedTuple):
    """The named spans of a naming's routes by their key (see the module), the named legs
    between two stations by their number, and the next number to give: numbers are never
    given twice, so a key never reads legs it was not made of. A tuple, so a plant's copy
    (:func:`model.engine.retray_copy._thawed`) takes it as it is: its dicts are never written."""

    spans: dict[tuple, NamedSpans] = {}
    legs: dict[tuple, int] = {}
    next_legs: int = 0


def named_spans(
    graph, att, da: np.ndarray, db: np.ndarray, memo: SpanMemo | None
) -> tuple[list[NamedSpans], SpanMemo]:
    """``graph.spans(att, da, att, db)`` with tray numbers named (``graph.tray_ids``), each
    route from ``memo`` where it holds the route's key; and the memo of these routes."""
    before = memo if memo is not None else SpanMemo()
    out: list[NamedSpans] = [()] * len(da)
    reached = graph._reached_ways(att, da, att, db)
    if reached is None:
        return out, SpanMemo(next_legs=before.next_legs)
    ok, ia, ib, way, start, end, best = reached
    names = np.array(graph.tray_ids, dtype=object)
    tray_a, tray_b = graph.seg_tray[att.seg[ia]], graph.seg_tray[att.seg[ib]]
    sa, sb = att.s[ia], att.s[ib]
    ways, starts, ends = way.tolist(), start.tolist(), end.tolist()
    graph._learn_legs(ways, starts, ends)  # as spans(): the legs of sources with no search
    along = way >= 0
    direct = ~along & np.isfinite(best)  # on one piece: a leg of its own
    legs_of, legs, next_legs = _interned_legs(graph, start[along], end[along], before)
    su = _node_positions(graph, start[along], tray_a[along])
    sv = _node_positions(graph, end[along], tray_b[along])
    # -0.0 is a key equal to 0.0 that would give the other's sign back: never looked up (no
    # station or attachment position is -0.0: both are sums from 0.0 along a tray)
    stations = np.concatenate(graph.station_s) if graph.station_s else np.zeros(0)
    floats = (sa, sb, stations) if su is None or sv is None else (sa, sb, su, sv, stations)
    signed = any(bool((np.signbit(f) & (f == 0)).any()) for f in floats)
    if su is None or sv is None or signed:  # a station off its tray: spans() as it stands
        return named_trays(graph, graph.spans(att, da, att, db)), SpanMemo(next_legs=next_legs)
    keys = list(
        zip(
            names[tray_a[along]].tolist(),
            sa[along].tolist(),
            su.tolist(),
            legs_of.tolist(),
            names[tray_b[along]].tolist(),
            sv.tolist(),
            sb[along].tolist(),
            strict=True,
        )
    )
    keys += zip(
        names[tray_a[direct]].tolist(), sa[direct].tolist(), sb[direct].tolist(), strict=True
    )
    rows = np.concatenate([ok[along], ok[direct]]).tolist()
    found: list = list(map(before.spans.get, keys))  # None where the memo had no such key
    lost = [k for k, spans in enumerate(found) if spans is None]
    if lost:  # merged from the key itself: the legs spans() merges for that route, named
        legs_named = {number: named for named, number in legs.items()}
        for k in lost:
            key = keys[k]
            if len(key) == 3:
                found[k] = _merged([key])
            else:
                name_a, s_a, s_u, number, name_b, s_v, s_b = key
                found[k] = _merged([(name_a, s_a, s_u), *legs_named[number], (name_b, s_v, s_b)])
    for row, spans in zip(rows, found, strict=True):
        out[row] = spans
    return out, SpanMemo(dict(zip(keys, found, strict=True)), legs, next_legs)


# merge_legs reads a leg's tray by equality alone: legs on trays named by their (unique) ids
# merge into the runs their numbers would, named
_merged = cast(Callable[[list], NamedSpans], merge_legs)


def memo_spans(plant, da: np.ndarray, db: np.ndarray) -> list[NamedSpans]:
    """:func:`named_spans` of all the routes of ``plant`` (from drops ``da`` to ``db``) on its
    tray graph, through its memo, which the memo of these routes replaces."""
    spans, plant._span_memo = named_spans(plant._graph, plant._att, da, db, plant._span_memo)
    return spans


def named_trays(graph, spans: list) -> list[NamedSpans]:
    """Spans of ``graph`` with their tray numbers named."""
    names = graph.tray_ids
    # A list made into a tuple, not a generator's (whose frames cProfile put at ~0.5 s of 141
    # XL moves' naming).
    return [tuple([(names[t], s0, s1) for t, s0, s1 in legs]) for legs in spans]


def _interned_legs(
    graph, starts: np.ndarray, ends: np.ndarray, before: SpanMemo
) -> tuple[np.ndarray, dict[tuple, int], int]:
    """The number of the named legs between each pair of stations (``starts`` -> ``ends``),
    the numbers by legs of these pairs, and the next number: a pair's legs found once
    (:meth:`TrayGraph._station_legs`), numbered as ``before`` numbered the same legs."""
    if not len(starts):
        return np.zeros(0, dtype=np.int64), {}, before.next_legs
    code = starts * graph.node_count + ends
    pairs, inverse = np.unique(code, return_inverse=True)
    names, known, next_legs = graph.tray_ids, before.legs, before.next_legs
    legs: dict[tuple, int] = {}
    numbers = []
    n = graph.node_count
    for pair in pairs.tolist():
        named = tuple(
            [(names[t], s0, s1) for t, s0, s1 in graph._station_legs(pair // n, pair % n)]
        )
        number = legs.get(named)
        if number is None:
            number = known.get(named)
            if number is None:
                number, next_legs = next_legs, next_legs + 1
            legs[named] = number
        numbers.append(number)
    return np.array(numbers, dtype=np.int64)[inverse.reshape(-1)], legs, next_legs


def _node_positions(graph, nodes: np.ndarray, trays: np.ndarray) -> np.ndarray | None:
    """``graph._node_s[(node, tray)]`` of each pair at once; None when a pair has none."""
    node_s = graph._node_s
    if not len(nodes):
        return np.zeros(0)
    width = len(graph.tray_ids) + 1
    code = np.fromiter((k * width + t for k, t in node_s), np.int64, len(node_s))
    value = np.fromiter(node_s.values(), np.float64, len(node_s))
    order = np.argsort(code)
    code, value = code[order], value[order]
    wanted = nodes * width + trays
    at = np.minimum(np.searchsorted(code, wanted), len(code) - 1)
    if not (code[at] == wanted).all():
        return None
    return value[at]
