"""Placement: pack generated devices into racks, lay the racks out in rows, add trays and a hall.

The topology builders hand over an ordered list of :class:`Segment` s (one per scalable unit or
pod, plus network-only segments for spines and cores, already put in the middle of the list so
they land in the middle of the hall). Here each segment becomes a run of racks in a row: its
servers packed per rack up to the rack's power budget and U, its switches in network racks in
the middle (or at the end) of the run. Runs fill rows sized to keep the hall roughly square,
with a 2-tile cross aisle between runs. Rows alternate rotation 0 / 180 so fronts face the cold
aisle (2 tiles) and backs share the hot aisle. One overhead tray runs over each row and cross
trays join all rows. Everything is tile aligned.

Once the design is cabled, :func:`size_trays` gives each tray the smallest standard cross-section
that keeps the cables routed in it within the tray fill planning limit (the analysis' own check),
and a bank of parallel trays where one standard tray would not be enough.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, cast

import msgspec

from model.catalog.components import Catalog, DeviceRole
from model.design.design import Design
from model.design.entities import Device, Hall, Rack, Rotation, Tray
from model.generators.plans import MAX_SWITCHES_PER_NETWORK_RACK, GenerateError

if TYPE_CHECKING:
    from model.engine.routed_links import RoutedLinks
    from model.generators.cabling_session import CablingSession

Placement = Literal["middle-of-row", "end-of-row"]

TILE_M = 0.6
AISLE_TILES = 2
MARGIN_TILES = 3
RUN_GAP_TILES = 2  # cross aisle between two runs of one row
CROSS_TRAY_EVERY_M = 12.0
MIN_CROSS_TRAY_PITCH_M = 3.0  # extra cross trays no closer than every 5 racks
SERVER_RACK = "rack-48u-600x1200"
NETWORK_RACK = "rack-48u-600x1200"
FIRST_U = 2  # U1 left free (cable entry / PDU clearance)


@dataclass
class Unit:
    """Devices that go into one rack together: one server, or a whole NVL72 rack's trays.

    ``members`` are (device id, type id, role, U offset from the unit's bottom, breakout).
    """

    members: list[tuple[str, str, str, int, dict[str, int]]]
    u_height: int
    power_w: float


@dataclass
class Segment:
    """One run of racks: server units packed into server racks, switches into network racks."""

    units: list[Unit] = field(default_factory=list)
    switches: list[tuple[str, str, str, dict[str, int]]] = field(default_factory=list)
    server_rack_type: str = SERVER_RACK
    units_per_rack: int | None = None  # None: as many as power and U allow
    own_row: bool = False  # a central network block (spines, cores): rows of its own
    new_row: bool = False  # start a new row (the first SU of a pod)
    # The rack its switches stand in (a Vera Rubin POD's Spectrum-6 SPX networking rack).
    network_rack_type: str = NETWORK_RACK
    # Management racks as a reference architecture fills them (the DGX H100 SuperPOD's: spines,
    # storage and in-band switches, UFM and management servers together): switches of any type
    # and single-device units share racks by U and power alone (model.generators.ra_layout).
    mixed: bool = False


@dataclass
class Layout:
    hall: Hall
    racks: list[Rack]
    devices: list[Device]
    trays: list[Tray]


def row_name(index: int) -> str:
    """A, B, ..., Z, AA, AB, ... (spreadsheet-style)."""
    name = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        name = chr(65 + rem) + name
    return name


def _units_per_rack(catalog: Catalog, segment: Segment) -> int:
    rtype = catalog.rack_type(segment.server_rack_type)
    unit = segment.units[0]
    by_power = int(rtype.power_budget_kw * 1000 // unit.power_w) if unit.power_w else 10**6
    by_u = (rtype.height_u - FIRST_U + 1) // unit.u_height
    return max(1, min(by_power, by_u, segment.units_per_rack or 10**6))


def choose_server_racks(
    catalog: Catalog,
    segments: list[Segment],
    rack_type: str | None = None,
    servers_per_rack: int | None = None,
) -> None:
    """Rack type and servers per rack of each server segment: the catalog's choice for its server
    (``DeviceType.rack_type`` / ``servers_per_rack``, e.g. DGX B300: 4 per 60 kW rack), unless the
    caller overrides them (``--rack-type``, ``--servers-per-rack``). Integrated racks (NVL72)
    keep theirs."""
    check_racking(catalog, None, rack_type, servers_per_rack)
    for segment in segments:
        if not segment.units or segment.server_rack_type != SERVER_RACK:
            continue
        first = segment.units[0].members[0]
        if first[2] != "gpu-server":
            continue
        dtype = catalog.device_types[first[1]]
        segment.server_rack_type, segment.units_per_rack = check_racking(
            catalog, dtype.id, rack_type, servers_per_rack
        )


def check_racking(
    catalog: Catalog,
    node_type: str | None,
    rack_type: str | None = None,
    servers_per_rack: int | None = None,
) -> tuple[str, int | None]:
    """(rack type, servers per rack) for ``node_type`` servers: the catalog's choice unless
    overridden; refuses an unknown rack type, a count below 1 and servers that do not fit the
    rack's U (the fabric wizard's preview asks this before anything is built)."""
    if rack_type is not None and rack_type not in catalog.rack_types:
        raise GenerateError(
            f"--rack-type {rack_type!r} is not in the catalog; choose one of "
            + ", ".join(sorted(catalog.rack_types))
        )
    if servers_per_rack is not None and (
        not isinstance(servers_per_rack, int) or servers_per_rack < 1
    ):
        raise GenerateError(
            f"--servers-per-rack must be a whole number of at least 1, not {servers_per_rack!r}"
        )
    dtype = catalog.device_types.get(node_type or "")
    if dtype is None:
        return rack_type or SERVER_RACK, servers_per_rack
    chosen = rack_type or dtype.rack_type or SERVER_RACK
    per_rack = servers_per_rack or dtype.servers_per_rack
    rtype = catalog.rack_type(chosen)
    if (per_rack or 1) * dtype.u_height > rtype.height_u - FIRST_U + 1:
        raise GenerateError(
            f"{per_rack or 1} x {dtype.id} ({dtype.u_height}U each) do not fit a "
            f"{rtype.height_u}U {rtype.id}; ask for fewer servers per rack"
        )
    return chosen, per_rack


def switch_power_max_w(catalog: Catalog, type_id: str) -> float:
    """A switch at maximum with every data port's optics at the most power-hungry medium that
    fits it: what a network rack must be able to feed (optics are not in the device figure)."""
    dtype = catalog.device_types[type_id]
    optics = 0.0
    for group in dtype.port_groups:
        fits = [
            m.power_per_end_w
            for m in catalog.media_types.values()
            if group.form_factor in m.form_factors and group.speed_gbps in m.speeds_gbps
        ]
        optics += group.count * max(fits, default=0.0)
    return dtype.power_max_w + optics


def _switches_per_rack(catalog: Catalog, type_id: str, rack_type: str = NETWORK_RACK) -> int:
    rtype = catalog.rack_type(rack_type)
    dtype = catalog.device_types[type_id]
    by_u = (rtype.height_u - FIRST_U) // dtype.u_height
    by_power = int(rtype.power_budget_kw * 1000 // max(switch_power_max_w(catalog, type_id), 1))
    return max(1, min(by_u, by_power, MAX_SWITCHES_PER_NETWORK_RACK))


# A rack before it is named and positioned: (rack type, [(device id, type, role, u, breakout)]).
_Pending = tuple[str, list[tuple[str, str, str, int, dict[str, int]]]]


def segment_rack_count(catalog: Catalog, segment: Segment) -> int:
    """Racks one run takes (its server racks and network racks), before it is laid out."""
    return len(_segment_racks(catalog, segment, "end-of-row"))


def segment_rack_pdus(catalog: Catalog, segment: Segment) -> list[int]:
    """PDUs each rack of a run will get, before it is laid out, as the facility plan gives
    them (``facility_plan.rack_pdu_count``): the most its devices' reference architecture names
    (``rack_pdus``: a DGX H100 rack 3), else two, one per side."""
    out = []
    for _rack_type, contents in _segment_racks(catalog, segment, "end-of-row"):
        asked = [catalog.device_types[c[1]].rack_pdus or 0 for c in contents]
        out.append(max([2, *asked]) if any(asked) else 2)
    return out


def _segment_racks(catalog: Catalog, segment: Segment, placement: Placement) -> list[_Pending]:
    if segment.mixed:
        return _mixed_racks(catalog, segment)
    servers: list[_Pending] = []
    if segment.units:
        per_rack = _units_per_rack(catalog, segment)
        for start in range(0, len(segment.units), per_rack):
            contents = []
            u = FIRST_U
            for unit in segment.units[start : start + per_rack]:
                for dev_id, type_id, role, offset, breakout in unit.members:
                    contents.append((dev_id, type_id, role, u + offset, breakout))
                u += unit.u_height
            servers.append((segment.server_rack_type, contents))
    network: list[_Pending] = []
    net_rack = segment.network_rack_type
    rtype = catalog.rack_type(net_rack)
    top, budget_w = rtype.height_u, rtype.power_budget_kw * 1000
    rack: list[tuple[str, str, str, int, dict[str, int]]] = []
    main, count, used_u, used_w = "", 0, 0, 0.0
    per_type = {
        t: (
            catalog.device_types[t].u_height,
            switch_power_max_w(catalog, t),
            _switches_per_rack(catalog, t, net_rack),
        )
        for t in {s[1] for s in segment.switches}
    }
    for dev_id, t, role, breakout in segment.switches:
        height, power_w, per_rack = per_type[t]
        # Switches of one type share a rack up to its limit; an OOB switch (role management)
        # joins whatever rack it comes after while U and power allow: it serves that rack group.
        # A rack holding only OOB switches so far takes the next type as its own.
        fits = role == "management" or (main in ("", t) and count < per_rack)
        fits = fits and used_u + height <= top - FIRST_U and used_w + power_w <= budget_w
        if not rack or not fits:
            if rack:
                network.append((net_rack, rack))
            rack, main, count, used_u, used_w = [], "", 0, 0, 0.0
        if role != "management" and not main:
            main = t
        # Stack from the top down: switches sit near the overhead tray.
        rack.append((dev_id, t, role, top - used_u - height, breakout))
        used_u += height
        used_w += power_w
        count += t == main
    if rack:
        network.append((net_rack, rack))
    if placement == "end-of-row" or not servers:
        return servers + network
    middle = len(servers) // 2
    return servers[:middle] + network + servers[middle:]


def _mixed_racks(catalog: Catalog, segment: Segment) -> list[_Pending]:
    """A run of management racks: its switches, then its units, stacked from the top of each
    network rack while U (above ``FIRST_U``) and the rack's power budget allow."""
    rtype = catalog.rack_type(segment.network_rack_type)
    top, budget_w = rtype.height_u, rtype.power_budget_kw * 1000
    items: list[tuple[list[tuple[str, str, str, int, dict[str, int]]], int, float]] = [
        (
            [(d, t, role, 0, breakout)],
            catalog.device_types[t].u_height,
            switch_power_max_w(catalog, t),
        )
        for d, t, role, breakout in segment.switches
    ]
    items += [(unit.members, unit.u_height, unit.power_w) for unit in segment.units]
    racks: list[_Pending] = []
    rack: list[tuple[str, str, str, int, dict[str, int]]] = []
    used_u, used_w = 0, 0.0
    for members, height, power_w in items:
        if rack and (used_u + height > top - FIRST_U or used_w + power_w > budget_w):
            racks.append((segment.network_rack_type, rack))
            rack, used_u, used_w = [], 0, 0.0
        bottom = top - used_u - height
        rack += [(d, t, role, bottom + offset, b) for d, t, role, offset, b in members]
        used_u += height
        used_w += power_w
    if rack:
        racks.append((segment.network_rack_type, rack))
    return racks


