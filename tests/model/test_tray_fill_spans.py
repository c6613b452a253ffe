"""Many routes' span columns made at once (model/analysis/tray_fill_spans.py) equal the
route-by-route columns: the same intervals in the same order, the same turns; span columns
learnt in steps equal those learnt at once, and a view taken before a step stays as it was."""

from __future__ import annotations

import random

from model.analysis import tray_fill_spans
from model.analysis.tray_fill_spans import SpanColumns, route_spans, tray_numbers


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
    assert [c.dtype for c in many if not isinstance(c, list)] == [
        c.dtype for c in one_by_one if not isinstance(c, list)
    ]
    assert [_plain(c) for c in many] == [_plain(c) for c in one_by_one]
    assert any(many[4]) and not all(many[4])  # routes that turn and routes that do not
    assert len(many[4]) == 400 - 17


def test_many_routes_without_intervals():
    plant = _Plant([()] * 100)
    assert [_plain(c) for c in route_spans(plant, 0, 100)] == [[], [], [], [], [False] * 100]


def _plain(column) -> list:
    return column.tolist() if hasattr(column, "tolist") else list(column)


def test_columns_learnt_in_steps_equal_columns_learnt_at_once():
    rng = random.Random(5)
    plant = _Plant(_random_spans(rng, 500))
    at_once, in_steps = SpanColumns(), SpanColumns()
    at_once.learn(plant, 500)
    in_steps.learn(plant, 3)  # a few routes one by one, then many at once, then a few
    before = (in_steps.route, in_steps.s0.copy(), in_steps.turns)
    in_steps.learn(plant, 2)  # nothing new below 3
    in_steps.learn(plant, 420)
    in_steps.learn(plant, 500)
    for name in ("route", "s0", "s1", "turns"):
        assert getattr(in_steps, name).tolist() == getattr(at_once, name).tolist(), name
    assert in_steps.trays == at_once.trays and in_steps.routes_known == 500
    # the views taken after the first step still show its intervals
    first = route_spans(plant, 0, 3)
    assert before[0].tolist() == first[0].tolist() and before[1].tolist() == first[2].tolist()
    assert before[2].tolist() == first[4].tolist()
    numbers = tray_numbers(at_once.trays, ["t-b", "t-a"], 7)
    assert numbers.tolist() == [{"t-b": 0, "t-a": 1}.get(t, -1) for t in at_once.trays[7:]]
