"""The records of a structured layout: its trunks, their MPO legs and the layout that holds
them with its channels and cords.

Apart from :func:`model.structured.layout.structured_layout` that fills them, so that the step
modules the layout calls (:mod:`model.structured.cords`) name the layout without importing the
module that imports them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import msgspec

from model.catalog.structured import StructuredCatalog
from model.common.findings import Finding
from model.structured.channel_table import ChannelTable, CordTable

LC_CASSETTE = "cassette-mpo12-lc6-a"
MPO_PANEL = "panel-mpo-1u-72"
LC_ENCLOSURE = "enclosure-1u-4"


def cassette_id(rack_id: str, number: int) -> str:
    """The id of the ``number``-th LC cassette the layout puts in rack ``rack_id``."""
    return f"cassette-{rack_id}-{number}"


def cassette_rack(cassette: str) -> str:
    """The rack a cassette named by :func:`cassette_id` stands in (its number never holds a
    dash, so the last one ends the rack id, whatever the rack id holds)."""
    return cassette.removeprefix("cassette-").rsplit("-", 1)[0]


class Trunk(msgspec.Struct, frozen=True, gc=False):  # Structs: see model.structured.channels
    id: str
    part: str  # structured-catalog trunk id
    rack_a: str
    rack_b: str
    length_m: float  # the longest leg's length
    ordered_m: float  # NaN: longer than the part's longest length
    links: tuple[str, ...]
    quantity: int = 1
    fibres: int = 0  # the trunk part's fibre count
    legs: int = 1  # MPO legs it carries
    panel_a: str = ""
    panel_b: str = ""
    route_link: str = ""  # a link between the same two racks whose tray route it follows
    recorded: bool = False  # its length is a link's recorded one (Link.as_built_pieces_m)


class TrunkLeg(msgspec.Struct, frozen=True, gc=False):
    """One MPO leg of a path: the channels it carries (an LC leg: one per cassette port, in
    port order), its patch points (panel or enclosure ids, A end first; ``cassettes``: the end
    points are LC cassettes in enclosures) and the trunk of each segment."""

    links: tuple[str, ...]
    holders: tuple[str, ...]
    trunks: tuple[str, ...]
    cassettes: bool = False


class LegLinks(Sequence):
    """Every trunk leg's links (a tuple of link ids per leg, layout order), made when first
    read: a leg of one member (every MPO leg) is kept as its member row of the channel
    columns until then. A zoned XL hall's 393k 1-tuples were made on every layout and read
    only by the NetBox export (and by an editor's kept layout)."""

    __slots__ = ("_ids", "_parts", "_count", "_made")
    __hash__ = None  # type: ignore[assignment]  # compared by value, as the list was

    def __init__(self, ids: Sequence[str] = ()) -> None:
        self._ids = ids  # the channel columns' link ids, by row
        # Runs of legs in order: a list of made tuples, or a tuple of member rows (one each).
        self._parts: list[list[tuple[str, ...]] | tuple[int, ...]] = []
        self._count = 0
        self._made: list[tuple[str, ...]] | None = None

    def add_rows(self, rows: Sequence[int]) -> None:
        """Append legs of one member each: their member rows."""
        self._parts.append(tuple(rows))
        self._count += len(rows)
        self._made = None

    def add(self, links: Sequence[tuple[str, ...]]) -> None:
        """Append legs: their links, made."""
        self._parts.append(list(links))
        self._count += len(links)
        self._made = None

    def append(self, links: tuple[str, ...]) -> None:
        self.add([links])

    def made(self) -> list[tuple[str, ...]]:
        """Every leg's links, as a list (made once)."""
        if self._made is None:
            out: list[tuple[str, ...]] = []
            for part in self._parts:
                if isinstance(part, list):
                    out += part
                else:
                    out += zip(map(self._ids.__getitem__, part), strict=True)
            self._parts = [out]
            self._made = out
        return self._made

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        return self.made()[index]

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        return iter(self.made())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegLinks):
            return self.made() == other.made()
        if isinstance(other, list):
            return self.made() == other
        return NotImplemented

    def __repr__(self) -> str:
        return f"LegLinks({len(self)} legs)"