def _fill_rows(
    pairs: list[tuple[Segment, list[_Pending]]], capacity: int
) -> tuple[list[list[list[_Pending] | None]], list[bool]]:
    """The segments' racks in rows of at most ``capacity`` tiles, runs apart by a cross-aisle
    gap (None), and whether each row is centred in the hall (a central network block)."""
    rows: list[list[list[_Pending] | None]] = [[]]  # None marks a cross-aisle gap
    central: list[bool] = [False]  # rows of a central network block are centred in the hall
    used = 0
    force_new = False
    for segment, run in pairs:
        if rows[-1] and (segment.own_row or segment.new_row or force_new):
            rows.append([])
            central.append(False)
            used = 0
        central[-1] = segment.own_row
        force_new = segment.own_row
        for start in range(0, len(run), capacity):
            chunk = run[start : start + capacity]
            need = len(chunk) + (RUN_GAP_TILES if rows[-1] else 0)
            if rows[-1] and used + need > capacity:
                rows.append([])
                central.append(segment.own_row)
                used = 0
                need = len(chunk)
            if rows[-1]:
                rows[-1].append(None)
            rows[-1].append(chunk)
            used += need
    return rows, central


def _tiles(width_m: float) -> int:
    """Floor tiles a rack of ``width_m`` takes along its row (600 mm racks: one)."""
    return max(1, math.ceil(width_m / TILE_M - 1e-9))


