"""Fabric generators: leaf-spine, fat-tree, rail-optimized, NVL72 and AMD Helios fabrics, placed on the floor.

Each template function returns an ordinary :class:`Design` (editable afterwards): GPU servers and
switches in racks laid out in rows with hot/cold aisles, trays over the rows, every link
connected port to port. :func:`preview` gives a template's counts from formulas without
building anything. Impossible requests raise :class:`GenerateError` (a sentence saying what to
change) before anything is allocated. The pieces live in ``model/generators/``: ``plans``
(counts and checks), ``topology`` (devices and links), ``placement`` (racks, rows, trays, hall).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import msgspec

from model.catalog.components import Catalog, CatalogFile, builtin_catalog
from model.common.wording import count
from model.design.design import Design
from model.design.entities import Link, PortRef, Settings
from model.generators import helios as helios_racks
from model.generators import plans, rail_plans, topology, vr_pod
from model.generators.cabling_session import CablingSession
from model.generators.facility_plan import (
    FACILITY_CHOICES,
    place_facility,
    rate_floor,
    reference_racked,
)
from model.generators.networks import build_networks, parse_fabrics
from model.generators.oob import cable_pdus
from model.generators.optics import apply_optics, parse_optics
from model.generators.patch_racks import add_patch_racks
from model.generators.placement import (
    Placement,
    Segment,
    check_racking,
    choose_server_racks,
    lay_out,
    plan_trays,
    widen_trays,
)
from model.generators.plans import GenerateError
from model.generators.power_estimate import power_estimate
from model.runtime.gc_policy import building_design
from model.structured.layout import CABLING_STYLES, panels_left, place_panels, set_cabling

TEMPLATES = ("leaf-spine", "fat-tree", "rail-optimized", "nvl72", "helios")


def leaf_spine(
    *,
    nodes: int,
    node_type: str,
    switch: str,
    spine_switch: str | None = None,
    oversubscription: int = 1,
    reserve_ports: int = 0,
    placement: Placement = "middle-of-row",
    name: str | None = None,
    catalog: Catalog | None = None,
    fabrics: str = "compute",
    facility: str = "auto",
    rack_type: str | None = None,
    servers_per_rack: int | None = None,
) -> Design:
    """Two tiers: each node's compute NICs on one leaf, leaves spread evenly over the spines.

    ``oversubscription`` R = leaf downlink:uplink ports (1 = non-blocking); R + 1 must divide the
    leaf's radix.
    """
    catalog = catalog or builtin_catalog()
    plan = plans.plan_leaf_spine(
        catalog,
        nodes=nodes,
        node_type=node_type,
        switch=switch,
        spine_switch=spine_switch,
        oversubscription=oversubscription,
        reserve_ports=reserve_ports,
    )
    segments, tiers = topology.leaf_spine(catalog, plan)
    title = name or (
        f"Leaf-spine, {nodes} x {node_type}, {switch}"
        + (f" {oversubscription}:1" if oversubscription > 1 else "")
    )
    return _build(
        catalog,
        title,
        segments,
        tiers,
        placement,
        fabrics=fabrics,
        facility=facility,
        racking=(rack_type, servers_per_rack),
        switch=switch,
        oversubscription=oversubscription,
    )


def fat_tree(
    *,
    k: int,
    switch: str | None = None,
    node_type: str | None = None,
    placement: Placement = "middle-of-row",
    name: str | None = None,
    catalog: Catalog | None = None,
    fabrics: str = "compute",
    facility: str = "auto",
    rack_type: str | None = None,
    servers_per_rack: int | None = None,
) -> Design:
    """The textbook k-ary fat tree: k pods of k/2 edge and k/2 aggregation switches, (k/2)^2
    cores, k^3/4 hosts on one NIC each. Without ``switch``/``node_type`` a generic k-port switch
    and a single-NIC host are used (custom types stored in the design)."""
    base = catalog or builtin_catalog()
    plan = plans.plan_fat_tree(base, k=k, switch=switch, node_type=node_type)
    custom = []
    if not plan.switch_type:
        custom.append(topology.generic_switch_type(k, plan.speed_gbps))
    if not plan.node_type:
        custom.append(topology.generic_host_type(plan.speed_gbps))
    custom_file = CatalogFile(device_types=custom)
    catalog = base.extended(custom_file)
    segments, tiers = topology.fat_tree(catalog, plan)
    return _build(
        catalog,
        name or f"Fat tree, k = {k}",
        segments,
        tiers,
        placement,
        custom=custom_file,
        base=base,
        fabrics=fabrics,
        facility=facility,
        racking=(rack_type, servers_per_rack),
        switch=plan.switch_type or "",
    )


def rail_optimized(
    *,
    nodes: int,
    node_type: str,
    switch: str,
    su_nodes: int,
    tiers: str | int = "auto",
    oversubscription: int = 1,
    reserve_ports: int = 0,
    placement: Placement = "middle-of-row",
    name: str | None = None,
    catalog: Catalog | None = None,
    fabrics: str = "compute",
    facility: str = "auto",
    rack_type: str | None = None,
    servers_per_rack: int | None = None,
    planes: int = 1,
    port_mode: str = "auto",
) -> Design:
    """Scalable units of ``su_nodes`` nodes; NIC i of every node of an SU goes to the SU's rail-i
    leaf. Two tiers when the spines can hold every leaf, else (``tiers="auto"``) pods with their
    own spines joined by a core tier. ``planes`` > 1: multi-plane Spectrum-X (each NIC split
    across that many independent planes); ``port_mode``: the switch's port mode (``288x400G``)."""
    catalog = catalog or builtin_catalog()
    plan = rail_plans.plan_rail_optimized(
        catalog,
        nodes=nodes,
        node_type=node_type,
        switch=switch,
        su_nodes=su_nodes,
        tiers=tiers,
        oversubscription=oversubscription,
        reserve_ports=reserve_ports,
        planes=planes,
        port_mode=port_mode,
    )
    segments, links = topology.rail_optimized(catalog, plan)
    shape = "rail-only" if plan.rail_only else f"{plan.tiers} tier" + "s" * (plan.tiers > 1)
    if plan.planes > 1:
        shape += f", {plan.planes} planes"
    title = name or (f"Rail-optimized, {nodes} x {node_type}, {switch}, {shape}")
    design = _build(
        catalog,
        title,
        segments,
        links,
        placement,
        fabrics=fabrics,
        facility=facility,
        racking=(rack_type, servers_per_rack),
        switch=switch,
        oversubscription=oversubscription,
    )
    design.generation_notes += filter(None, [rail_plans.uneven_spread_note(plan)])
    return design


