"""Structured-cabling layout of a design: panels, bundled MPO trunks, patch cords, channels.

A pure function of the cable plant, ``design.settings.cabling``, the placed panel devices and
``Link.via`` (:mod:`model.design.structured_edit`):

* ``direct`` — every link on a module medium is one fibre (:func:`model.structured.channels.plant_channels`),
  exactly the plant of before: no panel, no trunk (unless a link is routed via panels by hand).
* ``cross-connect`` — each inter-rack channel is patch cord (device to its rack's panel) –
  panel – MPO trunk (rack top to rack top, along the link's tray route) – panel – patch cord.
  Two patch points, NV-STRUCT's maximum for 100G-lane multimode.
* ``zones`` — TIA-942 zones (:mod:`model.structured.paths`): rack panel – trunk – zone (HDA)
  panel – trunk – network-rack (MDA) panel.

Choices, written down:

* **Panels.** The patch points use the panel devices placed in the racks
  (:class:`~model.structured.paths.PanelPool`: top panel first, one MPO port per trunk leg, one
  enclosure slot per cassette); ``generate --cabling`` places them (:func:`place_panels`). A
  rack whose own panels are full uses those of the patch racks of its row, nearest first
  (the network racks' overflow; :mod:`model.generators.patch_racks` places such racks): the
  cord runs on to the patch rack and a trunk ending there is ordered that way longer. A rack
  still short of placed panels gets *virtual* ones (ordered in the BOM, reported as
  PANELS_NOT_PLACED) so an older design or a hand-built one still has its channels.
* **Legs.** A trunk *leg* is one MPO connector at each end: an MPO-12/-16 channel's fibre (a link
  with several fibres per port, 800G SR8, takes one leg per fibre), or the MPO-12 rear of an
  LC cassette pair carrying up to six duplex channels (near port k meets far port 7-k, method B).
* **Bundling.** Legs between the same two panels (same mode and leg width) share trunks: the
  smallest trunk of the catalog (MPO-12/16/24/48/144) that carries all of them, else the
  largest, repeated. A trunk is ordered at the longest of its legs; the BOM lists trunks by
  fibre count and length.
* **Polarity.** Cords are the module's own fibre part (NVIDIA MPO-12/APC crossover, Type B;
  duplex A-to-B); the first trunk of a channel is Type B and any further trunk Type A (through
  an MPO adapter), so the channel keeps one flip (domain-facts §8a). A link's record of what
  is installed (``Link.polarity``, :mod:`model.structured.link_polarity`) overrides its elements.
* **Lengths.** Cord = the link's vertical at that end + the design's slack per end (+ the rack
  distance when the panel is in another rack); trunk = the horizontal route between the two
  panels' racks (the link's own route between its two racks, else
  :class:`~model.structured.paths.RackDistances`) + the slack % + a 2 m service loop
  (LEVIATHAN: 2-3 m per trunk run, the low end), ordered at the next orderable length.
* Same-rack links and links on integrated cables (DAC, AOC, ...) stay direct.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field

import msgspec

from model.catalog.parts import FibrePart
from model.catalog.structured import StructuredCatalog, structured_catalog
from model.common.findings import Finding
from model.design.placement import DeviceNames
from model.design.structured_edit import new_panel, panel_types
from model.engine.patch_points import TRUNK_SERVICE_LOOP_M  # the media choice counts it too
from model.runtime.gc_policy import collector_paused
from model.structured.channel_table import ChannelTable
from model.structured.channels import CONNECTOR_FAMILY, CONNECTOR_FIBRES, Element, plant_fibres
from model.structured.cords import lay_cords, typed_length
from model.structured.layout_records import (  # re-exported: callers read them from here
    LC_CASSETTE,
    StructuredLayout,
    Trunk,
    TrunkLeg,
)
from model.structured.paths import (
    PanelPool,
    RackDistances,
    overflow_racks,
    patch_way_m,
    style_path,
    zone_hubs,
)
from model.structured.polarity import CASSETTE_PORTS  # 6 LC duplex ports per MPO-12 cassette

CABLING_STYLES = ("direct", "cross-connect", "zones")
MPO_PANEL = "panel-mpo-1u-72"
LC_ENCLOSURE = "enclosure-1u-4"


def uses_structured(design) -> bool:
    """Whether any link runs through panels (a structured style, or a link routed via panels)."""
    return design.settings.cabling != "direct" or bool(design.links_via_panels())


def panel_usage(plant, rack_id: str | None = None) -> dict[str, tuple[int, int]]:
    """Per placed panel (of ``rack_id``, or all): (MPO ports or cassette slots used, how many it
    has) — what the rack elevation shows on a panel (0 used when no link runs through it)."""
    design = plant.design
    types = panel_types(design)
    panels = [
        d
        for d in (design.devices_in_rack(rack_id) if rack_id else design.devices.values())
        if d.type in types
    ]
    if not panels:
        return {}
    catalog = structured_catalog()
    use = (
        structured_layout(plant, catalog, panels_only=True).panel_use
        if uses_structured(design)
        else {}
    )
    out = {}
    for panel in panels:
        part = catalog.panels[panel.type]
        out[panel.id] = use.get(panel.id, (0, part.slots or part.front_ports))
    return out


def set_cabling(design, style: str) -> None:
    """Set the design's cabling style; ``direct`` leaves a fresh design exactly as generated."""
    if style == design.settings.cabling:
        return
    revision = design.revision
    design.set_settings(msgspec.structs.replace(design.settings, cabling=style))
    design.revision = revision  # a generator's output, not a user edit