def lay_out(
    catalog: Catalog, segments: list[Segment], placement: Placement = "middle-of-row"
) -> Layout:
    """Racks, devices, trays and a hall outline for ``segments``, in order."""
    if placement not in ("middle-of-row", "end-of-row"):
        raise GenerateError(f"--placement must be middle-of-row or end-of-row, not {placement!r}")
    pairs = [(s, _segment_racks(catalog, s, placement)) for s in segments]
    pairs = [(s, r) for s, r in pairs if r]
    total = sum(len(r) for _, r in pairs)
    # Row length (in racks) for a roughly square hall: rows are 4 tiles apart (rack + aisle) and
    # racks 1 tile wide, so n racks per row and n/4 rows make a square: n = 2 sqrt(total).
    server_runs = [len(r) for s, r in pairs if s.units] or [len(r) for _, r in pairs]
    typical = max(server_runs)
    inline = [len(r) for s, r in pairs if not s.units and not s.own_row]
    extra = max(inline) + RUN_GAP_TILES if inline else 0
    per_row = max(1, math.ceil((2 * math.sqrt(total) + RUN_GAP_TILES) / (typical + RUN_GAP_TILES)))
    capacity = per_row * typical + (per_row - 1) * RUN_GAP_TILES + extra
    rows, central = _fill_rows(pairs, capacity)
    margin = MARGIN_TILES * TILE_M
    row_pitch = (2 + AISLE_TILES) * TILE_M
    racks: list[Rack] = []
    devices: list[Device] = []
    width_digits = 2
    widths = []
    rack_types = catalog.rack_types
    for row in rows:
        count = sum(len(c) for c in row if c is not None)
        # A double-wide rack (AMD Helios, 1.2 m) takes two floor tiles of its row.
        tiles = sum(_tiles(rack_types[t].width_m) for c in row if c is not None for t, _ in c)
        widths.append(tiles + RUN_GAP_TILES * sum(1 for c in row if c is None))
        width_digits = max(width_digits, len(str(count)))
    longest = max(widths)
    for r, row in enumerate(rows):
        letter = row_name(r)
        y = margin + r * row_pitch + TILE_M  # centre of a 2-tile-deep rack
        rotation: Rotation = 0 if r % 2 == 0 else 180
        col = (longest - widths[r]) // 2 if central[r] else 0
        position = 0
        for chunk in row:
            if chunk is None:
                col += RUN_GAP_TILES
                continue
            for type_id, contents in chunk:
                position += 1
                name = f"{letter}{position:0{width_digits}d}"
                rtype = rack_types[type_id]
                tiles = _tiles(rtype.width_m)
                racks.append(
                    Rack(
                        id=name,
                        name=name,
                        type=type_id,
                        x=round(margin + (col + tiles / 2) * TILE_M, 6),
                        y=round(y, 6),
                        width_m=rtype.width_m,
                        depth_m=rtype.depth_m,
                        height_u=rtype.height_u,
                        power_budget_kw=rtype.power_budget_kw,
                        rotation=rotation,
                    )
                )
                for dev_id, dtype, role, u, breakout in contents:
                    devices.append(
                        Device(
                            id=dev_id,
                            name=dev_id,
                            type=dtype,
                            rack=name,
                            u=u,
                            # The member tuples carry the role as str; each came from a
                            # role the network builders name (one of DeviceRole's).
                            role=cast(DeviceRole, role),
                            breakout=breakout,
                        )
                    )
                col += tiles
    row_len = longest * TILE_M
    x0, x1 = margin, margin + row_len
    trays = []
    row_ys = [round(margin + r * row_pitch + TILE_M, 6) for r in range(len(rows))]
    for r, y in enumerate(row_ys):
        trays.append(
            Tray(id=f"t-row-{row_name(r)}", name=f"Row {row_name(r)}", points=[(x0, y), (x1, y)])
        )
    if len(rows) > 1:
        n_cross = max(1, round(row_len / CROSS_TRAY_EVERY_M))
        xs = sorted(
            {round(x0 + round(i * longest / n_cross) * TILE_M, 6) for i in range(n_cross + 1)}
        )
        for i, x in enumerate(xs, 1):
            trays.append(
                Tray(id=f"t-cross-{i}", name=f"Cross {i}", points=[(x, row_ys[0]), (x, row_ys[-1])])
            )
    depth = 2 * margin + len(rows) * row_pitch - AISLE_TILES * TILE_M
    width = 2 * margin + row_len
    hall = Hall(
        outline=[
            (0.0, 0.0),
            (round(width, 6), 0.0),
            (round(width, 6), round(depth, 6)),
            (0.0, round(depth, 6)),
        ]
    )
    return Layout(hall, racks, devices, trays)


