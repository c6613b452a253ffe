"""Component catalog: device types, rack types and media types, loaded from resources/catalog.

Units: metres, Gb/s (per direction), watts, US dollars (indicative). Every entry names the row of
``domain-facts.md`` its figures come from in ``source`` (or says ``"estimate"``).

Per-direction bandwidth everywhere: a 400G NIC moves 400 Gb/s each way, and NVLink's
"900 GB/s bidirectional" per H100 GPU is stored as 450 GB/s = 3,600 Gb/s per direction, so that
scale-up and scale-out numbers compare like with like.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from pathlib import Path
from typing import Annotated, Literal, Protocol, TypeVar, get_args

import msgspec
from msgspec import Meta, Struct

from model.catalog.nics import NicType, group_problem
from model.catalog.parts import (
    CablePart,
    FacilityPart,
    FibrePart,
    LaserSourcePart,
    ModulePart,
    TrayProduct,
)

CATALOG_DIR = Path(__file__).resolve().parents[2] / "resources" / "catalog"
SOURCES_FILE = CATALOG_DIR / "sources.json"  # the documents behind each ``source`` key

# Bounded numbers: a design or catalog file with 1e308 or a negative length is refused with the
# JSON path of the bad value, instead of poisoning the geometry engine later.
PositiveFloat = Annotated[float, Meta(gt=0, le=1e7)]
NonNegFloat = Annotated[float, Meta(ge=0, le=1e9)]
PositiveInt = Annotated[int, Meta(ge=1, le=1_000_000)]
NonNegInt = Annotated[int, Meta(ge=0, le=1_000_000)]
Ident = Annotated[str, Meta(min_length=1, max_length=200)]

PortRole = Literal["compute", "storage", "frontend", "management", "scale-up"]
DeviceCategory = Literal["server", "switch", "nvlink-switch", "patch-panel", "storage", "other"]
DeviceRole = Literal[
    "gpu-server",
    "leaf",
    "spine",
    "core",
    "nvlink-switch",
    "storage",
    "management",
    "patch-panel",
    "switch",
]
# Every device role, in the catalog's order (the plan legend, the inspector's role list and the
# NetBox import's known roles all follow it).
DEVICE_ROLES: tuple[str, ...] = get_args(DeviceRole)
MediumKind = Literal["dac", "acc", "aec", "aoc", "mmf", "smf", "utp", "backplane"]
# Medium-kind groups: how the plan, the links table and the charts bundle media kinds (one
# colour and one filter per group). "none" is a link with no medium.
MEDIUM_GROUPS: dict[str, tuple[str, ...]] = {
    "copper": ("dac", "acc", "aec", "utp", "backplane"),
    "aoc": ("aoc",),
    "mmf": ("mmf",),
    "smf": ("smf",),
}
MEDIUM_GROUP_LABELS = {"copper": "copper", "aoc": "AOC", "mmf": "multimode", "smf": "single-mode"}
NO_MEDIUM_GROUP = "none"
COPPER_KINDS = frozenset(MEDIUM_GROUPS["copper"])
OPTICAL_KINDS = frozenset({"aoc", "mmf", "smf"})


def medium_group(kind: str | None) -> str:
    """The group of a medium kind (``"none"`` for no medium or an unknown kind)."""
    for group, kinds in MEDIUM_GROUPS.items():
        if kind in kinds:
            return group
    return NO_MEDIUM_GROUP


class Breakout(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One way a port can be split: ``fanout`` ports of ``speed_gbps`` over ``lanes`` lanes each."""

    fanout: PositiveInt
    speed_gbps: PositiveFloat
    lanes: PositiveInt


