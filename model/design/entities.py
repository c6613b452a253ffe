"""The records a design is made of: hall, trays, racks, devices, links and design settings.

Plain msgspec Structs (no behaviour beyond small derived properties) so that the same types are
the in-memory model and the file records. Coordinates are plan metres: origin at the top-left of
the drawing, x to the right, y down the page (as drawn on screen). Rotations are clockwise
degrees as seen on the plan; at 0 deg a rack's front faces up the page (-y).

Racks, devices, links and the links' ends, the records there are hundreds of thousands of, are
``gc=False``: the cyclic collector does not track them. They hold only strings, numbers, other such records
and containers of those, so they can make no reference cycle, and reference counting frees them
(checked in tests/model/test_gc_policy.py). Tracked, the 393k links of an XL hall made every full
collection walk them: 0.24 s of opening that file in the editor, against 0.05 s now. A link end
(:class:`PortRef`, two strings) was already left untracked by msgspec, but as a collector type it
carried the collector's 16-byte header: 786k ends at XL, ~13 MB and ~6 % of the file's decode.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import attrgetter, countOf, is_not
from typing import Annotated, Final, Literal, NoReturn

from msgspec import Meta, Struct
from msgspec.structs import replace

from model.catalog.components import DeviceRole, Ident
from model.design.limits import MAX_NAME_LENGTH

Coord = Annotated[float, Meta(ge=-1e5, le=1e5)]
Name = Annotated[str, Meta(max_length=MAX_NAME_LENGTH)]  # names and labels shown to people
Length = Annotated[float, Meta(ge=0, le=1e5)]
Point = tuple[Coord, Coord]
Rotation = Literal[0, 90, 180, 270]
MediaPolicy = Literal["lowest-cost", "lowest-power", "copper-first", "fibre-only"]
# The networks of an AI hall (a DGX SuperPOD has the first four plus NVLink scale-up).
Fabric = Literal["compute", "storage", "inband", "oob", "scale-up"]
FABRICS: tuple[str, ...] = ("compute", "storage", "inband", "oob", "scale-up")

U_HEIGHT_M = 0.04445  # EIA-310 rack unit (1.75 in)
RACK_PLINTH_M = 0.1  # height of U1's bottom above the floor (casters/plinth); estimate


class Obstacle(Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A column, CRAC unit or keep-out zone: racks must not stand on it."""

    id: Ident
    polygon: list[Point]
    kind: Literal["column", "crac", "keep-out", "other"] = "column"
    name: Name = ""
    # Schema 4: how tall it stands (None = floor to ceiling, as a column): a CRAH/CDU unit's
    # top tells whether an overhead tray may pass over it.
    height_m: Annotated[float, Meta(gt=0, le=50)] | None = None


