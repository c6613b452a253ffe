"""Optical channels of links and their loss budgets.

A *channel* is the end-to-end optical path of one link between its two modules: patch cord –
panel – trunk – panel – patch cord, with any number of panels, or a single cord (``direct``, the
plant as it is today: one fibre assembly per link). Each element names the design object it is
(for findings), the catalog part, its length and its polarity (see :mod:`model.structured.polarity`).

Loss budget (domain-facts §8a NV-STRUCT): insertion loss = Σ mated connector pairs + total fibre
length × the mode's attenuation, compared with the medium's channel limit
(:mod:`model.catalog.structured`); margin = limit − loss. Choices, written down:

* Mated pairs counted are the ones *inside* the channel: one per adapter panel (the cord meets
  the trunk in the adapter), two per cassette (its MPO rear and its LC front). The two module
  interfaces are not counted: a PMD's channel limit is specified between the module
  interfaces, whose connection is part of the transmitter/receiver specification. So a direct
  channel's loss is its fibre length only.
* Every panel or cassette counts as one patch point for NV-STRUCT's panel rule (100G-lane
  multimode: 50 m with up to two patch panels); more panels than the medium allows, or a
  paneled channel longer than the paneled reach, is a finding.
* Connector figures are NVIDIA's required maxima, used as the design value (worst case).
"""

from __future__ import annotations

import operator
from collections.abc import ItemsView, Iterator, Mapping
from typing import Literal, NamedTuple

import msgspec
import numpy as np

from model.catalog.structured import StructuredCatalog, structured_catalog

ElementKind = Literal["cord", "trunk", "panel", "cassette"]
# Connector of a module's optical port (FibrePart.connector) -> connector family for losses.
# UPC (flat) MPOs have the APC ones' fibres and loss family; MMC-12 (a very-small-form-factor
# MT ferrule, Spectrum-6) is counted as an MPO of 12 fibres.
CONNECTOR_FAMILY = {
    "MPO-12/APC": "MPO",
    "MPO-12/UPC": "MPO",
    "MPO-16/APC": "MPO",
    "MPO-16/UPC": "MPO",
    "MMC-12": "MPO",
    "LC duplex": "LC",
}
CONNECTOR_FIBRES = {
    "MPO-12/APC": 12,
    "MPO-12/UPC": 12,
    "MPO-16/APC": 16,
    "MPO-16/UPC": 16,
    "MMC-12": 12,
    "LC duplex": 2,
}


# The records below are msgspec Structs because a zoned XL hall's layout makes millions of
# them: one is made in a seventh of a frozen slotted dataclass's time (300k Elements: 0.06 s
# against 0.41 s), as small, and equal, hashable, frozen and picklable all the same. gc=False:
# they hold only strings, numbers and tuples of each other, so no cycle runs through them and
# the collector need not track (nor walk) millions of them.
class Element(msgspec.Struct, frozen=True, gc=False):
    """One element of a channel, in the order light from the link's A end meets them."""

    kind: ElementKind
    object_id: str  # the design object (cord, trunk, panel) — what a finding selects
    part: str = ""  # structured-catalog panel/trunk id, or the fibre part of a cord
    length_m: float = 0.0
    # Cords and trunks: "A" (fibre i to i), "B" (i to n+1-i), "C" (pairs flipped); duplex LC
    # cords: "AB" (crossed) or "AA" (straight). Cassettes: "A" or "B" (see model.structured.polarity).
    polarity: str = "A"
    port: int = 1  # cassettes: the front LC duplex port the channel uses (1-based)
    reverse: bool = False  # cassettes: met rear-to-front (the far end of a trunk)


