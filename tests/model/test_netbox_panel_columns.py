"""The column-wise pieces of the NetBox panel export agree with their one-value-at-a-time rules."""

from __future__ import annotations

import math

import numpy as np

from model.outputs.netbox.panel_legs import _fit_label
from model.outputs.netbox.panel_records import PlacedLegs
from model.outputs.netbox.panels import _cord_labels, _cord_lengths, _first_legs, _misfits


def test_cord_labels_fit_exactly_where_the_per_cord_rule_fits_them():
    labels = [
        "C01-U42-p1 to C02-U40-p1",
        "x" * 93,  # with " cord A" exactly 100 characters: kept as it is
        "y" * 94,  # one over: fitted
        " leading space",
        "\ttab first",
        "z" * 180,
    ]
    for suffix in (" cord A", " cord B"):
        assert _cord_labels(labels, suffix) == [_fit_label(t + suffix) for t in labels]


def test_cord_lengths_take_the_ordered_length_else_the_laid_one_rounded_to_cm():
    ordered = [3.0, math.nan, 1.234567, math.nan]
    laid = [2.71, 4.4449, 1.2, math.nan]
    pair = np.array([0, 1, -1, 2, 3, 1], dtype=np.int64)
    expected = []
    for k in pair.tolist():
        if k < 0:
            expected.append(None)
            continue
        value = ordered[k] if ordered[k] == ordered[k] else laid[k]
        expected.append(round(value, 2))
    values, code = _cord_lengths(ordered, laid, pair)
    got = [values[k] for k in code.tolist()]
    assert [type(v) for v in got] == [type(v) for v in expected]
    assert [v for v in got if v is None or v == v] == [v for v in expected if v is None or v == v]
    assert math.isnan(got[4]) and got[1] == 4.44 and got[2] is None


def _legs(*links: tuple[str, ...]) -> PlacedLegs:
    """Legs carrying ``links`` (only the links matter to :func:`_first_legs`)."""
    none = np.zeros(0, dtype=np.int64)
    return PlacedLegs(
        list(links), [()] * len(links), np.zeros(len(links), bool), none, [], none, none
    )


def _first_legs_by_dict(placed: PlacedLegs, order):
    first: dict = {}
    for g, links in enumerate(placed.links):
        for j, link_id in enumerate(links):
            first.setdefault(link_id, (g, j))
    return [first[link_id] for link_id in order]


def test_first_legs_one_per_link_and_shared_legs_give_each_links_first_leg():
    one_each = [("a",), ("b",), ("c",)]
    shared = [("a", "b"), ("a",), ("c",)]
    for links in (one_each, shared, one_each[::-1]):
        order = ["a", "b", "c"]
        placed = _legs(*links)
        leg, j = _first_legs(placed, order)
        assert list(zip(leg.tolist(), j.tolist(), strict=True)) == _first_legs_by_dict(
            placed, order
        )


def test_misfits_are_the_labels_the_per_label_rule_finds_also_when_none_misfit():
    def by_label(labels: list[str], room: int) -> list[int]:
        return [k for k, t in enumerate(labels) if len(t) > room or not t or t[:1].isspace()]

    fits = ["C01-U42-p1 to C02-U40-p1", "x" * 93, "é-ünïcode label"]
    cases = [
        fits,  # none: the C-level passes alone
        [],
        [*fits, ""],
        [*fits, "y" * 94],
        [*fits, "\u00a0no-break space first"],  # a space str.isspace knows beyond ASCII
        [*fits, "\x1cfile separator first"],
        [*fits, "inner space and tab\tkept"],
    ]
    for labels in cases:
        assert _misfits(labels, 93) == by_label(labels, 93)
