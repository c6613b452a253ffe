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


def net_cables(old_codes: np.ndarray, new_codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct codes (ascending, int64) whose count ``new_codes`` changes from
    ``old_codes`` (one cable each), and the net change of each (int64, never 0): what
    ``np.unique(..., return_inverse=True)`` and a signed bincount give.

    A moved rack's rows come in runs of one route and medium (its links to one rack), so the
    runs are sorted, not the rows: XL candidates have ~4-10k rows in ~60-240 runs, and the
    unique of the rows was ~0.15-0.5 ms of each fill bound."""
    codes = np.concatenate([old_codes, new_codes]).astype(np.int64, copy=False)
    if not len(codes):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    signs = np.repeat(np.array([-1, 1], dtype=np.int64), [len(old_codes), len(new_codes)])
    starts = np.flatnonzero(np.r_[True, (codes[1:] != codes[:-1]) | (signs[1:] != signs[:-1])])
    run_code = codes[starts]
    run_net = np.diff(np.r_[starts, len(codes)]) * signs[starts]
    order = np.argsort(run_code, kind="stable")
    code = run_code[order]
    heads = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
    net = np.add.reduceat(run_net[order], heads)  # integers: exact in any order
    code = code[heads]
    live = net != 0
    return code[live], net[live]


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
        # Per tray number: peak cross-section (m^2) and where it is first reached (None: no
        # cable), as of the last add() that touched the tray.
        self.peaks: dict[int, tuple[float, float | None]] = {}
        # When a list: add() appends (tray no, bounds, counts, peak or None) of each tray it
        # is about to replace, as they were (model/analysis/tray_fill_undo.py takes them back).
        self.journal: list | None = None

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
        levels.add(spans[1][at], spans[2][at], spans[3][at], keys[key_of, 1], counts[key_of])
        for k in range(len(tray_ids)):
            levels.peaks.setdefault(k, (0.0, None))
        return levels

    def add(
        self,
        tray: np.ndarray,
        s0: np.ndarray,
        s1: np.ndarray,
        medium: np.ndarray,
        cables: np.ndarray,
    ) -> np.ndarray:
        """Add ``cables`` (negative: take away) of ``medium`` over [s0, s1] of tray number
        ``tray`` (-1: no tray of the design, skipped); the tray numbers changed, ascending,
        whose :attr:`peaks` are measured again.

        Every touched tray at once: their bounds and counts laid end to end, the spans' ends
        merged in, one running sum (each span starts and ends on its own tray, so the sum is
        back to zero at every tray's end) and the peaks found per tray by reductions: a move
        touches tens of trays, and a few numpy calls per tray were most of its fill update."""
        merged = self._merged(tray, s0, s1, medium, cables, self.column_of)
        if merged is None:
            return np.zeros(0, dtype=np.int64)
        trays, starts, row_pos, counts = merged
        listed = trays.tolist()
        if self.journal is not None:
            self.journal.extend(
                (k, self.bounds[k], self.counts[k], self.peaks.get(k)) for k in listed
            )
        self._measure(trays, starts, row_pos, counts)
        for i, k in enumerate(listed):
            lo, hi = starts[i], starts[i + 1]
            self.bounds[k], self.counts[k] = row_pos[lo:hi], counts[lo:hi]
        return trays

    def probe(
        self,
        tray: np.ndarray,
        s0: np.ndarray,
        s1: np.ndarray,
        medium: np.ndarray,
        cables: np.ndarray,
        ceilings: np.ndarray | None = None,
    ) -> dict[int, float]:
        """The peak cross-section (m^2) each tray :meth:`add` of the same cables would touch
        would reach, nothing written: the same counts, so the same floats as ``add`` then
        :meth:`peak` (the optimiser's fill bound, mostly refused: nothing to take back).

        ``ceilings`` (m^2 per tray number): a tray whose peak cannot pass its ceiling is left
        out, unmeasured: its peak now plus every cable added along it (wherever they run) is
        at most the ceiling. The bound asks only whether some tray passes its limit, and most
        trays an XL candidate touches stay far below theirs; their bounds were most of the
        merge."""
        if ceilings is not None:
            tray, s0, s1, medium, cables = self._could_pass(ceilings, tray, s0, s1, medium, cables)
        column_of = dict(self.column_of)  # a medium met here takes a column of the copy
        # Rows that repeat their predecessor's counts are kept: they repeat its level too, so
        # each tray's highest level is the same (dropping them was ~0.07 ms of each XL probe).
        merged = self._merged(tray, s0, s1, medium, cables, column_of, drop=False)
        if merged is None:
            return {}
        trays, starts, _, counts = merged
        top = self._tops(self.levels_of(counts, column_of), starts)
        return {k: max(float(t), 0.0) for k, t in zip(trays.tolist(), top.tolist(), strict=True)}

    def _could_pass(self, ceilings: np.ndarray, tray, s0, s1, medium, cables) -> tuple:
        """The spans on trays whose peak could pass their ceiling (see :meth:`probe`): an
        upper bound, the peak as kept plus the cross-section of every cable added on the
        tray, against it. Cables taken away only lower a tray."""
        on = tray >= 0
        added = np.where(on & (cables > 0), cables * self.areas_m2[medium], 0.0)
        upper = np.bincount(np.where(on, tray, 0), added, len(self.tray_ids))
        peaks = self.peaks
        upper += np.array([peaks.get(k, (0.0, None))[0] for k in range(len(self.tray_ids))])
        keep = on & (upper > ceilings)[np.where(on, tray, 0)]
        return tray[keep], s0[keep], s1[keep], medium[keep], cables[keep]

    def _merged(self, tray, s0, s1, medium, cables, column_of: dict[int, int], drop=True):
        """The touched trays (ascending), their rows' starts, and the bounds and counts of
        every touched tray's rows once the cables are added (``column_of``: the medium
        columns, new media added to it); None when no cable is on a tray. ``drop`` False:
        rows with their predecessor's counts are kept (nothing is stored from them)."""
        keep = (tray >= 0) & (cables != 0)
        tray, medium, cables = tray[keep], medium[keep], cables[keep]
        a, b = np.minimum(s0[keep], s1[keep]), np.maximum(s0[keep], s1[keep])
        if not len(tray):
            return None
        met = unique_sorted(medium)
        for m in met.tolist():
            column_of.setdefault(m, len(column_of))
        width = len(column_of)
        # Each span's column through a table by medium (a dict lookup per span was ~20 us).
        column = np.zeros(int(met[-1]) + 1, dtype=np.int64)
        column[met] = [column_of[m] for m in met.tolist()]
        col = column[medium]
        trays = unique_sorted(tray)
        listed = trays.tolist()
        held_bounds = [self.bounds[k] for k in listed]
        held = [self.counts[k] for k in listed]
        sizes = np.array([len(h) for h in held_bounds], dtype=np.int64)
        old_pos = np.concatenate([np.zeros(0), *held_bounds])
        if all(h.shape[1] == width for h in held):  # most moves meet no new medium
            old_counts = np.concatenate([np.zeros((0, width), dtype=np.int64), *held])
        else:
            old_counts = np.zeros((len(old_pos), width), dtype=np.int64)
            at = 0
            for h in held:  # each tray's columns as it has them (a medium met since: zeros)
                old_counts[at : at + len(h), : h.shape[1]] = h
                at += len(h)
        old_t = np.repeat(np.arange(len(trays)), sizes)
        t_of = np.searchsorted(trays, tray)
        n_old, n = len(old_pos), len(tray)
        all_t = np.concatenate([old_t, t_of, t_of])
        all_pos = np.concatenate([old_pos, a, b])
        is_new = np.r_[np.zeros(n_old, bool), np.ones(2 * n, bool)]
        order = np.lexsort((is_new, all_pos, all_t))  # a bound held sorts before a new end
        st, sp = all_t[order], all_pos[order]
        head = np.r_[True, (st[1:] != st[:-1]) | (sp[1:] != sp[:-1])]
        row_t, row_pos, row_held = st[head], sp[head], ~is_new[order][head]
        row_of = np.empty(len(order), dtype=np.int64)
        row_of[order] = np.cumsum(head) - 1
        # A row held keeps its counts; a new one takes those of the last row held before it
        # on its tray (the interval it falls in), or none before the tray's first.
        last_held = np.cumsum(row_held) - 1
        inherits = last_held >= 0
        inherits[inherits] = old_t[last_held[inherits]] == row_t[inherits]
        counts = np.zeros((len(row_t), width), dtype=np.int64)
        counts[inherits] = old_counts[last_held[inherits]]
        # Each span adds its cables at its start row and takes them away at its end row.
        ends = np.concatenate([row_of[n_old : n_old + n] * width, row_of[n_old + n :] * width])
        diff = np.bincount(
            ends + np.concatenate([col, col]),
            np.concatenate([cables, -cables]),
            len(row_t) * width,
        )
        # (bincount sums in float64: exact for any count of cables below 2^53)
        counts += np.cumsum(diff.astype(np.int64).reshape(-1, width), axis=0)
        # A bound with its predecessor's counts changes nothing (a moved rack's old drop
        # point): dropped, so a tray keeps about the bounds its live spans make.
        if drop:
            first = np.r_[True, row_t[1:] != row_t[:-1]]
            kept = first | np.r_[True, np.any(counts[1:] != counts[:-1], axis=1)]
            row_t, row_pos, counts = row_t[kept], row_pos[kept], counts[kept]
        starts = np.searchsorted(row_t, np.arange(len(trays) + 1))
        return trays, starts, row_pos, counts

    @staticmethod
    def _tops(level: np.ndarray, starts: np.ndarray) -> np.ndarray:
        """The highest level of each tray whose rows run from ``starts[i]`` to the next."""
        sizes = np.diff(starts)
        filled = sizes > 0
        top = np.zeros(len(sizes))
        if filled.any():
            top[filled] = np.maximum.reduceat(level, starts[:-1][filled])
        return top

    def _measure(self, trays: np.ndarray, starts: np.ndarray, pos, counts) -> None:
        """Peaks of ``trays`` (ascending), whose rows run from ``starts[i]`` to the next."""
        level = self.levels_of(counts)
        sizes = np.diff(starts)
        top = self._tops(level, starts)
        # The first place of the peak, as the sweep places it: on a plateau, sums in another
        # order may differ in the last bit, which must not move the reported place.
        high = np.flatnonzero(level >= np.repeat(top, sizes) * (1 - 1e-9))
        first = high[np.minimum(np.searchsorted(high, starts[:-1]), len(high) - 1)]
        for i, k in enumerate(trays.tolist()):
            t = float(top[i])
            self.peaks[k] = (t, float(pos[first[i]])) if t > 0 else (0.0, None)

    def levels_of(self, counts: np.ndarray, column_of: dict[int, int] | None = None) -> np.ndarray:
        """Cable cross-section (m^2) of rows of counts (columns as :attr:`column_of`)."""
        # Medium by medium in index order, element-wise: each row's level is then a function
        # of its own counts alone, whatever column a medium took and wherever the row stands
        # (a matrix product's summation order can follow the layout).
        level = np.zeros(len(counts))
        for m, c in sorted((self.column_of if column_of is None else column_of).items()):
            if c < counts.shape[1]:
                level += counts[:, c] * self.areas_m2[m]
        return level

    def levels(self, k: int) -> np.ndarray:
        """Tray number ``k``'s cable cross-section (m^2) from each bound to the next."""
        return self.levels_of(self.counts[k])

    def peak(self, k: int) -> tuple[float, float | None]:
        """Tray number ``k``'s peak cross-section (m^2, at least 0) and the arc length where it
        is first reached (None when no cable runs along the tray)."""
        return self.peaks.get(k, (0.0, None))

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