def nvl72(
    *,
    racks: int,
    switch: str | None = None,
    su_racks: int = 8,
    tiers: str | int = "auto",
    oversubscription: int = 1,
    reserve_ports: int = 0,
    placement: Placement = "middle-of-row",
    name: str | None = None,
    catalog: Catalog | None = None,
    fabrics: str = "compute",
    facility: str = "auto",
    platform: str = "gb200",
    planes: int = 1,
    port_mode: str = "auto",
    pod: bool = False,
) -> Design:
    """GB200 or GB300 (``platform``) NVL72 racks (one 72-GPU NVLink domain each, on the rack's
    copper backplane) and a rail-optimized scale-out fabric over the compute trays' NICs, SUs of
    ``su_racks`` racks. The scale-out switch defaults to the platform's: Quantum-2 QM9700 for
    GB200's 400G NICs, Quantum-X800 Q3400 for GB300's ConnectX-8 800G; with ``planes`` > 1
    (multi-plane Spectrum-X, each ConnectX-8 as 2 x 400G) the Spectrum-X SN5610. ``pod``: a
    Vera Rubin POD, the 16 racks with the POD's CPU, storage and networking racks and every
    network (:mod:`model.generators.vr_pod`)."""
    catalog = catalog or builtin_catalog()
    if pod:
        vr_pod.check_pod(platform, racks)
        fabrics = "all"
    plan = rail_plans.plan_nvl72(
        catalog,
        racks=racks,
        platform=platform,
        switch=switch,
        su_racks=su_racks,
        tiers=tiers,
        oversubscription=oversubscription,
        reserve_ports=reserve_ports,
        planes=planes,
        port_mode=port_mode,
    )
    segments, links = topology.nvl72(catalog, plan)
    shape = f", {plan.scale_out.planes} planes" if plan.scale_out.planes > 1 else ""
    if pod:
        segments = vr_pod.add_pod_racks(catalog, segments)
        name = name or f"Vera Rubin POD, {racks} NVL72 racks, {plan.scale_out.leaf.type_id}"
    design = _build(
        catalog,
        name
        or f"{platform.upper()} NVL72 x {racks}, {plan.scale_out.leaf.type_id} scale-out{shape}",
        segments,
        links,
        placement,
        fabrics=fabrics,
        facility=facility,
        switch=plan.scale_out.leaf.type_id,
        oversubscription=oversubscription,
    )
    design.generation_notes += filter(None, [rail_plans.uneven_spread_note(plan.scale_out)])
    if pod:
        design.generation_notes.append(vr_pod.lpx_note(len(design.racks)))
    return design


