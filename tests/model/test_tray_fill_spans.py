"""Many routes' span columns made at once (model/analysis/tray_fill_spans.py) equal the
route-by-route columns: the same intervals in the same order, the same turns."""

from __future__ import annotations

import random

from model.analysis import tray_fill_spans
from model.analysis.tray_fill_spans import route_spans


class _Plant:
    """A plant of routes given by their spans (``tray_spans(route)``)."""

    def __init__(self, spans: list[tuple]) -> None:
        self.spans = spans

    def tray_spans(self, route: int) -> tuple:
        return self.spans[route]


def _random_spans(rng: random.Random, count: int) -> list[tuple]:
    trays = ["t-a", "t-b", "t-c"]
    out = []
    for _ in range(count):
        size = rng.choice([0, 0, 1, 1, 2, 3, 5])
        # runs on one tray, two trays, back onto the first: each kind of turn
        out.append(tuple((rng.choice(trays), rng.random(), rng.random() + 1) for _ in range(size)))
    return out


def test_many_routes_at_once_equal_route_by_route(monkeypatch):
    rng = random.Random(3)
    plant = _Plant(_random_spans(rng, 400))
    many = route_spans(plant, 17, 400)
    monkeypatch.setattr(tray_fill_spans, "_MANY", 10_000)  # every route one by one
    one_by_one = route_spans(plant, 17, 400)
    assert [list(c) for c in many] == [list(c) for c in one_by_one]
    assert any(many[4]) and not all(many[4])  # routes that turn and routes that do not
    assert len(many[4]) == 400 - 17


def test_many_routes_without_intervals():
    plant = _Plant([()] * 100)
    assert route_spans(plant, 0, 100) == ([], [], [], [], [False] * 100)
