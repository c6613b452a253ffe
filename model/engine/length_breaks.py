"""Which links' media choice a change of routed length can alter: the lengths at which it can.

A tray edit at XL changes the length of ~190k links, most by less than the gap between two
stock lengths. The per-cage choice (:mod:`model.engine.cage_choice`, with the per-link
fallback of :func:`model.engine.media.choose`) reads a link's length in a direct design only
through comparisons with fixed lengths of the catalog:

- rounded up to a stock length (a fibre's, an integrated cable's, a medium's orderable
  lengths): ``searchsorted(stock, length - 1e-9)``, the same for any list of stock lengths
  when it is the same for their union;
- against a reach (a module's rated reach, a medium's reach: the backplane's, an ordered
  length's limit): ``length > reach + 1e-9``;
- rounded up to a step (``ceil(length / step - 1e-9)``) for media cut in steps;
- itself, for a medium ordered at its very length (no stock lengths, no step: the backplane).

A component's longest link is compared the same ways (the rounding is monotone, so the longest
link's bucket is the largest of its links'). So when every link of a component keeps its
bucket among these lengths, every figure of its choice (feasibility, cost, power, the ordered
length per link) is the same float as before, and so is the choice: it is kept, not made again.
A channel through patch panels reads the length continuously (its loss): callers choose again
whenever a design has panels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from model.catalog.components import MediaType
from model.engine.cages import PartTables

_TOLERANCE_M = 1e-9  # the choice's own: lengths within it count as equal to a stock or a reach


class LengthBreaks:
    """The catalog's lengths at which a link's media choice can change (see the module)."""

    __slots__ = ("continuous", "limits", "steps", "stock")

    def __init__(self, media: Sequence[MediaType], tables: PartTables) -> None:
        stock: set[float] = set()
        reaches: set[float] = set()
        steps: set[float] = set()
        for medium in media:
            stock.update(medium.orderable_lengths_m)
            reaches.add(medium.reach_m)
            if not medium.orderable_lengths_m and medium.length_step_m > 0:
                steps.add(medium.length_step_m)
        for parts in tables.cables.values():
            for part in parts:
                stock.update(part.lengths_m)
        for fibre in tables.fibre_of.values():
            stock.update(fibre.lengths_m)
        for _, module in tables.medium_modules:
            if module.reach_m > 0:
                reaches.add(module.reach_m)
        self.stock = np.array(sorted(stock), dtype=np.float64)
        # ``reach + 1e-9`` as the choice computes it (float64 sums, the same floats)
        self.limits = np.unique(np.array(sorted(reaches), dtype=np.float64) + _TOLERANCE_M)
        self.steps = sorted(steps)
        # media ordered at the link's own length: their choice reads the length itself
        self.continuous = np.array(
            [not m.orderable_lengths_m and not m.length_step_m > 0 for m in media], dtype=bool
        )

    def crossed(self, old_m: np.ndarray, new_m: np.ndarray, exact: np.ndarray) -> np.ndarray:
        """Per link: whether its length went from ``old_m`` to ``new_m`` across a break (into
        another bucket, or to or from a non-finite length); for ``exact`` links (a candidate or
        pinned medium is ordered at its very length) whether it changed at all."""
        low, high = np.minimum(old_m, new_m), np.maximum(old_m, new_m)
        same = _none_between(self.stock, low - _TOLERANCE_M, high - _TOLERANCE_M)
        same &= _none_between(self.limits, low, high)
        for step in self.steps:
            same &= np.ceil(old_m / step - _TOLERANCE_M) == np.ceil(new_m / step - _TOLERANCE_M)
        same &= np.isfinite(old_m) & np.isfinite(new_m) & ~exact
        return ~(same | (old_m == new_m))


def _none_between(cuts: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """``searchsorted(cuts, low) == searchsorted(cuts, high)`` (``low <= high``, finite) with
    one search instead of two: no cut ``c`` with ``low <= c < high``, i.e. the first cut not
    below ``low`` (inf past the last) is not below ``high``. Subtracting the tolerance keeps
    the order of two lengths (rounding is monotone), so the lower length's is the lower."""
    return np.append(cuts, np.inf)[np.searchsorted(cuts, low)] >= high