def place_panels(design, plant=None) -> int:
    """Place, at the top of each rack, the panels its channels need (the generator's step);
    returns how many were placed. A rack without the U puts them in the patch racks of its
    row, nearest first; what no rack has the U for stays virtual (a finding)."""
    return _place_panels(design, plant)[0]


def panels_left(design, plant=None) -> dict[str, int]:
    """:func:`place_panels`, returning per rack the U of the panels nothing had room for
    (none left: empty), which the generator gives patch racks (model.generators.patch_racks)."""
    return _place_panels(design, plant)[1]


def _place_panels(design, plant) -> tuple[int, dict[str, int]]:
    from model.engine.routed_links import RoutedLinks

    plant = plant or RoutedLinks(design)
    layout = structured_layout(plant, panels_only=True)
    names = DeviceNames(design)
    overflow = overflow_racks(design)
    placed = 0
    left: dict[str, int] = {}
    for (rack_id, type_id), count in sorted(layout.virtual_panels.items()):
        # The rack itself first, then the patch racks of its row, nearest first (the order
        # the layout's PanelPool takes their ports in).
        where = iter((rack_id, *overflow.get(rack_id, ())))
        holder: str | None = next(where)
        for n in range(count):
            device = None
            while device is None and holder is not None:
                try:
                    device = new_panel(design, holder, type_id, names=names)
                except ValueError:  # no free U left: the next patch rack, else virtual
                    holder = next(where, None)
            if device is None:  # no rack has the U: it stays virtual (PANELS_NOT_PLACED)
                u_height = design.catalog.device_types[type_id].u_height
                left[rack_id] = left.get(rack_id, 0) + (count - n) * u_height
                break
            design.add_devices([device])
            placed += 1
    return placed, left


def _ports_exceeded(design, panel_id: str, link_id: str) -> Finding:
    panel = design.devices[panel_id]
    return Finding(
        code="PANEL_PORTS_EXCEEDED",
        severity="warning",
        message=f"panel {panel.name or panel_id}: link {link_id} routed via it needs more "
        "ports than the panel has",
        objects=(panel_id, link_id),
    )


def _round_up(lengths: tuple[float, ...], length_m: float) -> float:
    """The first orderable length >= ``length_m`` (to 1 nm), NaN when none is or the length is
    unknown. ``bisect_left`` is numpy's ``searchsorted`` search (the same lower-bound halving,
    so the same index on any tuple), without making an array per call: at XL that was ~15 s
    of a zones layout's 1.8 M cords and trunks. NaN is tested first, as numpy sorts it last."""
    if length_m != length_m:
        return math.nan
    k = bisect_left(lengths, length_m - 1e-9)
    return float(lengths[k]) if k < len(lengths) else math.nan


