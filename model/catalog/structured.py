"""Structured-cabling catalog: patch panels, cassettes, enclosures, MPO trunks, channel figures.

Loaded from ``resources/catalog/structured/structured.json`` (a sub-folder so the device/media
catalog loader, which refuses unknown sections, is untouched). It holds:

* connector losses per mated pair (MPO 0.35 dB, LC 0.25 dB) and fibre attenuation per mode
  (MMF 3.0 dB/km, OS2 0.4 dB/km) — domain-facts §1a / §8a NV-STRUCT;
* the channel insertion-loss limit of each module medium (TIA-FOTC where domain-facts gives one,
  otherwise marked ``estimate``), with the panel-count reach rule (NV-STRUCT: 100G-lane
  multimode 50 m with up to two patch panels);
* panels (adapter panels, enclosures and cassettes) with front and rear connectors, ports and U;
* MPO trunks by fibre count (8/12/16/24) and mode, at orderable lengths.

Trunk polarity (Type A/B/C) is a property of the installed trunk, not a separate part, so it is
a field of the channel element (:mod:`model.structured.channels`), not of the trunk part.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

from model.catalog.components import CATALOG_DIR

STRUCTURED_FILE = CATALOG_DIR / "structured" / "structured.json"

_Id = Annotated[str, Meta(min_length=1, max_length=200)]
_Db = Annotated[float, Meta(ge=0, le=100)]
_Metres = Annotated[float, Meta(gt=0, le=1e5)]
_Usd = Annotated[float, Meta(ge=0, le=1e9)]
Connector = Literal["MPO", "LC"]
Mode = Literal["mmf", "smf"]


class ConnectorLoss(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    connector: Connector
    mated_pair_db: _Db
    source: _Id
    notes: str = ""


class FibreAttenuation(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    mode: Mode
    db_per_km: _Db
    source: _Id
    notes: str = ""


class ChannelLimit(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    medium: _Id
    il_db: _Db  # the PMD's channel insertion-loss limit
    max_panels: Annotated[int, Meta(ge=0, le=16)] | None = None  # None: no panel rule known
    reach_with_panels_m: _Metres | None = None  # reach once the channel has any panel
    source: _Id
    notes: str = ""


class PanelPart(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: _Id
    kind: Literal["panel", "enclosure", "cassette"]
    part_number: _Id
    vendor: str
    description: str
    u: Annotated[int, Meta(ge=0, le=8)]  # 0: a cassette sits in an enclosure's slot
    front_connector: Connector
    front_ports: Annotated[int, Meta(ge=1, le=1000)]
    rear_connector: Connector
    rear_ports: Annotated[int, Meta(ge=1, le=1000)]
    slots: Annotated[int, Meta(ge=0, le=64)] = 0  # cassettes an enclosure holds
    polarity: Literal["A", "B"] = "A"  # cassettes: LC port k A/B <-> MPO 2k-1/2k (A) or flipped
    price_usd: _Usd
    source: _Id
    notes: str = ""

    @property
    def mated_pairs(self) -> tuple[Connector, ...]:
        """Connector pairs a fibre passes through this part: adapter 1, cassette 2 (front+rear)."""
        if self.kind == "cassette":
            return (self.front_connector, self.rear_connector)
        return (self.front_connector,)


class TrunkPart(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: _Id
    mode: Mode
    fibres: Literal[8, 12, 16, 24, 48, 144]
    part_number: _Id
    description: str
    lengths_m: tuple[_Metres, ...]
    diameter_mm: Annotated[float, Meta(gt=0, le=100)]  # tray fill
    weight_kg_per_m: Annotated[float, Meta(ge=0, le=100)]  # tray load
    price_usd: _Usd
    price_per_m_usd: _Usd
    source: _Id
    notes: str = ""


class SkewRule(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Length mismatch allowed between the fibres of one module: skew limit / delay per metre."""

    max_skew_ns: Annotated[float, Meta(gt=0, le=1e6)]
    delay_ns_per_m: Annotated[float, Meta(gt=0, le=100)]
    source: _Id
    notes: str = ""

    @property
    def max_difference_m(self) -> float:
        return self.max_skew_ns / self.delay_ns_per_m