TRAY_WIDTHS_M = (0.3, 0.45, 0.6, 0.9)  # standard ladder / wire-mesh tray widths
TRAY_DEPTHS_M = (0.1, 0.15)
MAX_PARALLEL_TRAYS = 5  # a bank of up to 5 x 0.9 m side by side over one row
_BANK_SUFFIX = re.compile(r" \(\d+ x [\d.]+ m\)$")


def standard_tray_size(area_m2: float) -> tuple[float, float, int]:
    """(width, depth, parallel trays) of the smallest standard tray (bank) of cross-section >= area.

    Single trays are tried from the smallest cross-section up (the narrower first on a tie);
    past the largest, that largest tray side by side, up to MAX_PARALLEL_TRAYS.
    """
    sizes = sorted(
        ((w, d) for w in TRAY_WIDTHS_M for d in TRAY_DEPTHS_M), key=lambda s: (s[0] * s[1], s[0])
    )
    for width, depth in sizes:
        if width * depth >= area_m2 - 1e-12:
            return width, depth, 1
    width, depth = sizes[-1]
    return width, depth, min(MAX_PARALLEL_TRAYS, math.ceil(area_m2 / (width * depth) - 1e-9))


def plan_trays(design: Design) -> None:
    """Sizes the design's trays (:func:`size_trays`); where even the largest bank is short, draws
    a cross tray halfway between each two (down to ``MIN_CROSS_TRAY_PITCH_M``) and sizes again,
    so the cables spread over the nearer crossings (XL with every network: Cross 5 needed more
    than 5 x 0.9 m at a 12 m pitch, at 6 m every tray is within 40 %)."""
    with _routed(design) as plant:
        while True:
            sized, short = size_trays_report(design, plant)
            design.update_trays(sized)
            extra = _midway_cross_trays(design) if short else []
            if not extra:
                return
            design.add_trays(extra)