@dataclass(slots=True)
class _Leg:
    # Tuples, not lists: a zoned XL hall has 393k legs, and the trunk leg the layout keeps
    # (TrunkLeg) shares them.
    link_ids: tuple[str, ...]  # the channels it carries (LC: up to six, one per cassette port)
    racks: tuple[str, ...]  # the path's racks
    holders: tuple[str, ...]  # per node: the panel or enclosure id
    nodes: tuple[Element, ...]  # per node: the panel or cassette element (port set per member)
    seg_m: tuple[float, ...]  # per segment: horizontal length (m, no slack)
    group: int  # its path's number: the legs of a path have the same shape of elements
    ends: tuple[str, str, bool]  # its links' racks (A, B; one group's) and: LC cassettes?
    trunks: list[tuple[str, str, float]] = field(default_factory=list)  # (id, part, ordered)
    # Per end: the way from its rack to the patch rack holding its panel (0: its own rack).
    cord_off_m: tuple[float, float] = (0.0, 0.0)


def structured_layout(
    plant,
    catalog: StructuredCatalog | None = None,
    panels_only: bool = False,
    trunks_only: bool = False,
) -> StructuredLayout:
    """The channels, trunks, cords and panels of ``plant``'s design (see the module docstring).

    ``panels_only``: only what the patch points take — ``virtual_panels``, ``panel_use`` and
    their findings — without bundling trunks or making cords and channels. Panels are taken
    while the legs are laid out, before any trunk exists, so these are the full layout's own
    figures; placing the panels of a generated XL hall needed nothing else, and the whole
    layout was ~60 % of ``generate --cabling``.

    ``trunks_only``: the panels and the trunks, without channels, cords and legs (no channel
    is in ``channels``): what a picture draws (~a third of a zoned XL layout less)."""
    # A zoned XL hall's layout makes millions of objects and no cycles: with the collector on,
    # its full collections re-scanned them all (a third of the layout's time).
    with collector_paused():
        return _layout(plant, catalog or structured_catalog(), panels_only, trunks_only)


def _layout(
    plant, catalog: StructuredCatalog, panels_only: bool = False, trunks_only: bool = False
) -> StructuredLayout:
    """The layout in the module docstring's four steps: group, legs, trunks, channels and cords."""
    design = plant.design
    style = design.settings.cabling
    direct = plant_fibres(plant)
    # The links that run through panels are added to the table in step 4; the others stay
    # direct. Polarity records are read now: the layout follows its design's revision only.
    records = {lid: link.polarity for lid, link in design.links.items() if link.polarity}
    table = ChannelTable(direct, {lid: r for lid, r in records.items() if lid in direct})
    layout = StructuredLayout(style, table)
    if not uses_structured(design):
        return layout
    settings = design.settings
    fibre_of, fpp_of = _module_fibres(design.catalog)
    distance = RackDistances(plant)
    pool = PanelPool(
        design,
        {
            MPO_PANEL: catalog.panels[MPO_PANEL].front_ports,
            LC_ENCLOSURE: catalog.panels[LC_ENCLOSURE].slots,
        },
    )
    groups, ends_of, route_best = _group_channels(plant, direct, fpp_of, layout.findings)
    legs = _LegLayer(design, pool, layout.findings, panels_only)
    legs.lay(groups, ends_of, direct, fpp_of, distance)
    ends_of.clear()  # the legs hold what they need (zoned XL: ~100 MB less at the peak)
    groups.clear()
    if panels_only:
        layout.channels = ChannelTable({})  # no channel made, as no trunk or cord is
        return _with_panels(layout, design, pool, legs.cassette_no)
    route_of = {pair: best[1] for pair, best in route_best.items()}
    _bundle_trunks(layout, catalog, legs.segments, route_of, settings.slack_pct)
    if trunks_only:
        layout.channels = ChannelTable({})  # no channel made, as no cord is
        return _with_panels(layout, design, pool, legs.cassette_no)
    per_leg = _channel_legs(layout, table, legs.legs, distance)
    # A typed length is the channel's length too (mostly none is typed: one pass, no call).
    typed = {
        lid: given[0]
        for lid, link in design.links.items()
        if (link.as_built_m is not None or link.length_override_m is not None)
        and (given := typed_length(link)) is not None
    }
    lay_cords(layout, table, per_leg, fibre_of, settings.slack_per_end_m, typed)
    return _with_panels(layout, design, pool, legs.cassette_no)


