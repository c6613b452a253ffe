"""Structured cabling in the trays: the trunks that replace the links' fibres (TrunkLoad)."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from model.catalog.structured import structured_catalog
from model.structured.channels import kept_plant_rows, rows_in_plant
from model.structured.paths import panel_face


class TrunkColumns(Sequence):
    """Trunks on links' routes as columns, in trunk order: route id (int64), cross-section
    m^2, kg/m and bend radius mm (float64). Reads as a sequence of (route, m^2, kg/m, mm)
    tuples, equal to such a tuple; the tray fill adds the columns as arrays (a Python loop
    over ~100k trunk tuples, and making them, was ~40 ms of a zoned XL rack move)."""

    __slots__ = ("route", "area_m2", "kg_per_m", "bend_mm")

    def __init__(self, route, area_m2, kg_per_m, bend_mm) -> None:
        self.route: np.ndarray = np.asarray(route, dtype=np.int64)
        self.area_m2: np.ndarray = np.asarray(area_m2, dtype=np.float64)
        self.kg_per_m: np.ndarray = np.asarray(kg_per_m, dtype=np.float64)
        self.bend_mm: np.ndarray = np.asarray(bend_mm, dtype=np.float64)

    def __len__(self) -> int:
        return len(self.route)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self)[i]
        return (
            int(self.route[i]),
            float(self.area_m2[i]),
            float(self.kg_per_m[i]),
            float(self.bend_mm[i]),
        )

    def __iter__(self):
        return zip(
            self.route.tolist(),
            self.area_m2.tolist(),
            self.kg_per_m.tolist(),
            self.bend_mm.tolist(),
            strict=True,
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TrunkColumns):
            return all(
                np.array_equal(a, b) for a, b in zip(self._columns(), other._columns(), strict=True)
            )
        return isinstance(other, tuple | list) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TrunkColumns({len(self)} trunks)"

    def _columns(self) -> tuple[np.ndarray, ...]:
        return (self.route, self.area_m2, self.kg_per_m, self.bend_mm)


def trunk_columns(plus) -> TrunkColumns:
    """``plus`` of a :class:`TrunkLoad` as :class:`TrunkColumns` (a tuple of tuples made by
    hand is turned into columns)."""
    if isinstance(plus, TrunkColumns):
        return plus
    rows = list(plus)
    if not rows:
        return TrunkColumns([], [], [], [])
    route, area, kg, bend = zip(*rows, strict=True)
    return TrunkColumns(route, area, kg, bend)


@dataclass(frozen=True)
class TrunkLoad:
    """What structured cabling changes in the trays: the links whose fibres became trunks
    (``minus``: (route id, medium index) -> links) and the trunks, each on the route of a link
    between its two racks (``plus``: route id, cross-section m^2, kg/m, bend radius mm; as
    :class:`TrunkColumns` from :func:`trunk_load`, or a tuple of such tuples)."""

    minus: dict[tuple[int, int], int] = field(default_factory=dict)
    plus: Sequence[tuple[int, float, float, float]] = ()
    # Trunks between racks no link joins (a zone's trunk to its HDA rack): their own tray
    # intervals (plant.rack_tray_spans), cross-section m^2, kg/m, bend radius mm.
    own: tuple[tuple[tuple[tuple[str, float, float], ...], float, float, float], ...] = ()


def trunk_load(
    plant, layout, channel_rows: np.ndarray | None = None, memo: TrunkLoadMemo | None = None
) -> TrunkLoad:
    """The :class:`TrunkLoad` of a structured layout (:mod:`model.structured.layout`).

    Patch cords run inside their racks and are not in the trays. A trunk between racks that no
    link joins directly (a zone's HDA trunk) follows the trays between the two racks' drop
    points on its panels' faces (:meth:`~model.engine.routed_links.RoutedLinks.rack_tray_spans`, the way a
    link between them would take; ``own``). ``channel_rows``: the layout's channels' rows in
    ``plant``, when the caller has them (``PhysicalPlant.structured_rows`` of this layout).
    ``memo``: the last layout's trunk parts and link counts (:class:`TrunkLoadMemo`)."""
    sc = structured_catalog()
    routes = np.asarray(plant.route_keys(), dtype=np.int64)
    media = np.asarray(plant.medium_index, dtype=np.int64)
    # The channels' plant rows as the layout kept them (no index of every link; see
    # rows_in_plant); a trunk's route link is one of those channels' links but by hand.
    table = layout.channels
    if channel_rows is None:
        kept = kept_plant_rows(plant, table.fibres)
        channel_rows = rows_in_plant(plant, table.link_ids, table.fibre_rows, kept)
    if memo is not None:
        minus = memo.minus(channel_rows, routes, media)
        parts = memo.parts(layout, sc)
    else:
        minus = _minus(channel_rows, routes, media)
        parts = _trunk_parts(layout.trunks, sc, table.row_of)
    # Each trunk on a link's route: its route link's plant row, through the channel table
    # where the table has it (a trunk's route link is one of those channels' links), gathered
    # as arrays (two lists of every plant row were most of a re-measured move's trunk_load).
    table_rows, figures = parts.columns()
    in_table = table_rows >= 0
    plant_rows = channel_rows[table_rows[in_table]] if len(channel_rows) else table_rows[:0]
    route_rows = np.empty(len(table_rows), dtype=np.int64)
    route_rows[in_table] = plant_rows
    outside = np.flatnonzero(~in_table).tolist()
    route_rows[outside] = [plant.index[parts.on_links[i].route_link] for i in outside]
    trunk_routes = routes[route_rows]
    on = trunk_routes >= 0
    plus = TrunkColumns(trunk_routes[on], *figures[on].T)
    own = []
    spans_of: dict[tuple[str, str, str, str], tuple] = {}  # per (rack, face, rack, face)
    for trunk, trunk_figures in parts.own:
        ends = (
            trunk.rack_a,
            panel_face(plant.design, trunk.panel_a),
            trunk.rack_b,
            panel_face(plant.design, trunk.panel_b),
        )
        # A rack's trunks to its zone rack mostly leave and reach the same faces: one tray
        # search per pair of drop points, not per trunk.
        spans = spans_of.get(ends)
        if spans is None:
            spans = spans_of[ends] = plant.rack_tray_spans(*ends)
        if spans:
            own.append((spans, *trunk_figures))
    return TrunkLoad(minus, plus, tuple(own))


