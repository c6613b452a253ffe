"""The plug in each used cage, counted per (device, medium and port spec): what the optics figures add up.

A cage holds one plug: the medium of its first link end with the smallest medium row (its
links share the medium, or the plant reports the cage as mixed; the smallest row is the
plant's power), and that end's port spec. :func:`plug_counts` finds it for every cage.

It used to sort all 2 x links cage ends by (cage, medium) on every report: ~20 ms of lexsort
and ~25 ms of gathers at XL (786k ends) after each tray edit, which re-chooses media but never
moves a link to another cage. :class:`CageEnds` sorts the ends by cage once and is kept while
the cage columns stand; each count is then a gather and one minimum per cage, in linear
passes, with the very same pick. That count was still ~33 ms at XL, while a tray edit changes
the medium of ~2.3k links: :class:`PlugTally` (the analyzer keeps it, with its ends, between
reports: :func:`kept_tally`) keeps each cage's plug and picks again only the cages of the
links whose medium changed.
"""

from __future__ import annotations

import numpy as np

from model.common.arrays import unique_counts_of_runs
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


def kept_tally(tally: PlugTally | None, plant) -> PlugTally:
    """``tally`` while its picks hold for ``plant``'s cages (a tray edit keeps every cage: only
    some media change), else the plugs counted afresh, from the ends sorted before while the
    cage columns stand."""
    view = cage_view(plant)
    ends = tally.ends if tally is not None else None
    if ends is None or not ends.follows(view):
        ends = CageEnds(view)
    if tally is None or tally.ends is not ends or tally.tables != _tables_key(view):
        tally = PlugTally(ends, view, plant.medium_index)
    return tally


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
    # n_media: an end that takes no module (no medium, or an integrated cable), above every
    # row. In place, as the key below: each whole-size temporary is ~7 MB of fresh pages at XL.
    meds[meds < 0] = n_media
    meds[~module_row[meds]] = n_media
    # each cage's lowest medium and its first end (in the stable order) there, the plug's
    # spec, in one minimum per cage of medium x ends + position
    n = len(meds)
    if not n:
        return np.unique(meds, return_counts=True)  # no links: no plug
    meds *= n
    meds += np.arange(n)
    lowest, pick = np.divmod(np.minimum.reduceat(meds, ends.starts), n)
    plugged = lowest < n_media
    pairs = lowest[plugged] * (n_specs + 1) + ends.spec[pick[plugged]]
    span = (n_media + 1) * (n_specs + 1)
    # the cages in device order (ends sorted by cage): the codes come in ascending runs
    return unique_counts_of_runs(ends.device[plugged] * span + pairs)


class PlugTally:
    """:func:`plug_counts` of one plant's cages kept between reports, with each cage's plug:
    after an edit that changed some links' media only (a tray edit re-chooses the media of the
    cages where a length crossed a break, ~2.3k links of 393k at XL), only the cages holding
    their ends are picked again and the counts moved by the difference, in integers: the same
    codes and counts as a full count (~33 ms at XL, ~1 ms so)."""

    def __init__(self, ends: CageEnds, view, medium: np.ndarray) -> None:
        """``ends``: ``CageEnds(view)``; ``medium``: the plant's medium row per link."""
        self.ends = ends
        self.tables = _tables_key(view)  # the codes number the media and specs rows
        n = len(ends.order)
        self.bounds = np.append(ends.starts, n)  # cage c's sorted ends: bounds[c]:bounds[c + 1]
        cage_at = np.repeat(np.arange(len(ends.starts)), np.diff(self.bounds))
        self.cage_of_end = np.empty(n, dtype=np.int64)
        self.cage_of_end[ends.order] = cage_at  # the cage of A end r (r), of B end r (links + r)
        self.medium = np.array(medium, dtype=np.int64)
        self.plug = self._plugs(view, self.medium, np.arange(len(ends.starts)))
        # the plugs in cage order, so in device order: codes in ascending runs
        self.kept_codes, self.kept_counts = unique_counts_of_runs(self.plug[self.plug >= 0])
        self.roles: tuple | None = None  # the optics' role per device row (optics._role_rows)

    def counts(self, view, medium: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:func:`plug_counts` of ``view`` with ``medium`` (the cages and tables counted
        before: :func:`kept_tally`), the picks of the cages where a link's medium changed since the last count redone."""
        medium = np.asarray(medium, dtype=np.int64)
        changed = np.flatnonzero(medium != self.medium)
        if not len(changed):
            return self.kept_codes, self.kept_counts
        links = len(medium)
        cages = np.unique(self.cage_of_end[np.concatenate([changed, changed + links])])
        before = self.plug[cages]
        after = self._plugs(view, medium, cages)
        self.plug[cages] = after
        self.medium[changed] = medium[changed]
        moved = np.concatenate([self.kept_codes, after[after >= 0], before[before >= 0]])
        signs = np.concatenate(
            [
                self.kept_counts,
                np.ones((after >= 0).sum(), np.int64),
                -np.ones((before >= 0).sum(), np.int64),
            ]
        )
        codes, at = np.unique(moved, return_inverse=True)
        counts = np.zeros(len(codes), dtype=self.kept_counts.dtype)
        np.add.at(counts, at, signs)
        kept = counts > 0
        self.kept_codes, self.kept_counts = codes[kept], counts[kept]
        return self.kept_codes, self.kept_counts

    def _plugs(self, view, medium: np.ndarray, cages: np.ndarray) -> np.ndarray:
        """The plug code of each of ``cages`` (-1: no module there), picked as
        :func:`plug_counts` picks it: its ends' lowest module medium, the first end there."""
        ends, bounds = self.ends, self.bounds
        tables = view.tables
        n_media, n_specs = len(tables.media), len(tables.specs)
        module_row = np.array([m.kind in MODULE_KINDS for m in tables.media] + [False])
        first, sizes = bounds[cages], bounds[cages + 1] - bounds[cages]
        heads = np.cumsum(sizes) - sizes  # each cage's first place among the gathered ends
        at = np.repeat(first - heads, sizes) + np.arange(int(sizes.sum()))  # sorted positions
        links = len(medium)
        meds = medium[ends.order[at] % links] if links else medium
        meds = np.where(module_row[np.where(meds < 0, n_media, meds)], meds, n_media)
        n = len(ends.order)
        lowest, pick = np.divmod(np.minimum.reduceat(meds * n + at, heads), n)
        span = (n_media + 1) * (n_specs + 1)
        code = ends.device[cages] * span + lowest * (n_specs + 1) + ends.spec[pick]
        return np.where(lowest < n_media, code, -1)


def _tables_key(view) -> tuple:
    """What a plug code depends on in ``view``'s tables: the media's kinds and the specs."""
    tables = view.tables
    return (tuple(m.kind for m in tables.media), len(tables.specs))