class Dimension(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A dimension line on the plan (schema 4): the distance between two points, drawn with
    its length for the people reading the plan; nothing routes or analyses by it."""

    id: Ident
    a: Point
    b: Point


class Underlay(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The building's drawing under the plan (schema 4): a DXF, an image or a PDF page, locked.

    ``path``: the file, relative to the design file's folder where it can be (else absolute);
    ``sha256``: its content hash when placed, so an edited or replaced drawing is noticed.
    Placement: a drawing point (u, v) in drawing units (DXF units, image pixels, PDF points)
    lies on the plan at ``(origin_x_m + scale_m * u, origin_y_m -/+ scale_m * v)``: minus for
    a DXF, whose y runs up the page, plus for an image or a PDF page, whose rows run down
    (plan y runs down).
    ``rotation_deg``: the drawing then turned about that origin, clockwise on the plan as
    seen (plan y runs down); 0, the default, is left out of the file, so a file saved before
    rotation existed reads and writes unchanged.
    ``layers``: the DXF layers shown (empty = all of them).
    ``page``: the PDF's page shown (1-based); 1, the default, is left out of the file, so files
    saved before PDF underlays read and write unchanged.
    """

    # No control characters: a NUL makes every file call raise, and none names a real file.
    path: Annotated[str, Meta(min_length=1, max_length=4096, pattern=r"^[^\x00-\x1f]+$")]
    sha256: Annotated[str, Meta(pattern=r"^[0-9a-f]{64}$")]
    kind: Literal["dxf", "image", "pdf"]
    origin_x_m: Coord = 0.0
    origin_y_m: Coord = 0.0
    scale_m: Annotated[float, Meta(gt=0, le=1e4)] = 1.0
    rotation_deg: Annotated[float, Meta(gt=-180, le=180)] = 0.0
    layers: Annotated[tuple[Name, ...], Meta(max_length=10_000)] = ()
    page: Annotated[int, Meta(ge=1, le=100_000)] = 1


Current = Literal["ac", "dc"]
Redundancy = Literal["N", "N+1", "2N"]


class PowerFeed(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A power source of the hall: a utility or UPS output on side A or B, with its rating.

    Rating: ``voltage_v`` is line-to-line for 3-phase AC, the DC bus voltage for DC (800 V);
    ``current_a`` is the current per phase (the conductor's rating). The defaults (415 V
    3-phase, 400 A a feed, 250 A a busway) are estimates, no sourced figure: a design states
    its own ratings.
    """

    id: Ident
    name: Name = ""
    side: Literal["A", "B"] = "A"
    source: Literal["utility", "ups", "generator"] = "ups"
    current: Current = "ac"
    phases: Literal[1, 3] = 3
    voltage_v: Annotated[float, Meta(gt=0, le=100_000)] = 415.0
    current_a: Annotated[float, Meta(gt=0, le=100_000)] = 400.0


class PowerPanel(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A busway or power panel on the plan, fed from one feed; racks' PDUs plug into it.

    ``points``: where it runs (a busway: a polyline along the row) or stands (a panel: one
    point). Rating as :class:`PowerFeed`'s."""

    id: Ident
    feed: Ident
    points: Annotated[list[Point], Meta(min_length=1, max_length=64)]
    kind: Literal["busway", "panel"] = "busway"
    name: Name = ""
    current: Current = "ac"
    phases: Literal[1, 3] = 3
    voltage_v: Annotated[float, Meta(gt=0, le=100_000)] = 415.0
    current_a: Annotated[float, Meta(gt=0, le=100_000)] = 250.0


class Power(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The hall's power distribution: feeds, the panels/busways they feed, the redundancy the
    design asks for (``N``: no failure covered; ``N+1``: any one feed may fail; ``2N``: either
    side A or side B may fail whole). No feeds = no facility model (see model.facility)."""

    redundancy: Redundancy = "2N"
    feeds: Annotated[tuple[PowerFeed, ...], Meta(max_length=10_000)] = ()
    panels: Annotated[tuple[PowerPanel, ...], Meta(max_length=100_000)] = ()


class Cdu(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A coolant distribution unit on the plan: in-row (beside the racks it serves) or facility
    (a plant-room unit feeding a secondary loop). Racks name it in ``Rack.cooling``.

    ``capacity_kw`` is the heat it moves to the facility water; ``flow_lpm`` the secondary-loop
    flow it pumps, checked against the flow the served racks' liquid heat needs at
    ``delta_t_k`` (supply to return). The defaults are estimates, no sourced figure: a design
    states its own unit's ratings.
    """

    id: Ident
    point: Point
    kind: Literal["in-row", "facility"] = "in-row"
    name: Name = ""
    capacity_kw: Annotated[float, Meta(gt=0, le=100_000)] = 1350.0
    flow_lpm: Annotated[float, Meta(gt=0, le=1e6)] = 2000.0
    delta_t_k: Annotated[float, Meta(gt=0, le=50)] = 10.0


class Crah(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """An air handler (CRAH / fan wall) on the plan removing the air-side heat of the racks that
    name it in ``Rack.cooling`` (a row's). ``capacity_kw``: sensible cooling; the default is an
    estimate."""

    id: Ident
    point: Point
    name: Name = ""
    capacity_kw: Annotated[float, Meta(gt=0, le=100_000)] = 300.0


class Cooling(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The hall's cooling units and the redundancy asked of them (``N+1``: any one unit may
    fail and the others still carry its racks). No units = no cooling model (model.facility)."""

    redundancy: Literal["N", "N+1"] = "N"
    cdus: Annotated[tuple[Cdu, ...], Meta(max_length=10_000)] = ()
    crahs: Annotated[tuple[Crah, ...], Meta(max_length=10_000)] = ()


class Hall(Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    outline: list[Point]
    obstacles: list[Obstacle] = []
    tile_m: Annotated[float, Meta(gt=0, le=10)] = 0.6
    tray_elevation_m: Annotated[float, Meta(gt=0, le=20)] = 2.9
    raised_floor: bool = False
    floor_void_m: Annotated[float, Meta(ge=0, le=5)] = 0.6
    # The facility (schema 4; optional, omitted when empty, so v3 files load unchanged).
    power: Power = Power()
    cooling: Cooling = Cooling()
    # What the floor may carry, kg per m2 (raised-floor tiles or slab): None = not stated, then
    # floor load is reported but not checked (model.facility.floor_load).
    floor_rating_kg_m2: Annotated[float, Meta(gt=0, le=100_000)] | None = None
    underlay: Underlay | None = None  # schema 4
    dimensions: Annotated[list[Dimension], Meta(max_length=10_000)] = []  # schema 4


class Tray(Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A cable tray: a polyline at an elevation (None = the hall's tray elevation).

    ``under_floor`` trays run in the raised-floor void; their elevation is below 0.
    ``width_m`` x ``depth_m`` is the cross-section used for fill.
    """

    id: Ident
    points: list[Point]
    elevation_m: Annotated[float, Meta(ge=-5, le=20)] | None = None
    width_m: Annotated[float, Meta(gt=0, le=5)] = 0.6
    depth_m: Annotated[float, Meta(gt=0, le=2)] = 0.15
    under_floor: bool = False
    name: Name = ""


class Rack(Struct, gc=False, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A rack on the floor. ``x``, ``y`` is the centre of its footprint."""

    id: Ident
    name: Name
    type: Ident
    x: Coord
    y: Coord
    width_m: Annotated[float, Meta(gt=0, le=10)]
    depth_m: Annotated[float, Meta(gt=0, le=10)]
    height_u: Annotated[int, Meta(ge=1, le=100)]
    power_budget_kw: Annotated[float, Meta(gt=0, le=10_000)]
    rotation: Rotation = 0
    # The power panels / busways (``Hall.power.panels`` ids) its PDUs or power shelves plug
    # into, one entry per PDU; empty = the design says nothing about this rack's power path.
    pdus: Annotated[tuple[Ident, ...], Meta(max_length=64)] = ()
    # The cooling units (``Hall.cooling`` CDUs and CRAHs) serving it: its liquid heat is shared
    # by its live CDUs, its air heat by its live CRAHs; empty = not in the cooling model.
    cooling: Annotated[tuple[Ident, ...], Meta(max_length=64)] = ()


class Device(Struct, gc=False, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A device of a catalog type mounted in a rack, bottom at U ``u`` (1-based).

    ``breakout`` maps a port group name to the fan-out it is split into (e.g. {"p": 2} runs an
    SN5600's 64 x 800G as 128 x 400G, ports p1/1, p1/2, ...). ``fabric`` is the network a
    switch belongs to (None: derived from its role, see :mod:`model.design.fabrics`); servers and
    appliances span several fabrics and leave it None.
    """

    id: Ident
    name: Name
    type: Ident
    rack: Ident
    u: Annotated[int, Meta(ge=1, le=100)]
    role: DeviceRole
    breakout: dict[str, Annotated[int, Meta(ge=2, le=8)]] = {}
    fabric: Fabric | None = None


class PortRef(Struct, array_like=True, frozen=True, gc=False, forbid_unknown_fields=True):
    """One end of a link: device id and port name. Stored as ``["dev", "port"]`` (exactly two
    elements: a third would be dropped on save, so the file is refused instead)."""

    device: Ident
    port: Ident


PolarityKey = Annotated[str, Meta(pattern=r"^(cord|trunk|cassette)-[1-9][0-9]?$")]
PolarityValue = Annotated[str, Meta(pattern=r"^(A|B|C|AB|AA)(@[1-9][0-9]?)?$")]


class SharedEmptyRecord(dict[str, str]):
    """The type of :data:`NO_POLARITY`: an empty dict that refuses every change.

    Why: a ``{}`` default gives each record a dict of its own (msgspec copies an empty dict
    default per instance), 393k empty dicts at XL: ~25 MB and ~20 ms of the file's decode.
    One value shared by every link is safe only if nobody can change it; a link's record is
    replaced, never changed in place (``msgspec.structs.replace``, ``Design.update_links``)."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("the empty polarity record is shared by every link: replace it instead")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> str:
        # pickle and copy give back the shared value itself, so a copied link still saves
        # without the field (omit_defaults compares the default by identity)
        return "NO_POLARITY"


# The polarity record of every link without one. A link whose record is some other empty
# dict saves it as ``"polarity": {}``: the file gate (model.files.design_file) and the edit
# API (model.design.links) put this one in its place (share_empty_polarity).
NO_POLARITY: Final = SharedEmptyRecord()
_POLARITY = attrgetter("polarity")


def share_empty_polarity(links: list[Link]) -> list[Link]:
    """``links``, any whose polarity record is empty but not :data:`NO_POLARITY` replaced by
    one holding it (the list itself when there is none, found in one pass in C)."""
    if not any(map(is_not, map(_POLARITY, links), repeat(NO_POLARITY))):
        return links
    return [
        link
        if link.polarity or link.polarity is NO_POLARITY
        else replace(link, polarity=NO_POLARITY)
        for link in links
    ]


_EXTRAS = attrgetter("medium", "label", "via", "as_built_pieces_m")
_NO_EXTRAS = ("auto", "", (), ())


def plain_links(links: Sequence[Link]) -> bool:
    """True when no link pins a medium or has a label, a via, recorded pieces or any polarity
    record but :data:`NO_POLARITY` (what a generated hall's links all are): then the loader's
    checks of those fields have nothing to look at. Two passes in C (~55 ms at XL), where the
    loader asked each field of every link on its own (six passes, ~75 ms)."""
    return countOf(map(_EXTRAS, links), _NO_EXTRAS) == len(links) and not any(
        map(is_not, map(_POLARITY, links), repeat(NO_POLARITY))
    )


class Link(Struct, gc=False, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A cable between two ports.

    ``medium`` is "auto" (the engine chooses) or a pinned media type id. ``length_override_m`` is
    a length the user typed; ``as_built_m`` a measured one. Neither is ever overwritten by the
    routed estimate, which is derived data and not stored. ``fabric`` pins the link to a network;
    None (the usual case) derives it from the switch port it plugs into (:mod:`model.design.fabrics`).
    """

    id: Ident
    a: PortRef
    b: PortRef
    medium: Ident = "auto"
    length_override_m: Length | None = None
    as_built_m: Length | None = None
    label: Name = ""
    fabric: Fabric | None = None
    # Structured cabling (schema 3): the patch-panel devices the link's channel passes, A end to
    # B end (model.design.structured_edit.route_via); empty = the design's cabling style chooses.
    via: Annotated[tuple[Ident, ...], Meta(max_length=16)] = ()
    # The as-installed polarity of elements of the link's channel where it differs from what the
    # cabling style lays out (model.structured.link_polarity): element key ("cord-2", "trunk-1",
    # "cassette-1") -> "A" / "B" / "C" / "AB" / "AA", a cassette's optionally "@port".
    polarity: Annotated[dict[PolarityKey, PolarityValue], Meta(max_length=32)] = NO_POLARITY
    # The as-built lengths of a structured link's pieces as recorded (NetBox's cables, issue
    # 40): cord at the A end, each trunk A to B, cord at the B end; None where a piece has no
    # recorded length. Empty: none recorded, the layout estimates every piece.
    as_built_pieces_m: Annotated[tuple[Length | None, ...], Meta(max_length=17)] = ()


BomCategory = Literal[
    "Racks",
    "Servers",
    "Switches",
    "Other equipment",
    "Transceivers",
    "Laser sources",
    "Cables",
    "Fibres",
    "Trunks",
    "Patch panels",
    "Trays",
    "Power and cooling",
]


# The part categories of the reliability forecast (model.analysis.reliability reads them from
# here): the file's settings may override the FIT rate of any of them.
FitCategory = Literal[
    "gpus",
    "hbm",
    "hosts",
    "nics",
    "switches",
    "nvlink_trays",
    "optics",
    "active_cables",
    "passive_cables",
    "software",
]


class Settings(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Design-wide settings that the geometry engine and the analysis read."""

    slack_per_end_m: Annotated[float, Meta(ge=0, le=20)] = 0.5
    slack_pct: Annotated[float, Meta(ge=0, le=100)] = 5.0
    tray_reach_m: Annotated[float, Meta(ge=0, le=100)] = 3.0
    tray_join_tolerance_m: Annotated[float, Meta(ge=0, le=10)] = 0.3
    media_policy: MediaPolicy = "lowest-cost"
    oversubscription_target: Annotated[float, Meta(ge=1, le=100)] = 1.0
    allreduce_message_mb: Annotated[float, Meta(gt=0, le=1e6)] = 1024.0
    # NCCL's algorithms (model.analysis.collectives.ALGORITHMS), "auto" = NCCL's own choice;
    # "hierarchical" (files before issue 37; NCCL has no such algorithm) is read as "auto".
    allreduce_algorithm: Literal[
        "auto", "ring", "tree", "nvls", "nvls-tree", "collnet", "hierarchical"
    ] = "auto"
    # Collectives: which servers a job takes (model.analysis.jobs.PLACEMENTS).
    job_placement: Literal["first", "by-su", "by-rack"] = "first"
    # All-to-all through the GPU on the destination's rail (NCCL_P2P_PXN_LEVEL=2, NCCL's
    # default since 2.12) or from each GPU's own NIC ("off": level 0); `collective --pxn` overrides.
    pxn: Literal["on", "off"] = "on"
    # How the bytes spread over equal-cost uplinks (model.analysis.collectives.ROUTINGS):
    # "auto" follows the fabric (InfiniBand and Spectrum-X: adaptive; other Ethernet: static
    # ECMP hashing, "ecmp-hash"); `collective --routing` overrides.
    routing: Literal["auto", "ideal", "ecmp-hash", "adaptive"] = "auto"
    # Reliability forecast (model.analysis.reliability): FIT per part category overriding the
    # catalog's, the job a failure interrupts (0 = every GPU of the hall) and its restart time.
    reliability_fit: dict[FitCategory, Annotated[float, Meta(ge=0, le=1e9)]] = {}
    reliability_job_gpus: Annotated[int, Meta(ge=0, le=10_000_000)] = 0
    reliability_restart_h: Annotated[float, Meta(ge=0, le=1000)] = 1.0
    # Spare parts to order, % of the plant quantity per BOM category ("Transceivers": 2.0);
    # rounded up per line, shown in the BOM's own "spares" column (default none).
    spares_pct: dict[BomCategory, Annotated[float, Meta(ge=0, le=100)]] = {}
    # Structured cabling (model.structured.layout): "direct" = one fibre per link (as before);
    # "cross-connect" = panel at the top of each rack, MPO trunks between rack panels;
    # "zones" = TIA-942 zones: rack panels trunked to their row's zone (HDA) panel, zone panels
    # trunked to the network racks' (MDA) panels.
    cabling: Literal["direct", "cross-connect", "zones"] = "direct"
    # Racks the optimiser (model.optimise) never moves: the user's locks, by rack id.
    locked_racks: tuple[str, ...] = ()
    # Optics strategy per switch tier (issue 39): "pluggable" DSP modules (the default),
    # "linear" linear-drive (LPO) modules where the catalog has one for the cage (the engine,
    # model.engine.cages.device_optics), "co-packaged" the tier's switches are co-packaged
    # types (no module per port; external laser sources), set by the generators with the types.
    optics_strategy: dict[
        Literal["leaf", "spine", "core"], Literal["pluggable", "linear", "co-packaged"]
    ] = {}
    # NetBox names (schema 4) used by export-netbox when its options do not name them: the
    # site, the location within it and the tenant; "" = the exporter's own default.
    netbox_site: Name = ""
    netbox_location: Name = ""
    netbox_tenant: Name = ""


ENTITY_KINDS = ("trays", "racks", "devices", "links")


def plan_size(width_m: float, depth_m: float, rotation: int) -> tuple[float, float]:
    """Plan size (along x, along y) of a rack footprint turned by ``rotation`` degrees."""
    return (width_m, depth_m) if rotation in (0, 180) else (depth_m, width_m)


def port_height_m(rack: Rack, device_u: int, device_u_height: int) -> float:
    """Height above the floor of a device's ports: the middle of the device's U span."""
    return RACK_PLINTH_M + (device_u - 1 + device_u_height / 2) * U_HEIGHT_M


def new_id_factory(prefix: str, existing: set[str] | dict[str, object]) -> str:
    """The first free id of the form ``{prefix}-{n}`` (used by the edit API and generators)."""
    n = len(existing) + 1
    while f"{prefix}-{n}" in existing:
        n += 1
    return f"{prefix}-{n}"


# C-level readers of a link's ends and an end's fields, for ``map`` over many links (a Python
# loop over the 786k ends of an XL hall costs ~0.3 s a pass).
LINK_A, LINK_B = attrgetter("a"), attrgetter("b")
END_DEVICE, END_PORT = attrgetter("device"), attrgetter("port")

__all__ = [
    "END_DEVICE",
    "END_PORT",
    "LINK_A",
    "LINK_B",
    "NO_POLARITY",
    "Device",
    "Dimension",
    "ENTITY_KINDS",
    "FABRICS",
    "Fabric",
    "Hall",
    "Link",
    "Obstacle",
    "Point",
    "PortRef",
    "Cdu",
    "Cooling",
    "Crah",
    "Power",
    "PowerFeed",
    "PowerPanel",
    "Rack",
    "Settings",
    "SharedEmptyRecord",
    "Tray",
    "Underlay",
    "U_HEIGHT_M",
    "RACK_PLINTH_M",
    "new_id_factory",
    "plain_links",
    "plan_size",
    "port_height_m",
    "share_empty_polarity",
]