def _minus(channel_rows: np.ndarray, routes: np.ndarray, media: np.ndarray) -> dict:
    """:attr:`TrunkLoad.minus`: per (route, medium), the channels' links on it."""
    # Per (route, medium), the links through panels, counted as arrays (a numpy scalar read
    # per link was ~1 s of a zoned XL analysis).
    rows = channel_rows[(routes[channel_rows] >= 0) & (media[channel_rows] >= 0)]
    # One integer per (route, medium), counted by a sort of 393k int64: the same pairs in the
    # same (route, medium) order as a unique over row pairs, which was ~0.5 s at XL.
    span = int(media[rows].max()) + 1 if len(rows) else 1
    keys, counts = np.unique(routes[rows] * span + media[rows], return_counts=True)
    return {divmod(k, span): n for k, n in zip(keys.tolist(), counts.tolist(), strict=True)}


Figures = tuple[float, float, float]  # cross-section m^2, kg/m, bend radius mm


@dataclass
class TrunkParts:
    """What of a layout's trunks no rack position changes: per trunk on a link's route (in
    trunk order) the trunk, its route link's channel-table row (-1: not in the table) and its
    figures; and the trunks between racks no link joins, with their figures. Trunks of a part
    the catalog lacks are in neither. ``slots``: per trunk, where it is (k: ``on_links[k]``,
    -2 - k: ``own[k]``, -1: in neither)."""

    slots: list[int] = field(default_factory=list)
    on_links: list = field(default_factory=list)
    table_rows: list[int] = field(default_factory=list)
    figures: list[Figures] = field(default_factory=list)
    own: list[tuple] = field(default_factory=list)
    # ``table_rows`` (int64) and ``figures`` (float64, one row of three per trunk) as arrays,
    # made when first asked for and patched by _reread: not made again from ~100k tuples.
    _columns: tuple[np.ndarray, np.ndarray] | None = None

    def columns(self) -> tuple[np.ndarray, np.ndarray]:
        """``table_rows`` and ``figures`` as arrays (not to be changed)."""
        if self._columns is None:
            self._columns = (
                np.asarray(self.table_rows, dtype=np.int64),
                np.asarray(self.figures, dtype=np.float64).reshape(-1, 3),
            )
        return self._columns


def _trunk_parts(trunks, sc, row_of=None) -> TrunkParts:
    """The :class:`TrunkParts` of ``trunks`` (``row_of``: the channel table's link -> row)."""
    parts = TrunkParts()
    figures_of: dict[tuple[str, int], Figures] = {}  # per part and quantity
    for trunk in trunks:
        figures = figures_of.get((trunk.part, trunk.quantity))
        if figures is None:
            part = sc.trunks.get(trunk.part)
            if part is None:
                parts.slots.append(-1)
                continue
            d_mm = part.diameter_mm
            figures = figures_of[(trunk.part, trunk.quantity)] = (
                math.pi * (d_mm / 1000) ** 2 / 4 * trunk.quantity,
                part.weight_kg_per_m * trunk.quantity,
                sc.bend_radius_mm("trunk", d_mm),
            )
        if trunk.route_link:
            row = row_of.get(trunk.route_link) if row_of is not None else None
            parts.slots.append(len(parts.on_links))
            parts.on_links.append(trunk)
            parts.table_rows.append(-1 if row is None else row)
            parts.figures.append(figures)
        else:
            parts.slots.append(-2 - len(parts.own))
            parts.own.append((trunk, figures))
    return parts


