"""Keeping the plant's count and cage graph from one build_plant call to the next (PlantCache)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from model.common.arrays import unique_sorted
from model.plant.power import device_plug_power
from model.plant.tally import CageGraph, Tally, cage_graph, tally


class PlantCache:
    """Keeps the cage graph and the whole plant's count of one :func:`build_plant` for the next.

    A rack move changes lengths and maybe media, never which cages a link joins: a link end's
    cage is its device and port's cage (``port_cages`` of the device type, breakout and optics
    setting), its spec the cage's, and the components, shapes and hubs are functions of those
    keys alone; ``move_racks`` edits a rack's place, none of them (tests/model/test_plant_shares.py
    rebuilds the graph after random moves and finds it equal). So the next call reuses the
    graph (~0.1 s of sorting at 400k links) and recounts only the components with a link whose
    medium, ordered length or fabric changed (their old count, kept as each element's share,
    is taken out and the new one put in; counts are integers, so the sum is exact). Everything
    is reused only when the rows and cage arrays equal (by content) the ones it was built from.
    """

    def __init__(self, keep: bool = True) -> None:
        # False: a one-shot count (``analyze()``, whose analyzer no edit follows) that keeps
        # nothing for a next call: no copy of the six key columns, the count's inputs or the
        # cage media, and no per-element shares (XL every network: ~40 MB made, faulted in and
        # copied for nothing). A next call then counts as a new cache does: the same figures.
        self.keep = keep
        self._key: tuple[np.ndarray, ...] | None = None
        self._graph: CageGraph | None = None
        self._inputs: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._tally: Tally | None = None
        self._tables = None
        # (graph, cage media, device power dicts, whether those media were the count's own
        # ``lo``) of the last call
        self._power: tuple | None = None
        # Cages the incremental counts recounted since device_power last ran (None: unknown, as
        # after a whole count): the only places the count's own ``lo`` can differ from the
        # cage media device_power last summed, so it compares those, not every cage.
        self._lo_moved: list[np.ndarray] | None = None
        self.recounted_rows = 0  # rows the last call counted (diagnostics, tests)
        self.all_rows = np.zeros(0, dtype=np.int64)  # 0..n-1 of the last plant of n rows
        # Set by a caller that knows only racks moved since the last call (the optimiser): a
        # move changes no link, device or cage, so the graph is reused without comparing six
        # arrays of every link (~2 ms at XL per move). Read and cleared by the next call.
        self.cages_unchanged = False
        self.fabric_names: list[str] | None = None  # what the fabric codes of the count mean
        # (weak design, its devices and catalog, (device edits, devices), (cages of every
        # device, any co-packaged switch)): build_plant's device totals, kept while the devices
        # stand
        self.cages_total_memo: tuple | None = None
        self._trunk_counts: Any = None  # kept_trunk_counts(), once asked for
        # Set by a caller that knows which links can have changed since the last call (the
        # optimiser: only racks moved, these the plant rows of their links), as (plant rows
        # in all, those rows): the next incremental count compares only the rows of their
        # components (a medium is chosen per component) instead of every row. Read and
        # cleared by the next call; ``hinted_rows`` then says which rows it compared (plant
        # rows), None when it compared every row.
        self.rows_hint: tuple[int, np.ndarray] | None = None
        self._shares: _Shares | None = None  # what each element added to the kept count
        self.hinted_rows: np.ndarray | None = None
        # Set by a caller that keeps no plant's plug-power dicts (the optimiser's pricer, which
        # reads them at once): device_power then brings its dicts up to date in place instead
        # of copying every device's draw into new ones (two dicts of ~20k devices, ~1.2 ms of
        # every XL move).
        self.plugs_in_place = False
        # Counts the changes of the plug-power dicts device_power returns, and (generation
        # before its last change, after it, ids of the devices that change summed again, the
        # rest being the same; None when it summed every device): what a caller comparing
        # every device's draw need compare again.
        self.power_generation = 0
        self.resummed: tuple[int, int, list[str] | None] | None = None

    def kept_trunk_counts(self):
        """The structured overlay's trunk counts kept from call to call
        (:class:`model.plant.structured.KeptTrunkCounts`; imported here: a directly cabled
        design need not load the structured layer)."""
        from model.plant.structured import KeptTrunkCounts

        if self._trunk_counts is None:
            self._trunk_counts = KeptTrunkCounts()
        return self._trunk_counts

    def reset_counts(self) -> None:
        """Forget the count (not the graph): the next :meth:`tally` counts every row."""
        self._inputs = self._tally = None

    def graph(self, view, rows: np.ndarray) -> CageGraph:
        trusted, self.cages_unchanged = self.cages_unchanged, False
        if trusted and self._graph is not None and self._key is not None:
            if len(rows) == len(self._key[0]):
                return self._graph
        key = (rows, view.cage_a, view.cage_b, view.spec_a, view.spec_b, view.component)
        if (
            self._graph is not None
            and self._key is not None
            and all(
                old is new or (old.shape == new.shape and np.array_equal(old, new))
                for old, new in zip(self._key, key, strict=True)
            )
        ):
            return self._graph
        graph = cage_graph(view, rows)
        self._inputs = self._tally = None
        if not self.keep:
            return graph  # not kept: no next call compares its key
        self._graph = graph
        self._key = tuple(_kept(a) for a in key)
        return graph

    def tally(self, tables, graph: CageGraph, m, ordered, row_fab) -> Tally:
        """The count of all rows of ``graph``, recounting only the components that changed."""
        n = len(m)
        hint, self.rows_hint, self.hinted_rows = self.rows_hint, None, None
        whole, inputs = self._tally, self._inputs
        if (
            whole is None
            or inputs is None
            or self._graph is not graph
            or not _same_tables(self._tables, tables)
        ):
            count = tally(tables, graph, np.arange(n), m, ordered, row_fab, shares=self.keep)
            self.recounted_rows = n
            if not self.keep:
                return count  # nothing kept: the next call counts every row again
            self._tally = count
            self._shares = _Shares(self._tally, len(graph.shape))
            self._lo_moved = None
            self._inputs = (m.copy(), ordered.copy(), row_fab.copy())
            self._tables = tables
            return self._tally
        old_m, old_ordered, old_fab = inputs
        # Ordered lengths compared by their bits: NaN equals NaN without two isnan passes and
        # their combination (~1.5 ms of every XL move); a length whose bits differ at an equal
        # value (-0.0, another NaN) only recounts its component, which counts the same.
        if hint is not None and hint[0] == n:  # no backplane row: local rows are plant rows
            near = graph.rows_of(unique_sorted(graph.comp[hint[1]]))
            changed = old_m[near] != m[near]
            changed |= old_fab[near] != row_fab[near]
            changed |= _bits(old_ordered[near]) != _bits(ordered[near])
            rows = near[changed]
            self.hinted_rows = near
        else:
            changed = old_m != m
            changed |= old_fab != row_fab
            changed |= _bits(old_ordered) != _bits(ordered)
            rows = np.flatnonzero(changed)
        self.recounted_rows = 0
        if not len(rows):
            return whole
        comps = np.unique(graph.comp[rows])
        sel = graph.rows_of(comps)
        self.recounted_rows = len(sel)
        after = tally(tables, graph, sel, m, ordered, row_fab)
        lo, moved = whole.lo, after.cages
        assert lo is not None and moved is not None  # tally() always sets both
        # What these components counted before is what the kept shares say they added (the
        # count of a component is a function of its own links alone): taken out without a
        # second tally of their old media and lengths, which was half of a move's recount.
        shares = self._shares
        assert shares is not None  # set with every whole count
        counts = Counter(whole.counts)
        for key, qty in shares.take(moved, sel, comps, after):
            counts[key] -= qty
        for key, qty in after.counts.items():
            counts[key] += qty
        meta = {**whole.meta, **after.meta}
        counts = Counter({k: q for k, q in counts.items() if q})
        # A cage's plug-rule problem is its component's: those of the recounted cages are
        # the new count's.
        problem = whole.problem
        if problem:
            gone = set(moved.tolist())
            problem = {c: p for c, p in problem.items() if c not in gone}
        else:
            problem = {}
        problem.update(after.problem)
        # The cache's own arrays, updated in place: nothing else holds them (device_power
        # keeps a copy of ``lo``), and copies the size of the hall were most of a rack move's
        # recount.
        lo[moved] = after.lo
        if self._lo_moved is not None:
            self._lo_moved.append(moved)
        self._tally = Tally(counts=counts, meta=meta, problem=problem, cages=whole.cages, lo=lo)
        old_m[rows], old_ordered[rows], old_fab[rows] = m[rows], ordered[rows], row_fab[rows]
        return self._tally

    def device_power(self, tables, dev_ids, graph: CageGraph, lo: np.ndarray):
        """Plug power per device ((typical, max) dicts) at cage media ``lo``: the previous
        dicts, the same objects, when no cage changed medium (never mutate them); with
        :attr:`plugs_in_place`, always the same objects, brought up to date."""
        previous = self._power
        tracked, self._lo_moved = self._lo_moved, []
        own = self._tally is not None and lo is self._tally.lo
        if previous is not None and previous[0] is graph:
            if tracked is not None and own and previous[3]:
                # The count's own array: only the cages recounted since can differ (a
                # comparison and a copy of XL's ~800k cages were ~2 ms of every move).
                near = unique_sorted(np.concatenate([np.zeros(0, np.int64), *tracked]))
                moved = near[previous[1][near] != lo[near]]
            else:
                moved = np.flatnonzero(previous[1] != lo)
            if not len(moved):  # the same media as summed: now known to equal ``lo``
                self._power = (graph, previous[1], previous[2], previous[3] or own)
                return previous[2]
            if len(moved) * 8 < len(lo):
                # Few cages changed medium (a rack move): only their devices are summed
                # again, over all their cages in cage order, as the whole count sums them.
                local = graph.by_device[1].reshape(-1)
                # A device's cages are one run of the sorted nodes: gather the runs.
                devices = np.unique(local[moved])
                first = np.searchsorted(local, devices, "left")
                sizes = np.searchsorted(local, devices, "right") - first
                sel = np.repeat(first - np.cumsum(sizes) + sizes, sizes)
                sel += np.arange(int(sizes.sum()))
                # Grouped by the runs themselves: a search of every gathered cage's device
                # (a spine rack's move re-sums the ~64k cages of its leaves at XL) is not needed.
                grouped = (graph.by_device[0][devices], np.repeat(np.arange(len(devices)), sizes))
                typ, mx = device_plug_power(
                    tables,
                    dev_ids,
                    graph.nodes[sel],
                    lo[sel],
                    graph.cage_spec[sel],
                    grouped=grouped,
                )
                if self.plugs_in_place:
                    power = previous[2]
                    power[0].update(typ)
                    power[1].update(mx)
                else:
                    power = ({**previous[2][0], **typ}, {**previous[2][1], **mx})
                seen = previous[1]  # the cache's own copy: brought up to date in place
                seen[moved] = lo[moved]
                self._power = (graph, seen, power, own)
                ids = list(typ)  # the devices summed again, as device_plug_power names them
                self._resummed(ids)
                return power
        power = device_plug_power(
            tables, dev_ids, graph.nodes, lo, graph.cage_spec, grouped=graph.by_device
        )
        if not self.keep:
            self._resummed(None)
            return power
        self._power = (graph, lo.copy(), power, own)
        self._resummed(None)
        return power

    def _resummed(self, ids: list[str] | None) -> None:
        self.power_generation += 1
        self.resummed = (self.power_generation - 1, self.power_generation, ids)


class _Shares:
    """What each cage (its module), row (its fibres) and component (its cable) of the whole
    plant added to the kept count, as key numbers: the count of some whole components is the
    sum of their elements' shares, exactly (integers), so a recount takes the old share of
    the components it recounts out from here and puts the new one in."""

    def __init__(self, whole: Tally, n_comps: int) -> None:
        self.keys: list[tuple] = []
        self.number: dict[tuple, int] = {}
        # A whole count's positions are the cages, rows and components themselves.
        assert whole.cage_item is not None and whole.row_item is not None
        assert whole.row_units is not None and whole.comp_item is not None
        self.cage = self._global(whole, whole.cage_item)
        self.row = self._global(whole, whole.row_item)
        self.units = whole.row_units.copy()
        self.comp = np.full(n_comps, -1, dtype=np.int64)
        self.comp[whole.comp_item[0]] = self._global(whole, whole.comp_item[1])

    def _global(self, part: Tally, local: np.ndarray) -> np.ndarray:
        """``part``'s key numbers as this table's (-1 stays -1)."""
        table = np.empty(len(part.items) + 1, dtype=np.int64)
        table[-1] = -1
        for key, k in part.items.items():
            number = self.number.get(key)
            if number is None:
                number = self.number[key] = len(self.keys)
                self.keys.append(key)
            table[k] = number
        return table[local]

    def take(
        self, cages: np.ndarray, rows: np.ndarray, comps: np.ndarray, after: Tally
    ) -> list[tuple[tuple, int]]:
        """The kept count of the whole components of ``cages``, ``rows`` and ``comps`` (as
        (key, quantity)), replaced by ``after``'s, their new count."""
        assert after.cage_item is not None and after.row_item is not None
        assert after.row_units is not None and after.comp_item is not None
        units = np.ones(len(cages) + len(rows) + len(comps), dtype=np.int64)
        units[len(cages) : len(cages) + len(rows)] = self.units[rows]
        codes = np.concatenate([self.cage[cages], self.row[rows], self.comp[comps]])
        has = codes >= 0
        per_key = np.bincount(codes[has], units[has], len(self.keys))
        old = [(self.keys[k], int(round(q))) for k, q in enumerate(per_key.tolist()) if q]
        self.cage[cages] = self._global(after, after.cage_item)
        self.row[rows] = self._global(after, after.row_item)
        self.units[rows] = after.row_units
        self.comp[comps] = -1
        self.comp[after.comp_item[0]] = self._global(after, after.comp_item[1])
        return old


def _kept(array: np.ndarray) -> np.ndarray:
    """``array`` itself when it is read-only and owns its memory (a snapshot's column or the
    cache's own row numbers: never written again while anything holds it, so the same array
    next time is the same values, unread: the analysis after a tray drop reads the same cage
    columns, ~1.5 ms of comparing them at XL), else a copy to compare the next one with."""
    if not array.flags.writeable and array.base is None:
        return array
    return np.array(array, copy=True)


def _bits(values: np.ndarray) -> np.ndarray:
    """Float64 values as their int64 bit patterns (a view, no copy, when contiguous)."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    return values.view(np.int64)


def _same_tables(old, new) -> bool:
    """Whether two part tables index the same parts (a snapshot's tables are copies)."""
    if old is None:
        return False
    if old is new:
        return True
    return (
        [m.id for m in old.media] == [m.id for m in new.media]
        and old.specs == new.specs
        and old.modules == new.modules
        and old.cables == new.cables
        and old.fibre_of == new.fibre_of
    )