class TrunkLegs(Sequence):
    """Every trunk leg of a layout, in layout order, as columns: per leg its links, holders
    and trunk ids (tuples the layout's legs share) and whether its end points are cassettes.

    A :class:`TrunkLeg` is made when one is read (the NetBox export reads them all, the other
    outputs none): a zoned XL hall has 393k legs, which as objects were made on every layout
    and held for as long as it lived. Iterating makes them once and keeps them."""

    __slots__ = ("_links", "holders", "trunks", "cassettes", "_made")
    __hash__ = None  # type: ignore[assignment]  # compared by value, as a list of legs was

    def __init__(self) -> None:
        # Every leg's links: a list, or the layout's LegLinks until they are first read.
        self._links: list[tuple[str, ...]] | LegLinks = []
        self.holders: list[tuple[str, ...]] = []
        self.trunks: list[tuple[str, ...]] = []
        self.cassettes: list[bool] = []
        self._made: list[TrunkLeg] | None = None

    @property
    def links(self) -> list[tuple[str, ...]]:
        """Per leg, its links (made from the layout's :class:`LegLinks` when first read)."""
        if isinstance(self._links, LegLinks):
            self._links = list(self._links.made())  # its own: a later add() extends it
        return self._links

    @links.setter
    def links(self, links: list[tuple[str, ...]] | LegLinks) -> None:
        self._links = links
        self._made = None

    def add(
        self, links: Iterable | None, holders: Iterable, trunks: Iterable, cassettes: bool
    ) -> None:
        """Append legs: their links, holders and trunk ids (columns of equal length);
        ``links`` None: set afterwards, all at once (:attr:`links`)."""
        start = len(self.holders)
        if links is not None:
            self.links.extend(links)
        self.holders += holders
        self.trunks += trunks
        self.cassettes += [cassettes] * (len(self.holders) - start)
        self._made = None

    def __len__(self) -> int:
        return len(self.holders)

    def __getitem__(self, index):
        if self._made is not None:
            return self._made[index]
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        return TrunkLeg(
            self.links[index], self.holders[index], self.trunks[index], self.cassettes[index]
        )

    def __iter__(self) -> Iterator[TrunkLeg]:
        if self._made is None:
            self._made = list(map(TrunkLeg, self.links, self.holders, self.trunks, self.cassettes))
        return iter(self._made)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TrunkLegs):
            return (self.links, self.holders, self.trunks, self.cassettes) == (
                other.links,
                other.holders,
                other.trunks,
                other.cassettes,
            )
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    def __repr__(self) -> str:
        return f"TrunkLegs({len(self)} legs)"


@dataclass
class StructuredLayout:
    style: str
    # Link id -> Channel, and the patch cords: columns, made into objects when asked for.
    channels: ChannelTable
    trunks: list[Trunk] = field(default_factory=list)
    cords: CordTable = field(default_factory=CordTable)
    # (rack, panel type) -> panels the channels need beyond the placed ones.
    virtual_panels: dict[tuple[str, str], int] = field(default_factory=dict)
    cassettes: dict[str, int] = field(default_factory=dict)  # rack -> cassettes
    # Link -> each fibre's (pair's) length, cords and trunks, for the links with several fibres
    # per port (800G SR8, duplex links of several pairs): the skew check's.
    leg_lengths_m: dict[str, list[float]] = field(default_factory=dict)
    panel_use: dict[str, tuple[int, int]] = field(default_factory=dict)  # placed: (used, of)
    legs: TrunkLegs = field(default_factory=TrunkLegs)  # every trunk leg, in layout order
    findings: list[Finding] = field(default_factory=list)

    def panel_counts(self, catalog: StructuredCatalog | None = None) -> dict[str, int]:
        """Per panel part id, what the BOM orders besides the placed panel devices: virtual
        panels and enclosures, and every cassette."""
        out: dict[str, int] = {}
        for (_, type_id), count in sorted(self.virtual_panels.items()):
            out[type_id] = out.get(type_id, 0) + count
        if self.cassettes:
            out[LC_CASSETTE] = sum(self.cassettes.values())
        return {k: v for k, v in out.items() if v}

    def structured_links(self) -> set[str]:
        """The links whose channel runs through panels."""
        return set(self.channels.structured)