def helios(
    *,
    racks: int,
    switch: str | None = None,
    su_racks: int | None = None,
    tiers: str | int = "auto",
    oversubscription: int = 1,
    reserve_ports: int = 0,
    placement: Placement = "middle-of-row",
    name: str | None = None,
    catalog: Catalog | None = None,
    fabrics: str = "compute",
    facility: str = "auto",
    port_mode: str = "auto",
    planes: int = 1,
) -> Design:
    """AMD Helios racks (one 72-GPU UALink domain each, on the rack's scale-up switch trays)
    and a rail-optimized Ultra Ethernet scale-out over the trays' Vulcano 800G NICs, on
    Tomahawk-6 (128 x 800G) unless ``switch`` says otherwise; ``planes`` 4 with ``port_mode``
    512x200G: four planes of Tomahawk 6 at 512 x 200G (:mod:`model.generators.helios`)."""
    catalog = catalog or builtin_catalog()
    plan = helios_racks.plan_helios(
        catalog,
        racks=racks,
        switch=switch,
        su_racks=su_racks,
        tiers=tiers,
        oversubscription=oversubscription,
        reserve_ports=reserve_ports,
        port_mode=port_mode,
        planes=planes,
    )
    segments, links = helios_racks.helios(catalog, plan)
    leaf = plan.scale_out.leaf.type_id
    return _build(
        catalog,
        name or f"AMD Helios x {racks}, {leaf} Ultra Ethernet scale-out",
        segments,
        links,
        placement,
        fabrics=fabrics,
        facility=facility,
        switch=leaf,
        oversubscription=oversubscription,
    )


_BUILDERS = {
    "leaf-spine": leaf_spine,
    "fat-tree": fat_tree,
    "rail-optimized": rail_optimized,
    "nvl72": nvl72,
    "helios": helios,
}


def generate(template: str, **params) -> Design:
    """Build ``template`` (one of :data:`TEMPLATES`) with keyword parameters of its function;
    ``optics`` (every template) the optics strategy per switch tier
    (:func:`model.generators.optics.apply_optics`)."""
    builder = _builder(template)
    optics = params.pop("optics", None)
    if optics is not None:
        parse_optics(optics)  # refused before anything is built
    try:
        inspect.signature(builder).bind(**params)
    except TypeError as exc:
        raise GenerateError(f"{template} does not take those options ({exc})") from None
    design = builder(**params)
    if optics is not None:
        apply_optics(design, optics)
        design.revision = 0
    return design


