"""A structured layout's channels and patch cords as columns, made into objects on demand.

A zoned XL hall has 393k channels of seven elements and 786k patch cords. As objects (a
:class:`~model.structured.channels.Channel`, its two cord :class:`~model.structured.channels.Element`\\ s, two
Cords and their id strings per link) they were ~8 s of its
layout, most of it the kernel handing out fresh pages, and ~0.5 GB held for as long as the
layout lives. Yet a channel differs from the others of its trunk leg only in its link, its cord
lengths and (cassettes) its port: the panels and trunks between its cords are the leg's,
shared. So the layout keeps, per channel, the leg it rides and those few figures
(:class:`ChannelTable`), and per cord its link, part and lengths (:class:`CordTable`); a
:class:`~model.structured.channels.Channel` or :class:`Cord` is made when one is
asked for (the inspector's channel view, a finding), equal to the one the layout made before.
The checks over all channels work on the columns (:func:`model.structured.channel_checks.table_checks`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

import msgspec
import numpy as np

from model.structured.channels import (
    CONNECTOR_FAMILY,
    Channel,
    Element,
    FibreTable,
    direct_channel,
)
from model.structured.link_polarity import apply_polarity
from model.structured.polarity import CASSETTE_PORTS


class Cord(msgspec.Struct, frozen=True, gc=False):  # a Struct: see model.structured.channels
    """One patch cord: a link's fibre (pair) between its device and the panel at one end."""

    link_id: str
    end: str  # "a" / "b"
    fibre_part: str
    length_m: float
    ordered_m: float
    quantity: int = 1


# The columns whose arrays a table keeps in ``derived`` (:meth:`ChannelTable.column`): per
# channel row, and per leg ("trunk_columns": per trunk segment, each leg's trunk length there).
ROW_ARRAYS = ("legs", "ports", "cord_a_m", "cord_b_m", "fibre_rows")
LEG_ARRAYS = ("leg_shape", "leg_cassettes", "trunk_columns")


class LinkRows:
    """The link -> row index of a channel table's rows (``link_ids``, in row order), made on
    first use: most readers go by rows (the plant-row arrays of
    :func:`model.structured.channels.channel_plant_rows`), and a zoned XL hall's 393k-entry
    dict was ~0.18 s of every zoned command's layout. Tables whose rows are the same links in
    the same order share one (:class:`RowIndex`): its identity says so."""

    __slots__ = ("link_ids", "_row_of")

    def __init__(self, link_ids: list[str]) -> None:
        self.link_ids = link_ids  # never extended once shared: a table that grows makes its own
        self._row_of: dict[str, int] | None = None

    def row_of(self) -> dict[str, int]:
        """Link id -> its row (made once, then only read)."""
        if self._row_of is None:
            ids = self.link_ids
            self._row_of = dict(zip(ids, range(len(ids)), strict=True))
        return self._row_of

    def made(self) -> dict[str, int] | None:
        """The index if it is made already, else None (not made for the asking)."""
        return self._row_of


class RowIndex:
    """The link rows of a layout's channel table, kept for the next layout of the same design
    (an editor's analysis): a table whose rows are the same links in the same order shares
    them (:class:`LinkRows`, and so its index once made: 393k entries at zoned XL).
    Only :meth:`ChannelTable.add_rows` fills it."""

    def __init__(self) -> None:
        self.link_ids: list[str] = []
        self.rows: LinkRows | None = None


class StructuredRows(Mapping):
    """A channel table's links through panels -> their row, without its index until a link is
    looked up: its size, its links in row order and whether it is empty are the table's
    columns (the outputs ask whether any link runs through panels before anything else)."""

    __slots__ = ("_table",)

    def __init__(self, table: ChannelTable) -> None:
        self._table = table

    def __len__(self) -> int:
        return len(self._table.link_ids)

    def __iter__(self) -> Iterator[str]:
        return iter(self._table.link_ids)

    def __contains__(self, link_id: object) -> bool:
        return link_id in self._table.row_of

    def __getitem__(self, link_id: str) -> int:
        return self._table.row_of[link_id]