class Channel(msgspec.Struct, frozen=True, gc=False):
    """The optical path of one link between its two modules."""

    link_id: str
    medium: str  # media type id of the modules
    mode: Literal["mmf", "smf"]
    connector: str  # the modules' optical connector (FibrePart.connector)
    elements: tuple[Element, ...]
    # Computed once when made, from the elements, whatever is passed for them (a frozen
    # Struct's fields never change): the layout, the checks and the summary ask each of a zoned
    # hall's 393k channels for them several times, and a functools.cached_property (a lock and
    # a dict lookup per read) cost ~2 s of an XL schedule. Derived from the elements, so
    # equality and hashing, which see them too, agree with the elements'; replace() (msgspec's)
    # runs __post_init__ again.
    panels: int = 0  # panels + cassettes
    length_m: float = 0.0

    def __post_init__(self) -> None:
        panels = 0
        length = 0.0
        for e in self.elements:
            length += e.length_m
            if e.kind == "panel" or e.kind == "cassette":
                panels += 1
        _force_setattr(self, "panels", panels)  # past the frozen __setattr__
        _force_setattr(self, "length_m", length)

    @property
    def style(self) -> str:
        return "direct" if not self.panels else f"{self.panels}-panel"


_force_setattr = msgspec.structs.force_setattr


class LossBudget(msgspec.Struct, frozen=True, gc=False):
    """Insertion loss of a channel against its medium's limit (dB)."""

    loss_db: float
    fibre_db: float
    connectors_db: float
    mated_pairs: tuple[str, ...]  # connector family of each mated pair, in path order
    limit_db: float | None
    margin_db: float | None  # limit - loss; negative = over budget
    reach_m: float | None  # the paneled reach that applies, None when no panel rule applies
    max_panels: int | None

    @property
    def over_budget(self) -> bool:
        return self.margin_db is not None and self.margin_db < -1e-9


def mated_pairs(channel: Channel, catalog: StructuredCatalog | None = None) -> tuple[str, ...]:
    """Connector family of every mated pair inside the channel (panels and cassettes)."""
    return _pairs(channel, catalog or structured_catalog())[0]


def _pairs(channel: Channel, catalog: StructuredCatalog) -> tuple[tuple[str, ...], float]:
    family = CONNECTOR_FAMILY.get(channel.connector, "MPO")
    parts = tuple(e.part for e in channel.elements if e.kind == "panel" or e.kind == "cassette")
    return catalog.mated_pairs(family, parts)


def loss_budget(channel: Channel, catalog: StructuredCatalog | None = None) -> LossBudget:
    """The channel's insertion loss, its limit and margin, and the panel rule that applies."""
    catalog = catalog or structured_catalog()
    pairs, connectors_db = _pairs(channel, catalog)
    fibre_db = channel.length_m / 1000.0 * catalog.attenuation_db_per_km[channel.mode]
    loss_db = connectors_db + fibre_db
    limit = catalog.limits.get(channel.medium)
    limit_db = limit.il_db if limit else None
    margin = None if limit_db is None else limit_db - loss_db
    reach = limit.reach_with_panels_m if limit and channel.panels else None
    return LossBudget(
        loss_db,
        fibre_db,
        connectors_db,
        pairs,
        limit_db,
        margin,
        reach,
        limit.max_panels if limit else None,
    )


def direct_channel(
    link_id: str, medium: str, mode: str, connector: str, length_m: float, cord_id: str = ""
) -> Channel:
    """Today's point-to-point fibre as a channel: one cord, no panel.

    NVIDIA's MPO-12/APC fibres between twin-port modules are crossover (Type B) fibres, and a
    duplex LC patch cord between two modules is A-to-B, so a direct channel is polarity-correct.
    """
    polarity = "AB" if CONNECTOR_FAMILY.get(connector) == "LC" else "B"
    cord = Element("cord", cord_id or f"{link_id}:fibre", "", length_m, polarity)
    return Channel(link_id, medium, mode, connector, (cord,))  # type: ignore[arg-type]


class Fibre(NamedTuple):
    """What a link's direct channel is made of (see :func:`plant_fibres`)."""

    medium: str
    mode: str
    connector: str
    length_m: float


