"""Counting the plant's parts per cage-graph component, and keeping the count across edits.

Every figure of the physical plant belongs to one component of the cage graph: a cage's plug
(its module, or its end of an integrated cable) and its plug-rule problems depend only on the
links of its component, a fibre on its link, a cable on its component. So the count of a set
of whole components is a sum that can be taken apart: :func:`tally` counts the components of
some rows, and :class:`model.plant.plant_cache.PlantCache` keeps the count of the whole plant
from one :func:`model.plant.physical_plant.build_plant` call to the next and, after an edit,
recounts only the components whose links changed medium, ordered length or fabric — a rack
move re-counts its links' components, not the 400k links of the hall (the choice the [Speed]
issue asks for: the analysis after an edit updates the plant instead of rebuilding it).

The cage graph itself (which cages a link joins, each component's shape) is kept too, and both
are reused only when the rows and cage arrays they were built from are equal in content to the
current ones, so a stale count is never read.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from model.catalog.parts import CablePart, ModulePart, part_words, vendor_neutral_fibre
from model.common.arrays import unique_inverse, unique_rows_inverse
from model.engine.cages import (
    CAGE_STRIDE,
    MODULE_KINDS,
    SHAPE_SPLITTER,
    SHAPE_STRAIGHT,
    cage_ranks,
    component_shapes,
)

NO_MEDIUM_LO = np.iinfo(np.int64).max


@dataclass(frozen=True)
class CageGraph:
    """The cage graph of a set of plant rows: what a rack move leaves as it is.

    ``comp`` local component per row, ``nodes`` the cage keys (sorted), ``ia``/``ib`` the local
    cage of each row's ends, ``cage_spec`` each cage's spec row, and per component its shape,
    hub cage, a leaf cage and number of leaves (:func:`model.engine.cages.component_shapes`).
    """

    comp: np.ndarray
    nodes: np.ndarray
    ia: np.ndarray
    ib: np.ndarray
    cage_spec: np.ndarray
    shape: np.ndarray
    hub: np.ndarray
    leaf: np.ndarray
    leaves: np.ndarray
    by_device: tuple[np.ndarray, np.ndarray]  # (device numbers, local device of each cage)
    by_comp: tuple[np.ndarray, np.ndarray]  # (rows sorted by component, start of each one)

    def rows_of(self, comps: np.ndarray) -> np.ndarray:
        """The local rows of components ``comps`` (sorted, unique component numbers)."""
        order, start = self.by_comp
        comps = np.asarray(comps, dtype=np.int64)
        if not len(comps):
            return np.zeros(0, dtype=np.int64)
        # One gather for every component's slice of ``order`` (a slice per component in
        # Python was ~3 ms of a rack move at L, which recounts thousands of components).
        first, sizes = start[comps], start[comps + 1] - start[comps]
        offsets = np.repeat(first - np.cumsum(sizes) + sizes, sizes)
        return np.sort(order[offsets + np.arange(int(sizes.sum()))])


@dataclass(frozen=True)
class ComponentRows:
    """The rows of each component: ``rows[bounds[i]:bounds[i + 1]]`` are those of component
    ``comps[i]`` (ascending), read by component number as a dict of row lists was."""

    comps: np.ndarray  # ascending
    bounds: np.ndarray
    rows: np.ndarray

    def __getitem__(self, c: int) -> np.ndarray:
        i = int(np.searchsorted(self.comps, c))
        if i == len(self.comps) or self.comps[i] != c:
            raise KeyError(c)
        return self.rows[self.bounds[i] : self.bounds[i + 1]]

    def __len__(self) -> int:
        return len(self.comps)


def cage_graph(view, rows: np.ndarray) -> CageGraph:
    """The :class:`CageGraph` of ``rows`` of a :func:`model.engine.cages.cage_view`."""
    n = len(rows)
    # Ranks without sorting (labels, devices: arrays.unique_inverse; cage keys: cages'
    # packed count): three sorts of 400k-800k values were ~0.1 s of each XL analysis.
    _, comp = unique_inverse(view.component[rows])
    if view.ranks is not None and n == len(view.cage_a):  # all rows: the plant ranked them
        ia, ib, count = view.ranks
        nodes = np.empty(count, dtype=np.int64)
        nodes[ia], nodes[ib] = view.cage_a, view.cage_b
    else:
        nodes, inv = cage_ranks(np.concatenate([view.cage_a[rows], view.cage_b[rows]]))
        ia, ib = inv[:n], inv[n:]
    cage_spec = np.zeros(len(nodes), dtype=np.int64)
    cage_spec[ia], cage_spec[ib] = view.spec_a[rows], view.spec_b[rows]
    shape, hub, leaf, leaves, _ = component_shapes(comp, ia, ib, len(nodes))
    present, local = unique_inverse(nodes // CAGE_STRIDE)
    order = np.argsort(comp, kind="stable")
    start = np.searchsorted(comp[order], np.arange(len(shape) + 1))
    return CageGraph(
        comp,
        nodes,
        ia,
        ib,
        cage_spec,
        shape,
        hub,
        leaf,
        leaves,
        (present, local),
        (order, start),
    )


@dataclass
class Tally:
    """The parts of some whole components: counts by item key and what the schedule needs.

    ``counts``/``meta`` are keyed ``(category, part id, length, fabric code)``; ``problem``
    maps a local cage to its plug-rule finding (code, why); ``cages`` are the counted cages
    (local cage numbers, sorted), and the per-cage arrays are indexed by position in it: ``lo``,
    the smallest medium row among each cage's links (the medium its plug power is taken at),
    and ``module_of``. ``fibre_part_of_row`` is indexed by position in the counted rows. For
    the whole plant, positions are the cages and rows themselves.
    """

    counts: Counter = field(default_factory=Counter)
    meta: dict = field(default_factory=dict)
    # Routed millimetres the counted units serve, by the same key (only when asked: the BOM's
    # spare length; integers, so a sum of parts is exact).
    needed_mm: Counter = field(default_factory=Counter)
    problem: dict[int, tuple[str, str]] = field(default_factory=dict)
    cages: np.ndarray | None = None
    lo: np.ndarray | None = None
    module_of: np.ndarray | None = None
    module_parts: list[ModulePart] = field(default_factory=list)
    fibre_parts: list = field(default_factory=list)
    fibre_part_of_row: np.ndarray | None = None
    cable_of_comp: dict[int, tuple[CablePart, float]] = field(default_factory=dict)
    comp_rows: ComponentRows | dict = field(default_factory=dict)  # of the cable rows
    # What each counted element added, so a kept count can take a component's share out
    # without counting it again (PlantCache): the keys in the order first added, the key
    # number (-1: none) of each cage's module by position in ``cages``, of each row's fibre
    # and its fibres by position in the counted rows, and of each cabled component's cable.
    items: dict = field(default_factory=dict)
    cage_item: np.ndarray | None = None
    row_item: np.ndarray | None = None
    row_units: np.ndarray | None = None
    comp_item: tuple[np.ndarray, np.ndarray] | None = None  # (components, key numbers)

    def add(self, category, part, length, qty, kind_name, p_typ, p_max, price, fab=0) -> int:
        """Count ``qty`` of an item; its key's number in :attr:`items`."""
        key = (category, part.id, length, fab)
        self.counts[key] += qty
        self.meta[key] = (part, kind_name, p_typ, p_max, price)
        return self.items.setdefault(key, len(self.items))