def _module_fibres(catalog) -> tuple[dict, dict]:
    """Per module medium: the fibre part its modules take, and their fibres per port."""
    fibre_of: dict[str, FibrePart | None] = {}
    fpp_of: dict[str, int] = {}
    for part in catalog.module_parts.values():
        fibre_of.setdefault(part.medium, catalog.fibre_parts.get(part.fibre))
        fpp_of.setdefault(part.medium, part.fibres_per_port)
    return fibre_of, fpp_of


def _group_channels(
    plant, direct: dict, fpp_of: dict, findings: list[Finding]
) -> tuple[dict[tuple, list[tuple[str, float, float, float]]], dict[str, tuple], dict]:
    """Step 1: the channels grouped by path (racks and named panels), mode and connector.

    Returns (groups, each link's two ends (device, port) lowest first: the order of the legs,
    and per rack pair the link whose tray route a trunk between those racks follows)."""
    design = plant.design
    style = design.settings.cabling
    hubs = zone_hubs(design) if style == "zones" else {}
    ptypes = panel_types(design)
    groups: dict[tuple, list[tuple[str, float, float, float]]] = {}
    # Per rack pair: the link whose tray route a trunk between those racks follows (the
    # longest, so the trunk's tray fill follows the farthest-reaching route), as (its
    # horizontal length, its id). Found in the same pass, which reads every link's pieces.
    route_best: dict[tuple[str, str], tuple[float, str]] = {}
    path_of: dict[tuple[str, str], tuple] = {}  # the style's path per rack pair
    # Every link's pieces as columns (plant.pieces_m's figures; a call per link was ~1 s).
    methods, ups_a, horizontals, ups_b = plant.pieces_columns()
    index, devices = plant.index, design.devices
    ends_of: dict[str, tuple] = {}
    for link_id, channel in direct.items():
        link = design.links[link_id]
        r = index[link_id]
        method, up_a, horizontal, up_b = methods[r], ups_a[r], horizontals[r], ups_b[r]
        end_a, end_b = (link.a.device, link.a.port), (link.b.device, link.b.port)
        ends_of[link_id] = (end_a, end_b) if end_a <= end_b else (end_b, end_a)
        rack_a = devices[end_a[0]].rack
        rack_b = devices[end_b[0]].rack
        if rack_a != rack_b:
            best = route_best.get((rack_a, rack_b))
            if best is None or (horizontal, link_id) > best:
                route_best[(rack_a, rack_b)] = (horizontal, link_id)
        nodes: Sequence[tuple[str, str]] | None = (
            _via_nodes(design, link_id, link.via, ptypes, findings) if link.via else None
        )
        if not nodes:  # no (valid) panels named: the style's own path
            if method == "same-rack":
                continue
            nodes = path_of.get((rack_a, rack_b))
            if nodes is None:
                path = style_path(style, rack_a, rack_b, hubs)
                nodes = path_of[(rack_a, rack_b)] = tuple((r, "") for r in path)
        if not nodes:
            continue
        key = (tuple(nodes), rack_a, rack_b, channel.mode, channel.connector)
        # A duplex link of several fibre pairs takes that many cassette ports (one channel each).
        lc = CONNECTOR_FAMILY.get(channel.connector) == "LC"
        repeat = fpp_of.get(channel.medium, 1) if lc else 1
        groups.setdefault(key, []).extend([(link_id, up_a, horizontal, up_b)] * repeat)
    return groups, ends_of, route_best


def _via_nodes(
    design, link_id: str, via: tuple[str, ...], ptypes, findings: list[Finding]
) -> list[tuple[str, str]]:
    """(rack, panel) of each panel a link is routed via; a VIA_PANEL_MISSING per one that is not."""
    nodes = []
    for panel_id in via:
        panel = design.devices.get(panel_id)
        if panel is None or panel.type not in ptypes:
            findings.append(
                Finding(
                    code="VIA_PANEL_MISSING",
                    severity="warning",
                    message=f"link {link_id}: routed via {panel_id}, which is not a "
                    "patch panel of the design; the channel skips it",
                    objects=(link_id,),
                )
            )
            continue
        nodes.append((panel.rack, panel_id))
    return nodes


