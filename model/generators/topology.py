"""Topology builders: from a plan, the devices (grouped into placement segments) and the links.

Links are (device, port, device, port) tuples in tier order (node-leaf, leaf-spine, spine-core);
the caller turns them into :class:`model.design.entities.Link` records. Network-only segments (spines,
cores) are put in the middle of the segment list so that placement puts them centrally.
"""

from __future__ import annotations

from collections.abc import Callable

from model.catalog.components import Catalog, DeviceType, GpuSpec, PortGroup
from model.catalog.ports import port_table
from model.generators.placement import Segment, Unit
from model.generators.plans import (
    GENERIC_NIC_FORM,
    GENERIC_NIC_LANES,
    NVL72_COMPUTE_TRAYS,
    NVL72_SWITCH_TRAY,
    NVL72_SWITCH_TRAY_OF,
    FatTreePlan,
    LeafSpinePlan,
    rack_scale_units,
    switch_ports,
)
from model.generators.rail_plans import Nvl72Plan, RailPlan

PortLink = tuple[str, str, str, str]


def _width(n: int) -> int:
    return max(2, len(str(n)))


def server_unit(
    catalog: Catalog, device_id: str, type_id: str, breakout: dict[str, int] | None = None
) -> Unit:
    dtype = catalog.device_types[type_id]
    member = (device_id, type_id, "gpu-server", 0, dict(breakout or {}))
    return Unit([member], dtype.u_height, dtype.power_max_w)


def _middle(items: list, extra: list) -> list:
    half = (len(items) + 1) // 2
    return items[:half] + extra + items[half:]


# ------------------------------------------------------------------------------------ rail-optimized


def rail_optimized(
    catalog: Catalog,
    plan: RailPlan,
    node_name: Callable[[int, int], str] | None = None,
    make_units: Callable[[list[str]], list[Unit]] | None = None,
) -> tuple[list[Segment], list[list[PortLink]]]:
    """Segments (one per SU, spines/cores central) and links per tier of a rail-optimized fabric.

    ``node_name(su, j)`` names node j of SU su (both 0-based); ``make_units(ids)`` packs an SU's
    nodes into placement units (default: one unit per node). With ``rails_per_leaf`` r > 1 a
    leaf takes r rails of its nodes (node slot p, rail offset i on port p * r + i). A
    multi-plane plan (``node.planes`` P > 1) is P copies of the fabric, switch ids prefixed
    ``plane1-``, ``plane2-``, ...; plane p cables split p of every NIC. The planes' switches share
    each SU's network racks; the links of tier t of every plane come together.
    """
    M = plan.su_nodes
    wn = _width(M)
    node_name = node_name or (lambda s, j: f"su{s + 1}-node{j + 1:0{wn}d}")
    if make_units is None:

        def make_units(ids: list[str]) -> list[Unit]:
            return [
                server_unit(catalog, i, plan.node.type_id, plan.node.breakout or {}) for i in ids
            ]

    if plan.planes == 1:
        return _one_plane(plan, node_name, make_units, plan.node.nics, "")
    merged_segments: list[Segment] | None = None
    merged_tiers: list[list[PortLink]] = []
    for p in range(plan.planes):
        units = make_units if p == 0 else (lambda ids: [])
        segments, tiers = _one_plane(
            plan, node_name, units, plan.node.nics_of_plane(p), f"plane{p + 1}-"
        )
        if merged_segments is None:
            merged_segments, merged_tiers = segments, tiers
            continue
        for mine, theirs in zip(merged_segments, segments, strict=True):
            mine.switches.extend(theirs.switches)
        for tier, more in zip(merged_tiers, tiers, strict=True):
            tier.extend(more)
    return merged_segments or [], merged_tiers


