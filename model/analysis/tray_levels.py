"""The optimiser's tray fill kept as cables per medium between each tray's interval ends, so a
rack move adds its new routes' cables over their spans and takes its old ones out.

A tray's fill is the peak, along the tray, of the cross-section of the cables present
(:mod:`model.analysis.tray_fill`). Here each tray keeps the sorted arc lengths where some span
began or ended (``bounds``) and, per bound, how many cables of each medium run from it to the
next bound (integers: adding a move's cables and taking them away again leaves exactly the
counts a fresh build gives, whatever the order of the moves). A bound with the counts of the
bound before it changes no level and no first peak place; those are dropped as bounds are added.

The cross-section between two bounds is the counts times each medium's cable section, a pure
function of the counts: a kept table and a freshly built one give the same floats bit for bit.
A sweep over span ends (:func:`model.analysis.tray_spans.peak_along`) sums the same cables in
another order and may differ from it in the last bit (~1e-17 of a fill ratio).

Work per move scales with the moved routes' spans and the bounds of the trays they run along,
not with every span of those trays (a re-sweep of a spine tray's spans was ~3 ms of an XL move).
"""

from __future__ import annotations

import numpy as np

from model.analysis.tray_spans import gather_runs, point_along
from model.common.arrays import unique_sorted


class TrayLevels:
    """Per tray number: interval bounds (m) and cables per medium from each bound on."""

    def __init__(self, tray_ids: list[str], areas_m2: np.ndarray) -> None:
        self.tray_ids = list(tray_ids)
        self.tray_no = {t: k for k, t in enumerate(self.tray_ids)}
        self.areas_m2 = np.asarray(areas_m2, dtype=np.float64)  # per medium: one cable's section
        # Columns only for the media some cable has used (a few of the catalog's tens), in the
        # order first met; levels sum them in medium order whatever their column.
        self.column_of: dict[int, int] = {}
        self.bounds: list[np.ndarray] = [np.zeros(0) for _ in self.tray_ids]
        self.counts: list[np.ndarray] = [np.zeros((0, 0), np.int64) for _ in self.tray_ids]

    @classmethod
    def build(
        cls,
        tray_ids: list[str],
        areas_m2: np.ndarray,
        spans: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        keys: np.ndarray,
        counts: np.ndarray,
    ) -> TrayLevels:
        """From every learnt span (route, tray number, s0, s1; routes ascending) and the cables
        per (route, medium) ``keys`` (``counts`` of each)."""
        levels = cls(tray_ids, areas_m2)
        span_route = spans[0]
        live = counts > 0
        keys, counts = keys[live], counts[live]
        first = np.searchsorted(span_route, keys[:, 0], "left")
        sizes = np.searchsorted(span_route, keys[:, 0], "right") - first
        at = gather_runs(first, first + sizes)
        key_of = np.repeat(np.arange(len(keys)), sizes)
        levels.add(
            spans[1][at], spans[2][at], spans[3][at], keys[key_of, 1], counts[key_of], every=True
        )
        return levels

    def add(
        self,
        tray: np.ndarray,
        s0: np.ndarray,
        s1: np.ndarray,
        medium: np.ndarray,
        cables: np.ndarray,
        every: bool = False,
    ) -> np.ndarray:
        """Add ``cables`` (negative: take away) of ``medium`` over [s0, s1] of tray number
        ``tray`` (-1: no tray of the design, skipped); the tray numbers changed, ascending
        (``every``: all trays, as a build, which lays every tray out at once)."""
        keep = (tray >= 0) & (cables != 0)
        tray, medium, cables = tray[keep], medium[keep], cables[keep]
        a, b = np.minimum(s0[keep], s1[keep]), np.maximum(s0[keep], s1[keep])
        for m in np.unique(medium).tolist():
            self.column_of.setdefault(m, len(self.column_of))
        col = np.array([self.column_of[m] for m in medium.tolist()], dtype=np.int64)
        order = np.argsort(tray, kind="stable")
        tray, a, b, col, cables = tray[order], a[order], b[order], col[order], cables[order]
        heads = np.flatnonzero(np.r_[True, tray[1:] != tray[:-1]]) if len(tray) else tray
        ends = np.r_[heads[1:], len(tray)].astype(np.int64) if len(tray) else tray
        put = self._lay_out if every else self._add_on
        for lo, hi in zip(heads.tolist(), ends.tolist(), strict=True):
            put(int(tray[lo]), a[lo:hi], b[lo:hi], col[lo:hi], cables[lo:hi])
        return np.arange(len(self.tray_ids)) if every else np.unique(tray)

    def _lay_out(self, k: int, a, b, col, cables) -> None:
        """Tray ``k`` from nothing: its bounds and a running sum of every span's cables."""
        bounds = np.unique(np.concatenate([a, b]))
        diff = np.zeros((len(bounds), len(self.column_of)), dtype=np.int64)
        np.add.at(diff, (np.searchsorted(bounds, a), col), cables)
        np.add.at(diff, (np.searchsorted(bounds, b), col), -cables)
        self.bounds[k], self.counts[k] = bounds, np.cumsum(diff, axis=0)

    def _add_on(self, k: int, a, b, col, cables) -> None:
        """A few spans onto tray ``k``: new bounds inserted (each taking the counts of the
        interval it falls in), then each span's cables added over its own bounds."""
        bounds, counts = self.bounds[k], self.counts[k]
        if counts.shape[1] < len(self.column_of):
            counts = np.pad(counts, ((0, 0), (0, len(self.column_of) - counts.shape[1])))
        ends = unique_sorted(np.concatenate([a, b]))
        place = np.searchsorted(bounds, ends)
        known = place < len(bounds)
        known[known] = bounds[place[known]] == ends[known]
        new = ends[~known]
        if len(new):
            inside = np.searchsorted(bounds, new, "right") - 1
            rows = np.zeros((len(new), counts.shape[1]), dtype=np.int64)
            rows[inside >= 0] = counts[inside[inside >= 0]]
            place = place[~known]
            bounds = np.insert(bounds, place, new)
            counts = np.insert(counts, place, rows, axis=0)
        # A running sum over the bounds from the first span's start: each span adds its
        # cables at its start and takes them away at its end.
        first, stop = np.searchsorted(bounds, a), np.searchsorted(bounds, b)
        lo, width = int(first.min()), counts.shape[1]
        size = (int(stop.max()) + 1 - lo) * width
        at = np.concatenate([(first - lo) * width + col, (stop - lo) * width + col])
        # (bincount sums in float64: exact for any count of cables below 2^53)
        diff = np.bincount(at, np.concatenate([cables, -cables]), size).astype(np.int64)
        counts[lo : lo + size // width - 1] += np.cumsum(diff.reshape(-1, width)[:-1], axis=0)
        if len(new):
            # Bounds with the counts of the bound before them change nothing (a moved rack's
            # old drop point): dropped, so a tray keeps about the bounds its live spans make.
            keep = np.r_[True, np.any(counts[1:] != counts[:-1], axis=1)]
            bounds, counts = bounds[keep], counts[keep]
        self.bounds[k], self.counts[k] = bounds, counts

    def levels(self, k: int) -> np.ndarray:
        """Tray number ``k``'s cable cross-section (m^2) from each bound to the next."""
        counts = self.counts[k]
        # Medium by medium in index order, element-wise: each bound's level is then a function
        # of its own counts alone, whatever column a medium took (a matrix product's summation
        # order can follow the layout).
        level = np.zeros(len(counts))
        used: list[bool] = np.any(counts != 0, axis=0).tolist() if len(counts) else []
        for m, c in sorted(self.column_of.items()):
            if c < len(used) and used[c]:
                level += counts[:, c] * self.areas_m2[m]
        return level

    def peak(self, k: int) -> tuple[float, float | None]:
        """Tray number ``k``'s peak cross-section (m^2, at least 0) and the arc length where it
        is first reached (None when no cable runs along the tray)."""
        if not len(self.counts[k]):
            return 0.0, None
        level = self.levels(k)
        top = float(level.max())
        if top <= 0:
            return 0.0, None
        # The first place of the peak, as the sweep places it: on a plateau, sums in another
        # order may differ in the last bit, which must not move the reported place.
        first = int(np.argmax(level >= top * (1 - 1e-9)))
        return top, float(self.bounds[k][first])

    def fill(self, design, trays: np.ndarray, out: dict, peak_at: dict) -> None:
        """Fill ratio (and peak place) of tray numbers ``trays`` into ``out`` and ``peak_at``."""
        for k in trays.tolist():
            tray_id = self.tray_ids[k]
            t = design.trays[tray_id]
            level, pos = self.peak(k)
            out[tray_id] = level / (t.width_m * t.depth_m)
            if pos is None:
                peak_at.pop(tray_id, None)
            else:
                peak_at[tray_id] = point_along(t.points, pos)
