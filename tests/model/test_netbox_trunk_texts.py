"""The trunk legs' labels and lengths made in bulk are those the one-trunk-at-a-time rules give."""

from __future__ import annotations

import math
from collections import defaultdict
from types import SimpleNamespace

import numpy as np
import pytest

from model.outputs.netbox.panel_legs import _fit_label, _trunk_labels, _trunk_lengths


def _labels_one_by_one(na, nb, names):
    per_pair: dict = defaultdict(int)
    out = []
    for x, y in zip(na, nb, strict=True):
        pair = (x, y) if x <= y else (y, x)
        per_pair[pair] += 1
        out.append(_fit_label(f"{names[pair[0]]}-{names[pair[1]]} trunk {per_pair[pair]}"))
    return out


@pytest.mark.parametrize(
    "names",
    [
        ["A01-PP1", "B02-PP1", "C03-FE1"],
        ["A01-PP1", "x" * 60, "y" * 60],  # a pair's label over 100 characters: fitted
        [" lead", "B02-PP1", "C03-FE1"],  # a label starting with a space: fitted
    ],
)
def test_trunk_labels_count_per_pair_of_panels_in_first_use_order(names):
    na = np.array([0, 1, 2, 0, 1, 2, 0, 0], dtype=np.int64)
    nb = np.array([1, 0, 0, 2, 0, 1, 1, 0], dtype=np.int64)
    first_row = np.arange(len(na))
    got = _trunk_labels([f"t{k}" for k in range(len(na))], first_row, na, nb, names)
    assert got == _labels_one_by_one(na.tolist(), nb.tolist(), names)
    assert _trunk_labels([], np.zeros(0, np.int64), na, nb, names) == []


def test_trunk_lengths_are_ordered_else_laid_rounded_to_cm():
    trunks = [
        SimpleNamespace(ordered_m=30.0, length_m=27.456),
        SimpleNamespace(ordered_m=math.nan, length_m=27.456),
        SimpleNamespace(ordered_m=math.nan, length_m=12.3449),
        SimpleNamespace(ordered_m=30.0, length_m=1.0),
        SimpleNamespace(ordered_m=math.nan, length_m=math.nan),
    ]
    values, code = _trunk_lengths(trunks)
    got = [values[k] for k in code.tolist()]
    assert got[:4] == [30.0, 27.46, 12.34, 30.0]
    assert math.isnan(got[4])