def preview(template: str, **params) -> dict:
    """Counts of ``template`` from formulas, without building: tiers, nodes, GPUs, switches and
    links per tier, and the power estimate (see :func:`model.generators.power_estimate.power_estimate`). Raises
    :class:`GenerateError` for the same requests the builder refuses."""
    _builder(template)
    # Options of the build only (where things go, the other networks), not of the plan.
    build_only = (
        "placement",
        "name",
        "fabrics",
        "facility",
        "rack_type",
        "servers_per_rack",
        "optics",
        "pod",
    )
    if params.get("pod"):  # the compute fabric's counts; the POD's racks are built beside it
        vr_pod.check_pod(params.get("platform", "gb200"), params.get("racks", 0))
    racking = (params.get("rack_type"), params.get("servers_per_rack"))
    fabrics = params.get("fabrics", "compute")
    if params.get("optics") is not None:
        parse_optics(params["optics"])
    params = {k: v for k, v in params.items() if k not in build_only}
    catalog = params.pop("catalog", None) or builtin_catalog()
    # The build's own refusals that need no building: racking and the networks asked for.
    parse_fabrics(fabrics)
    if racking != (None, None):
        check_racking(catalog, params.get("node_type"), *racking)
    # Each planner takes its own options and returns its own plan (each with counts()).
    planners: dict[str, Callable[..., Any]] = {
        "leaf-spine": plans.plan_leaf_spine,
        "fat-tree": plans.plan_fat_tree,
        "rail-optimized": rail_plans.plan_rail_optimized,
        "nvl72": rail_plans.plan_nvl72,
        "helios": helios_racks.plan_helios,
    }
    planner = planners[template]
    try:
        plan = planner(catalog, **params)
    except TypeError as exc:
        raise GenerateError(f"{template} does not take those options ({exc})") from None
    counts = plan.counts()
    counts["template"] = template
    counts.update(power_estimate(catalog, template, params, counts))
    return counts


def _builder(template: str):
    try:
        return _BUILDERS[template]
    except KeyError:
        raise GenerateError(
            f"unknown template {template!r}; choose one of " + ", ".join(TEMPLATES)
        ) from None


def _build(
    catalog: Catalog,
    name: str,
    segments: list[Segment],
    tiers,
    placement: Placement,
    custom: CatalogFile | None = None,
    base: Catalog | None = None,
    fabrics: str = "compute",
    facility: str = "auto",
    switch: str = "",
    oversubscription: int = 1,
    racking: tuple[str | None, int | None] = (None, None),
) -> Design:
    """Place, build and cable; ``fabrics`` adds the storage / in-band / OOB networks
    (:mod:`model.generators.networks`); the requested oversubscription becomes the design's
    target, so the fresh design is checked against what was asked for. ``facility`` ("yes",
    "no", "auto": where a reference architecture racks the servers) adds feeds, busways,
    CDUs, CRAHs and the floor rating (:mod:`model.generators.facility_plan`)."""
    if facility not in FACILITY_CHOICES:
        raise GenerateError(
            f"--facility {facility!r}: choose one of " + ", ".join(FACILITY_CHOICES)
        )
    chosen = parse_fabrics(fabrics)
    tiers = list(tiers)
    choose_server_racks(catalog, segments, *racking)
    with building_design():
        # Each run's OOB switches keep a port for each of its racks' PDUs (networks.py).
        net = build_networks(catalog, segments, tiers, chosen, switch)
        layout = lay_out(catalog, net.placed(segments), placement)
        settings = Settings(oversubscription_target=float(max(1, oversubscription)))
        design = Design(
            layout.hall, name=name, settings=settings, custom_types=custom, base_catalog=base
        )
        design.add_trays(layout.trays)
        design.add_racks(layout.racks)
        design.add_devices(_with_fabrics(catalog, layout.devices, net.fabric_of))
        rows = []
        n = 0
        for tier in [*tiers, *net.links]:
            for a_dev, a_port, b_dev, b_port in tier:
                n += 1
                fabric = net.pinned.get((a_dev, a_port))
                rows.append(
                    {"id": f"l-{n}", "a": (a_dev, a_port), "b": (b_dev, b_port), "fabric": fabric}
                )
        links, checked = _checked_links(rows)
        design.add_links(links, fields_checked=checked)
        if "oob" in chosen:
            oob = [d for d, f in net.fabric_of.items() if f == "oob"]
            pdus, pdu_links, full = cable_pdus(design, oob, net.every_pdu)
            design.add_devices(pdus)
            design.add_links(
                Link(id=f"l-{n + i + 1}", a=PortRef(a, pa), b=PortRef(b, pb))
                for i, (a, pa, b, pb) in enumerate(pdu_links)
            )
            if full:
                net.notes.append("too few free U for every PDU in racks " + ", ".join(full))
        plan_trays(design)
        if facility == "yes" or (facility == "auto" and reference_racked(design)):
            place_facility(design)
        design.revision = 0
    # Not saved: what the generator left out of the networks asked for, for the CLI / wizard.
    design.generation_notes[:0] = net.notes  # before the facility's (the floor rating's)
    return design