class _LegLayer:
    """Step 2: the trunk legs of every group, with their panels taken from the pool."""

    def __init__(self, design, pool: PanelPool, findings: list[Finding], panels_only: bool):
        self.design, self.pool, self.findings, self.panels_only = (
            design,
            pool,
            findings,
            panels_only,
        )
        self.segments: dict[tuple, list[tuple[_Leg, int]]] = {}  # per panel pair, mode, width
        self.legs: list[tuple[_Leg, list[tuple[str, float, float, float]]]] = []
        self.cassette_no: dict[str, int] = {}
        # One Element per panel (frozen, so the channels through it can share it).
        self._panel_element: dict[str, Element] = {}

    def lay(self, groups: dict, ends_of: dict, direct: dict, fpp_of: dict, distance) -> None:
        """Lays the legs of every group, in the groups' sorted order."""

        def ends_key(member) -> tuple:
            # Legs in the order of their links' ends (device, port; either way round), not of
            # the links' ids or insertion: the same plant bundles the same legs into the same
            # trunks, also after a round trip that gives the links new ids (import-netbox).
            return ends_of[member[0]]

        home = self.pool.home  # panels taken in patch racks (filled as the legs are laid)
        for group, ((nodes, rack_a, rack_b, mode, connector), members) in enumerate(
            sorted(groups.items())
        ):
            members = sorted(members, key=ends_key)  # stable: a link's repeats stay together
            lc = CONNECTOR_FAMILY.get(connector) == "LC"
            width = 12 if lc else CONNECTOR_FIBRES[connector]
            per_leg = CASSETTE_PORTS if lc else 1
            racks = tuple(r for r, _ in nodes)
            # What every leg of the group shares: each node's rack, named panel, holder kind and
            # whether it is an end; the segments' lengths unless the leg's own route sets them.
            # (position, rack, named panel, cassette?, the pool's key of its kind of panel)
            points = []
            for i, (rack_id, named) in enumerate(nodes):
                cassette = lc and i in (0, len(nodes) - 1)
                points.append(
                    (
                        i,
                        rack_id,
                        named,
                        cassette,
                        (rack_id, LC_ENCLOSURE if cassette else MPO_PANEL),
                    )
                )
            leg_ends = (rack_a, rack_b, any(point[3] for point in points))
            own_route = len(racks) == 2 and (racks[0], racks[1]) == (rack_a, rack_b)
            hops = zip(racks, racks[1:], strict=False)
            fixed_m = () if own_route else tuple(distance(ra, rb) for ra, rb in hops)
            for start in range(0, len(members), per_leg):
                chunk = members[start : start + per_leg]
                copies = 1 if lc else fpp_of.get(direct[chunk[0][0]].medium, 1)
                for _ in range(copies):
                    holders, elements = self._take_panels(points, chunk[0][0])
                    if self.panels_only:
                        continue
                    if own_route:
                        seg_m = (chunk[0][2] if len(chunk) == 1 else max(c[2] for c in chunk),)
                    else:
                        seg_m = fixed_m
                    link_ids = (chunk[0][0],) if len(chunk) == 1 else tuple(c[0] for c in chunk)
                    leg = _Leg(link_ids, racks, holders, tuple(elements), seg_m, group, leg_ends)
                    if home and not home.keys().isdisjoint(holders):
                        _displace(leg, home, self.design.racks)
                    self.legs.append((leg, chunk))
                    for s in range(len(seg_m)):
                        seg_key = (holders[s], holders[s + 1], mode, width)
                        self.segments.setdefault(seg_key, []).append((leg, s))

    def _take_panels(self, points: list, link_id: str) -> tuple[tuple[str, ...], list[Element]]:
        """One leg's panel or enclosure per node, and its elements (none when panels only)."""
        design, pool, cassette_no = self.design, self.pool, self.cassette_no
        panels_only, panel_element = self.panels_only, self._panel_element
        holders, elements = [], []
        for i, rack_id, named, cassette, key in points:
            if named:
                holder = named
                if pool.use(named) > pool.capacity.get(design.devices[named].type, math.inf):
                    self.findings.append(_ports_exceeded(design, named, link_id))
            else:
                holder = pool.take(key)
            if cassette:
                cassette_no[rack_id] = cassette_no.get(rack_id, 0) + 1
            if panels_only:
                continue  # no elements: only what the panels take is wanted
            holders.append(holder)
            if cassette:
                cas = f"cassette-{rack_id}-{cassette_no[rack_id]}"
                elements.append(Element("cassette", cas, LC_CASSETTE, reverse=i > 0))
            else:
                element = panel_element.get(holder)
                if element is None:
                    element = panel_element[holder] = Element("panel", holder, MPO_PANEL)
                elements.append(element)
        return tuple(holders), elements


