"""The cable-length histogram of a cable plant, per medium group, with the reach limits in use.

The editor's charts panel draws it; the analysis worker computes it from the same plant snapshot
as the report (at 393k links the percentile and one histogram per group took 130–190 ms, too
long for the GUI thread after every edit). Pure function of the plant's ``length_m`` and
``medium_index`` arrays and its media list.

Bins: from 0 to the 99.5th percentile of the finite lengths (the maximum under 51 links), at
least 1 m, rounded up to a whole metre, in two bins per metre (10 to 60 bins); longer links are
counted in the last bin. Reach limits are those of the media in use that fall within 1.5× the
histogram's range (a 10 km single-mode reach would squash every bar into the first pixel).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from model.catalog.components import MEDIUM_GROUPS, NO_MEDIUM_GROUP

PERCENTILE_TOP = 99.5
PERCENTILE_MIN_LINKS = 50  # below this many finite lengths the top is the longest link
REACH_SHOWN_FACTOR = 1.5


@dataclass(frozen=True)
class ReachLine:
    kind: str  # medium kind ("dac", "mmf" …)
    reach_m: float
    medium: str  # the medium's name, for a tooltip


@dataclass(frozen=True)
class LengthHistogram:
    """Links per length bin for each medium group that has any (``"none"``: no medium)."""

    edges_m: np.ndarray  # bin edges, metres (one more than each counts array)
    counts: dict[str, np.ndarray]  # medium group -> links per bin, in MEDIUM_GROUPS order
    reach: tuple[ReachLine, ...]  # shortest first

    @property
    def links(self) -> int:
        return int(sum(int(c.sum()) for c in self.counts.values()))


def length_histogram(plant) -> LengthHistogram | None:
    """The histogram of ``plant``'s routed lengths, or None when no link has a finite length."""
    length = np.asarray(plant.length_m, dtype=float)
    medium = np.asarray(plant.medium_index, dtype=np.int64)
    finite = np.isfinite(length)
    n_finite = int(finite.sum())
    if not n_finite:
        return None
    lengths = length[finite]
    slots = medium[finite]
    top = (
        float(np.percentile(lengths, PERCENTILE_TOP))
        if n_finite > PERCENTILE_MIN_LINKS
        else float(lengths.max())
    )
    top = max(top, 1.0)
    edges = np.linspace(0.0, math.ceil(top), min(60, max(10, int(math.ceil(top)) * 2)) + 1)
    # One pass: bin index per link, then one bincount over (group, bin); groups per medium slot
    # (the last slot is "no medium", which index -1 picks), not per link.
    groups = [*MEDIUM_GROUPS, NO_MEDIUM_GROUP]
    group_of_kind = {k: i for i, g in enumerate(MEDIUM_GROUPS) for k in MEDIUM_GROUPS[g]}
    slot_group = np.array(
        [group_of_kind.get(m.kind, len(groups) - 1) for m in plant.media] + [len(groups) - 1],
        dtype=np.int64,
    )
    n_bins = len(edges) - 1
    # np.histogram's rule: bins half-open except the last, which holds its right edge; values
    # past the range were clipped into the last bin by the chart before.
    bins = bin_of(edges, np.minimum(lengths, edges[-1]))
    np.clip(bins, 0, n_bins - 1, out=bins)
    table = np.bincount(slot_group[slots] * n_bins + bins, minlength=len(groups) * n_bins)
    table = table.reshape(len(groups), n_bins)
    counts = {g: table[i] for i, g in enumerate(groups) if table[i].any()}
    reach: dict[tuple[str, float], str] = {}
    # The media in use: a count per medium index (no sort of 393k indexes), the same set.
    in_use = np.bincount(medium[medium >= 0], minlength=len(plant.media))
    for k in np.flatnonzero(in_use).tolist():
        m = plant.media[k]
        if m.reach_m <= edges[-1] * REACH_SHOWN_FACTOR:
            reach.setdefault((m.kind, m.reach_m), m.name)
    lines = tuple(
        ReachLine(kind, r, name) for (kind, r), name in sorted(reach.items(), key=lambda i: i[0][1])
    )
    return LengthHistogram(edges, counts, lines)


def bin_of(edges: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``np.searchsorted(edges, values, side="right") - 1`` for evenly spaced ``edges`` from 0
    (``np.linspace``), finite ``values``: the last edge at or below each value (-1 below the
    first). A multiply gives each value's bin to within one; comparisons with the edges
    themselves settle it, so the answer is searchsorted's exactly (the binary search over 393k
    unsorted lengths was the histogram's largest piece, ~10 ms)."""
    last = len(edges) - 1
    scale = last / edges[-1] if last and edges[-1] > 0 else 0.0
    edge = np.multiply(values, scale)  # a bin to within one; then the edge of each guess
    np.floor(edge, out=edge)
    np.clip(edge, -1, last, out=edge)
    bins = edge.astype(np.int64)
    index = np.empty_like(bins)
    for _ in range(4):  # off by one at most (rounding); a bound, not a tuning
        np.maximum(bins, 0, out=index)
        np.take(edges, index, out=edge)
        down = (edge > values) & (bins >= 0)  # the guess's edge is above the value
        np.add(bins, 1, out=index)
        np.minimum(index, last, out=index)
        np.take(edges, index, out=edge)
        up = (edge <= values) & (bins < last)  # the next edge is at or below it
        if not (down.any() or up.any()):
            return bins
        bins -= down
        bins += up & ~down
    return np.searchsorted(edges, values, side="right") - 1  # never reached in practice
