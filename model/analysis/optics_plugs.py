"""The plug in each used cage, counted per (device, medium and port spec): what the optics figures add up.

A cage holds one plug: the medium of its first link end with the smallest medium row (its
links share the medium, or the plant reports the cage as mixed; the smallest row is the
plant's power), and that end's port spec. :func:`plug_counts` finds it for every cage.

It used to sort all 2 x links cage ends by (cage, medium) on every report: ~20 ms of lexsort
and ~25 ms of gathers at XL (786k ends) after each tray edit, which re-chooses media but never
moves a link to another cage. :class:`CageEnds` sorts the ends by cage once and is kept while
the cage columns stand (the analyzer keeps it between reports); each count is then a gather
and one minimum per cage, in linear passes, with the very same pick.
"""

from __future__ import annotations

import numpy as np

from model.engine.cages import CAGE_STRIDE, MODULE_KINDS, cage_view


class CageEnds:
    """The plant's link ends (every A end, then every B end) grouped by cage, each cage's ends
    in that order (a stable sort): the order a per-cage pick reads them in."""

    def __init__(self, view) -> None:
        """``view``: a :class:`~model.engine.cages.CageView` (``cage_a``, ``spec_a``...)."""
        # A live plant rewrites its cage columns in place (a device's type changed): its
        # arrays are kept as copies, compared by content; a snapshot's are read-only, kept as
        # they are, and the same array is the same cages.
        self.columns = tuple(
            c.copy() if c.flags.writeable else c
            for c in (view.cage_a, view.cage_b, view.spec_a, view.spec_b)
        )
        keys = np.concatenate([view.cage_a, view.cage_b])
        self.order = np.argsort(keys, kind="stable")
        keys = keys[self.order]
        new = np.ones(len(keys), dtype=bool)
        new[1:] = keys[1:] != keys[:-1]
        self.starts = np.flatnonzero(new)  # the first sorted end of each cage
        self.device = keys[self.starts] // CAGE_STRIDE  # view.dev_ids row of each cage
        self.spec = np.concatenate([view.spec_a, view.spec_b])[self.order]

    def follows(self, view) -> bool:
        """True while ``view``'s cage columns are the ones sorted here (the same read-only
        arrays, or equal ones)."""
        now = (view.cage_a, view.cage_b, view.spec_a, view.spec_b)
        return all(
            a is b or (a.shape == b.shape and np.array_equal(a, b))
            for a, b in zip(self.columns, now, strict=True)
        )


def kept_ends(ends: CageEnds | None, plant) -> CageEnds:
    """``ends`` while they follow ``plant``'s cages, else the plant's ends sorted afresh."""
    view = cage_view(plant)
    return ends if ends is not None and ends.follows(view) else CageEnds(view)


def plug_counts(
    view, medium: np.ndarray, ends: CageEnds | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(codes, counts): one code ``device * span + medium * (specs + 1) + spec`` per distinct
    plug (``span = (media + 1) * (specs + 1)``, ``device`` a ``view.dev_ids`` row), ascending,
    and how many cages hold it; only cages whose ends run on a module medium count.
    ``ends``: ``CageEnds(view)`` kept by the caller (made here when None or stale)."""
    if ends is None or not ends.follows(view):
        ends = CageEnds(view)
    tables = view.tables
    n_media, n_specs = len(tables.media), len(tables.specs)
    module_row = np.array([m.kind in MODULE_KINDS for m in tables.media] + [False])
    medium = np.asarray(medium, dtype=np.int64)
    meds = np.concatenate([medium, medium])[ends.order]
    # n_media: an end that takes no module (no medium, or an integrated cable), above every row
    meds = np.where(module_row[np.where(meds < 0, n_media, meds)], meds, n_media)
    # each cage's lowest medium and its first end (in the stable order) there, the plug's
    # spec, in one minimum per cage of medium x ends + position
    n = len(meds)
    if not n:
        return np.unique(meds, return_counts=True)  # no links: no plug
    lowest, pick = np.divmod(np.minimum.reduceat(meds * n + np.arange(n), ends.starts), n)
    plugged = lowest < n_media
    pairs = lowest[plugged] * (n_specs + 1) + ends.spec[pick[plugged]]
    span = (n_media + 1) * (n_specs + 1)
    return np.unique(ends.device[plugged] * span + pairs, return_counts=True)
