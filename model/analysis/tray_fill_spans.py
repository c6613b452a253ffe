"""Routes' tray intervals laid out as the tray fill's flat span columns.

:class:`~model.analysis.tray_fill.TrayFill` keeps every learnt route's intervals in four flat
columns (route, tray id, s0, s1) and whether each route turns from one tray onto another. A
full count learns every route of the plant (XL: 7,168 routes, ~27k intervals after each tray
edit): a Python step per route, four list extends and a set of its trays, was ~6.6 ms of each
count; many routes' columns come from C-level chains and maps instead, their turns from one
comparison of neighbouring intervals. The same values in the same order.
"""

from __future__ import annotations

from itertools import chain, repeat
from operator import ne

import numpy as np

_MANY = 64  # routes from which the columns are made at once (the optimiser learns a few)


def route_spans(plant, start: int, stop: int) -> tuple[list, list, list, list, list]:
    """(route per interval, tray ids, s0s, s1s, turns per route) of routes ``start`` ..
    ``stop - 1`` of ``plant`` (``plant.tray_spans(route)``: (tray id, s0, s1) intervals). A
    route turns when two of its trays differ, which is when two neighbouring intervals' do."""
    if stop - start <= _MANY:
        columns: tuple[list, list, list, list, list] = ([], [], [], [], [])
        routes, trays_out, s0s, s1s, turns = columns
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
        return columns
    spans_of = [plant.tray_spans(route) for route in range(start, stop)]
    flat = list(chain.from_iterable(spans_of))
    if not flat:
        return [], [], [], [], [False] * len(spans_of)
    trays, s0, s1 = zip(*flat, strict=True)
    sizes = list(map(len, spans_of))
    numbers = list(chain.from_iterable(map(repeat, range(start, stop), sizes)))
    route_no = np.array(numbers, dtype=np.int64)
    differ = np.fromiter(map(ne, trays[1:], trays[:-1]), dtype=bool, count=len(trays) - 1)
    differ &= route_no[1:] == route_no[:-1]  # neighbours within one route only
    turned = np.bincount(route_no[1:][differ] - start, minlength=stop - start) > 0
    return numbers, list(trays), list(s0), list(s1), turned.tolist()
