"""Small numpy helpers shared by the engine, the analysis and the exports."""

from __future__ import annotations

import numpy as np


def unique_sorted(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` for numbers, by sorting.

    numpy 2.x answers a plain ``np.unique`` on integers with a hash table that holds the GIL:
    ~300 ms for 400k values, which froze the editor while the analysis ran on its worker
    thread. Sorting gives the same result in ~30 ms and lets the GUI thread run meanwhile.
    """
    ordered = np.sort(values, kind="stable")
    if ordered.size == 0:
        return ordered
    keep = np.empty(ordered.size, dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


class FirstSeen(dict):
    """Value -> code, a new value taking the next code on first lookup: ``map(codes.__getitem__,
    values)`` numbers values in order of first use at C speed (``__missing__`` runs once per
    distinct value, e.g. ~200 port names for 786k link ends)."""

    def __missing__(self, value) -> int:
        code = self[value] = len(self)
        return code
