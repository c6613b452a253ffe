"""The plant's count of patch cords (model.plant.structured._cords): per (part, ordered length,
fabric), the cords of both ends and the metres they serve, as a cord-by-cord count gives them;
a cord with no orderable length (NaN) is not bought."""

from __future__ import annotations

import math
import random

import numpy as np

from model.plant.structured import _cords
from model.structured.channel_table import CordTable


def _table(n: int, seed: int) -> tuple[CordTable, np.ndarray, list[str]]:
    rng = random.Random(seed)
    stock = (1.0, 2, 3.0, 5.0, 10.0, math.nan)  # the catalog's own objects, NaN: none fits
    cords = CordTable()
    cords.link_ids = [f"l{k}" for k in range(n)]
    cords.parts = [rng.choice(["mmf-b", "smf-a", "mmf-lc"]) for _ in range(n)]
    cords.a_ordered = [rng.choice(stock) for _ in range(n)]
    cords.b_ordered = [rng.choice(stock) for _ in range(n)]
    cords.a_m = [rng.uniform(0.5, 9.0) for _ in range(n)]
    cords.b_m = [rng.uniform(0.5, 9.0) for _ in range(n)]
    fabs = ["compute", "storage", ""]
    return cords, np.asarray([rng.randrange(3) for _ in range(n)], dtype=np.int64), fabs


def _one_by_one(cords: CordTable, cord_fab, fabs, needed: bool) -> dict:
    out: dict = {}
    for ordered, cut in ((cords.a_ordered, cords.a_m), (cords.b_ordered, cords.b_m)):
        per_end: dict = {}
        for part, got, m, f in zip(cords.parts, ordered, cut, cord_fab.tolist(), strict=True):
            if got != got:
                continue
            key = (part, float(got), fabs[f])
            q, total = per_end.get(key, (0, 0.0))
            per_end[key] = (q + 1, total + m)
        for key, (q, total) in per_end.items():
            was_q, was_m = out.get(key, (0, 0.0))
            out[key] = (was_q + q, was_m + total if needed else None)
    return out


def test_cords_counted_as_one_by_one():
    for seed in range(3):
        cords, cord_fab, fabs = _table(500, seed)
        for needed in (False, True):
            got = _cords(cords, cord_fab, fabs, needed)
            assert got == _one_by_one(cords, cord_fab, fabs, needed)
            assert all(type(length) is float for _, length, _ in got)  # 2 is counted as 2.0


def test_no_orderable_cord_counts_nothing():
    cords, cord_fab, fabs = _table(20, 7)
    cords.a_ordered = [math.nan] * 20
    cords.b_ordered = [math.nan] * 20
    assert _cords(cords, cord_fab, fabs, True) == {}