class ChannelTable(Mapping):
    """Link id -> its :class:`~model.structured.channels.Channel`, in the plant's link order.

    ``fibres``: every link's direct fibre (:func:`model.structured.channels.plant_fibres`); a link added
    with :meth:`add` runs through panels, any other one stays direct. ``records``: the
    as-installed polarity of the links that have one (``Link.polarity``, read when the layout
    was made: the layout must not follow later edits of the live design)."""

    __slots__ = (
        "fibres",
        "records",
        "middles",
        "leg_cassettes",
        "leg_shape",
        "leg_trunk_m",
        "_path_shape",
        "_shapes",
        "_rows",
        "link_ids",
        "legs",
        "ports",
        "cord_a_m",
        "cord_b_m",
        "fibre_rows",
        "derived",
    )

    def __init__(self, fibres: Mapping, records: dict[str, dict] | None = None) -> None:
        self.fibres = fibres
        self.records = records or {}
        # Per trunk leg: the elements between its channels' cords, and whether its end points
        # are LC cassettes (then each channel has its own cassette port).
        self.middles: list[tuple[Element, ...]] = []
        self.leg_cassettes: list[bool] = []
        self.leg_shape: list[int] = []
        self.leg_trunk_m: list[tuple[float, ...]] = []  # its trunks' ordered lengths, in order
        self._path_shape: dict[int, int] = {}
        self._shapes: dict[tuple, int] = {}
        # Per channel through panels (a row), in the order the layout made them.
        self.link_ids: list[str] = []
        self._rows = LinkRows(self.link_ids)  # their index by link id, made when first read
        self.legs: list[int] = []
        self.ports: list[int] = []  # its position on the leg (cassettes: port k + 1)
        self.cord_a_m: list[float] = []  # the cords' ordered lengths
        self.cord_b_m: list[float] = []
        # Its link's row of ``fibres`` (a FibreTable's), when every row added said so, else
        # None: the channel checks then look each link up (~0.15 s at zoned XL).
        self.fibre_rows: list[int] | None = []
        # Arrays made from the columns above by the checks (:meth:`column`), which the next
        # layout of an editor's design shares where its columns are the same lists or patches
        # where a few rows changed (model.structured.cords.KeptCords, channel_reuse): making
        # them again was most of a re-measured move's checks (~50 of ~85 ms at zoned XL).
        self.derived: dict[str, Any] = {}

    def add_legs(
        self,
        middles: Sequence[tuple[Element, ...]],
        cassettes: bool,
        path: int,
        trunk_m: Sequence[tuple[float, ...]],
    ) -> range:
        """Add the trunk legs of one path; returns their numbers. ``path``: the number of the
        legs' path; the legs of one path have the same *shape* (each element's kind, panel
        part, polarity, port and direction), which the checks
        (:func:`model.structured.channel_checks.table_checks`) work out once per shape, so a
        path's shape is read off its first leg (a hall has thousands of paths and a few
        shapes). ``middles``: per leg, the elements between its channels' cords;
        ``trunk_m``: per leg, the lengths of its trunk elements in order."""
        start, n = len(self.middles), len(middles)
        if not n:
            return range(start, start)
        for name in LEG_ARRAYS:  # the leg columns grow: their arrays are made again
            self.derived.pop(name, None)
        shape = self._path_shape.get(path)
        if shape is None:
            key = tuple(
                (e.kind, e.part if e.kind != "trunk" else "", e.polarity, e.port, e.reverse)
                for e in middles[0]
            )
            shape = self._path_shape[path] = self._shapes.setdefault(
                (key, cassettes), len(self._shapes)
            )
        self.middles += middles
        self.leg_cassettes += [cassettes] * n
        self.leg_shape += [shape] * n
        self.leg_trunk_m += trunk_m
        return range(start, start + n)

    def add_rows(
        self,
        link_ids,
        legs,
        positions,
        cord_a_m,
        cord_b_m,
        fibre_rows=None,
        kept: RowIndex | None = None,
    ) -> None:
        """Add the channels of ``link_ids`` (columns of equal length, see the attributes;
        ``fibre_rows``: their links' rows of ``fibres``, None when not known). ``kept``: the
        last layout's index, shared when these are the table's first rows and the same links
        (compared by identity first: the same strings); else refilled with this one."""
        start = len(self.link_ids)
        for name in ROW_ARRAYS:  # the row columns grow: their arrays are made again
            self.derived.pop(name, None)
        if fibre_rows is None or self.fibre_rows is None:
            self.fibre_rows = None
        else:
            self.fibre_rows.extend(fibre_rows)
        if start == 0 and kept is not None and kept.rows is not None and kept.link_ids == link_ids:
            self._rows = kept.rows
        elif start == 0 and kept is not None:
            kept.link_ids = list(link_ids)  # a copy: this table may grow, the shared one never
            self._rows = kept.rows = LinkRows(kept.link_ids)
        else:  # rows added to a shared index: its own, over the table's own list
            self._rows = LinkRows(self.link_ids)
        self.link_ids.extend(link_ids)
        self.legs.extend(legs)
        self.ports.extend(positions)
        self.cord_a_m.extend(cord_a_m)
        self.cord_b_m.extend(cord_b_m)

    def column(self, name: str, dtype) -> np.ndarray:
        """The column ``name`` (one of :data:`ROW_ARRAYS` or :data:`LEG_ARRAYS`) as an array
        of ``dtype``, made once per table and only read."""
        made = self.derived.get(name)
        if made is None:
            made = self.derived[name] = np.asarray(getattr(self, name), dtype=dtype)
        return made

    @property
    def row_of(self) -> dict[str, int]:
        """Link id -> its row, made when first read (a lookup by link id: the inspector, a
        finding; the whole-table readers go by rows) and shared with the next table of the
        same links in the same order (:class:`RowIndex`)."""
        return self._rows.row_of()

    @property
    def link_rows(self) -> LinkRows:
        """What this table's rows are: tables whose rows are the same links in the same order
        share it (an editor's next layout after a rack move), so a reader's kept figures per
        row stand while it is the same object."""
        return self._rows

    def rows_of(self, link_ids: Collection[str]) -> list[int]:
        """The rows of those of ``link_ids`` that have one, in row order: by the index when it
        is made, else by one pass over the rows (the polarity records: mostly none, a few)."""
        if not link_ids:
            return []
        index = self._rows.made()
        if index is not None:
            return sorted(r for lid in link_ids if (r := index.get(lid)) is not None)
        wanted = link_ids.__contains__
        ids = self.link_ids
        return np.flatnonzero(np.fromiter(map(wanted, ids), bool, len(ids))).tolist()

    @property
    def structured(self) -> Mapping[str, int]:
        """The links that run through panels -> their row."""
        return StructuredRows(self)

    def __len__(self) -> int:
        return len(self.fibres)

    def __iter__(self) -> Iterator[str]:
        return iter(self.fibres)

    def __contains__(self, link_id: object) -> bool:
        return link_id in self.fibres

    def __getitem__(self, link_id: str) -> Channel:
        row = self.row_of.get(link_id)
        if row is None:
            return direct_channel(link_id, *self.fibres[link_id])
        return self.row_channel(row)

    def row_channel(self, row: int) -> Channel:
        """The channel of ``row``, as the layout lays it out, with its link's polarity record."""
        link_id = self.link_ids[row]
        rows = self.fibre_rows
        fibre: Any  # a Fibre (its mode a str where Channel's is a Literal)
        if rows is not None and isinstance(self.fibres, FibreTable):
            fibre = self.fibres.fibre(rows[row])  # by its row: no index of every link made
        else:
            fibre = self.fibres[link_id]
        leg = self.legs[row]
        middle = self.middles[leg]
        if self.leg_cassettes[leg]:  # each channel on its own cassette port (far end mirrored)
            i = self.ports[row]
            middle = tuple(
                Element(
                    e.kind,
                    e.object_id,
                    e.part,
                    e.length_m,
                    e.polarity,
                    CASSETTE_PORTS - i if e.reverse else i + 1,
                    e.reverse,
                )
                if e.kind == "cassette"
                else e
                for e in middle
            )
        cord_type = "AB" if CONNECTOR_FAMILY.get(fibre.connector) == "LC" else "B"
        elements = (
            Element("cord", f"{link_id}:cord-a", "", self.cord_a_m[row], cord_type),
            *middle,
            Element("cord", f"{link_id}:cord-b", "", self.cord_b_m[row], cord_type),
        )
        channel = Channel(link_id, fibre.medium, fibre.mode, fibre.connector, elements)
        record = self.records.get(link_id)
        return apply_polarity(channel, record) if record else channel

    def middle_of(self, link_id: str) -> tuple[Element, ...]:
        """The elements between the two cords of a link's channel through panels, as its
        channel has them: its leg's own tuple unless its cassette ports or a polarity record
        make them the channel's own (then the channel is made)."""
        row = self.row_of[link_id]
        leg = self.legs[row]
        if self.leg_cassettes[leg] or link_id in self.records:
            return self.row_channel(row).elements[1:-1]
        return self.middles[leg]