def plant_channels(plant) -> dict[str, Channel]:
    """The direct channel of every link of ``plant`` (a RoutedLinks) on a module medium.

    The fibre is the module medium's fibre part (its connector and mode) at the link's ordered
    length. Links on integrated cables (DAC, AOC, ...) have no channel.
    """
    return {link_id: direct_channel(link_id, *f) for link_id, f in plant_fibres(plant).items()}


def plant_fibres(plant) -> FibreTable:
    """Per link of :func:`plant_channels`, in its order: the fibre of its direct channel (a
    structured layout makes channels only for the links that stay direct)."""
    fibre_of = _medium_fibres(plant)
    rows = fibre_rows(plant, fibre_of)
    media = [
        (m.id, f.mode, f.connector) if f is not None else None
        for m, f in zip(plant.media, fibre_of, strict=True)
    ]
    link_ids = plant.link_ids
    return FibreTable(
        [link_ids[r] for r in rows.tolist()],
        np.asarray(plant.medium_index, dtype=np.int64)[rows],
        media,
        np.asarray(plant.ordered_m, dtype=np.float64)[rows],
        rows,
    )


class FibreTable(Mapping):
    """Link id -> its direct :class:`Fibre`, in the plant's link order, kept as columns (a
    medium's number per link and the link's length) and made into a Fibre when asked for.

    A zoned XL hall has 393k such links, of which a structured layout asks for a handful one
    by one: a dict of 393k Fibre tuples was ~0.6 s of its layout and ~60 MB for as long as the
    layout lived. The columns are copies: the table does not follow later refreshes of the plant.
    """

    __slots__ = ("link_ids", "medium", "media", "length_m", "plant_rows", "_row_of")

    def __init__(self, link_ids: list[str], medium, media: list, length_m, plant_rows=None) -> None:
        self.link_ids = link_ids
        self.medium: np.ndarray = medium  # int64: per link, its medium's number in ``media``
        self.media = media  # per medium number: (medium id, mode, connector), None: no fibre
        self.length_m: np.ndarray = length_m  # float64: per link, its ordered length
        # int64: per link, its row of the plant the table was made of (None: not known). The
        # physical plant reads the fabric of a layout's channels and cords through it, not
        # through a 393k-link index of that plant (~0.3 s of a zoned XL analysis).
        self.plant_rows: np.ndarray | None = plant_rows
        self._row_of: dict[str, int] | None = None

    @property
    def row_of(self) -> dict[str, int]:
        """Link id -> its row (built when first asked: a layout of halls that use no panel
        never asks)."""
        if self._row_of is None:
            self._row_of = dict(zip(self.link_ids, range(len(self.link_ids)), strict=True))
        return self._row_of

    def fibre(self, row: int) -> Fibre:
        """The fibre of the link of ``row``."""
        medium_id, mode, connector = self.media[int(self.medium[row])]
        return Fibre(medium_id, mode, connector, float(self.length_m[row]))

    def __len__(self) -> int:
        return len(self.link_ids)

    def __iter__(self) -> Iterator[str]:
        return iter(self.link_ids)

    def __contains__(self, link_id: object) -> bool:
        return link_id in self.row_of

    def __getitem__(self, link_id: str) -> Fibre:
        return self.fibre(self.row_of[link_id])

    def items(self):
        """(link id, Fibre) in order, without a look-up per link."""
        return ItemsInOrder(self)


class ItemsInOrder(ItemsView):
    """A :class:`FibreTable`'s items, row after row."""

    _mapping: FibreTable

    def __iter__(self):
        table = self._mapping
        media = table.media
        for link_id, k, length_m in zip(
            table.link_ids, table.medium.tolist(), table.length_m.tolist(), strict=True
        ):
            yield link_id, Fibre(*media[k], length_m)


_CHECK_SLICE = 1 << 15  # ids compared per GIL hold: ~2-5 ms of C on the machine of DESIGN.md