def tally(
    tables,
    graph: CageGraph,
    sel: np.ndarray,
    m: np.ndarray,
    ordered: np.ndarray,
    row_fab: np.ndarray,
    needed: np.ndarray | None = None,
    shares: bool = True,
) -> Tally:
    """Count the modules, fibres and cables of the local rows ``sel`` (whole components).

    ``m`` medium row, ``ordered`` ordered length and ``row_fab`` fabric code per local row
    (all rows; only ``sel`` is read). ``needed``: the routed length per local row, when the
    caller wants the metres each fibre and cable line serves (``Tally.needed_mm``).
    ``shares``: also number the item of each cage, row and component (``cage_item``,
    ``row_item``, ``row_units``, ``comp_item``: what a kept count takes out again, see
    PlantCache); a count no next report reads needs none (~15 MB of fresh pages at XL).
    """
    media = tables.media
    out = Tally()
    nodes, ia, ib, cage_spec = graph.nodes, graph.ia, graph.ib, graph.cage_spec
    module_medium = np.array([md.kind in MODULE_KINDS for md in media] + [False])
    n_nodes, n = len(nodes), len(m)
    # int64 whatever the plant's column is: np.minimum.at below with an int32 medium into int64
    # cage media takes numpy's slow casting path (~45x: 4.5 ms for 20k links).
    sa, sb, ms = ia[sel], ib[sel], m[sel].astype(np.int64, copy=False)
    # Per-cage work is indexed by position in ``cages``: for the whole plant that is the cage
    # itself; for the few components an edit recounts (twice: before and after), arrays the
    # size of those components, not of the hall's ~800k cages (twelve such arrays per rack
    # move were ~20 ms of fresh pages on the analysis worker).
    if len(sel) == n:
        cages, la, lb = np.arange(n_nodes), sa, sb
    else:
        cages, local = np.unique(np.concatenate([sa, sb]), return_inverse=True)
        local = local.reshape(-1)
        la, lb = local[: len(sel)], local[len(sel) :]
    k = len(cages)
    # Medium of each cage: mixed when its links disagree.
    lo = np.full(k, NO_MEDIUM_LO)
    hi = np.full(k, -(2**62))
    for side in (la, lb):
        np.minimum.at(lo, side, ms)
        np.maximum.at(hi, side, ms)
    out.cages, out.lo = cages, lo
    mixed = lo != hi
    cage_medium = np.where(mixed, -1, lo)
    problem = out.problem
    for c in cages[mixed].tolist():
        problem[c] = (
            "CAGE_MIXED_PLUGS",
            "its ports run on different media, one cage takes one plug",
        )
    for c in cages[(cage_medium < 0) & ~mixed].tolist():
        problem[c] = ("PART_NOT_ORDERABLE", "no medium reaches: no plug")
    cage_fab = np.zeros(k, dtype=np.int64)
    cage_fab[la], cage_fab[lb] = row_fab[sel], row_fab[sel]

    # ---- modules: one per used cage on a module medium
    _modules(out, tables, cages, cage_medium, cage_fab, cage_spec, module_medium, shares)
    module_of, module_parts = out.module_of, out.module_parts
    assert module_of is not None  # _modules has just set it
    # ---- fibres: per link on a module medium, at its ordered length
    row_module = module_medium[np.where(ms < 0, len(media), ms)]
    fibre_at = np.flatnonzero(row_module)  # positions in sel
    fibre_rows = sel[fibre_at]
    fpp = np.array([p.fibres_per_port for p in module_parts] + [1])
    a_module = module_of[la[fibre_at]]
    link_fpp = fpp[np.where(a_module >= 0, a_module, len(module_parts))]
    # Grouped by (medium, ordered length) with numpy: a Python pass per fibre would dominate
    # the analysis at 400k links.
    fibre_of = np.full(len(media) + 1, -1, dtype=np.int64)
    fibre_parts = out.fibre_parts = list({id(f): f for f in tables.fibre_of.values()}.values())
    for medium_row, fpart in tables.fibre_of.items():
        fibre_of[medium_row] = fibre_parts.index(fpart)
    m_f = m[fibre_rows]
    len_f = ordered[fibre_rows]
    part_f = fibre_of[np.where(m_f >= 0, m_f, len(media))]
    own = msa_fibres(module_parts, tables.own_fibre, fibre_parts)
    for side in (lb, la):  # the A end's module decides where both have an MSA fibre
        end_module = module_of[side[fibre_at]]
        own_f = own[np.where(end_module >= 0, end_module, len(module_parts))]
        part_f = np.where((own_f >= 0) & (part_f >= 0), own_f, part_f)
    good = (part_f >= 0) & np.isfinite(len_f)
    for r in fibre_rows[~good].tolist():
        for c in (int(ia[r]), int(ib[r])):
            problem.setdefault(c, ("PART_NOT_ORDERABLE", "no orderable fibre for its length"))
    # A module its vendor rates shorter than its medium (NVIDIA's ConnectX-7 single-port DR4:
    # 100 m where DR4 reaches 500 m, domain-facts §9): a longer fibre is past the part.
    rated = np.array([p.reach_m or np.inf for p in module_parts] + [np.inf])
    for side in (la, lb):
        ends = side[fibre_at]
        mod = np.where(module_of[ends] >= 0, module_of[ends], len(module_parts))
        for i in np.flatnonzero(len_f > rated[mod] + 1e-9).tolist():
            p = module_parts[mod[i]]
            problem.setdefault(
                int(cages[ends[i]]),
                (
                    "PART_NOT_ORDERABLE",
                    f"{len_f[i]:g} m of fibre is past the {p.reach_m:g} m "
                    f"{part_words(p.vendor, p.part_number, p.description)} is rated for",
                ),
            )
    out.fibre_part_of_row = np.full(len(sel), -1, dtype=np.int64)
    out.fibre_part_of_row[fibre_at[good]] = part_f[good]
    row_item = out.row_item = np.full(len(sel), -1, dtype=np.int64) if shares else None
    row_units = out.row_units = np.zeros(len(sel), dtype=np.int64) if shares else None
    if good.any():
        if row_units is not None:
            row_units[fibre_at[good]] = link_fpp[good]
        items = _fibre_lines(
            out,
            fibre_parts,
            len_f[good],
            part_f[good],
            link_fpp[good],
            fibre_rows[good],
            row_fab,
            needed,
        )
        if row_item is not None:
            row_item[fibre_at[good]] = items
    cable_rows = sel[~row_module & (ms >= 0)]
    _cables(out, tables, graph, cable_rows, m, ordered, row_fab, needed, shares)
    return out


