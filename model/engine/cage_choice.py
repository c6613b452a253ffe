"""The per-cage media choice: each component's plug options ranked under the policy and pins.

The rules are :mod:`model.engine.cages`' (which also numbers the cages and shapes the
components); this module applies them over the rows of whole components, in the order a reader
follows: the components' shapes, specs, lengths and pins; what each candidate medium offers each
component (modules and fibres, an integrated cable, or a backplane); the best offer under the
policy, free and pinned; the pins kept; each link's ordered length.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from model.catalog.components import MediaType
from model.catalog.parts import CablePart
from model.catalog.structured import structured_catalog
from model.common.arrays import unique_inverse, unique_sorted
from model.engine.cages import (
    COPPER_RANK,
    MODULE_KINDS,
    SHAPE_MESH,
    SHAPE_STRAIGHT,
    CageChoice,
    PartTables,
    component_shapes,
    localize,
)
from model.engine.media import beats, ordered_lengths
from model.engine.patch_points import ChannelPieces


@dataclass
class CageRows:
    """The rows :func:`choose_per_cage` chooses for: cages, plugs, lengths, pins, accepted media.

    Rows must cover whole components (every link of each component present).
    """

    component: np.ndarray  # cage-graph component label of each link (any numbering)
    cage_a: np.ndarray  # cage key of each link's A end (and B end below)
    cage_b: np.ndarray
    spec_a: np.ndarray  # PartTables.specs row of the A end's cage (and B end's below)
    spec_b: np.ndarray
    # bool matrix (patterns x media) of the media that carry a link's speed, lane rate and form
    # factors under the policy (the per-link candidates); the pattern row of each link (links of
    # one port-class pair share one)
    patterns: np.ndarray
    pattern_of: np.ndarray
    length_m: np.ndarray
    pinned: np.ndarray  # pinned medium row or -1
    # :func:`localize` of the rows when the caller has it cached
    local: tuple[np.ndarray, np.ndarray, np.ndarray, int] | None = None
    # patch points of each link's channel (:mod:`model.engine.patch_points`); None: all direct
    patch_points: np.ndarray | None = None
    # what the structured layout lays for each channel (None: all direct)
    channel_pieces: ChannelPieces | None = None


@dataclass
class _Components:
    """Per component of the rows: cage specs and shape, longest link and the agreed pin."""

    comp: np.ndarray  # local component 0..C-1 per link
    cage_spec: np.ndarray  # spec row per local cage
    cage_comp: np.ndarray  # component per local cage
    shape: np.ndarray
    hub: np.ndarray
    leaves: np.ndarray
    leaf_spec: np.ndarray
    uniform_leaves: np.ndarray
    length_m: np.ndarray  # max link length (an integrated cable's links share one length)
    pin_of: np.ndarray  # the pinned medium all pins agree on; -2 when none is pinned or they differ
    any_pin: bool

    @property
    def count(self) -> int:
        """Number of components."""
        return len(self.shape)


def choose_per_cage(tables: PartTables, policy: str, rows: CageRows) -> CageChoice:
    """Medium and ordered length of every link of whole components under the plug rules."""
    n = len(rows.cage_a)
    if not n:
        return CageChoice(
            np.full(n, -1, dtype=np.int32), np.full(n, np.nan), np.zeros(n, dtype=bool)
        )
    comps = _components(rows)
    accepted, accepted_row = _accepted_by_all(rows, comps.comp, comps.count)
    offers = _Offers(tables, rows, comps)
    best = {"free": _Best(comps.count), "pinned": _Best(comps.count)}
    modes = ("free", "pinned") if comps.any_pin else ("free",)
    candidates_m = np.flatnonzero(
        rows.patterns.any(axis=0) | np.isin(np.arange(len(tables.media)), rows.pinned)
    )
    for m in candidates_m.tolist():
        offer = offers.offer(m, accepted[accepted_row, m])  # a gather: a copy of its own
        if offer is None:
            continue
        ok, cost, power, assembly_len = offer
        for mode in modes:
            feasible = ok if mode == "free" else ok & (comps.pin_of == m)
            if feasible.any():
                keys = _rank_keys(policy, tables.media[m], cost, power, comps.count)
                best[mode].take(m, keys, feasible, assembly_len)
    medium, assembly_len, keep_pin = _settle_pins(rows.pinned, comps.comp, best)
    ordered = _ordered_per_link(tables.media, rows.length_m, offers, medium, assembly_len, keep_pin)
    return CageChoice(medium.astype(np.int32), ordered, (medium >= 0) & ~keep_pin)


def _components(rows: CageRows) -> _Components:
    """The rows' components numbered 0..C-1, with their shapes, specs, lengths and pins."""
    if rows.local is None:
        comp, ia, ib, n_nodes = localize(rows.component, rows.cage_a, rows.cage_b)
    else:
        # A cached labelling numbers components by a cage node (at XL 164k components among
        # 459k numbers): renumbered 0..C-1, every per-component array below is that much shorter.
        comp, ia, ib, n_nodes = rows.local
        comp = unique_inverse(comp)[1]
    cage_spec = np.zeros(n_nodes, dtype=np.int64)
    cage_spec[ia], cage_spec[ib] = rows.spec_a, rows.spec_b
    shape, hub, leaf, leaves, cage_comp = component_shapes(comp, ia, ib, n_nodes)
    n_comp = len(shape)
    comp_len = np.full(n_comp, -np.inf)
    np.maximum.at(comp_len, comp, np.where(np.isfinite(rows.length_m), rows.length_m, np.inf))
    leaf_spec = np.where(leaf >= 0, cage_spec[np.maximum(leaf, 0)], -1)
    uniform = _uniform_leaves(cage_spec, cage_comp, hub, n_comp)
    pin_of = _agreed_pin(comp, rows.pinned, n_comp)
    any_pin = bool((rows.pinned >= 0).any())  # none: the "pinned" ranking would find nothing
    return _Components(
        comp,
        cage_spec,
        cage_comp,
        shape,
        hub,
        leaves,
        leaf_spec,
        uniform,
        comp_len,
        pin_of,
        any_pin,
    )