def widen_trays(design: Design, session: CablingSession | None = None) -> None:
    """Widens the trays whose cables, as the design's cabling style pulls them, need a larger
    cross-section (never narrowing one: a structured style's trunks and cords load the trays
    differently from the direct cables they were sized for); where even the largest bank is
    short, draws the cross trays halfway between as :func:`plan_trays` does and sizes again
    (XL zoned with patch racks: Row Q, 5 x 0.9 m, at 41 % at Cross 14). ``session``: the
    cabling's plant and layout, kept for its next round (:mod:`model.generators.cabling_session`)."""
    with _routed(design) if session is None else nullcontext(session.refreshed()) as plant:
        while True:
            sized, short = size_trays_report(design, plant, session)
            trays = design.trays
            design.update_trays(
                t
                for t in sized
                if t.width_m * t.depth_m > trays[t.id].width_m * trays[t.id].depth_m + 1e-12
            )
            extra = _midway_cross_trays(design) if short else []
            if not extra:
                return
            design.add_trays(extra)


@contextmanager
def _routed(design: Design) -> Iterator[RoutedLinks]:
    """The design's links routed once for a sizing loop: between two sizings only trays change,
    which the plant's refresh applies without routing every link again (XL with every network
    was routed from scratch twice, ~1.2 s of CPU each)."""
    from model.engine.routed_links import RoutedLinks

    plant = RoutedLinks(design)
    try:
        yield plant
    finally:
        plant.close()