class PortGroup(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A set of identical ports on a device type.

    Ports are named ``{name}{i}`` (1-based), or ``{name}{i}/{j}`` when the device breaks the group
    out. ``ports_per_cage`` is 2 for NVIDIA twin-port OSFP cages: one transceiver module serves
    two logical ports, which is how modules are counted.
    """

    name: Ident
    role: PortRole
    count: PositiveInt
    speed_gbps: PositiveFloat
    lanes: PositiveInt
    form_factor: Ident
    ports_per_cage: PositiveInt = 1
    breakouts: tuple[Breakout, ...] = ()
    # Which module heat sink the cage takes: "" = by the device's category (switch cages are
    # finned/IHS, server cages flat/riding heat sink, domain-facts §4 OSFP).
    cage_heatsink: Literal["", "finned", "flat"] = ""
    # The family of the silicon behind these cages when it differs from the device's (a DGX's
    # ConnectX-7 NIC cages): what a part's ``hosts`` list is checked against.
    family: str = ""
    # A host NIC's default names, port by port (port i is entry i-1): the OS network interface
    # (``ip address show``: "ibp24s0") and the RDMA device ("mlx5_0"). Tools such as NVIDIA's
    # Cable Validation Tool name host ports by them; empty where the vendor publishes none.
    os_interfaces: Annotated[tuple[Ident, ...], Meta(max_length=1024)] = ()
    rdma_devices: Annotated[tuple[Ident, ...], Meta(max_length=1024)] = ()
    # The NIC or DPU type (model.catalog.nics) whose ports these are ("": not declared); the
    # catalog checks the group is one of its modes, the analysis each link's protocol.
    nic: str = ""

    @property
    def lane_rate_gbps(self) -> float:
        return self.speed_gbps / self.lanes

    def breakout(self, fanout: int) -> Breakout | None:
        for option in self.breakouts:
            if option.fanout == fanout:
                return option
        return None


class GpuSpec(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """GPUs in a device and their scale-up (NVLink) domain.

    ``scale_up_domain`` is ``"device"`` when the NVLink domain is inside the box (DGX H100: 8 GPUs)
    or ``"links"`` when it is built from scale-up links to NVLink switch trays (GB200 NVL72).
    """

    count: PositiveInt
    model: Ident
    scale_up_gbps_per_gpu: NonNegFloat
    scale_up_domain: Literal["device", "links"] = "device"
    scale_up_domain_gpus: PositiveInt = 8
    power_w_per_gpu: NonNegFloat = 0.0
    # The scale-up technology by its name (what the analysis and BOM call the layer and its
    # switch trays): NVIDIA's NVLink, AMD Helios's UALink, an MI355X node's Infinity Fabric.
    scale_up_link: Literal["NVLink", "UALink", "Infinity Fabric"] = "NVLink"


def scale_up_name(device_types: Iterable[DeviceType]) -> str:
    """The scale-up technology of the GPU device types given ("NVLink", "UALink", both joined
    by " / " in a mixed hall; "NVLink" when none has a scale-up layer, the catalog's default)."""
    names = sorted(
        {t.gpus.scale_up_link for t in device_types if t.gpus and t.gpus.scale_up_gbps_per_gpu > 0}
    )
    return " / ".join(names) or "NVLink"


class DeviceType(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: Ident
    vendor: str
    model: str
    category: DeviceCategory
    default_role: DeviceRole
    u_height: PositiveInt
    depth_m: PositiveFloat = 0.8
    power_typical_w: NonNegFloat
    power_max_w: NonNegFloat
    price_usd: NonNegFloat = 0.0
    ports_face: Literal["front", "rear"] = "rear"
    # Switch or NIC family ("Quantum-2", "Spectrum-4", "Tomahawk-5", "ConnectX-7"): the plug
    # rules admit a part into this device's cages only where its vendor lists the family.
    family: str = ""
    # The vendor's orderable number where a source of the catalog publishes it ("": none, the
    # BOM line reads "quote"); never the catalog id.
    part_number: str = ""
    gpus: GpuSpec | None = None
    port_groups: tuple[PortGroup, ...] = ()
    source: Ident
    notes: str = ""
    # Facility (model.facility): mass with its rails, and the share of its heat its cold plates
    # take to liquid (0 = air-cooled; the rest goes to the room's air).
    weight_kg: NonNegFloat = 0.0
    liquid_fraction: Annotated[float, Meta(ge=0, le=1)] = 0.0
    # Where the reference architecture racks this server (generators' default; overridable).
    rack_type: Ident | None = None
    servers_per_rack: PositiveInt | None = None
    # Rack PDUs the reference architecture puts in a rack of these servers (generated
    # facility; None: two, one per side). DGX H100: 3 (NV-SP-H100-T7: 96 PDUs, 32 compute racks).
    rack_pdus: Annotated[int, Meta(ge=1, le=64)] | None = None
    # A co-packaged (CPO) switch: the LaserSourcePart id of its external laser sources and how
    # many it takes (its ports have no module; their light comes from these).
    laser_source: str = ""
    laser_sources: NonNegInt = 0
    # The co-packaged switch of the same family and port count that replaces this one when a
    # tier's optics strategy is "co-packaged" (generators; "" = none sold).
    co_packaged_twin: str = ""
    # The protocol a switch runs ("" = not declared): what a NIC port cabled to it must run.
    protocol: Literal["", "infiniband", "ethernet"] = ""

    def port_group(self, name: str) -> PortGroup | None:
        for group in self.port_groups:
            if group.name == name:
                return group
        return None

    def ports_of_role(self, role: str) -> tuple[PortGroup, ...]:
        return tuple(g for g in self.port_groups if g.role == role)

    @property
    def gpu_count(self) -> int:
        return self.gpus.count if self.gpus else 0


class RackType(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: Ident
    vendor: str = ""
    model: str
    width_m: PositiveFloat
    depth_m: PositiveFloat
    height_u: PositiveInt
    power_budget_kw: PositiveFloat
    price_usd: NonNegFloat = 0.0
    # Mass of the rack without its catalog devices (frame, doors, PDUs or power shelves,
    # manifolds, an NVL72's NVLink spine): the facility's floor load adds the devices'.
    empty_weight_kg: NonNegFloat = 0.0
    # Power shelves built into the rack (its ``Rack.pdus`` entries are these, priced in the
    # rack) and whether its coolant manifold comes with it (an NVL72: 8 shelves, INTROL-GB300).
    power_shelves: Annotated[int, Meta(ge=0, le=64)] = 0
    liquid_manifold: bool = False
    # The facility parts (model.facility.parts) of each Rack.pdus entry and of the busway
    # tap-off feeding it, where the rack's own differ from the first of their kind: a Vera
    # Rubin rack's 110 kW shelves, a Kyber rack's 800 V DC feed ("" = the first of the kind).
    power_part: str = ""
    tap_part: str = ""
    # "patch": a dedicated patch (cross-connect) rack holding only panels, where the network
    # racks of its row put the panels they have no U for (model.structured.paths.PanelPool).
    role: Literal["", "patch"] = ""
    # The power the rack itself takes ("" = any: its shelves or PDUs convert): a Kyber rack
    # takes 800 V DC straight from the hall's busway, so a panel of another kind cannot feed it
    # (model.facility.power_checks).
    feed_current: Literal["", "ac", "dc"] = ""
    feed_voltage_v: NonNegFloat = 0.0
    source: Ident
    notes: str = ""


class MediaType(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A cable or optic choice for links of given speeds.

    Price of one link = 2 x ``price_per_end_usd`` (the transceivers, 0 for a cable with
    integrated ends) + ``cable_price_usd`` + ``cable_price_per_m_usd`` x ordered length.
    ``modules_per_link`` is what the BOM counts as transceivers: 2 for optics and active cables'
    ends as the catalog defines them, 0 for passive copper.
    """

    id: Ident
    name: str
    kind: MediumKind
    speeds_gbps: tuple[PositiveFloat, ...]
    lane_rates_gbps: tuple[PositiveFloat, ...]
    form_factors: tuple[Ident, ...]
    reach_m: PositiveFloat
    min_length_m: NonNegFloat = 0.0
    orderable_lengths_m: tuple[PositiveFloat, ...] = ()
    length_step_m: NonNegFloat = 0.0
    power_per_end_w: NonNegFloat
    price_per_end_usd: NonNegFloat = 0.0
    cable_price_usd: NonNegFloat = 0.0
    cable_price_per_m_usd: NonNegFloat = 0.0
    modules_per_link: NonNegInt = 0
    # A splitter cable family: only a cage whose ports go to single-port cages can take one, so
    # it is a candidate of the per-cage choice (model.engine.cages), never of a lone link.
    splitter: bool = False
    cable_diameter_mm: PositiveFloat
    weight_kg_per_m: NonNegFloat
    netbox_type: str = ""
    source: Ident
    notes: str = ""

    @property
    def is_copper(self) -> bool:
        return self.kind in COPPER_KINDS

    def ordered_length(self, length_m: float) -> float | None:
        """The shortest orderable length >= ``length_m``; None when none is long enough.

        Media with a list of lengths round up to the next one; media cut to length (fibre
        trunks, ``length_step_m`` > 0) round up to the step.
        """
        if self.orderable_lengths_m:
            for candidate in self.orderable_lengths_m:
                if candidate + 1e-9 >= length_m:
                    return candidate
            return None
        if self.length_step_m > 0:
            steps = -(-length_m // self.length_step_m)
            ordered = max(steps * self.length_step_m, self.length_step_m)
            return ordered if ordered <= self.reach_m + 1e-9 else None
        return length_m if length_m <= self.reach_m + 1e-9 else None


class CatalogFile(Struct, kw_only=True, forbid_unknown_fields=True):
    """The layout of one ``resources/catalog/*.json`` file and of a design's custom types."""

    device_types: list[DeviceType] = []
    rack_types: list[RackType] = []
    media_types: list[MediaType] = []
    module_parts: list[ModulePart] = []
    cable_parts: list[CablePart] = []
    fibre_parts: list[FibrePart] = []
    tray_products: list[TrayProduct] = []
    laser_source_parts: list[LaserSourcePart] = []
    nic_types: list[NicType] = []
    facility_parts: list[FacilityPart] = []


class CatalogError(ValueError):
    """A catalog file is malformed or contradicts itself."""


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


_Entry = TypeVar("_Entry", bound=_Identified)


def _index(
    kind: str,
    table: dict[str, _Entry],
    items: Iterable[_Entry],
    media: Mapping[str, MediaType] | None = None,
) -> None:
    """Add ``items`` to ``table`` by id: a repeated id is a :class:`CatalogError`, and so is a
    part naming a medium that ``media`` (when given) lacks."""
    for item in items:
        if item.id in table:
            raise CatalogError(f"duplicate {kind} id {item.id!r}")
        medium = getattr(item, "medium", None)
        if media is not None and medium is not None and medium not in media:
            raise CatalogError(f"{kind} {item.id!r} names unknown medium {medium!r}")
        table[item.id] = item


class Catalog:
    """Lookup of device, rack and media types by id. Immutable once built."""

    def __init__(
        self,
        device_types: Iterable[DeviceType] = (),
        rack_types: Iterable[RackType] = (),
        media_types: Iterable[MediaType] = (),
        parts: CatalogFile | None = None,
    ) -> None:
        self.device_types: dict[str, DeviceType] = {}
        self.rack_types: dict[str, RackType] = {}
        self.media_types: dict[str, MediaType] = {}
        _index("device type", self.device_types, device_types)
        _index("rack type", self.rack_types, rack_types)
        _index("media type", self.media_types, media_types)
        parts = parts or CatalogFile()
        self.module_parts: dict[str, ModulePart] = {}
        self.cable_parts: dict[str, CablePart] = {}
        self.fibre_parts: dict[str, FibrePart] = {}
        self.tray_products: dict[str, TrayProduct] = {}
        self.laser_source_parts: dict[str, LaserSourcePart] = {}
        self.facility_parts: dict[str, FacilityPart] = {}
        media = self.media_types
        _index("module part", self.module_parts, parts.module_parts, media)
        _index("cable part", self.cable_parts, parts.cable_parts, media)
        _index("fibre part", self.fibre_parts, parts.fibre_parts, media)
        _index("tray product", self.tray_products, parts.tray_products, media)
        _index("laser source part", self.laser_source_parts, parts.laser_source_parts, media)
        _index("facility part", self.facility_parts, parts.facility_parts, media)
        self.nic_types: dict[str, NicType] = {}
        for nic in parts.nic_types:
            if nic.id in self.nic_types:
                raise CatalogError(f"duplicate NIC type id {nic.id!r}")
            self.nic_types[nic.id] = nic
        for rtype in self.rack_types.values():
            for part_id in (rtype.power_part, rtype.tap_part):
                # A catalog without facility parts leaves the lines out (model.facility.parts).
                if part_id and self.facility_parts and part_id not in self.facility_parts:
                    raise CatalogError(
                        f"rack type {rtype.id!r} names unknown facility part {part_id!r}"
                    )
        for dtype in self.device_types.values():
            if dtype.laser_sources and dtype.laser_source not in self.laser_source_parts:
                raise CatalogError(
                    f"device type {dtype.id!r} names unknown laser source {dtype.laser_source!r}"
                )
            self._check_nics(dtype)

    def _check_nics(self, dtype: DeviceType) -> None:
        """A port group naming a NIC must be one of that NIC's modes, in one of its cages."""
        for group in dtype.port_groups:
            if not group.nic:
                continue
            nic = self.nic_types.get(group.nic)
            if nic is None:
                raise CatalogError(f"device type {dtype.id!r} names unknown NIC {group.nic!r}")
            why = group_problem(nic, group)
            if why:
                raise CatalogError(f"device type {dtype.id!r}: {why}")

    def parts_file(self) -> CatalogFile:
        """The parts tables as a CatalogFile (to extend or copy this catalog)."""
        return CatalogFile(
            module_parts=list(self.module_parts.values()),
            cable_parts=list(self.cable_parts.values()),
            fibre_parts=list(self.fibre_parts.values()),
            tray_products=list(self.tray_products.values()),
            laser_source_parts=list(self.laser_source_parts.values()),
            nic_types=list(self.nic_types.values()),
            facility_parts=list(self.facility_parts.values()),
        )

    def device_type(self, type_id: str) -> DeviceType:
        try:
            return self.device_types[type_id]
        except KeyError:
            raise CatalogError(f"unknown device type {type_id!r}") from None

    def rack_type(self, type_id: str) -> RackType:
        try:
            return self.rack_types[type_id]
        except KeyError:
            raise CatalogError(f"unknown rack type {type_id!r}") from None

    def media_type(self, media_id: str) -> MediaType:
        try:
            return self.media_types[media_id]
        except KeyError:
            raise CatalogError(f"unknown media type {media_id!r}") from None

    def extended(self, custom: CatalogFile) -> Catalog:
        """A new catalog with ``custom`` entries added (a design's own types)."""
        return Catalog(
            [*self.device_types.values(), *custom.device_types],
            [*self.rack_types.values(), *custom.rack_types],
            [*self.media_types.values(), *custom.media_types],
            CatalogFile(
                module_parts=[*self.module_parts.values(), *custom.module_parts],
                cable_parts=[*self.cable_parts.values(), *custom.cable_parts],
                fibre_parts=[*self.fibre_parts.values(), *custom.fibre_parts],
                tray_products=[*self.tray_products.values(), *custom.tray_products],
                laser_source_parts=[
                    *self.laser_source_parts.values(),
                    *custom.laser_source_parts,
                ],
                nic_types=[*self.nic_types.values(), *custom.nic_types],
                facility_parts=[*self.facility_parts.values(), *custom.facility_parts],
            ),
        )

    @cached_property
    def media_by_kind(self) -> dict[str, tuple[MediaType, ...]]:
        out: dict[str, list[MediaType]] = {}
        for medium in self.media_types.values():
            out.setdefault(medium.kind, []).append(medium)
        return {k: tuple(v) for k, v in out.items()}


def load_catalog_file(path: Path) -> CatalogFile:
    try:
        return msgspec.json.decode(path.read_bytes(), type=CatalogFile)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise CatalogError(f"{path.name}: {exc}") from None


_builtin: Catalog | None = None


def catalog_files() -> list[Path]:
    """The bundled catalog files, in load order (the sources file is not one of them)."""
    return sorted(p for p in CATALOG_DIR.glob("*.json") if p != SOURCES_FILE)


def builtin_catalog() -> Catalog:
    """The catalog bundled in resources/catalog (loaded once; it never changes at run time)."""
    global _builtin
    if _builtin is None:
        parts = [load_catalog_file(p) for p in catalog_files()]
        _builtin = Catalog(
            [d for p in parts for d in p.device_types],
            [r for p in parts for r in p.rack_types],
            [m for p in parts for m in p.media_types],
            CatalogFile(
                module_parts=[x for p in parts for x in p.module_parts],
                cable_parts=[x for p in parts for x in p.cable_parts],
                fibre_parts=[x for p in parts for x in p.fibre_parts],
                tray_products=[x for p in parts for x in p.tray_products],
                laser_source_parts=[x for p in parts for x in p.laser_source_parts],
                nic_types=[x for p in parts for x in p.nic_types],
                facility_parts=[x for p in parts for x in p.facility_parts],
            ),
        )
    return _builtin