def _uniform_leaves(
    cage_spec: np.ndarray, cage_comp: np.ndarray, hub: np.ndarray, n_comp: int
) -> np.ndarray:
    """Per component: whether its non-hub cages are all of one spec (a splitter needs that)."""
    spec_lo = np.full(n_comp, np.iinfo(np.int64).max)
    spec_hi = np.full(n_comp, -1)
    non_hub = np.flatnonzero(np.arange(len(cage_spec)) != hub[cage_comp])
    np.minimum.at(spec_lo, cage_comp[non_hub], cage_spec[non_hub])
    np.maximum.at(spec_hi, cage_comp[non_hub], cage_spec[non_hub])
    return spec_lo == spec_hi


def _agreed_pin(comp: np.ndarray, pinned: np.ndarray, n_comp: int) -> np.ndarray:
    """Per component: the medium its pins agree on; -2 when none is pinned or they differ."""
    has_pin = np.zeros(n_comp, dtype=bool)
    has_pin[comp[pinned >= 0]] = True
    pin_lo = np.full(n_comp, np.iinfo(np.int64).max)
    pin_hi = np.full(n_comp, -1)
    pr = np.flatnonzero(pinned >= 0)
    np.minimum.at(pin_lo, comp[pr], pinned[pr].astype(np.int64))
    np.maximum.at(pin_hi, comp[pr], pinned[pr].astype(np.int64))
    return np.where(has_pin & (pin_lo == pin_hi), pin_hi, -2)


def _accepted_by_all(
    rows: CageRows, comp: np.ndarray, n_comp: int
) -> tuple[np.ndarray, np.ndarray]:
    """The media every link of a component accepts, as (table, row of each component): bool
    rows of media, component ``c``'s at ``table[row[c]]``. A medium's column of components is
    gathered when it is offered: the whole (components x media) table was a ~14 MB gather of
    which each medium read one column (XL with every network: 233k components, ~30 ms)."""
    patterns, pattern_of = rows.patterns, rows.pattern_of
    if len(patterns) == 1:
        return patterns, np.zeros(n_comp, dtype=np.int64)
    # Rows share few accept patterns, so reduce the patterns per component once instead of
    # once per medium.
    first = np.full(n_comp, -1, dtype=np.int64)
    first[comp] = pattern_of  # one pattern of each component ...
    mixed = np.zeros(n_comp, dtype=bool)
    mixed[comp[pattern_of != first[comp]]] = True  # ... and whether others differ
    row = np.maximum(first, 0)
    # A mixed component's own row: the patterns of its links, all at once.
    reduced: list[np.ndarray] = []
    for c in np.flatnonzero(mixed).tolist():
        row[c] = len(patterns) + len(reduced)
        reduced.append(patterns[unique_sorted(pattern_of[comp == c])].all(axis=0))
    return (np.vstack([patterns, *reduced]) if reduced else patterns), row