class CordTable(Sequence):
    """The patch cords of a layout, two per fibre (pair) of each channel: its A-end cord, then
    its B-end cord, as :class:`Cord`\\ s made on demand. The ordered
    lengths are the catalog's own length objects (NaN: ``math.nan`` itself), so counting cords
    by (part, ordered length) treats every unorderable cord of a part as one key, as before."""

    __slots__ = ("link_ids", "parts", "a_m", "a_ordered", "b_m", "b_ordered", "fibre_rows")

    def __init__(self) -> None:
        self.link_ids: list[str] = []
        # Per cord pair: its link's row of the layout's FibreTable (None: not known), which
        # the physical plant maps to plant rows without looking each link up.
        self.fibre_rows: np.ndarray | None = None
        self.parts: list[str] = []
        self.a_m: list[float] = []  # the cord's length, before rounding up to an orderable one
        self.a_ordered: list[float] = []
        self.b_m: list[float] = []
        self.b_ordered: list[float] = []

    def __len__(self) -> int:
        return 2 * len(self.link_ids)

    def __getitem__(self, index):
        # A cord by its position is the common question (the NetBox export asks it per cord,
        # 786k at zoned XL): the slice and bounds handling only when it is not one.
        if type(index) is not int or not 0 <= index < 2 * len(self.link_ids):
            if isinstance(index, slice):
                return [self[i] for i in range(*index.indices(len(self)))]
            if index < 0:
                index += len(self)
            if not 0 <= index < len(self):
                raise IndexError(index)
        pair, end = divmod(index, 2)
        if end:
            return Cord(
                self.link_ids[pair], "b", self.parts[pair], self.b_m[pair], self.b_ordered[pair]
            )
        return Cord(
            self.link_ids[pair], "a", self.parts[pair], self.a_m[pair], self.a_ordered[pair]
        )

    def __iter__(self):
        for link_id, part, a_m, a_got, b_m, b_got in zip(
            self.link_ids,
            self.parts,
            self.a_m,
            self.a_ordered,
            self.b_m,
            self.b_ordered,
            strict=True,
        ):
            yield Cord(link_id, "a", part, a_m, a_got)
            yield Cord(link_id, "b", part, b_m, b_got)