def kept_plant_rows(plant, fibres: Mapping) -> np.ndarray | None:
    """The plant rows a FibreTable kept for its links (``plant_rows``), when they are still
    those links' rows in ``plant`` (checked id by id: a layout may be of the plant before an
    edit); else None."""
    if not isinstance(fibres, FibreTable) or fibres.plant_rows is None:
        return None
    kept, ids, link_ids = fibres.plant_rows, plant.link_ids, fibres.link_ids
    if len(kept) != len(link_ids) or (len(kept) and int(kept.max()) >= len(ids)):
        return None
    # In slices: one C-level pass over 786k ids holds the GIL throughout (no bytecode runs to
    # hand it over), which blocked the editor's GUI thread 0.5-0.8 s at zoned XL while the
    # worker checked a layout; between slices the GUI thread gets its turn.
    for start in range(0, len(kept), _CHECK_SLICE):
        stop = start + _CHECK_SLICE
        rows = kept[start:stop].tolist()
        if not all(map(operator.eq, map(ids.__getitem__, rows), link_ids[start:stop])):
            return None
    return kept


def rows_in_plant(plant, link_ids: list[str], rows=None, kept: np.ndarray | None = None):
    """The rows of ``link_ids`` in ``plant`` (a RoutedLinks). ``rows``: their rows of a
    layout's fibre table (None: not known), ``kept``: that table's :func:`kept_plant_rows`;
    with both the rows are gathered, else each link is looked up in the plant's index (a
    393k-link dict built for it: ~0.2 s at zoned XL, ~0.1 s more per 393k look-ups)."""
    if kept is not None and rows is not None:
        return kept[np.asarray(rows, dtype=np.int64)]
    index = plant.index
    return np.fromiter(map(index.__getitem__, link_ids), np.int64, len(link_ids))


def channel_plant_rows(plant, table) -> np.ndarray:
    """Per row of ``table`` (a layout's :class:`~model.structured.channel_table.ChannelTable`),
    its link's row in ``plant`` (int64): gathered through the rows its fibre table kept when
    they are still ``plant``'s (:func:`kept_plant_rows`), else looked up link by link. What the
    whole-table readers map a channel row by, not a 393k-entry index of link ids."""
    known = table.fibre_rows
    rows = None
    if known is not None and len(known) == len(table.link_ids):
        rows = table.column("fibre_rows", np.int64)
    return rows_in_plant(plant, table.link_ids, rows, kept_plant_rows(plant, table.fibres))


def channel_rows_of_plant_rows(plant_rows: np.ndarray, n_plant: int) -> np.ndarray:
    """The inverse of :func:`channel_plant_rows`' ``plant_rows``: per plant row of a plant of
    ``n_plant`` links, its channel row (int64; -1 where the link has no channel through panels)."""
    out = np.full(n_plant, -1, dtype=np.int64)
    out[plant_rows] = np.arange(len(plant_rows), dtype=np.int64)
    return out


def fibre_rows(plant, fibre_of: list | None = None) -> np.ndarray:
    """The plant's rows of the links of :func:`plant_fibres`, in order: on a module medium
    whose modules take a fibre part, at an orderable length."""
    fibre_of = _medium_fibres(plant) if fibre_of is None else fibre_of
    medium = np.asarray(plant.medium_index, dtype=np.int64)
    length = np.asarray(plant.ordered_m, dtype=np.float64)
    has_fibre = np.asarray([f is not None for f in fibre_of] + [False], dtype=bool)
    return np.flatnonzero((medium >= 0) & has_fibre[medium] & (length == length))


def _medium_fibres(plant) -> list:
    """Per medium of ``plant.media``: the fibre part its modules take (None: no module takes one)."""
    catalog = plant.design.catalog
    fibre_of: dict[str, object] = {}
    for part in catalog.module_parts.values():
        fibre = catalog.fibre_parts.get(part.fibre)
        if fibre is not None:
            fibre_of.setdefault(part.medium, fibre)
    return [fibre_of.get(m.id) for m in plant.media]