def _reread(kept: TrunkParts, trunks, changed: list[int], sc, row_of) -> TrunkParts | None:
    """``kept`` with the trunks at positions ``changed`` read again, each into its old place;
    None when one of them goes elsewhere (onto a route link or off it, or off the catalog),
    which moves the places of the trunks after it."""
    parts = TrunkParts(kept.slots, [*kept.on_links], [*kept.table_rows], [*kept.figures])
    parts.own = [*kept.own]
    columns = None
    if kept._columns is not None:  # patched below, as the lists are
        columns = (kept._columns[0].copy(), kept._columns[1].copy())
    again = _trunk_parts([trunks[i] for i in changed], sc, row_of)
    for i, slot in zip(changed, again.slots, strict=True):
        was = kept.slots[i]
        if (slot >= 0) != (was >= 0) or (slot == -1) != (was == -1):
            return None
        if slot >= 0:
            parts.on_links[was] = again.on_links[slot]
            parts.table_rows[was] = again.table_rows[slot]
            parts.figures[was] = again.figures[slot]
            if columns is not None:
                columns[0][was] = again.table_rows[slot]
                columns[1][was] = again.figures[slot]
        elif slot < -1:
            parts.own[-2 - was] = again.own[-2 - slot]
    parts._columns = columns
    return parts


class TrunkLoadMemo:
    """The editor's last layout's :class:`TrunkParts`, with the trunk records and the channel
    table's link -> row index they were read off, and its :attr:`TrunkLoad.minus` with the
    rows it was counted from. A rack move re-makes only the trunks whose legs' lengths
    changed (model.structured.trunk_reuse) and keeps the table's index while its rows are the
    same links (RowIndex): the next parts are the kept ones while the index is the same dict
    of the same size and the trunks the same records, only changed trunks read again (a pass
    over ~100k trunks, ~0.1 s of a zoned XL move, was the most of trunk_load). The counts per
    (route, medium) are those of the last call with the rows whose route or medium changed
    taken out as they were and put in as they are (integers: exact), while the channels'
    plant rows are the same (a sort of 393k keys was ~25 ms of each zoned XL move)."""

    def __init__(self) -> None:
        self._trunks: list = []
        self._row_of: dict | None = None
        self._rows = -1  # len(self._row_of) then: an index extended in place is another
        self._parts = TrunkParts()
        self.reread_trunks = -1  # trunks read again by the last call (-1: every trunk)
        # The channels' plant rows, their routes and media as counted (-1: not counted), the
        # counts (no zero kept) and how many channel rows the last call counted again (-1: all)
        self._counted: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._minus: dict[tuple[int, int], int] = {}
        self.recounted_rows = -1

    def minus(self, channel_rows: np.ndarray, routes: np.ndarray, media: np.ndarray) -> dict:
        """:attr:`TrunkLoad.minus` of the channels' plant rows (a dict of the caller's own)."""
        now_routes, now_media = routes[channel_rows], media[channel_rows]
        counted = self._counted
        if counted is None or not np.array_equal(counted[0], channel_rows):
            self._counted = None  # not held while the next are counted
            self._minus = _minus(channel_rows, routes, media)
            self.recounted_rows = -1
        else:
            _, was_routes, was_media = counted
            again = np.flatnonzero((now_routes != was_routes) | (now_media != was_media))
            counts = self._minus
            for route, medium in zip(
                was_routes[again].tolist(), was_media[again].tolist(), strict=True
            ):
                if route >= 0 and medium >= 0:
                    key = (route, medium)
                    counts[key] -= 1
                    if not counts[key]:  # no link left on it: gone, as from a fresh count
                        del counts[key]
            for route, medium in zip(
                now_routes[again].tolist(), now_media[again].tolist(), strict=True
            ):
                if route >= 0 and medium >= 0:
                    counts[(route, medium)] = counts.get((route, medium), 0) + 1
            self.recounted_rows = len(again)
        self._counted = (channel_rows.copy(), now_routes, now_media)
        return dict(self._minus)

    def parts(self, layout, sc) -> TrunkParts:
        """The :class:`TrunkParts` of ``layout``'s trunks."""
        trunks, row_of = layout.trunks, layout.channels.row_of
        rows = len(row_of or ())
        if row_of is not self._row_of or rows != self._rows or len(trunks) != len(self._trunks):
            parts, self.reread_trunks = _trunk_parts(trunks, sc, row_of), -1
        else:
            same = np.fromiter(
                map(operator.is_, trunks, self._trunks), dtype=bool, count=len(trunks)
            )
            changed = np.flatnonzero(~same).tolist()
            self.reread_trunks = len(changed)
            kept = _reread(self._parts, trunks, changed, sc, row_of) if changed else self._parts
            if kept is None:
                kept, self.reread_trunks = _trunk_parts(trunks, sc, row_of), -1
            parts = kept
        self._trunks, self._row_of, self._rows = list(trunks), row_of, rows
        self._parts = parts
        return parts