class BendRule(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Minimum static bend radius of a family of cables: ``times_od`` x diameter, at least
    ``min_mm``. Families: copper (dac, acc, aec, utp), aoc, fibre (module fibres and trunks)."""

    family: Literal["copper", "aoc", "fibre"]
    times_od: Annotated[float, Meta(ge=0, le=100)] = 0.0
    min_mm: Annotated[float, Meta(ge=0, le=10_000)] = 0.0
    source: _Id
    notes: str = ""

    def radius_mm(self, diameter_mm: float) -> float:
        return max(self.times_od * diameter_mm, self.min_mm)


class TrayClass(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The load class and corner radius assumed for every tray of a design."""

    load_class: str
    load_kg_per_m: Annotated[float, Meta(gt=0, le=10_000)]
    corner_radius_mm: Annotated[float, Meta(gt=0, le=10_000)]
    source: _Id
    notes: str = ""


class StructuredFile(Struct, kw_only=True, forbid_unknown_fields=True):
    about: str = ""
    skew: SkewRule | None = None
    tray_class: TrayClass | None = None
    bend_rules: list[BendRule] = []
    connector_losses: list[ConnectorLoss] = []
    fibre_attenuations: list[FibreAttenuation] = []
    channel_limits: list[ChannelLimit] = []
    panels: list[PanelPart] = []
    trunks: list[TrunkPart] = []


class StructuredCatalog:
    """Lookups of the structured-cabling file by connector, mode, medium and part id."""

    def __init__(self, data: StructuredFile) -> None:
        self.connector_loss_db: dict[str, float] = {
            c.connector: c.mated_pair_db for c in data.connector_losses
        }
        self.attenuation_db_per_km = {f.mode: f.db_per_km for f in data.fibre_attenuations}
        self.limits = {c.medium: c for c in data.channel_limits}
        self.panels = {p.id: p for p in data.panels}
        self.skew = data.skew
        self.tray_class = data.tray_class
        self.bend_rules: dict[str, BendRule] = {b.family: b for b in data.bend_rules}
        self.trunks = {t.id: t for t in data.trunks}
        for table, items, kind in (
            (self.limits, data.channel_limits, "channel limit"),
            (self.panels, data.panels, "panel"),
            (self.trunks, data.trunks, "trunk"),
        ):
            if len(table) != len(items):
                raise ValueError(f"structured catalog: duplicate {kind} id")
        # (connector family, panel parts) -> mated pairs and their loss: a hall's channels
        # have a few shapes, and the analysis asks for each of 393k channels' budget twice.
        self._pairs: dict[tuple[str, tuple[str, ...]], tuple[tuple[str, ...], float]] = {}

    def mated_pairs(self, family: str, parts: tuple[str, ...]) -> tuple[tuple[str, ...], float]:
        """(connector family of every mated pair, their loss in dB) of a channel of connector
        ``family`` through the panel or cassette ``parts`` in path order (an unknown part: an
        adapter of the channel's own family)."""
        key = (family, parts)
        got = self._pairs.get(key)
        if got is None:
            out: list[str] = []
            for part_id in parts:
                part = self.panels.get(part_id)
                if part is None:
                    out.append(family)
                else:
                    out.extend(part.mated_pairs)
            pairs = tuple(out)
            got = self._pairs[key] = (pairs, sum(self.connector_loss_db[c] for c in pairs))
        return got

    def bend_radius_mm(self, kind: str, diameter_mm: float) -> float:
        """Minimum static bend radius of a cable of medium ``kind`` (or "trunk") and diameter."""
        family = (
            "aoc" if kind == "aoc" else "fibre" if kind in ("mmf", "smf", "trunk") else "copper"
        )
        rule = self.bend_rules.get(family)
        return rule.radius_mm(diameter_mm) if rule else 0.0

    def trunk_for(self, mode: str, fibres: int) -> TrunkPart | None:
        """The smallest trunk of ``mode`` with at least ``fibres`` fibres."""
        fits = [t for t in self.trunks.values() if t.mode == mode and t.fibres >= fibres]
        return min(fits, key=lambda t: t.fibres, default=None)


def load_structured_file(path: Path) -> StructuredFile:
    return msgspec.json.decode(path.read_bytes(), type=StructuredFile)


@lru_cache(maxsize=1)
def structured_catalog() -> StructuredCatalog:
    """The bundled structured-cabling catalog (loaded once)."""
    return StructuredCatalog(load_structured_file(STRUCTURED_FILE))
