"""The routes' spans a tray edit takes from the naming before it (model.engine.route_spans) are
the spans the new tray graph gives them: for routes whose key holds and for those it finds again."""

from __future__ import annotations

import random

import numpy as np
import pytest

from model.engine import route_spans
from model.engine.route_spans import SpanMemo, named_spans
from model.engine.routed_links import RoutedLinks
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.tray_drags import corner_moved, routed_trays


def _plain_spans(plant: RoutedLinks) -> list:
    """Every route's spans straight from the plant's tray graph, its trays named (no memo)."""
    firsts = plant._route_firsts[1]
    att, graph = plant._att, plant._graph
    spans = graph.spans(att, plant.drop_a[firsts], att, plant.drop_b[firsts])
    return [tuple((graph.tray_ids[t], s0, s1) for t, s0, s1 in legs) for legs in spans]


def _routes_merged(monkeypatch) -> list[int]:
    """A 1 for each route the naming merges (it was not in the memo), filled as they happen."""
    merged: list[int] = []
    original = route_spans._merged

    def counted(legs):
        merged.append(1)
        return original(legs)

    monkeypatch.setattr(route_spans, "_merged", counted)
    return merged


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_tray_edit_takes_the_spans_that_held_and_finds_the_others(monkeypatch, seed):
    design = synthetic_hall(512)
    live = RoutedLinks(design)
    live.route_keys()  # a whole naming: its memo is the next tray edit's
    merged = _routes_merged(monkeypatch)
    rng = random.Random(seed)
    served = found_again = 0
    for _ in range(4):
        corner_moved(design, live, rng)
        merged.clear()
        live.refresh()
        live.route_keys()
        found_again += len(merged)  # the routes the memo did not hold
        served += live.route_count - len(merged)
        assert live._route_firsts is not None  # named as a whole, from the names before
        assert live._route_spans == _plain_spans(live)
        fresh = RoutedLinks(design)
        fresh.route_keys()
        assert live._route_spans == [fresh.tray_spans(k) for k in range(fresh.route_count)]
    assert served > 0 and found_again > 0  # the memo was read, and missed where spans moved


def test_a_key_gives_the_spans_it_was_made_of_across_graphs():
    """The memo of one graph read by another whose trays are numbered otherwise (a tray removed
    before the others): every route found in it is the other graph's own answer."""
    design = synthetic_hall(256)
    plant = RoutedLinks(design)
    plant.route_keys()
    memo = plant._span_memo
    assert isinstance(memo, SpanMemo) and memo.spans
    first = routed_trays(plant)[0]
    unused = [t for t in sorted(design.trays) if t != first][:1]
    design.remove_trays(unused)
    plant.refresh()
    plant.route_keys()
    firsts = plant._route_firsts[1]
    da, db = plant.drop_a[firsts], plant.drop_b[firsts]
    spans, again = named_spans(plant._graph, plant._att, da, db, memo)
    assert spans == _plain_spans(plant)
    assert again.next_legs >= memo.next_legs  # numbers are never given twice
    none, _ = named_spans(plant._graph, plant._att, da, db, None)
    assert none == spans
    assert np.array_equal(plant._route_firsts[1], firsts)


def test_routes_whose_ends_stay_and_whose_way_between_changes_are_found_again():
    """The centre cross tray bent between the first two rows, its joins kept: routes between those
    rows along it leave and join the rows at the stations they did, and their legs along the
    cross tray grow by the bend (a memo keyed by the ends alone would give the old spans)."""
    design = synthetic_hall(1024)
    plant = RoutedLinks(design)
    plant.route_keys()
    before = dict(zip(plant._route_of, plant._route_spans, strict=True))
    (x, y0), (_, y_last) = design.trays["t-centre"].points
    y1 = sorted(t.points[0][1] for t in design.trays.values() if t.id.startswith("t-row"))[1]
    bent = [(x, y0), (x - 0.4, (y0 + y1) / 2), (x, y1), (x, y_last)]
    design.set_tray_points("t-centre", bent)
    plant.refresh()
    plant.route_keys()
    assert plant._route_spans == _plain_spans(plant)
    after = dict(zip(plant._route_of, plant._route_spans, strict=True))
    longer = [
        k
        for k, spans in after.items()
        if spans != before[k] and [t for t, _, _ in spans] == [t for t, _, _ in before[k]]
    ]
    assert longer  # the case this test is about: the same trays, another leg along one