def _checked_links(rows: list[dict]) -> tuple[list[Link], bool]:
    """(the links of ``rows``, whether their fields are checked): read in one conversion, which
    checks each field as the edit API's per-record check does (an XL hall's ~460k links: ~0.5 s
    less than making each Link and checking it again). Where one is unfit, the links as given,
    for ``add_links`` to refuse with its sentence."""
    try:
        return msgspec.convert(rows, list[Link]), True
    except msgspec.ValidationError:
        made = [
            Link(id=r["id"], a=PortRef(*r["a"]), b=PortRef(*r["b"]), fabric=r["fabric"])
            for r in rows
        ]
        return made, False


def apply_cabling(design: Design, style: str) -> Design:
    """Give a freshly generated design the cabling ``style`` (``direct``, ``cross-connect``,
    ``zones``), placing the panels at the top of the racks for the structured styles; the
    result is still a generator's output (revision kept). Shared by ``generate --cabling``
    and the fabric wizard."""
    if style not in CABLING_STYLES:
        raise GenerateError(f"--cabling {style!r}: choose one of " + ", ".join(CABLING_STYLES))
    set_cabling(design, style)
    if style != "direct":
        revision = design.revision
        # Still a design being built: the layout's millions of cords, legs and elements make no
        # cycles, and with the collector on its full collections walked them all (XL zones:
        # most of the step's time).
        with building_design():
            _place_cabling(design)
        if design.hall.floor_rating_kg_m2 is not None:
            rate_floor(design)  # the panels (and patch racks) weigh on the floor too
        design.revision = revision
    return design


CABLING_ROUNDS = 3  # placing panels, patch racks and trays, until nothing more is needed


def _place_cabling(design: Design) -> None:
    """The panels at the rack tops, patch racks beside the network racks whose switches leave
    too few U for theirs, and trays widened for what the structured plant pulls. Each step
    moves routes, so media and the panels they need can change (XL with every network,
    zoned: 200G links that left multimode for LC-duplex single-mode needed 22 network racks'
    worth of LC enclosures after the trays had grown): repeated until a round places nothing."""
    patch_racks: list[str] = []
    short_racks: set[str] = set()
    # One plant, its rack distances and its last layout for every step (each laid the hall out
    # and routed it afresh: L with every network, zoned, four layouts; cabling_session.py).
    with CablingSession(design) as session:
        for round_no in range(CABLING_ROUNDS):
            before = len(design.devices)
            short_u = panels_left(design, layout=session.layout(panels_only=True))
            # Network racks whose switches leave too few U: patch racks beside them.
            patch = add_patch_racks(design, short_u)
            if patch:
                place_panels(design, layout=session.layout(panels_only=True))
                patch_racks += patch
                short_racks.update(short_u)
            if round_no and len(design.devices) == before:
                break  # the trays were sized for this very plant
            # The trays were sized for direct cables; trunks, cords and the panels' drops load
            # them differently (GB300 1 SU zoned: Row A 42 %). Widen what the pulled plant needs.
            widen_trays(design, session)
    if patch_racks:
        design.generation_notes.append(
            f"{count(len(patch_racks), 'patch rack')} beside the "
            f"{count(len(short_racks), 'network rack')} whose switches leave too few U "
            "for their patch panels"
        )


def _with_fabrics(catalog: Catalog, devices, fabric_of: dict[str, str]):
    """Every generated switch with its fabric written down (compute / scale-up by default)."""
    out = []
    for device in devices:
        category = catalog.device_types[device.type].category
        if category == "nvlink-switch":
            device = msgspec.structs.replace(device, fabric="scale-up")
        elif category == "switch":
            device = msgspec.structs.replace(device, fabric=fabric_of.get(device.id, "compute"))
        out.append(device)
    return out


__all__ = [
    "GenerateError",
    "apply_cabling",
    "TEMPLATES",
    "fat_tree",
    "generate",
    "helios",
    "leaf_spine",
    "nvl72",
    "preview",
    "rail_optimized",
]
