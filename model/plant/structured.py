"""Structured cabling in the physical plant: trunks, panels, cassettes and cords replace fibres.

For a design whose ``settings.cabling`` is not ``direct``, every link that runs through panels
(:func:`model.structured.layout.structured_layout`) orders no point-to-point fibre; it orders
two patch cords (the module's fibre part at the cords' lengths) and its share of a trunk, and
its racks order the panels, enclosures and cassettes. Applied inside
:func:`model.plant.physical_plant.build_plant`, so the analysis cost and the BOM total still agree by
construction. Trunks, panels and cassettes draw no power.
"""

from __future__ import annotations

import math
import operator
from collections import Counter, defaultdict
from dataclasses import replace

import numpy as np

from model.catalog.parts import part_number_for
from model.catalog.structured import structured_catalog
from model.plant.parts_count import PartCount, PhysicalPlant
from model.structured.channels import FibreTable, kept_plant_rows, rows_in_plant
from model.structured.layout import StructuredLayout, structured_layout, uses_structured


def apply_structured(
    phys: PhysicalPlant,
    plant,
    fabric_rows: tuple[list[str], np.ndarray] | None = None,
    needed: bool = False,
    layout: StructuredLayout | None = None,
    kept_counts: KeptTrunkCounts | None = None,
) -> StructuredLayout | None:
    """Rewrite ``phys.items`` for the design's cabling style; returns the layout used (None:
    no link runs through panels, nothing changed). ``fabric_rows``: (fabric names, name index
    per plant row; -1 none), as :func:`model.design.fabrics.plant_fabric_rows` gives them, to
    split every item by network. ``needed``: also fill each cord and trunk line's
    ``needed_m`` (the metres its units serve before rounding up), for the BOM. ``layout``:
    ``plant``'s structured layout when the caller has it already (else laid out here).
    ``kept_counts``: the last call's trunk counts of this design (:class:`KeptTrunkCounts`), counted
    again only where a trunk was made again (an editor's analysis; not with ``needed``)."""
    if not uses_structured(plant.design):
        return None
    layout = phys.structured = layout if layout is not None else structured_layout(plant)
    if not layout.channels.structured:
        return layout
    design = plant.design
    catalog, sc = design.catalog, structured_catalog()
    fibre_of: dict[str, str] = {}
    fpp_of: dict[str, int] = {}
    for part in catalog.module_parts.values():
        fibre_of.setdefault(part.medium, part.fibre)
        fpp_of.setdefault(part.medium, part.fibres_per_port)
    # A direct fibre counted as its module's vendor-neutral equivalent (model.plant.tally.
    # msa_fibres) is the medium's fibre to remove: the same link's fibre, another vendor.
    same_as = {
        part.fibre: fibre_of[part.medium]
        for part in catalog.module_parts.values()
        if part.fibre != fibre_of[part.medium]
    }
    # Fabric of each plant row as a code into ``fab_names``.
    if fabric_rows is not None:
        # A code -1 reads the last name, as build_plant's own split of the modules and
        # fibres reads it (``given[c - 1]``), so an item and the cords that replace it agree.
        fab_names = list(fabric_rows[0])
        row_fab = np.asarray(fabric_rows[1], dtype=np.int64)
        row_fab = np.where(row_fab < 0, len(fab_names) - 1, row_fab)
    else:
        fab_names = [""]
        row_fab = np.zeros(len(plant.link_ids), dtype=np.int64)
    # The direct fibres these links no longer order: (part id, length, fabric) -> quantity,
    # counted column-wise per (medium, ordered length, fabric) of the links' plant rows (a
    # Python tuple per link was ~1 s of a zoned XL plant).
    table = layout.channels
    kept = _kept_rows(plant, table.fibres)  # checked once for the channels and cords
    rows = phys.structured_rows = rows_in_plant(plant, table.link_ids, table.fibre_rows, kept)
    medium = np.asarray(plant.medium_index, dtype=np.int64)[rows]
    ordered = np.asarray(plant.ordered_m, dtype=np.float64)[rows]
    removed: Counter[tuple[str, float | None, str]] = Counter()
    if len(rows):
        # One integer per (medium, length, fabric): a sort of 393k int64, not of row tuples.
        # The few ordered lengths found by a search, as _cords finds its own: a unique's
        # inverse was an argsort of 393k floats (~30 ms at zoned XL; a NaN length, sorted
        # last by both, gets the same code).
        lengths = np.unique(ordered)
        span, n_fab = len(lengths), len(fab_names)
        keys, counts = np.unique(
            (medium * n_fab + row_fab[rows]) * span + np.searchsorted(lengths, ordered),
            return_counts=True,
        )
        media, length_list = plant.media, lengths.tolist()
        for k, count in zip(keys.tolist(), counts.tolist(), strict=True):
            (medium_row, fab), length = divmod(k // span, n_fab), length_list[k % span]
            medium_id = media[medium_row].id
            key = (fibre_of[medium_id], length, fab_names[fab])
            removed[key] += count * fpp_of.get(medium_id, 1)
    items: list[PartCount] = []
    for item in phys.items:
        key = (same_as.get(item.part_id, item.part_id), item.length_m, item.fabric)
        if item.category == "fibre" and removed[key]:
            left = item.quantity - removed[key]
            removed[key] = 0
            if left > 0:
                # Which of its fibres stayed is not kept: the metres they serve are unknown
                items.append(replace(item, quantity=left, needed_m=None))
            continue
        items.append(item)
    cord_table = layout.cords
    cord_rows = rows_in_plant(plant, cord_table.link_ids, cord_table.fibre_rows, kept)
    cord_fab = row_fab[cord_rows]
    if kept_counts is not None and not needed:
        cords = kept_counts.cords.counts(cord_table, cord_fab, fab_names)
    else:
        cords = _cords(cord_table, cord_fab, fab_names, needed)
    for (part_id, length, fab), (qty, need_m) in sorted(cords.items()):
        fpart = catalog.fibre_parts[part_id]
        items.append(
            PartCount(
                "fibre",
                fpart.id,
                part_number_for(fpart.part_number, length),
                fpart.vendor,
                fpart.description,
                length,
                qty,
                f"{fpart.mode}-fibre",
                0.0,
                0.0,
                fpart.price_at(length),
                fpart.source,
                fab,
                need_m,
            )
        )
    fabrics = (row_fab[rows], row_fab, fab_names)
    trunk_need: defaultdict[tuple[str, float, str], float] = defaultdict(float)
    if kept_counts is not None and not needed:
        trunks = kept_counts.counts(layout, plant, fabrics)
    else:
        trunks, trunk_need = _trunk_counts(layout, plant, fabrics, needed)
    for (part_id, length, fab), qty in sorted(trunks.items()):
        tpart = sc.trunks[part_id]
        items.append(
            PartCount(
                "trunk",
                tpart.id,
                part_number_for(tpart.part_number, length),
                "generic",
                tpart.description,
                length,
                qty,
                f"{tpart.mode}-trunk",
                0.0,
                0.0,
                tpart.price_usd + tpart.price_per_m_usd * length,
                tpart.source,
                fab,
                trunk_need[(part_id, length, fab)] if needed else None,
            )
        )
    for part_id, qty in sorted(layout.panel_counts(sc).items()):
        ppart = sc.panels[part_id]
        description = ppart.description + (f", {ppart.u}U" if ppart.u else "")
        items.append(
            PartCount(
                "panel",
                ppart.id,
                ppart.part_number,
                ppart.vendor,
                description,
                None,
                qty,
                ppart.kind,
                0.0,
                0.0,
                ppart.price_usd,
                ppart.source,
                "",
            )
        )
    phys.items = items
    phys.findings = [*phys.findings, *layout.findings]
    return layout


# The last fibre table rows kept_plant_rows found to hold: copies of the plant's link ids, the
# table's link ids and its plant rows. An editor lays the hall out after every edit on a new
# snapshot of the plant, each with a new table of the same links in the same rows: equal lists
# (compared at C speed, the same id strings) and equal rows hold as the last ones did, and the
# id-by-id check (~29 ms of each zoned XL rack move) is not made again.
_ROWS_HELD: list[tuple[list[str], list[str], np.ndarray]] = []


def _kept_rows(plant, fibres) -> np.ndarray | None:
    """:func:`~model.structured.channels.kept_plant_rows` of ``plant`` and ``fibres``."""
    rows = fibres.plant_rows if isinstance(fibres, FibreTable) else None
    held = _ROWS_HELD[0] if _ROWS_HELD else None
    if (
        rows is not None
        and held is not None
        and np.array_equal(held[2], rows)
        and held[1] == fibres.link_ids
        and held[0] == plant.link_ids
    ):
        return rows
    kept = kept_plant_rows(plant, fibres)
    if kept is not None:
        _ROWS_HELD[:] = [(list(plant.link_ids), list(fibres.link_ids), kept.copy())]
    return kept


def _trunk_counts(
    layout: StructuredLayout, plant, fabrics: tuple, needed: bool
) -> tuple[Counter[tuple[str, float, str]], defaultdict[tuple[str, float, str], float]]:
    """(part id, ordered length, fabric) -> trunks, and the metres they serve, of every
    orderable trunk (the metres only when ``needed``). A trunk's fabric is its first link's,
    read off that link's channel row (``fabrics``: per channel row and per plant row, its
    fabric's code as arrays, and the names; every link on a trunk has a channel row in a full layout;
    else, by the plant's index). The keys are made in one pass and counted by
    Counter's own loop (a Counter update per trunk was ~0.1 s of a zoned XL plant: ~100k
    trunks)."""
    laid = [t for t in layout.trunks if t.part and t.ordered_m == t.ordered_m]
    keys = _trunk_keys(layout, plant, _listed(fabrics), laid)
    quantities = [t.quantity for t in laid]
    trunks: Counter[tuple[str, float, str]] = Counter()
    if quantities.count(1) == len(quantities):
        trunks.update(keys)  # each counted once: as its quantity
    else:
        for key, quantity in zip(keys, quantities, strict=True):
            trunks[key] += quantity
    need: defaultdict[tuple[str, float, str], float] = defaultdict(float)  # metres
    if needed:
        for key, t in zip(keys, laid, strict=True):
            need[key] += t.quantity * t.length_m
    return trunks, need


def _trunk_keys(layout: StructuredLayout, plant, fabrics: tuple, laid: list) -> list[tuple]:
    """(part id, ordered length, fabric) of each trunk of ``laid`` (see :func:`_trunk_counts`;
    ``fabrics``' channel codes as :func:`_listed` gives them)."""
    channel_fab, row_fab, fab_names = fabrics
    if isinstance(channel_fab, int):
        # Every channel row of one fabric (a hall that panels one network, as zoned XL): so is
        # every trunk, whose links all have a channel row (the cords give each leg's members
        # one, and a trunk bundles legs), with no link looked up by id (~0.2 s at zoned XL).
        name = fab_names[channel_fab]
        return [(t.part, t.ordered_m, name) for t in laid]
    row_of = layout.channels.row_of
    return [
        (
            t.part,
            t.ordered_m,
            fab_names[
                channel_fab[r]
                if (r := row_of.get(t.links[0])) is not None
                else int(row_fab[plant.index[t.links[0]]])
            ],
        )
        for t in laid
    ]


def _listed(fabrics: tuple) -> tuple:
    """``fabrics`` (per channel row and per plant row, its fabric's code as arrays, and the
    names) as :func:`_trunk_keys` reads them: the channel rows' codes as a list, or their one
    code (an int) when every channel row has the same."""
    channel_fab = fabrics[0]
    if len(channel_fab) and not (channel_fab != channel_fab[0]).any():
        return (int(channel_fab[0]), *fabrics[1:])
    return (channel_fab.tolist(), *fabrics[1:])


class KeptTrunkCounts:
    """The last :func:`_trunk_counts` (without metres) of a design, kept for the next (an
    editor's analysis): a rack move re-makes a few trunks and keeps the other records in their
    places (:class:`~model.structured.trunk_reuse.TrunkMemo`), so while the fabrics are read
    alike (the same channel rows, fabric codes and names, plant links), only the trunks
    that are not the same records are keyed again, their old count taken out and the new one
    put in (integers: exact). Reading every trunk's first link and fabric was ~0.06 s of a
    zoned XL plant. ``recounted``: trunks the last call keyed (-1: every one)."""

    def __init__(self) -> None:
        self.recounted = -1
        self._trunks: list = []  # the trunks counted, in the layout's order
        self._keys: list[tuple | None] = []  # per trunk, its key (None: not orderable)
        self._fabrics: tuple = ()  # (row index, channel fabric codes, plant fabric codes, ...)
        self._counts: Counter[tuple[str, float, str]] = Counter()
        self._slots: Counter[tuple[str, float, str]] = Counter()  # trunks per key
        self.cords = KeptCordCounts()  # the cords' counts, kept alike

    def counts(self, layout: StructuredLayout, plant, fabrics: tuple) -> Counter:
        """:func:`_trunk_counts`' trunks (a Counter of the caller's own) of ``layout``."""
        channel_fab, row_fab, fab_names = fabrics
        now = (layout.channels.link_rows, channel_fab, row_fab, list(fab_names), plant.link_ids)
        trunks, last = layout.trunks, self._trunks
        if len(trunks) != len(last) or not self._same_fabrics(now):
            self._trunks, self._keys = [], []  # not held while the next are made
            orderable = [bool(t.part) and t.ordered_m == t.ordered_m for t in trunks]
            laid = [t for t, o in zip(trunks, orderable, strict=True) if o]
            made = iter(_trunk_keys(layout, plant, _listed(fabrics), laid))
            self._keys = [next(made) if o else None for o in orderable]
            self._counts, self._slots = Counter(), Counter()
            for t, key in zip(trunks, self._keys, strict=True):
                if key is not None:
                    self._counts[key] += t.quantity
                    self._slots[key] += 1
            self.recounted = -1
        else:
            again = np.flatnonzero(
                np.fromiter(map(operator.is_not, trunks, last), dtype=bool, count=len(trunks))
            ).tolist()
            counts, slots = self._counts, self._slots
            listed = _listed(fabrics) if again else fabrics
            for k in again:
                old_key, t = self._keys[k], trunks[k]
                if old_key is not None:
                    counts[old_key] -= last[k].quantity
                    slots[old_key] -= 1
                    if not slots[old_key]:  # no trunk left on it: gone, as from a fresh count
                        del counts[old_key], slots[old_key]
                key = None
                if t.part and t.ordered_m == t.ordered_m:
                    key = _trunk_keys(layout, plant, listed, [t])[0]
                    counts[key] += t.quantity
                    slots[key] += 1
                self._keys[k] = key
            self.recounted = len(again)
        self._trunks, self._fabrics = list(trunks), now
        return Counter(self._counts)

    def _same_fabrics(self, now: tuple) -> bool:
        if not self._fabrics:
            return False
        link_rows, channel_fab, row_fab, names, link_ids = self._fabrics
        return (
            now[0] is link_rows  # the channel table's rows shared: the same links in order
            and np.array_equal(now[1], channel_fab)
            and np.array_equal(now[2], row_fab)
            and now[3] == names
            and now[4] == link_ids
        )


class KeptCordCounts:
    """The last :func:`_cords` (without metres) of a design's layout, kept for the next: while
    there are as many cords (a rack move re-lays the same ones at new lengths,
    model.structured.cords.KeptCords), only the cords whose part, ordered lengths (bit for
    bit) or fabric changed have their two ends' old keys taken out and new ones put in
    (integers: exact, whichever link a cord is of). Counting every cord end afresh, a sort of 393k lengths per end, was ~40 ms of
    each zoned XL rack move. ``recounted``: cords the last call keyed again (-1: every one)."""

    def __init__(self) -> None:
        self.recounted = -1
        # (part ids, ordered A, ordered B (float64), fabric codes, fabric names) counted
        self._seen: tuple | None = None
        self._counts: dict[tuple[str, float, str], int] = {}

    def counts(
        self, cords, cord_fab: np.ndarray, fab_names: list[str]
    ) -> dict[tuple[str, float, str], tuple[int, float | None]]:
        """:func:`_cords`' answer without metres (a dict of the caller's own)."""
        parts = cords.parts
        ends = (
            np.asarray(cords.a_ordered, dtype=np.float64),
            np.asarray(cords.b_ordered, dtype=np.float64),
        )
        fab = np.asarray(cord_fab, dtype=np.int64)
        seen, counts = self._seen, self._counts
        if seen is None or len(seen[0]) != len(parts) or seen[4] != fab_names:
            self._seen = None  # not held while the next are counted
            counts = self._counts = {
                key: qty for key, (qty, _) in _cords(cords, fab, fab_names, False).items()
            }
            self.recounted = -1
        else:
            was_parts, was_a, was_b, was_fab, _ = seen
            changed = (
                (ends[0].view(np.int64) != was_a.view(np.int64))
                | (ends[1].view(np.int64) != was_b.view(np.int64))
                | (fab != was_fab)
            )
            if was_parts is not parts:  # another list (the cords laid afresh): part by part
                changed |= np.fromiter(map(operator.ne, parts, was_parts), bool, len(parts))
            again = np.flatnonzero(changed)
            for (part_of, *was), sign in (
                ((was_parts, was_a, was_b, was_fab), -1),
                ((parts, *ends, fab), 1),
            ):
                fabs = was[2][again].tolist()
                for end in was[:2]:
                    for k, length, f in zip(again.tolist(), end[again].tolist(), fabs, strict=True):
                        if not math.isfinite(length):  # not bought, as _cords leaves it out
                            continue
                        key = (part_of[k], length, fab_names[f])
                        left = counts.get(key, 0) + sign
                        if left:
                            counts[key] = left
                        else:  # no cord left on it: gone, as from a fresh count
                            del counts[key]
            self.recounted = len(again)
        self._seen = (parts, ends[0], ends[1], fab, list(fab_names))
        return {key: (qty, None) for key, qty in counts.items()}


def _cords(
    cords, cord_fab: np.ndarray, fab_names: list[str], needed: bool
) -> dict[tuple[str, float, str], tuple[int, float | None]]:
    """(part id, ordered length, fabric) -> (cords, the cut metres they serve or None) of both
    ends of every cord, grouped column-wise; a cord with no orderable length (NaN) is not
    bought (CORD_NOT_ORDERABLE says so)."""
    n = len(cords.parts)
    if not n:
        return {}
    part_names = sorted(set(cords.parts))
    part_code = np.fromiter(
        map({p: i for i, p in enumerate(part_names)}.get, cords.parts), np.int64, n
    )
    out: dict[tuple[str, float, str], tuple[int, float | None]] = {}
    for ordered, cut in ((cords.a_ordered, cords.a_m), (cords.b_ordered, cords.b_m)):
        ordered_m = np.asarray(ordered, dtype=np.float64)
        good = np.isfinite(ordered_m)
        wanted = ordered_m[good]
        # The few stock lengths the cords are ordered at, each cord's found by a search; the
        # keys (part, fabric, length) span a small dense range, counted by bincount in
        # the cords' order: no sort of 393k keys per end (~0.1 s of a zoned XL plant).
        lengths = np.unique(wanted)
        key = (part_code[good] * len(fab_names) + cord_fab[good]) * len(lengths) + np.searchsorted(
            lengths, wanted
        )
        size = len(part_names) * len(fab_names) * len(lengths)
        counted = np.bincount(key, minlength=size)
        keys = np.flatnonzero(counted)
        qty = counted[keys]
        sums = (
            np.bincount(key, weights=np.asarray(cut, dtype=np.float64)[good], minlength=size)[keys]
            if needed
            else np.zeros(len(keys))
        )
        length_list = lengths.tolist()
        for k, q, total in zip(keys.tolist(), qty.tolist(), sums.tolist(), strict=True):
            pf, li = divmod(k, len(lengths))
            p, f = divmod(pf, len(fab_names))
            at = (part_names[p], length_list[li], fab_names[f])
            was_q, was_m = out.get(at, (0, 0.0))
            out[at] = (was_q + q, None if not needed or was_m is None else was_m + total)
    return out