def _displace(leg: _Leg, home: dict[str, str], racks) -> None:
    """A leg with a panel in a patch rack (:class:`~model.structured.paths.PanelPool`): the
    cord at that end runs on from its rack to the patch rack, and a trunk ending there is
    ordered for its route to the rack the panel serves plus that same way (the patch rack
    stands beside it in its run; :func:`~model.engine.patch_points.patch_way_m`, which the
    media choice adds too). The leg keeps the served racks, so the trunk follows their tray
    route and fills those trays."""
    off = [
        patch_way_m(racks[rack], racks[home[h]]) if h in home else 0.0
        for rack, h in zip(leg.racks, leg.holders, strict=True)
    ]
    leg.seg_m = tuple(m + off[s] + off[s + 1] for s, m in enumerate(leg.seg_m))
    leg.cord_off_m = (off[0], off[-1])


def _bundle_trunks(
    layout: StructuredLayout, catalog, segments: dict, route_of: dict, slack_pct: float
) -> None:
    """Step 3: the legs of each panel pair bundled into trunks, each leg told its trunks."""
    n_trunk = 0
    # The trunk parts per (mode, leg width): a zoned XL hall has ~100k panel pairs and a few
    # of these, each a sort and bend-radius check of the catalog's trunks.
    parts_of: dict[tuple[str, int], list] = {}
    for (panel_a, panel_b, mode, width), members in segments.items():
        parts = parts_of.get((mode, width))
        if parts is None:
            parts = parts_of[(mode, width)] = _bendable(
                catalog,
                sorted(
                    (t for t in catalog.trunks.values() if t.mode == mode and t.fibres >= width),
                    key=lambda t: t.fibres,
                ),
            )
        i = 0
        while i < len(members):
            remaining = len(members) - i
            fit = [p for p in parts if p.fibres // width >= remaining]
            tpart = (
                fit[0] if fit else (max(parts, key=lambda p: p.fibres // width) if parts else None)
            )
            n = min(remaining, tpart.fibres // width) if tpart else 1
            chunk, i = members[i : i + n], i + n
            n_trunk += 1
            trunk = _trunk(
                f"trunk-{n_trunk}", tpart, chunk, width, (panel_a, panel_b), route_of, slack_pct
            )
            layout.trunks.append(trunk)
            if tpart is None or math.isnan(trunk.ordered_m):
                layout.findings.append(_trunk_not_orderable(trunk, mode, width))
            got = trunk.ordered_m if not math.isnan(trunk.ordered_m) else trunk.length_m
            for leg, s in chunk:
                while len(leg.trunks) <= s:
                    leg.trunks.append(("", "", math.nan))
                leg.trunks[s] = (trunk.id, trunk.part, got)


def _trunk(
    trunk_id: str,
    tpart,
    chunk: list[tuple[_Leg, int]],
    width: int,
    panels: tuple[str, str],
    route_of: dict,
    slack_pct: float,
) -> Trunk:
    """The trunk of part ``tpart`` (None: no part fits) carrying the legs' segments ``chunk``,
    at the longest leg's length plus the slack and a service loop."""
    leg0, s0 = chunk[0]
    ra, rb = leg0.racks[s0], leg0.racks[s0 + 1]
    length = max(leg.seg_m[s] for leg, s in chunk) * (1 + slack_pct / 100)
    length += TRUNK_SERVICE_LOOP_M
    ordered = _round_up(tpart.lengths_m, length) if tpart else math.nan
    links = tuple(dict.fromkeys(lid for leg, _ in chunk for lid in leg.link_ids))
    return Trunk(
        trunk_id,
        tpart.id if tpart else "",
        ra,
        rb,
        length,
        ordered,
        links,
        1,
        tpart.fibres if tpart else width,
        len(chunk),
        panels[0],
        panels[1],
        route_of.get((ra, rb), route_of.get((rb, ra), "")),
    )


def _trunk_not_orderable(trunk: Trunk, mode: str, width: int) -> Finding:
    """TRUNK_NOT_ORDERABLE: no part of the mode is as long as the trunk."""
    return Finding(
        code="TRUNK_NOT_ORDERABLE",
        severity="error",
        message=f"{trunk.id} {trunk.rack_a} to {trunk.rack_b}: {trunk.length_m:.1f} m of {mode} "
        f"trunk ({trunk.legs} x {width} fibres) is longer than any orderable "
        "trunk",
        objects=(trunk.id, *trunk.links),
    )


def _channel_legs(layout: StructuredLayout, table: ChannelTable, legs: list, distance) -> list:
    """Step 4's legs: each added to the table with the elements its channels share.

    Returns per leg (table leg, the cords' rack distances, the trunks' length, its members)."""
    # One Element per trunk and polarity (shared by the channels of its legs, as panels are).
    trunk_element: dict[tuple, Element] = {}
    per_leg = []
    trunk_legs = layout.legs
    add_leg = table.add_leg
    group = -1
    for leg, chunk in legs:
        trunks = leg.trunks
        if leg.group != group:
            # The legs of a path come one after the other (step 2 lays them group by group)
            # and share its racks and ends: a cord runs from its device to the leg's end
            # panel, in the device's rack or (a panel named in another rack) over to it.
            group = leg.group
            rack_a, rack_b, cassettes = leg.ends
            cord_a_m = distance(rack_a, leg.racks[0])
            cord_b_m = distance(rack_b, leg.racks[-1])
        trunk_legs.append(
            TrunkLeg(leg.link_ids, leg.holders, tuple([t[0] for t in trunks]), cassettes)
        )
        # What every channel of the leg shares: its trunks' length, and the panels and trunks
        # between its two cords (a cassette's port is set per channel by the table).
        middle = []
        for n, node in enumerate(leg.nodes):
            middle.append(node)
            if n < len(trunks):
                key = (trunks[n], n == 0)
                element = trunk_element.get(key)
                if element is None:
                    trunk_id, part, got = trunks[n]
                    element = Element("trunk", trunk_id, part, got, "B" if n == 0 else "A")
                    trunk_element[key] = element
                middle.append(element)
        trunk_m = tuple([t[2] for t in trunks])  # each trunk element's length_m
        off_a, off_b = leg.cord_off_m
        per_leg.append(
            (
                add_leg(tuple(middle), cassettes, group, trunk_m),
                cord_a_m + off_a if off_a else cord_a_m,
                cord_b_m + off_b if off_b else cord_b_m,
                sum(trunk_m),
                chunk,
            )
        )
    return per_leg


def _with_panels(
    layout: StructuredLayout, design, pool: PanelPool, cassette_no
) -> StructuredLayout:
    """``layout`` with the panels its legs took: cassettes, virtual panels, use of the placed
    panels, and a PANELS_NOT_PLACED finding per rack short of placed panels."""
    layout.cassettes = dict(cassette_no)
    layout.virtual_panels = pool.virtual_panels()
    layout.panel_use = {
        panel_id: (used, pool.capacity.get(design.devices[panel_id].type, 0))
        for panel_id, used in sorted(pool.used.items())
    }
    for (rack_id, type_id), count in sorted(layout.virtual_panels.items()):
        rack = design.racks[rack_id]
        layout.findings.append(
            Finding(
                code="PANELS_NOT_PLACED",
                severity="info",
                message=f"rack {rack.name}: its channels need {count} more {type_id} "
                f"({count} U) than the panels placed in it; place panels (or generate with "
                "--cabling) so the rack's U counts them",
                objects=(rack_id,),
            )
        )
    return layout


def _bendable(catalog, parts: list) -> list:
    """The trunk parts that can turn in the design's trays: an installer does not order a trunk
    whose minimum bend radius (fibre: 15 x OD, ``bend_rules``) exceeds the trays' corner radius
    (``tray_class``), since it would kink at the first corner (TRAY_BEND_RADIUS). Thicker
    trunks are used only when no part of the mode fits the corner (then the check reports it)."""
    tray = catalog.tray_class
    if tray is None:
        return parts
    fits = [
        p for p in parts if catalog.bend_radius_mm("trunk", p.diameter_mm) <= tray.corner_radius_mm
    ]
    return fits or parts