def _midway_cross_trays(design: Design) -> list[Tray]:
    """A cross tray halfway between each two neighbouring ones at least twice
    ``MIN_CROSS_TRAY_PITCH_M`` apart, as long as they are."""
    cross = sorted(
        (t for t in design.trays.values() if t.id.startswith("t-cross-")),
        key=lambda t: t.points[0][0],
    )
    numbers = [t.id.rsplit("-", 1)[1] for t in cross]
    n = max((int(k) for k in numbers if k.isdigit()), default=0)  # new ones numbered on
    out = []
    for left, right in zip(cross, cross[1:], strict=False):
        x0, x1 = left.points[0][0], right.points[0][0]
        if x1 - x0 < 2 * MIN_CROSS_TRAY_PITCH_M - 1e-9:
            continue
        n += 1
        while f"t-cross-{n}" in design.trays:
            n += 1
        ys = [p[1] for p in left.points]
        x = round((x0 + x1) / 2, 6)
        out.append(Tray(id=f"t-cross-{n}", name=f"Cross {n}", points=[(x, min(ys)), (x, max(ys))]))
    return out


def size_trays(design: Design) -> list[Tray]:
    """The design's trays sized for their cables (:func:`size_trays_report`'s trays)."""
    return size_trays_report(design)[0]


def size_trays_report(
    design: Design, plant: RoutedLinks | None = None, session: CablingSession | None = None
) -> tuple[list[Tray], list[str]]:
    """The design's trays sized for the cables routed in them (to update with ``update_trays``).

    Routes and media come from the geometry engine (:class:`model.engine.routed_links.RoutedLinks`) and the
    peak cross-section of each tray from the analysis' tray fill, so a generated design passes
    its own TRAY_OVERFILLED check: each tray gets the smallest standard width x depth whose fill
    stays within ``TRAY_FILL_WARNING`` (40 %). Where even the largest standard tray is too small, the
    tray becomes a bank of parallel trays along the same path, routed as one: its width is the
    sum of theirs and its name says how many (e.g. "Row G (2 x 0.9 m)"). A bank has as many
    trays as the cables' weight needs too, each tray carrying its load class (NEMA VE 1 12A,
    the structured catalog's ``tray_class``). Under structured cabling, sized for its trunks.
    Also returns the trays even the largest bank leaves over the fill or load limit. ``plant``:
    the design's links already routed (refreshed here), else routed here for this sizing;
    ``session``: the cabling session whose plant it is, which lays the structured plant out.
    """
    from model.analysis.tray_fill import TrayFill, trunk_load
    from model.analysis.warnings import TRAY_FILL_WARNING
    from model.structured.layout import structured_layout, uses_structured

    if plant is None:
        with _routed(design) as routed:
            return size_trays_report(design, routed)
    plant.refresh()
    trays = TrayFill()
    # Under structured cabling the trunks replace the links' fibres, as the analysis counts.
    if uses_structured(design):
        layout = session.layout() if session is not None else structured_layout(plant)
        trunks = trunk_load(plant, layout)
    else:
        trunks = None
    fill = trays.update(design, plant, None, trunks)
    out, short = [], []
    for tray_id, ratio in fill.items():
        tray = design.trays[tray_id]
        cables_m2 = ratio * tray.width_m * tray.depth_m
        width, depth, count = standard_tray_size(cables_m2 / TRAY_FILL_WARNING)
        need = math.ceil(cables_m2 / TRAY_FILL_WARNING / (width * depth) - 1e-9)
        load = trays.loads.get(tray_id)
        if load is not None and load.load_limit_kg_per_m < math.inf:
            # Each tray of a bank carries its load class: enough of them for the weight too
            # (a 128-rack hall's cross tray: 244 kg/m needs 4 trays of 74 kg/m, not 3).
            by_load = math.ceil(load.load_kg_per_m / load.load_limit_kg_per_m - 1e-9)
            need = max(need, by_load)
            count = min(MAX_PARALLEL_TRAYS, max(count, by_load))
        if need > MAX_PARALLEL_TRAYS:
            short.append(tray_id)
        base = _BANK_SUFFIX.sub("", tray.name)  # a tray sized again keeps one suffix
        name = base if count == 1 else f"{base} ({count} x {width:g} m)"
        out.append(
            msgspec.structs.replace(tray, width_m=round(width * count, 6), depth_m=depth, name=name)
        )
    return out, short