class _Offers:
    """What each medium offers every component: feasible, cost, power and assembly length."""

    def __init__(self, tables: PartTables, rows: CageRows, comps: _Components) -> None:
        self.tables, self.rows, self.comps = tables, rows, comps
        # Each link's next orderable fibre length, per fibre length list (media sharing a fibre
        # part and reach share one): taken again for the chosen medium's ordered lengths.
        self._fibre_ordered: dict[bytes, np.ndarray] = {}
        self._shapes: tuple[np.ndarray, list[int]] | None = None

    def offer(
        self, m: int, ok: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """(feasible, cost, power, assembly length) per component for medium ``m``, or None.

        ``ok`` = whether every link of the component accepts ``m`` (a copy this may narrow).
        """
        tables, medium = self.tables, self.tables.media[m]
        if medium.kind in MODULE_KINDS:
            if m not in tables.fibre_of:
                return None
        elif medium.kind != "backplane" and not any(k[0] == m for k in tables.cables):
            return None
        if not ok.any() and not (self.comps.pin_of == m).any():
            return None
        n_comp = self.comps.count
        cost, power = np.zeros(n_comp), np.zeros(n_comp)
        assembly_len = np.full(n_comp, np.nan)
        if medium.kind == "backplane":
            ok &= self.comps.length_m <= medium.reach_m + 1e-9
        elif medium.kind in MODULE_KINDS:
            if not self._modules(m, ok, cost, power):
                return None
            beyond = channel_beyond(medium, self.rows.patch_points, self._channel_m(m))
            pieces = self.rows.channel_pieces
            if pieces is not None:  # a trunk run no stock trunk of the mode is as long as
                mode = "smf" if medium.kind == "smf" else "mmf"
                long = pieces.trunk_unorderable(_trunk_lengths(mode))
                beyond = long if beyond is None else beyond | long
            if beyond is not None:
                ok[self.comps.comp[beyond]] = False  # both cages of the link move together
        else:
            self._cables(m, ok, cost, power, assembly_len)
            ok &= ~np.isnan(assembly_len)
        return ok, cost, power, assembly_len

    def _channel_m(self, m: int) -> np.ndarray:
        """Each link's channel length on module medium ``m``: its cords at ``m``'s fibre stock
        lengths and its trunks at the stock lengths of ``m``'s mode (the link's own length
        where it is direct)."""
        pieces, length = self.rows.channel_pieces, self.rows.length_m
        if pieces is None:
            return length
        mode = "smf" if self.tables.media[m].kind == "smf" else "mmf"
        return pieces.length_m(self.tables.fibre_lengths(m), _trunk_lengths(mode), length)

    def link_fibre_ordered(self, m: int) -> np.ndarray:
        """Each link's next orderable length of module medium ``m``'s fibre (NaN: none)."""
        lengths = self.tables.fibre_lengths(m)
        got = self._fibre_ordered.get(lengths.tobytes())
        if got is None:
            got = self._fibre_ordered[lengths.tobytes()] = _round_up(lengths, self.rows.length_m)
        return got

    def _modules(self, m: int, ok: np.ndarray, cost: np.ndarray, power: np.ndarray) -> bool:
        """Adds a module in every cage and a fibre per link; False when ``m`` has no fibre."""
        tables, comps, rows = self.tables, self.comps, self.rows
        price, watts, fpp, reach = tables.module_columns(m)
        fpart = tables.fibre_of.get(m)
        if fpart is None:
            return False
        cage_price = price[comps.cage_spec]
        # A component takes the module only if every cage does: marked where one does not.
        if np.isnan(price).any():
            ok[comps.cage_comp[np.isnan(cage_price)]] = False
        n_comp = comps.count
        cost += np.bincount(comps.cage_comp, weights=_nan_zero(cage_price), minlength=n_comp)
        power += np.bincount(comps.cage_comp, weights=watts[comps.cage_spec], minlength=n_comp)
        link_ordered = self.link_fibre_ordered(m)
        ok[comps.comp[np.isnan(link_ordered)]] = False
        # A link longer than either end's module is rated for (NVIDIA's MMS4X00-NS400: 100 m on
        # a 500 m DR4 medium) rules the medium out for its whole component.
        beyond = rows.length_m > np.minimum(reach[rows.spec_a], reach[rows.spec_b]) + 1e-9
        ok[comps.comp[beyond]] = False
        per_link = fpp[rows.spec_a] * (
            fpart.price_usd + fpart.price_per_m_usd * _nan_zero(link_ordered)
        )
        cost += np.bincount(comps.comp, weights=per_link, minlength=n_comp)
        return True

    def _cables(
        self, m: int, ok: np.ndarray, cost: np.ndarray, power: np.ndarray, assembly_len: np.ndarray
    ) -> None:
        """Sets the integrated cable of medium ``m`` that fits each component's shape, if any."""
        sig, sigs = self._cable_shapes()
        part_of = np.full(self.comps.count, -1, dtype=np.int64)
        parts: list[CablePart] = []
        for s in sigs:
            h, f, lv = s // 4096, (s % 4096) // 64, s % 64
            part = self.tables.cable(m, h, f, lv) or (
                self.tables.cable(m, f, h, lv) if lv == 1 else None
            )
            if part is not None:
                parts.append(part)
                part_of[sig == s] = len(parts) - 1
        ok &= part_of >= 0
        for p, part in enumerate(parts):
            sel = part_of == p
            got = _round_up(np.asarray(part.lengths_m, dtype=float), self.comps.length_m[sel])
            assembly_len[sel] = got
            cost[sel] = part.price_usd + part.price_per_m_usd * _nan_zero(got)
            power[sel] = part.power_a_w + part.fanout * part.power_b_w

    def _cable_shapes(self) -> tuple[np.ndarray, list[int]]:
        """Each component's cable shape signature and the distinct ones (the same for every medium).

        Signature: hub spec, leaf spec, number of leaves; -1 where no cable fits (a mesh or
        mixed leaves).
        """
        if self._shapes is None:
            c = self.comps
            sig = c.cage_spec[np.maximum(c.hub, 0)] * 4096 + c.leaf_spec * 64
            sig = sig + np.minimum(c.leaves, 63)
            fits = (c.shape != SHAPE_MESH) & (c.uniform_leaves | (c.shape == SHAPE_STRAIGHT))
            sig = np.where(fits, sig, -1)
            self._shapes = sig, unique_sorted(sig[sig >= 0]).tolist()
        return self._shapes


def channel_beyond(
    medium: MediaType, patch_points: np.ndarray | None, length_m: np.ndarray
) -> np.ndarray | None:
    """Per link: whether its channel passes more patch points, runs longer with panels, or loses
    more than ``medium``'s channel limit allows (None: no link does or no limit is known).

    The loss counted here is the panels' MPO mated pairs and the fibre at the link's length,
    as :func:`model.structured.channels.loss_budget` counts a channel of MPO adapter panels.
    """
    if patch_points is None or not patch_points.any():
        return None
    catalog = structured_catalog()
    limit = catalog.limits.get(medium.id)
    if limit is None:
        return None
    paneled = patch_points > 0
    beyond = np.zeros(len(patch_points), dtype=bool)
    if limit.max_panels is not None:
        beyond |= patch_points > limit.max_panels
    if limit.reach_with_panels_m is not None:
        beyond |= paneled & (length_m > limit.reach_with_panels_m + 1e-9)
    db_per_km = catalog.attenuation_db_per_km.get("smf" if medium.kind == "smf" else "mmf", 0.0)
    loss_db = (
        patch_points * catalog.connector_loss_db.get("MPO", 0.0)
        + np.nan_to_num(length_m) / 1000.0 * db_per_km
    )
    beyond |= paneled & (loss_db > limit.il_db + 1e-9)
    return beyond if beyond.any() else None


def _rank_keys(
    policy: str, medium: MediaType, cost: np.ndarray, power: np.ndarray, n_comp: int
) -> list[np.ndarray]:
    """The policy's ranking keys of a medium's offer, most significant first."""
    if policy == "lowest-power":
        return [power, cost]
    if policy == "copper-first":
        copper = 0.0 if medium.kind in COPPER_RANK else 1.0
        return [np.full(n_comp, copper), cost, power]
    return [cost, power]


class _Best:
    """The best feasible medium so far per component (ties keep the earlier, catalog order)."""

    def __init__(self, n_comp: int) -> None:
        self.medium = np.full(n_comp, -1, dtype=np.int64)
        self.length_m = np.full(n_comp, np.nan)
        self._keys: list[np.ndarray] | None = None

    def take(
        self, m: int, keys: list[np.ndarray], feasible: np.ndarray, assembly_len: np.ndarray
    ) -> None:
        """Takes medium ``m`` where it is feasible and ranks before the best so far."""
        if self._keys is None:
            better = feasible
            self._keys = [np.full(len(feasible), np.inf) for _ in keys]
        else:
            better = beats(keys, self._keys, feasible)
        self.medium[better] = m
        self.length_m[better] = assembly_len[better]
        for new, old in zip(keys, self._keys, strict=True):
            old[better] = new[better]


def _settle_pins(
    pinned: np.ndarray, comp: np.ndarray, best: dict[str, _Best]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(medium, assembly length, pin kept on its own link) per link from the components' best.

    A component whose pins agree on a medium that fits takes it; a pin the plug rules cannot
    honour stays on its own link.
    """
    use_pinned = best["pinned"].medium >= 0
    chosen = np.where(use_pinned, best["pinned"].medium, best["free"].medium)
    chosen_len = np.where(use_pinned, best["pinned"].length_m, best["free"].length_m)
    keep_pin = (pinned >= 0) & ~use_pinned[comp]
    return np.where(keep_pin, pinned, chosen[comp]), chosen_len[comp], keep_pin


def _ordered_per_link(
    media: Sequence[MediaType],
    length_m: np.ndarray,
    offers: _Offers,
    row_medium: np.ndarray,
    row_len: np.ndarray,
    keep_pin: np.ndarray,
) -> np.ndarray:
    """Ordered length per link: an integrated cable's assembly length, else its fibre length."""
    out_ordered = np.full(len(row_medium), np.nan)
    any_kept = bool(keep_pin.any())
    for m in unique_sorted(row_medium[row_medium >= 0]).tolist():
        sel = row_medium == m
        medium = media[m]
        if medium.kind in MODULE_KINDS:
            got = offers.link_fibre_ordered(m)[sel]
            if any_kept:  # a kept pin orders its own medium's length
                got = np.where(keep_pin[sel], ordered_lengths(medium, length_m[sel]), got)
            out_ordered[sel] = got
        else:
            got = ordered_lengths(medium, length_m[sel])
            out_ordered[sel] = np.where(np.isnan(row_len[sel]) | keep_pin[sel], got, row_len[sel])
    return out_ordered


def _trunk_lengths(mode: str) -> np.ndarray:
    """The stock lengths (m, sorted) of the catalog's narrowest ``mode`` trunk, the one the
    layout bundles a few legs into (the catalog's trunks of one mode share their lengths)."""
    parts = [t for t in structured_catalog().trunks.values() if t.mode == mode]
    if not parts:
        return np.zeros(0)
    narrowest = min(parts, key=lambda t: (t.fibres, t.id))
    return np.asarray(sorted(narrowest.lengths_m), dtype=np.float64)


def _nan_zero(values: np.ndarray) -> np.ndarray:
    """``np.nan_to_num`` of prices and lengths, which are NaN or finite: NaN read as 0.

    One ``where``, not nan_to_num's checks and copy (three calls per candidate medium, ~0.1 ms
    each under cProfile for an XL rack move's ~5k rows)."""
    return np.where(np.isnan(values), 0.0, values)


def _round_up(lengths: np.ndarray, length_m: np.ndarray) -> np.ndarray:
    """Next orderable length >= each length (NaN when none is long enough)."""
    if not len(lengths):
        return np.full(len(length_m), np.nan)
    k = np.searchsorted(lengths, length_m - 1e-9)
    return np.where(k < len(lengths), lengths[np.minimum(k, len(lengths) - 1)], np.nan)
