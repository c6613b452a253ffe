"""Routes' tray intervals laid out as the tray fill's flat span columns.

:class:`~model.analysis.tray_fill.TrayFill` keeps every learnt route's intervals in four flat
columns (route, tray id, s0, s1) and whether each route turns from one tray onto another
(:class:`SpanColumns`). A full count learns every route of the plant (XL: 7,168 routes, ~12k
intervals after each tray edit): a Python step per route, four list extends and a set of its
trays, was ~6.6 ms of each count; many routes' columns come from C-level chains and maps
instead, their turns from one comparison of neighbouring intervals. The numbers are kept in
arrays, not lists: the fill's sweep reads them as arrays, and turning ~12k-entry lists into
arrays again after each tray edit (and numbering each route's intervals with a Python list)
was ~2 ms of the XL analysis. The same values in the same order.
"""

from __future__ import annotations

from itertools import chain, repeat
from operator import ne

import numpy as np

from model.analysis.tray_spans import appended

_MANY = 64  # routes from which the columns are made at once (the optimiser learns a few)


class SpanColumns:
    """The intervals of routes ``0 .. routes_known - 1`` in route order: per interval its
    route, tray id (``trays``), s0 and s1 (arrays, views of buffers with room to grow: a
    later :meth:`learn` writes beyond the filled part, so a view taken before stays as it
    was), and per route whether it turns from one tray onto another (``turns``)."""

    def __init__(self) -> None:
        self.trays: list[str] = []
        self.routes_known = 0
        # (route, s0, s1) per interval, (turns,) per route: filled up to len(trays), routes_known
        self._columns: tuple[np.ndarray, ...] = (
            np.zeros(0, dtype=np.int64),
            np.zeros(0),
            np.zeros(0),
        )
        self._turns: tuple[np.ndarray, ...] = (np.zeros(0, dtype=bool),)

    def __len__(self) -> int:
        return len(self.trays)

    @property
    def route(self) -> np.ndarray:
        return self._columns[0][: len(self.trays)]

    @property
    def s0(self) -> np.ndarray:
        return self._columns[1][: len(self.trays)]

    @property
    def s1(self) -> np.ndarray:
        return self._columns[2][: len(self.trays)]

    @property
    def turns(self) -> np.ndarray:
        return self._turns[0][: self.routes_known]

    def learn(self, plant, up_to: int) -> None:
        """Append the intervals of routes ``routes_known .. up_to - 1`` of ``plant``."""
        start = self.routes_known
        if up_to <= start:
            return
        routes, trays, s0, s1, turns = route_spans(plant, start, up_to)
        self._columns = appended(self._columns, len(self.trays), (routes, s0, s1))
        self._turns = appended(self._turns, start, (turns,))
        self.trays.extend(trays)
        self.routes_known = up_to


def route_spans(
    plant, start: int, stop: int
) -> tuple[np.ndarray, list[str], np.ndarray, np.ndarray, np.ndarray]:
    """(route per interval, tray ids, s0s, s1s, turns per route) of routes ``start`` ..
    ``stop - 1`` of ``plant`` (``plant.tray_spans(route)``: (tray id, s0, s1) intervals). A
    route turns when two of its trays differ, which is when two neighbouring intervals' do."""
    if stop - start <= _MANY:
        routes: list[int] = []
        trays_out: list[str] = []
        s0s: list[float] = []
        s1s: list[float] = []
        turns: list[bool] = []
        for route in range(start, stop):  # column by column per route (a move's few routes)
            spans = plant.tray_spans(route)
            trays: tuple = ()
            if spans:
                trays, s0, s1 = zip(*spans, strict=True)
                routes.extend([route] * len(spans))
                trays_out.extend(trays)
                s0s.extend(s0)
                s1s.extend(s1)
            turns.append(len(set(trays)) > 1)
        return (
            np.array(routes, dtype=np.int64),
            trays_out,
            np.array(s0s, dtype=float),
            np.array(s1s, dtype=float),
            np.array(turns, dtype=bool),
        )
    spans_of = list(map(plant.tray_spans, range(start, stop)))
    flat = list(chain.from_iterable(spans_of))
    if not flat:
        empty = np.zeros(0)
        return np.zeros(0, dtype=np.int64), [], empty, empty, np.zeros(stop - start, bool)
    trays, s0, s1 = zip(*flat, strict=True)
    sizes = np.fromiter(map(len, spans_of), dtype=np.int64, count=len(spans_of))
    route_no = np.repeat(np.arange(start, stop, dtype=np.int64), sizes)
    differ = np.fromiter(map(ne, trays[1:], trays[:-1]), dtype=bool, count=len(trays) - 1)
    differ &= route_no[1:] == route_no[:-1]  # neighbours within one route only
    turned = np.bincount(route_no[1:][differ] - start, minlength=stop - start) > 0
    return route_no, list(trays), np.array(s0, dtype=float), np.array(s1, dtype=float), turned


def tray_numbers(trays: list[str], tray_ids: list[str], start: int = 0) -> np.ndarray:
    """The number of each of ``trays[start:]`` in ``tray_ids`` (-1: not among them)."""
    number = {t: i for i, t in enumerate(tray_ids)}
    count = len(trays) - start
    return np.fromiter(
        map(number.get, trays[start:], repeat(-1)), dtype=np.int64, count=max(count, 0)
    )