def _modules(
    out: Tally, tables, cages, cage_medium, cage_fab, cage_spec, module_medium, shares=True
) -> None:
    """Modules: one per used cage on a module medium, counted per part and fabric
    (``out.module_of``: each cage's module part, -1 none; ``out.cage_item`` with ``shares``);
    a cage with no orderable module gets a problem."""
    media, problem = tables.media, out.problem
    module_of = out.module_of = np.full(len(cages), -1, dtype=np.int64)
    cage_item = out.cage_item = np.full(len(cages), -1, dtype=np.int64) if shares else None
    module_parts = out.module_parts
    module_cages = np.flatnonzero((cage_medium >= 0) & module_medium[cage_medium])
    pairs = cage_medium[module_cages] * 4096 + cage_spec[cages[module_cages]]
    for key in np.flatnonzero(np.bincount(pairs)).tolist() if len(pairs) else ():
        part = tables.module(key // 4096, key % 4096)
        here = module_cages[pairs == key]
        if part is None:
            spec = tables.specs[key % 4096]
            why = (
                f"no {media[key // 4096].name} module for a {spec[0]} cage of "
                f"{spec[1]} port(s), {spec[2]} top"
            )
            refused = tables.refused.get((key // 4096, key % 4096))
            for c in cages[here].tolist():
                problem.setdefault(
                    c, ("PART_NOT_ORDERABLE", f"{why}: {refused}" if refused else why)
                )
            continue
        module_parts.append(part)
        module_of[here] = len(module_parts) - 1
        # A co-packaged port is the switch's own optical engine: no module is bought or
        # plugged (its fibre is counted below); kept apart so the plant can total its watts.
        category = "co-packaged-port" if part.optics == "co-packaged" else "module"
        fabs, per_fab = np.unique(cage_fab[here], return_counts=True)
        for fab, qty in zip(fabs.tolist(), per_fab.tolist(), strict=True):
            item = out.add(
                category,
                part,
                None,
                qty,
                media[key // 4096].kind,
                part.power_w,
                part.power_w_max,
                part.price_usd,
                fab,
            )
            if cage_item is not None:
                cage_item[here[cage_fab[here] == fab]] = item


def msa_fibres(module_parts, own_fibre, fibre_parts: list) -> np.ndarray:
    """Per module part (and one more, for no module): the index in ``fibre_parts`` of the
    vendor-neutral fibre a link on it takes, or -1 for the medium's fibre.

    The medium's fibre is its first module's (an NVIDIA fibre where NVIDIA sells one); a
    module of another vendor that names a fibre of its own, not NVIDIA's, takes that one: a
    Tomahawk or AMD cage takes no NVIDIA part (the plug rules), so neither does the fibre
    between its module and the far end (issue 39). Appends those fibres to ``fibre_parts``."""
    out = np.full(len(module_parts) + 1, -1, dtype=np.int64)
    for i, part in enumerate(module_parts):
        fibre = vendor_neutral_fibre(part, own_fibre.get(part.id))
        if fibre is None:
            continue
        if fibre not in fibre_parts:
            fibre_parts.append(fibre)
        out[i] = fibre_parts.index(fibre)
    return out


def _fibre_lines(
    out: Tally, fibre_parts, len_f, part_f, link_fpp, fibre_rows, row_fab, needed
) -> np.ndarray:
    """Fibre lines of the orderable fibre rows (``fibre_rows``, their lengths ``len_f``, parts
    ``part_f`` and fibres per link ``link_fpp``), with the metres each line serves when
    ``needed`` is given; each row's line as its key number in ``out.items``."""
    # One line per (fabric, fibre part, length in mm): the millimetres numbered densely
    # first, so the key spans (parts x lengths) and is ranked without a sort of every row.
    mm, mm_code = unique_inverse(np.round(len_f * 1000).astype(np.int64))
    span = max(len(mm), 1)
    key = (row_fab[fibre_rows] * 64 + part_f) * span + mm_code
    keys, inverse = unique_inverse(key)
    qty = np.bincount(inverse, weights=link_fpp, minlength=len(keys))
    mm_list = mm.tolist()
    if needed is not None:
        need = needed[fibre_rows] * link_fpp * 1000
        need_mm = np.rint(np.bincount(inverse, weights=need, minlength=len(keys)))
        for k, q in zip(keys.tolist(), need_mm.astype(np.int64).tolist(), strict=True):
            fab, fpart = divmod(k // span, 64)
            out.needed_mm[("fibre", fibre_parts[fpart].id, mm_list[k % span] / 1000, fab)] += q
    item = np.empty(len(keys), dtype=np.int64)
    for i, (k, q) in enumerate(zip(keys.tolist(), qty.tolist(), strict=True)):
        fab, fpart = divmod(k // span, 64)
        fpart = fibre_parts[fpart]
        length = mm_list[k % span] / 1000
        item[i] = out.add(
            "fibre",
            fpart,
            length,
            int(round(q)),
            f"{fpart.mode}-fibre",
            0.0,
            0.0,
            fpart.price_at(length),
            fab,
        )
    return item[inverse.reshape(-1)]


def _cables(
    out: Tally, tables, graph: CageGraph, cable_rows, m, ordered, row_fab, needed=None, shares=True
) -> None:
    """Integrated cables: one assembly per component of ``cable_rows``.

    Every component is decided at once with array operations, and the catalog is asked once per
    distinct (medium, shape, hub spec, leaf spec, leaves): a whole XL hall's storage, in-band
    and out-of-band fabrics are ~10^5 copper components, and a Python pass per component was
    ~0.8 s of every plant. A component is left to the other rules (no cable counted) when its
    links run on different media or one of its cages already has a problem (a module's); it
    gets a problem of its own when no part of its shape exists, or none is that long."""
    media, problem = tables.media, out.problem
    comp, ia, ib, cage_spec = graph.comp, graph.ia, graph.ib, graph.cage_spec
    none = np.zeros(0, dtype=np.int64)
    out.comp_item = (none, none) if shares else None
    if not len(cable_rows):
        out.comp_rows = ComponentRows(none, np.zeros(1, dtype=np.int64), none)
        return
    order = np.argsort(comp[cable_rows], kind="stable")
    rows = cable_rows[order]  # by component, each component's rows ascending
    comp_of_row = comp[rows]
    starts = np.flatnonzero(np.r_[True, comp_of_row[1:] != comp_of_row[:-1]])
    comps = comp_of_row[starts]
    out.comp_rows = ComponentRows(comps, np.r_[starts, len(rows)], rows)
    row_medium = m[rows]
    medium = row_medium[starts]
    skip = np.minimum.reduceat(row_medium, starts) != np.maximum.reduceat(row_medium, starts)
    if problem:
        bad = np.zeros(len(graph.nodes), dtype=bool)
        bad[np.fromiter(problem, np.int64, len(problem))] = True
        skip |= np.maximum.reduceat(bad[ia[rows]] | bad[ib[rows]], starts)
    shape = graph.shape[comps]
    hub_spec, leaf_spec = cage_spec[graph.hub[comps]], cage_spec[graph.leaf[comps]]
    leaves = graph.leaves[comps]
    parts: list[CablePart] = []
    part_of = np.full(len(comps), -1, dtype=np.int64)  # code in ``parts``
    asked = np.flatnonzero(~skip & ((shape == SHAPE_STRAIGHT) | (shape == SHAPE_SPLITTER)))
    if len(asked):
        distinct, inverse = unique_rows_inverse(
            [medium[asked], shape[asked], hub_spec[asked], leaf_spec[asked], leaves[asked]]
        )
        found = []
        for mk, sk, h, f, n_leaves in distinct.tolist():
            part = tables.cable(mk, h, f, n_leaves) or (
                tables.cable(mk, f, h, 1) if sk == SHAPE_STRAIGHT else None
            )
            found.append(-1 if part is None else len(parts))
            if part is not None:
                parts.append(part)
        part_of[asked] = np.array(found, dtype=np.int64)[inverse]
    # A splitter's leaves must be of one spec: more than one spec besides the hub's, no part.
    hub_of_row = np.repeat(hub_spec, np.diff(out.comp_rows.bounds))
    spec_a, spec_b = cage_spec[ia[rows]], cage_spec[ib[rows]]
    big = np.iinfo(np.int64).max
    low = np.minimum(
        np.where(spec_a != hub_of_row, spec_a, big), np.where(spec_b != hub_of_row, spec_b, big)
    )
    high = np.maximum(
        np.where(spec_a != hub_of_row, spec_a, -1), np.where(spec_b != hub_of_row, spec_b, -1)
    )
    mixed_leaves = np.minimum.reduceat(low, starts) < np.maximum.reduceat(high, starts)
    part_of[(shape == SHAPE_SPLITTER) & mixed_leaves] = -1
    for i in np.flatnonzero(~skip & (part_of < 0)).tolist():
        # Ports of one cage to different far cages with no splitter part for them.
        straight = shape[i] == SHAPE_STRAIGHT
        code = "PART_NOT_ORDERABLE" if straight else "CAGE_SPLIT_CABLE"
        name = media[int(medium[i])].name
        why = (
            f"no orderable {name} part of this shape"
            if straight
            else f"{name}: its ports go to different far cages, which no "
            "integrated cable joins (a module and a fibre per link would)"
        )
        for x in _cages_of(out.comp_rows, i, ia, ib):
            problem.setdefault(x, (code, why))
    # The assembly's length: the longest ordered length of its links (NaN when none has one).
    length = np.fmax.reduceat(ordered[rows], starts)
    has_part = np.flatnonzero(~skip & (part_of >= 0))
    reach = np.array([p.reach_m for p in parts] + [0.0])
    too_long = ~np.isfinite(length[has_part]) | (length[has_part] > reach[part_of[has_part]] + 1e-9)
    for i in has_part[too_long].tolist():
        p = parts[part_of[i]]
        why = f"{part_words(p.vendor, p.part_number, p.description)}: no length that long"
        for x in _cages_of(out.comp_rows, i, ia, ib):
            problem.setdefault(x, ("PART_NOT_ORDERABLE", why))
    ok = has_part[~too_long]
    # Each at the part's shortest length that reaches (x + 1e-9 >= length, as one sorted search).
    got = np.empty(len(ok))
    for k in np.unique(part_of[ok]).tolist():
        here = part_of[ok] == k
        sizes = np.sort(np.asarray(parts[k].lengths_m, dtype=float))
        got[here] = sizes[np.searchsorted(sizes + 1e-9, length[ok][here], side="left")]
    got_list, part_list = got.tolist(), [parts[k] for k in part_of[ok].tolist()]
    out.cable_of_comp = dict(
        zip(comps[ok].tolist(), zip(part_list, got_list, strict=True), strict=True)
    )
    # One count per (part, length, fabric, medium): every component is one assembly.
    fab = row_fab[rows[starts[ok]]]
    per_comp = list(
        zip(part_of[ok].tolist(), got_list, fab.tolist(), medium[ok].tolist(), strict=True)
    )
    groups = Counter(per_comp)
    if needed is not None:
        # An assembly serves its longest link: that is the length it had to reach. Summed per
        # count in integers (exact in any order), not per component in Python (~10^5 copper
        # assemblies at XL with every network: ~17 ms); keys first met in component order.
        need_mm = np.rint(np.fmax.reduceat(needed[rows], starts)[ok] * 1000).astype(np.int64)
        group_no = {group: i for i, group in enumerate(groups)}
        summed = np.zeros(len(group_no), dtype=np.int64)
        np.add.at(summed, np.fromiter(map(group_no.__getitem__, per_comp), np.int64), need_mm)
        for (k, got_m, fab_code, _mk), q in zip(groups, summed.tolist(), strict=True):
            out.needed_mm[("cable", parts[k].id, got_m, fab_code)] += q
    item_of: dict[tuple, int] = {}
    for group, qty in groups.items():
        k, got_m, fab_code, mk = group
        part = parts[k]
        item_of[group] = out.add(
            "cable",
            part,
            got_m,
            qty,
            media[mk].kind,
            part.power_a_w + part.fanout * part.power_b_w,
            part.power_a_w_max + part.fanout * part.power_b_w_max,
            part.price_at(got_m),
            fab_code,
        )
    if shares:
        items = np.fromiter(map(item_of.__getitem__, per_comp), np.int64, len(ok))
        out.comp_item = (comps[ok], items)


def _cages_of(comp_rows: ComponentRows, i: int, ia: np.ndarray, ib: np.ndarray) -> list[int]:
    """The cages of the ``i``-th component of ``comp_rows``."""
    rows = comp_rows.rows[comp_rows.bounds[i] : comp_rows.bounds[i + 1]]
    return sorted(set(ia[rows].tolist()) | set(ib[rows].tolist()))