def _one_plane(plan: RailPlan, node_name, make_units, nics, prefix: str):
    """One plane of a rail-optimized fabric over the NIC ports ``nics``, switch ids ``prefix``-ed."""
    M = plan.su_nodes
    names = plan.leaf.names
    K = plan.leaf.radix
    up_names = names[K - plan.uplinks :]
    lt, br = plan.leaf.type_id, plan.leaf.breakout
    lpr = plan.leaves_per_rail
    rpl = plan.rails_per_leaf
    per_leaf = -(-M // lpr)
    node_leaf: list[PortLink] = []
    su_segments: list[Segment] = []
    leaf_ids: list[str] = []
    for s in range(plan.n_su):
        count = min(M, plan.nodes - s * M)
        ids = [node_name(s, j) for j in range(count)]
        in_su = lpr if s < plan.n_su - 1 else plan.last_su_leaves_per_rail
        groups = [
            [
                f"{prefix}su{s + 1}-leaf-{_rails_label(g, rpl)}" + (f"-{k + 1}" if lpr > 1 else "")
                for k in range(in_su)
            ]
            for g in range(plan.rail_groups)
        ]
        append = node_leaf.append
        for j, node_id in enumerate(ids):
            k, p = divmod(j, per_leaf)
            for r, nic in enumerate(nics):
                g, i = divmod(r, rpl)
                append((node_id, nic, groups[g][k], names[p * rpl + i]))
        flat = [leaf for group in groups for leaf in group]
        leaf_ids.extend(flat)
        su_segments.append(
            Segment(units=make_units(ids), switches=[(leaf, lt, "leaf", br) for leaf in flat])
        )
    leaf_spine: list[PortLink] = []
    if plan.tiers == 1:  # rail-only, one switch per rail; or one switch holds every NIC
        return su_segments, [node_leaf]
    if plan.rail_only:
        return _rail_only_spines(plan, su_segments, leaf_ids, node_leaf, up_names, prefix)
    if plan.tiers == 2:
        S = plan.spines
        q = plan.uplinks // S
        ws = _width(S)
        spine_ids = [f"{prefix}spine{i + 1:0{ws}d}" for i in range(S)]
        if plan.uplinks % S:
            # Uneven (plans.clos_spines): uplink k of the fabric, leaf-major, to spine k mod S
            # on that spine's next port, so every spine fills and each leaf reaches them all.
            for li, leaf in enumerate(leaf_ids):
                for j in range(plan.uplinks):
                    k = li * plan.uplinks + j
                    leaf_spine.append((leaf, up_names[j], spine_ids[k % S], names[k // S]))
        for li, leaf in enumerate(leaf_ids if not plan.uplinks % S else ()):
            for si, spine in enumerate(spine_ids):
                for j in range(q):
                    leaf_spine.append((leaf, up_names[si * q + j], spine, names[li * q + j]))
        spine_seg = Segment(switches=[(s, lt, "spine", br) for s in spine_ids], own_row=True)
        return _middle(su_segments, [spine_seg]), [node_leaf, leaf_spine]
    return _three_tiers(plan, su_segments, leaf_ids, node_leaf, up_names, prefix)


def _rails_label(group: int, rails_per_leaf: int) -> str:
    """``rail3`` for a rail-pure leaf, ``rails1-2`` for a leaf shared by rails 1 and 2."""
    first = group * rails_per_leaf + 1
    if rails_per_leaf == 1:
        return f"rail{first}"
    return f"rails{first}-{first + rails_per_leaf - 1}"


def _three_tiers(plan: RailPlan, su_segments, leaf_ids, node_leaf, up_names, prefix=""):
    """Pods of ``pod_leaves`` leaves (runs over the SUs' leaves, spanning SUs where they do not
    divide) with their own spines (smaller pods after the full ones, fewer spines), joined by core groups: each
    run of spine positions of ``core_classes`` is cut into groups of G positions; each spine
    reaches its group's cores in a cyclic window with the same links to each, so every core is
    reached by the same number of spines and all its ports are used."""
    names, lt, br = plan.leaf.names, plan.leaf.type_id, plan.leaf.breakout
    Kd, uk = plan.spine_down, plan.spine_up
    wc = _width(plan.cores)
    ws = _width(plan.spines)
    core_ids = [f"{prefix}core{i + 1:0{wc}d}" for i in range(plan.cores)]
    leaf_spine: list[PortLink] = []
    spine_core: list[PortLink] = []
    spine_segs: dict[int, list[Segment]] = {}  # SU index -> spine segments placed after it
    leaves_per_su = plan.leaves_per_su
    pod_spines: list[list[str]] = []
    for p in range(plan.pods):
        start, count = plan.pod_span(p)
        pod_leaves = leaf_ids[start : start + count]
        Sp = plan.pod_spines(p)
        q = plan.uplinks // Sp
        spines = [f"{prefix}pod{p + 1}-spine{i + 1:0{ws}d}" for i in range(Sp)]
        pod_spines.append(spines)
        for ll, leaf in enumerate(pod_leaves):
            for si, spine in enumerate(spines):
                for j in range(q):
                    leaf_spine.append((leaf, up_names[si * q + j], spine, names[ll * q + j]))
        first_su = start // leaves_per_su
        last_su = (start + len(pod_leaves) - 1) // leaves_per_su
        sus = list(range(first_su, last_su + 1))
        su_segments[first_su].new_row = True
        middle = sus[(len(sus) + 1) // 2 - 1]
        spine_segs.setdefault(middle, []).append(
            Segment(switches=[(s, lt, "spine", br) for s in spines])
        )
    next_core = 0
    for first, positions, G, Cg, q2 in plan.core_classes:
        reach = uk // q2  # cores one spine reaches
        for group in range(positions // G):
            cores = core_ids[next_core : next_core + Cg]
            next_core += Cg
            free = [0] * Cg  # next free port per core
            # Pod-major, so a pod's G spines in the group start their windows at other cores.
            members = [
                pod_spines[p][pos]
                for p in range(plan.pods)
                for pos in range(first + group * G, first + (group + 1) * G)
                if pos < len(pod_spines[p])
            ]
            for m, spine in enumerate(members):
                for t in range(reach):
                    c = (m * reach + t) % Cg
                    for j in range(q2):
                        spine_core.append((spine, names[Kd + t * q2 + j], cores[c], names[free[c]]))
                        free[c] += 1
    core_seg = Segment(switches=[(c, lt, "core", br) for c in core_ids], own_row=True)
    half = (plan.pods + 1) // 2
    core_after = (sum(plan.pod_span(p)[1] for p in range(half)) - 1) // leaves_per_su
    segments: list[Segment] = []
    for s, seg in enumerate(su_segments):
        segments.append(seg)
        segments.extend(spine_segs.get(s, []))
        if s == core_after:
            segments.append(core_seg)
    return segments, [node_leaf, leaf_spine, spine_core]


def _rail_only_spines(plan: RailPlan, su_segments, leaf_ids, node_leaf, up_names, prefix=""):
    """Two tiers per rail: rail r's leaves of every SU go to rail r's own spines only."""
    names, lt, br = plan.leaf.names, plan.leaf.type_id, plan.leaf.breakout
    S = plan.spines
    q = plan.uplinks // S
    ws = _width(S)
    leaf_spine: list[PortLink] = []
    spine_ids: list[str] = []
    per_su = plan.leaves_per_su
    for r in range(plan.rails):
        rail = [
            leaf_ids[s * per_su + r * plan.leaves_per_rail + k]
            for s in range(plan.n_su)
            for k in range(plan.leaves_per_rail)
        ]
        spines = [f"{prefix}rail{r + 1}-spine{i + 1:0{ws}d}" for i in range(S)]
        spine_ids.extend(spines)
        for li, leaf in enumerate(rail):
            for si, spine in enumerate(spines):
                for j in range(q):
                    leaf_spine.append((leaf, up_names[si * q + j], spine, names[li * q + j]))
    spine_seg = Segment(switches=[(s, lt, "spine", br) for s in spine_ids], own_row=True)
    return _middle(su_segments, [spine_seg]), [node_leaf, leaf_spine]


# ------------------------------------------------------------------------------------ leaf-spine

LEAVES_PER_SEGMENT = 8


def leaf_spine(catalog: Catalog, plan: LeafSpinePlan) -> tuple[list[Segment], list[list[PortLink]]]:
    nics = plan.node.nics
    C = len(nics)
    wn, wl, ws = _width(plan.nodes), _width(plan.leaves), _width(plan.spines)
    node_ids = [f"node{i + 1:0{wn}d}" for i in range(plan.nodes)]
    leaf_ids = [f"leaf{i + 1:0{wl}d}" for i in range(plan.leaves)]
    spine_ids = [f"spine{i + 1:0{ws}d}" for i in range(plan.spines)]
    lnames, snames = plan.leaf.names, plan.spine.names
    up_names = lnames[plan.leaf.radix - plan.uplinks :]
    node_leaf: list[PortLink] = []
    for i, node in enumerate(node_ids):
        leaf_index, slot = divmod(i, plan.nodes_per_leaf)
        for c, nic in enumerate(nics):
            node_leaf.append((node, nic, leaf_ids[leaf_index], lnames[slot * C + c]))
    q = plan.uplinks // plan.spines
    leaf_spine_links: list[PortLink] = []
    for li, leaf in enumerate(leaf_ids):
        for si, spine in enumerate(spine_ids):
            for j in range(q):
                leaf_spine_links.append((leaf, up_names[si * q + j], spine, snames[li * q + j]))
    segments = []
    for g in range(0, plan.leaves, LEAVES_PER_SEGMENT):
        leaves = leaf_ids[g : g + LEAVES_PER_SEGMENT]
        nodes = node_ids[g * plan.nodes_per_leaf : (g + len(leaves)) * plan.nodes_per_leaf]
        segments.append(
            Segment(
                units=[server_unit(catalog, n, plan.node.type_id) for n in nodes],
                switches=[(leaf, plan.leaf.type_id, "leaf", plan.leaf.breakout) for leaf in leaves],
            )
        )
    spine_seg = Segment(
        switches=[(s, plan.spine.type_id, "spine", plan.spine.breakout) for s in spine_ids],
        own_row=True,
    )
    return _middle(segments, [spine_seg]), [node_leaf, leaf_spine_links]


# ------------------------------------------------------------------------------------ fat-tree


def generic_switch_type(k: int, speed_gbps: float) -> DeviceType:
    """A textbook k-port switch (a custom type that travels inside the design file)."""
    return DeviceType(
        id=f"generic-switch-{k}p-{speed_gbps:g}g",
        vendor="Generic",
        model=f"Generic {k}-port {speed_gbps:g}G switch",
        category="switch",
        default_role="leaf",
        u_height=1 if k <= 64 else 2,
        depth_m=0.7,
        power_typical_w=10.0 * k,
        power_max_w=12.0 * k,
        port_groups=(
            PortGroup(
                name="p",
                role="compute",
                count=k,
                speed_gbps=speed_gbps,
                lanes=GENERIC_NIC_LANES,
                form_factor=GENERIC_NIC_FORM,
            ),
        ),
        source="estimate",
        notes="Generated for a textbook k-ary fat tree; power ~10-12 W per "
        "port is an estimate (QM9700 class).",
    )


def generic_host_type(speed_gbps: float) -> DeviceType:
    """A single-NIC host with one GPU (a custom type that travels inside the design file)."""
    return DeviceType(
        id=f"generic-host-1x{speed_gbps:g}g",
        vendor="Generic",
        model=f"Generic host, 1 GPU, 1 x {speed_gbps:g}G NIC",
        category="server",
        default_role="gpu-server",
        u_height=1,
        depth_m=0.8,
        power_typical_w=1000.0,
        power_max_w=1200.0,
        gpus=GpuSpec(
            count=1, model="generic GPU", scale_up_gbps_per_gpu=0.0, scale_up_domain_gpus=1
        ),
        port_groups=(
            PortGroup(
                name="nic",
                role="compute",
                count=1,
                speed_gbps=speed_gbps,
                lanes=GENERIC_NIC_LANES,
                form_factor=GENERIC_NIC_FORM,
            ),
        ),
        source="estimate",
        notes="Generated for a textbook k-ary fat tree; power is an estimate.",
    )


def fat_tree(catalog: Catalog, plan: FatTreePlan) -> tuple[list[Segment], list[list[PortLink]]]:
    """k pods of k/2 edge (leaf) and k/2 aggregation (spine) switches, (k/2)^2 cores, k^3/4 hosts."""
    k, h = plan.k, plan.k // 2
    host_type = plan.node_type or generic_host_type(plan.speed_gbps).id
    sw_type = plan.switch_type or generic_switch_type(k, plan.speed_gbps).id
    if plan.switch_type:
        sw = switch_ports(catalog, sw_type, plan.speed_gbps)
        names, breakout = sw.names[:k], sw.breakout
    else:
        names, breakout = tuple(f"p{i + 1}" for i in range(k)), {}
    htype = catalog.device_types[host_type]
    nic = next(n for n, info in port_table(htype).items() if info.role == "compute")
    wp, wh, wc = _width(k), _width(h * h), _width(h * h)
    core_ids = [f"core{i + 1:0{wc}d}" for i in range(h * h)]
    host_edge: list[PortLink] = []
    edge_agg: list[PortLink] = []
    agg_core: list[PortLink] = []
    segments = []
    for p in range(k):
        pod = f"pod{p + 1:0{wp}d}"
        edges = [f"{pod}-edge{e + 1:0{wp}d}" for e in range(h)]
        aggs = [f"{pod}-agg{a + 1:0{wp}d}" for a in range(h)]
        hosts = []
        for e, edge in enumerate(edges):
            for i in range(h):
                host = f"{pod}-host{e * h + i + 1:0{wh}d}"
                hosts.append(host)
                host_edge.append((host, nic, edge, names[i]))
            for a, agg in enumerate(aggs):
                edge_agg.append((edge, names[h + a], agg, names[e]))
        for a, agg in enumerate(aggs):
            for c in range(h):
                agg_core.append((agg, names[h + c], core_ids[a * h + c], names[p]))
        segments.append(
            Segment(
                units=[server_unit(catalog, x, host_type) for x in hosts],
                switches=[(e, sw_type, "leaf", breakout) for e in edges]
                + [(a, sw_type, "spine", breakout) for a in aggs],
            )
        )
    core_seg = Segment(switches=[(c, sw_type, "core", breakout) for c in core_ids], own_row=True)
    return _middle(segments, [core_seg]), [host_edge, edge_agg, agg_core]


# ------------------------------------------------------------------------------------ NVL72


def rack_layout(trays: int, switch_trays: int) -> list[tuple[str, int]]:
    """The order of a rack-scale unit's members from the bottom: the compute trays' larger half,
    the NVLink switch trays, the rest (NVL72: 10 compute, 9 switch, 8 compute)."""
    low = (trays + 1) // 2 + (1 if trays == NVL72_COMPUTE_TRAYS else 0)
    return (
        [("compute", i) for i in range(low)]
        + [("switch", i) for i in range(switch_trays)]
        + [("compute", i) for i in range(low, trays)]
    )


def build_rack_scale_units(
    ids: list[str],
    per_rack: int,
    switch_trays: tuple[str, int],
    layout: list[tuple[str, int]],
    types: tuple[DeviceType, DeviceType],
    tray_split: dict[str, int],
    port: str,
    scale_up: list[PortLink],
) -> list[Unit]:
    """:func:`rack_scale_unit` for each run of ``per_rack`` trays of ``ids``, its switch trays
    named after the rack (``switch_trays``: (tag, count) gives ``{rack}-{tag}1``...); every
    unit's scale-up links are appended to ``scale_up``."""
    tag, count = switch_trays
    units = []
    for start in range(0, len(ids), per_rack):
        trays = ids[start : start + per_rack]
        prefix = trays[0].rsplit("-", 1)[0]
        switches = [f"{prefix}-{tag}{t + 1}" for t in range(count)]
        unit, links = rack_scale_unit(trays, switches, layout, types, tray_split, port)
        scale_up.extend(links)
        units.append(unit)
    return units


def rack_scale_unit(
    trays: list[str],
    switches: list[str],
    layout: list[tuple[str, int]],
    types: tuple[DeviceType, DeviceType],
    tray_split: dict[str, int],
    port: str,
) -> tuple[Unit, list[PortLink]]:
    """One rack-scale unit (an NVL72 or Kyber rack, an AMD Helios rack): its compute trays and
    scale-up switch trays stacked from the bottom in ``layout`` order (a missing tray's slot
    stays empty), and every tray's link to every switch tray on the rack's backplane, on ports
    ``{port}1``, ``{port}2``... ``types``: (compute tray, switch tray)."""
    compute_t, switch_t = types
    members: list[tuple[str, str, str, int, dict[str, int]]] = []
    u = 0
    for kind, i in layout:
        if kind == "compute" and i < len(trays):
            members.append((trays[i], compute_t.id, "gpu-server", u, tray_split))
        elif kind == "switch":
            members.append((switches[i], switch_t.id, "nvlink-switch", u, {}))
        u += compute_t.u_height if kind == "compute" else switch_t.u_height
    links = [
        (tray, f"{port}{t + 1}", switch, f"{port}{i + 1}")
        for i, tray in enumerate(trays)
        for t, switch in enumerate(switches)
    ]
    power = len(trays) * compute_t.power_max_w + len(switches) * switch_t.power_max_w
    return Unit(members, u, power), links


def nvl72(catalog: Catalog, plan: Nvl72Plan) -> tuple[list[Segment], list[list[PortLink]]]:
    """NVL72 racks (18 compute trays x 9 NVLink switch trays, all-to-all on the backplane) plus a
    rail-optimized scale-out fabric over the compute trays' NICs."""
    so = plan.scale_out
    wr = _width(plan.racks)

    compute_t = catalog.device_types[so.node.type_id]  # GB200, GB300, VR tray; Kyber canister
    per_rack, switch_count = rack_scale_units(compute_t.id)
    layout = rack_layout(per_rack, switch_count)

    def tray_name(s: int, j: int) -> str:
        g = s * so.su_nodes + j
        return f"nvl{g // per_rack + 1:0{wr}d}-tray{g % per_rack + 1:02d}"

    tray_split = dict(so.node.breakout or {})  # multi-plane: each NIC split across the planes
    switch_t = catalog.device_types[NVL72_SWITCH_TRAY_OF.get(compute_t.id, NVL72_SWITCH_TRAY)]
    scale_up: list[PortLink] = []

    def make_units(ids: list[str]) -> list[Unit]:
        return build_rack_scale_units(
            ids, per_rack, ("nvsw", switch_count), layout, (compute_t, switch_t), tray_split,
            "nvl", scale_up,
        )  # fmt: skip

    segments, tiers = rail_optimized(catalog, so, tray_name, make_units)
    for seg in segments:
        if seg.units:
            # The platform's own rack where the catalog has one (GB300: 142 kW of shelves).
            seg.server_rack_type = compute_t.rack_type or "rack-nvl72"
            seg.units_per_rack = 1
    return segments, [scale_up, *tiers]
