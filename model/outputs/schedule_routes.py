"""The route column of the cabling schedule: each link's trays by name, A end first, the text
made once per (pair of drop points, direction) and given as distinct texts and a code per link."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

import numpy as np

from model.engine.routed_links import NO_TRAY_PATH, SAME_RACK, RoutedLinks


def route_column(plant, trays, status, drop_a, drop_b, swapped, ids, row) -> tuple:
    """(the distinct route texts, each link's code in them): a text is made once per (drop
    pair, direction) (``row``: each link's plant row, -1 when the plant has none)."""
    n = len(ids)
    same = (status & SAME_RACK) != 0
    floor = ~same & ((status & NO_TRAY_PATH) != 0)
    on_tray = np.flatnonzero(~same & ~floor & (row >= 0))
    width = int(max(drop_a.max(initial=0), drop_b.max(initial=0))) + 1
    # int64: a drop column of int32 times the width could overflow
    code = (drop_a[on_tray].astype(np.int64) * width + drop_b[on_tray]) * 2 + swapped[on_tray]
    uniq, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    codes, rows = uniq.tolist(), on_tray[first].tolist()
    first_of: dict[
        int, int
    ] = {}  # the first link of each drop pair (a pair may show in both directions)
    for c, k in zip(codes, rows, strict=True):
        first_of.setdefault(c // 2, k)
    found = _routes_trays(plant, [ids[k] for k in first_of.values()], row[list(first_of.values())])
    paths = dict(zip(first_of, found, strict=True))
    texts = []
    names = _tray_names(trays)
    for c, k in zip(codes, rows, strict=True):
        texts.append(_route_text(paths[c // 2], int(status[k]), trays, bool(c % 2), names))
    out = np.full(n, len(texts), dtype=np.int64)  # "" unless set below
    if len(on_tray):
        out[on_tray] = inverse.reshape(-1)
    out[same] = len(texts) + 1
    out[floor] = len(texts) + 2
    return [*texts, "", "(in rack)", "(no tray path: floor run)"], out


def _routes_trays(
    plant: RoutedLinks, link_ids: list[str], rows: np.ndarray
) -> Sequence[list[str] | None]:
    """The trays of each link's route (``rows``: their plant rows), all found together; one by
    one (None for a link whose route cannot be read) when the plant cannot answer for them all."""
    try:
        return plant.route_tray_ids_at(rows)
    except (AttributeError, KeyError, IndexError):
        return [_route_trays(plant, link_id) for link_id in link_ids]


def _route_trays(plant: RoutedLinks, link_id: str) -> list[str] | None:
    try:
        return list(plant.route_tray_ids(link_id))
    except (AttributeError, KeyError, IndexError):
        return None


def _tray_names(trays: dict) -> dict[str, str]:
    """The name a route shows for each tray id (its id when it has none)."""
    return {tray_id: tray.name or tray_id for tray_id, tray in trays.items()}


def _route_text(
    tray_ids: list[str] | None,
    status: int,
    trays: dict,
    swapped: bool,
    names: dict[str, str] | None = None,
) -> str:
    """The route column of one link: its trays' names, A end first, a name repeated by
    consecutive trays once (``names``: :func:`_tray_names` of ``trays``, made once per
    schedule; an id no tray has is shown as it is)."""
    if status & SAME_RACK:
        return "(in rack)"
    if status & NO_TRAY_PATH:
        return "(no tray path: floor run)"
    if tray_ids is None:
        return ""
    if names is None:
        names = _tray_names(trays)
    ordered = tray_ids[::-1] if swapped else tray_ids
    return " > ".join(name for name, _ in groupby(map(names.get, ordered, ordered)))
