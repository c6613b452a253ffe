"""Tray fill: the cross-section of the cables in each tray against the tray's width x depth.

Fill is counted per tray (a tray's polyline as a whole): every cable whose route uses any part
of the tray counts, so the figure is the fill of the tray's busiest stretch or more (an upper
bound where cables join and leave part-way). A cable of diameter d takes pi d^2 / 4.

Routes are asked from the cable plant once per distinct route: links between the same two drop
points (same routing method) follow the same trays. The geometry engine's per-link drop arrays
(``_drop_a``, ``_drop_b``, ``_drop_x``, ``_drop_y``, ``_method``) name them when present; other
plants are asked per link. Counts are kept as integers per (tray, medium), so an incremental
update after a rack move gives exactly the figures of a full recount.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from model.design import Design


class TrayFill:
    """Per-tray cable counts, recounted in full or updated for changed links."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget everything (trays, hall or the link set changed)."""
        self._key_id: dict[tuple, int] = {}
        self._key_trays: list[tuple[str, ...]] = []
        self._row_of: dict[str, int] = {}
        self._row_key = np.zeros(0, dtype=np.int64)
        self._row_medium = np.zeros(0, dtype=object)    # medium id per row ("" none)
        self._counts: Counter = Counter()                # (key id, medium id) -> links

    def update(self, design: Design, plant, changed: set[str] | None) -> dict[str, float]:
        """Fill ratio per tray id; ``changed`` None (or after ``reset``) recounts every link."""
        if plant is None or not design.trays:
            self.reset()
            return {t: 0.0 for t in design.trays}
        if changed is None or not self._row_of:
            self._full(plant)
        elif changed:
            self._links(plant, [l for l in changed if l in self._row_of])
        per_tray: dict[str, Counter] = {t: Counter() for t in design.trays}
        for (key, medium), count in self._counts.items():
            if count and medium:
                for tray_id in self._key_trays[key]:
                    if tray_id in per_tray:
                        per_tray[tray_id][medium] += count
        media = design.catalog.media_types
        out = {}
        for tray_id, tray in design.trays.items():
            area = sum(math.pi * (media[m].cable_diameter_mm / 1000) ** 2 / 4 * c
                       for m, c in sorted(per_tray[tray_id].items()) if c > 0)
            out[tray_id] = area / (tray.width_m * tray.depth_m)
        return out

    def _full(self, plant) -> None:
        self.reset()
        link_ids = plant.link_ids
        self._row_of = dict(plant.index)
        n = len(plant.medium_index)
        self._row_key = np.full(n, -1, dtype=np.int64)
        self._row_medium = np.full(n, "", dtype=object)
        self._assign(plant, link_ids)
        valid = self._row_key >= 0
        media = self._row_medium[valid]
        keys = self._row_key[valid]
        names, medium_code = np.unique(media.astype(str), return_inverse=True)
        combined = keys * len(names) + medium_code.reshape(-1)
        values, counts = np.unique(combined, return_counts=True)
        for value, count in zip(values.tolist(), counts.tolist()):
            self._counts[(value // len(names), str(names[value % len(names)]))] += count

    def _links(self, plant, link_ids: list[str]) -> None:
        rows = [self._row_of[l] for l in link_ids]
        for row in rows:
            if self._row_key[row] >= 0:
                self._counts[(int(self._row_key[row]), self._row_medium[row])] -= 1
        self._assign(plant, link_ids)
        for row in rows:
            if self._row_key[row] >= 0:
                self._counts[(int(self._row_key[row]), self._row_medium[row])] += 1

    def _assign(self, plant, link_ids: list[str]) -> None:
        """Route key and medium id of each link into the row arrays (routes asked once per key)."""
        if not link_ids:
            return
        if link_ids is plant.link_ids or link_ids == plant.link_ids:
            rows = np.arange(len(link_ids), dtype=np.int64)  # rows follow link_ids (contract)
        else:
            rows = np.fromiter((plant.index[l] for l in link_ids), dtype=np.int64,
                               count=len(link_ids))
        mi = np.asarray(plant.medium_index)[rows]
        ids = np.array([m.id for m in plant.media] + [""], dtype=object)
        self._row_medium[rows] = ids[np.where(mi < 0, len(ids) - 1, mi)]
        table, inverse = _route_keys(plant, rows, link_ids)
        key_ids = np.empty(len(table), dtype=np.int64)
        first = np.full(len(table), -1, dtype=np.int64)
        first[inverse[::-1]] = np.arange(len(inverse))[::-1]  # first link of each key
        for i, key in enumerate(table):
            known = self._key_id.get(key)
            if known is None:
                known = self._key_id[key] = len(self._key_trays)
                self._key_trays.append(_trays_of(plant, link_ids[int(first[i])]))
            key_ids[i] = known
        self._row_key[rows] = key_ids[inverse]


def _route_keys(plant, rows: np.ndarray, link_ids: list[str]) -> tuple[list[tuple], np.ndarray]:
    """Distinct route keys (drop points in order, method; or the link id) and each link's key.

    Links are grouped by drop indices (fast integer sort); each group's key is named by its drop
    coordinates, which stay valid across refreshes even if the plant reuses a drop index.
    """
    names = ("_drop_a", "_drop_b", "_drop_x", "_drop_y", "_method")
    arrays = [getattr(plant, n, None) for n in names]
    if any(a is None for a in arrays):
        return [("link", l) for l in link_ids], np.arange(len(link_ids))
    drop_a, drop_b, xs, ys, method = arrays
    da, db = drop_a[rows].astype(np.int64), drop_b[rows].astype(np.int64)
    lo, hi = np.minimum(da, db), np.maximum(da, db)
    span = int(max(hi.max(), 0)) + 1
    code = (lo * span + hi) * 256 + method[rows].astype(np.int64)
    unique, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    keys = []
    for row in rows[first].tolist():
        pa = (round(float(xs[drop_a[row]]), 6), round(float(ys[drop_a[row]]), 6))
        pb = (round(float(xs[drop_b[row]]), 6), round(float(ys[drop_b[row]]), 6))
        keys.append((*min(pa, pb), *max(pa, pb), int(method[row])))
    return keys, inverse.reshape(-1)


def _trays_of(plant, link_id: str) -> tuple[str, ...]:
    """Tray ids of a link's route; the plant's ``tray_ids(link_id)`` when it offers one (no
    plan points to build), else ``route(link_id).tray_ids``."""
    quick = getattr(plant, "tray_ids", None)
    if callable(quick):
        return tuple(quick(link_id))
    return tuple(getattr(plant.route(link_id), "tray_ids", ()) or ())
