"""Copper or fibre: the medium of each link from its length, speed, lanes and form factors.

Candidates for a link are the catalog media that carry its speed, the lane rate of both of its
ports (port speed / port lanes) and the form factor of both ports. Each candidate's ordered
length is the routed length rounded up to its next orderable length; candidates whose reach is
shorter than the ordered length (or that have no such length) are dropped. The rest are ranked
by the design's policy:

* ``lowest-cost``: price of the link (2 x price per end + cable price + price per metre x
  ordered length), then lower power, then catalog order;
* ``lowest-power``: power (2 x power per end), then price;
* ``copper-first``: copper kinds (DAC, ACC, AEC) first, then price, then power;
* ``fibre-only``: optical kinds only (AOC, MMF, SMF), then price, then power.

Everything works on numpy arrays of lengths for one group of links sharing a candidate list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from model.catalog.components import COPPER_KINDS, OPTICAL_KINDS, MediaType

KIND_LABEL = {
    "dac": "passive DAC",
    "acc": "LACC",
    "aec": "AEC",
    "aoc": "AOC",
    "mmf": "multimode",
    "smf": "single-mode",
    "utp": "UTP",
    "backplane": "NVLink backplane",
}
POLICIES = ("lowest-cost", "lowest-power", "copper-first", "fibre-only")


def candidates(
    media: Sequence[MediaType],
    speed_gbps: float,
    lane_rates: Sequence[float],
    form_factors: Sequence[str],
    policy: str = "lowest-cost",
    include_splitters: bool = False,
) -> list[int]:
    """Indexes of the media that can carry a link of this speed, lane rates and form factors.

    Splitter cable families are left out unless ``include_splitters`` (the per-cage choice of
    :mod:`model.engine.cages` asks for them: only a cage's shape can say whether a splitter fits).
    """
    out = []
    for i, m in enumerate(media):
        # The rack backplane comes with the rack whatever the policy: it is not bought.
        if policy == "fibre-only" and m.kind not in OPTICAL_KINDS and m.kind != "backplane":
            continue
        if m.splitter and not include_splitters:
            continue
        if (
            any(abs(speed_gbps - s) < 1e-6 for s in m.speeds_gbps)
            and all(any(abs(r - lr) < 1e-6 for lr in m.lane_rates_gbps) for r in lane_rates)
            and all(f in m.form_factors for f in form_factors)
        ):
            out.append(i)
    return out


class PortClass(NamedTuple):
    """What of a port decides which media fit it (a ``PortInfo`` has the same attributes)."""

    speed_gbps: float
    lanes: int
    form_factor: str


def media_that_fit(
    media: Sequence[MediaType],
    port_a,
    port_b,
    policy: str = "lowest-cost",
    include_splitters: bool = False,
) -> list[int]:
    """Indexes of the media that can carry a link between these two ports (``PortClass`` or
    ``PortInfo``): the link's speed (the slower port), both ports' lane rates and both form
    factors. The one rule the engine, the warnings, the inspector and the links table share;
    ``policy`` "fibre-only" leaves copper out, the others keep every fitting medium.

    Which of these a link finally runs on is decided per cage (:mod:`model.engine.cages`): the plug
    rules and the catalog's orderable parts narrow the list. Splitter cable families fit only a
    cage shape, so they are listed only with ``include_splitters`` (the per-cage choice)."""
    return candidates(
        media,
        min(port_a.speed_gbps, port_b.speed_gbps),
        sorted({port_a.speed_gbps / port_a.lanes, port_b.speed_gbps / port_b.lanes}),
        sorted({port_a.form_factor, port_b.form_factor}),
        policy,
        include_splitters,
    )


def ordered_lengths(medium: MediaType, length_m: np.ndarray) -> np.ndarray:
    """Vectorised :meth:`MediaType.ordered_length`, further limited to the medium's reach.

    NaN where no orderable length of the medium is long enough or the ordered length exceeds
    its reach.
    """
    length_m = np.asarray(length_m, dtype=float)
    if medium.orderable_lengths_m:
        table = np.asarray(medium.orderable_lengths_m, dtype=float)
        k = np.searchsorted(table, length_m - 1e-9, side="left")
        ordered = np.where(k < len(table), table[np.minimum(k, len(table) - 1)], np.nan)
    elif medium.length_step_m > 0:
        step = medium.length_step_m
        ordered = np.maximum(np.ceil(length_m / step - 1e-9) * step, max(step, medium.min_length_m))
    else:
        ordered = np.maximum(length_m, medium.min_length_m)
    return np.where(ordered <= medium.reach_m + 1e-9, ordered, np.nan)


def link_price(medium: MediaType, ordered_m: np.ndarray | float) -> np.ndarray:
    """Indicative price of one link on ``medium`` (both ends and the cable), USD."""
    return (
        2 * medium.price_per_end_usd
        + medium.cable_price_usd
        + medium.cable_price_per_m_usd * np.asarray(ordered_m, dtype=float)
    )


def _rank_keys(medium: MediaType, ordered: np.ndarray, policy: str) -> list[np.ndarray]:
    price = link_price(medium, ordered)
    power = np.full(len(ordered), 2 * medium.power_per_end_w)
    if policy == "lowest-power":
        return [power, price]
    if policy == "copper-first":
        return [np.full(len(ordered), 0.0 if medium.kind in COPPER_KINDS else 1.0), price, power]
    return [price, power]


def beats(keys: Sequence[np.ndarray], best_keys: Sequence[np.ndarray], feasible: np.ndarray):
    """Per row: does a feasible candidate's ``keys`` beat ``best_keys`` lexicographically (each key
    compared within 1e-9; the first key that differs decides)? Shared by the per-link media
    choice and the per-cage plug choice (:mod:`model.engine.cages`)."""
    better = np.zeros(len(feasible), dtype=bool)
    decided = ~feasible
    for new, old in zip(keys, best_keys, strict=True):
        lower, higher = new < old - 1e-9, new > old + 1e-9
        better |= ~decided & lower
        decided |= lower | higher
    return better


def choose(
    media: Sequence[MediaType], cands: Sequence[int], length_m: np.ndarray, policy: str
) -> tuple[np.ndarray, np.ndarray]:
    """Best candidate per link by ``policy``: (medium index or -1, ordered length or NaN).

    Candidates are compared lexicographically on the policy's keys (within 1e-9); a full tie
    keeps the earlier one in catalog order.
    """
    n = len(length_m)
    index = np.full(n, -1, dtype=np.int32)
    best_ordered = np.full(n, np.nan)
    best_keys: list[np.ndarray] | None = None
    for c in cands:
        ordered = ordered_lengths(media[c], length_m)
        feasible = ~np.isnan(ordered)
        if not feasible.any():
            continue
        keys = _rank_keys(media[c], ordered, policy)
        if best_keys is None:
            better = feasible
            best_keys = [np.full(n, np.inf) for _ in keys]
        else:
            better = beats(keys, best_keys, feasible)
        index[better] = c
        best_ordered[better] = ordered[better]
        for new, old in zip(keys, best_keys, strict=True):
            old[better] = new[better]
    return index, best_ordered


def _lengths(x: float) -> str:
    return f"{x:,.1f} m" if x < 100 else f"{x:,.0f} m"


def _speed(gbps: float) -> str:
    return f"{gbps / 1000:g}T" if gbps >= 1000 else f"{gbps:g}G"
