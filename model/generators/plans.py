"""Fabric plans: the counts of a generated fabric, derived from formulas and checked before building.

A plan holds only integers and ids. Every refusal (:class:`GenerateError`) is raised here, before
anything is allocated; :func:`model.generators.generate.preview` reports a plan's counts without building it.

Conventions (rail-optimized and leaf-spine): a leaf of radix K with oversubscription R
(downlink:uplink) has at most ``u = floor(K / (R + 1))`` uplinks and ``R u`` downlinks; the
``K - (R + 1) u`` ports left over are spares (2:1 on 64 ports = 42 down / 21 up + 1 spare);
``--reserve-ports P`` come out of the downlinks, leaving ``d = R u - P`` for nodes. The uplinks
actually cabled are sized to the downlinks in use, ``ceil(used / R)``, so a leaf that serves
fewer nodes than its ports allow is not over-built (SN5600 with 32-node SUs: 32 down, 32 up). Leaf uplinks spread evenly: the spine count S is the
smallest divisor of ``u`` with ``S * K >= leaves * u`` (each leaf has ``u / S`` parallel links to
every spine). Three tiers: pods of leaves with their own spines (half the spine ports down, half
up) joined by core groups, sized the same way.


The rail-optimized and NVL72 plans are in :mod:`model.generators.rail_plans`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from model.catalog.components import Catalog, DeviceType
from model.catalog.nics import link_mode_problem
from model.catalog.ports import port_table

MAX_GPUS = 1_048_576  # "about a million": larger requests are refused before anything is built
MAX_SWITCHES_PER_NETWORK_RACK = 16


class GenerateError(ValueError):
    """An impossible or unreasonable generator request; the message says what to change."""


@dataclass(frozen=True)
class SwitchPorts:
    """A switch type run at one port speed: its breakout, radix and fabric port names in order."""

    type_id: str
    breakout: dict[str, int]
    speed_gbps: float
    names: tuple[str, ...]

    @property
    def radix(self) -> int:
        return len(self.names)


@dataclass(frozen=True)
class NodeSpec:
    type_id: str
    nics: tuple[str, ...]  # compute port names of plane 1: NIC i is rail i
    speed_gbps: float
    gpus: int
    planes: int = 1  # multi-plane: each NIC split into ``planes`` ports, one per plane
    breakout: dict[str, int] | None = None  # the NIC group's split (multi-plane)
    plane_nics: tuple[tuple[str, ...], ...] = ()  # compute ports of each plane

    def nics_of_plane(self, plane: int) -> tuple[str, ...]:
        return self.plane_nics[plane] if self.plane_nics else self.nics


def node_spec(catalog: Catalog, type_id: str, planes: int = 1) -> NodeSpec:
    """The node's compute NICs; with ``planes`` P > 1 each NIC is split P ways (Spectrum-X
    multi-plane: a ConnectX-8 800G port as 2 x 400G, NV-NETOP-MP) and plane p takes split p of
    every NIC, so each plane is a full rail-optimized fabric of its own at 1/P of the speed."""
    dtype = _device_type(catalog, type_id, "--node-type")
    table = port_table(dtype)
    nics = tuple(name for name, info in table.items() if info.role == "compute")
    if dtype.category != "server" or not nics:
        raise GenerateError(
            f"node type {type_id!r} has no compute NICs; choose a GPU server "
            "type such as dgx-h100 or hgx-h100-8x400"
        )
    require_positive(planes, "--planes")
    if planes > 1:
        return _split_node(dtype, table, planes)
    speeds = {table[n].speed_gbps for n in nics}
    if len(speeds) > 1:
        raise GenerateError(
            f"node type {type_id!r} has compute NICs of mixed speeds; choose a "
            "node type whose compute NICs share one speed"
        )
    return NodeSpec(type_id, nics, speeds.pop(), dtype.gpu_count)


# Named only to a node whose NICs do not split at all (those types split 2 ways)
_SPLITTERS = "; multi-plane needs NICs such as ConnectX-8 (dgx-b300, gb300-compute-tray)"


def _split_node(dtype: DeviceType, table, planes: int) -> NodeSpec:
    groups = [g for g in dtype.port_groups if g.role == "compute"]
    options = [g.breakout(planes) for g in groups]
    if len(groups) != 1 or options[0] is None:
        offered = sorted({b.fanout for g in groups for b in g.breakouts})
        raise GenerateError(
            f"--planes {planes}: the compute NICs of {dtype.id!r} cannot be split {planes} ways"
            + (f" (they split {', '.join(map(str, offered))} ways)" if offered else _SPLITTERS)
        )
    group, option = groups[0], options[0]
    breakout = {group.name: planes}
    split = port_table(dtype, breakout)
    ports = [name for name, info in split.items() if info.role == "compute"]
    # Split ports are named nic1/1, nic1/2, ...: plane p takes the p-th split of every NIC.
    plane_nics = tuple(tuple(ports[p::planes]) for p in range(planes))
    return NodeSpec(
        dtype.id,
        plane_nics[0],
        option.speed_gbps,
        dtype.gpu_count,
        planes=planes,
        breakout=breakout,
        plane_nics=plane_nics,
    )


def port_modes(dtype: DeviceType) -> dict[str, float]:
    """The switch's port modes, ``"<ports>x<speed>G"`` -> port speed (Gb/s): its compute group
    as built and each breakout (Q3400: 144x800G, 288x400G)."""
    groups = [g for g in dtype.port_groups if g.role == "compute"]
    if not groups:
        return {}
    group = groups[0]
    modes = {f"{group.count}x{group.speed_gbps:g}G": group.speed_gbps}
    for b in group.breakouts:
        modes[f"{group.count * b.fanout}x{b.speed_gbps:g}G"] = b.speed_gbps
    return modes


def _mode_ports(dtype: DeviceType) -> dict[str, tuple[float, int, str]]:
    """Each port mode of :func:`port_modes` -> (port speed, lanes, form factor)."""
    groups = [g for g in dtype.port_groups if g.role == "compute"]
    if not groups:
        return {}
    group = groups[0]
    out = {
        f"{group.count}x{group.speed_gbps:g}G": (group.speed_gbps, group.lanes, group.form_factor)
    }
    for b in group.breakouts:
        out[f"{group.count * b.fanout}x{b.speed_gbps:g}G"] = (
            b.speed_gbps,
            b.lanes,
            group.form_factor,
        )
    return out


def _nic_ports(catalog: Catalog) -> set[tuple[float, int, str]]:
    """(speed, lanes, form factor) of every way a GPU server's compute NIC in the catalog runs:
    as built and each of its splits."""
    out = set()
    for dtype in catalog.device_types.values():
        if dtype.category != "server":
            continue
        for g in dtype.port_groups:
            if g.role == "compute":
                out.add((g.speed_gbps, g.lanes, g.form_factor))
                out.update((b.speed_gbps, b.lanes, g.form_factor) for b in g.breakouts)
    return out


def _medium_joins(catalog: Catalog, speed_gbps: float, lane_rates: set, forms: set) -> bool:
    """Whether some medium of the catalog runs ``speed_gbps`` at both ends' lane rates and
    cages (the test of :func:`check_media`)."""
    return any(
        any(abs(speed_gbps - s) < 1e-6 for s in m.speeds_gbps)
        and all(any(abs(r - x) < 1e-6 for x in m.lane_rates_gbps) for r in lane_rates)
        and forms <= set(m.form_factors)
        for m in catalog.media_types.values()
    )


def dead_mode_reason(catalog: Catalog, dtype: DeviceType, mode: str) -> str | None:
    """Why no compute fabric can use port mode ``mode`` of ``dtype``, or None when one can.

    A mode is dead when no GPU server's NIC in the catalog (as built or split) can be cabled to
    its ports by any medium of the catalog. Choice (issue 14, item 4): the Quantum-X800's
    ``288x400G`` split runs 400G on 2 x 200G lanes; the sourced NICs run 400G on 4 x 100G
    (ConnectX-7, and ConnectX-8 split for multi-plane), and domain-facts has no sourced
    ConnectX-8 400G mode on 2 x 200G lanes, so the mode is refused with this reason rather
    than offered dead (and no product is invented for it).
    """
    if _mode_alive(catalog, dtype, mode):
        return None
    speed, lanes, _form = _mode_ports(dtype)[mode]
    rate = speed / lanes
    others = sorted({f"{s / n:g}G" for s, n, _ in _nic_ports(catalog) if abs(s - speed) < 1e-6})
    return (
        f"--port-mode {mode} of {dtype.id!r} runs {speed:g}G ports on {lanes} x {rate:g}G lanes, "
        f"and no GPU server's NIC in the catalog can be cabled to them"
        + (
            f" (its {speed:g}G NICs run {' or '.join(others)} lanes)"
            if others
            else f" (none runs {speed:g}G)"
        )
        + "; choose auto or one of "
        + ", ".join(usable_port_modes(catalog, dtype))
    )


def usable_port_modes(catalog: Catalog, dtype: DeviceType) -> dict[str, float]:
    """The port modes of :func:`port_modes` some NIC of the catalog can use (what a user is
    offered: the wizard lists these, the planner refuses the others with the reason)."""
    modes = port_modes(dtype)
    return {mode: speed for mode, speed in modes.items() if _mode_alive(catalog, dtype, mode)}


def _mode_alive(catalog: Catalog, dtype: DeviceType, mode: str) -> bool:
    speed, lanes, form = _mode_ports(dtype)[mode]
    return any(
        abs(s - speed) < 1e-6 and _medium_joins(catalog, speed, {speed / lanes, s / n}, {form, f})
        for s, n, f in _nic_ports(catalog)
    )


def switch_ports(
    catalog: Catalog,
    type_id: str,
    speed_gbps: float,
    option: str = "--switch",
    port_mode: str = "auto",
) -> SwitchPorts:
    """The switch's compute ports at ``speed_gbps``, breaking them out when that is how they get
    there. ``port_mode`` (``auto``, or one of :func:`port_modes`, e.g. ``288x400G`` on a Q3400)
    names the mode explicitly; it must run the nodes' NIC speed."""
    dtype = _device_type(catalog, type_id, option)
    groups = [g for g in dtype.port_groups if g.role == "compute"]
    if dtype.category != "switch" or not groups:
        raise GenerateError(
            f"{option} {type_id!r} is not a fabric switch; choose a switch type "
            "such as qm9700, q3400 or sn5600"
        )
    if port_mode not in (None, "auto"):
        modes = port_modes(dtype)
        if port_mode not in modes:
            raise GenerateError(
                f"--port-mode {port_mode!r} is not a mode of {type_id!r}; choose auto or one of "
                + ", ".join(modes)
            )
        dead = dead_mode_reason(catalog, dtype, port_mode)
        if dead:
            raise GenerateError(dead)
        if modes[port_mode] != speed_gbps:
            raise GenerateError(
                f"--port-mode {port_mode} runs {modes[port_mode]:g}G ports, but the nodes' NICs "
                f"run at {speed_gbps:g}G; choose the mode of that speed or auto"
            )
    group = groups[0]
    breakout: dict[str, int] = {}
    if group.speed_gbps != speed_gbps:
        option_ = next((b for b in group.breakouts if b.speed_gbps == speed_gbps), None)
        if option_ is None:
            offered = ", ".join(f"{b.speed_gbps:g}G" for b in group.breakouts)
            raise GenerateError(
                f"switch {type_id!r} runs its ports at {group.speed_gbps:g}G"
                + (f" (or {offered} broken out)" if offered else "")
                + f", not at the {speed_gbps:g}G of the nodes' NICs; choose a switch with "
                f"{speed_gbps:g}G ports"
            )
        breakout = {group.name: option_.fanout}
    names = tuple(
        name for name, info in port_table(dtype, breakout).items() if info.group == group.name
    )
    return SwitchPorts(type_id, breakout, speed_gbps, names)


def check_media(catalog: Catalog, node: NodeSpec, leaf: SwitchPorts) -> None:
    """Refuse a node-leaf pairing no medium of the catalog can cable (speed, both ends' lane
    rates and cages), or that runs the node's NIC in a mode it does not have for the switch's
    protocol (ConnectX-8 at 800G on Ethernet: model.catalog.nics), before building thousands
    of links."""
    node_type = catalog.device_types[node.type_id]
    nic = port_table(node_type, node.breakout)[node.nics[0]]
    group = node_type.port_group(nic.group)
    protocol = catalog.device_types[leaf.type_id].protocol
    if group is not None and group.nic in catalog.nic_types and protocol:
        nic_type = catalog.nic_types[group.nic]
        why = link_mode_problem(nic_type, node.speed_gbps, protocol)
        if why:
            # The other way (whole when split, split in two when whole) is offered only where
            # the NIC runs it on this protocol: advice the generator then refuses is no advice.
            speeds = nic_type.speeds(protocol)
            other = ""
            if node.planes > 1 and node.speed_gbps * node.planes in speeds:
                other = ", or run each NIC whole (leave --planes out)"
            elif node.planes == 1 and group.breakout(2) and node.speed_gbps / 2 in speeds:
                other = ", or split each NIC over planes (--planes 2)"
            raise GenerateError(
                f"the {node.type_id!r} NICs on {leaf.type_id!r} ({protocol}): {why}; choose "
                f"a switch of the other protocol{other}"
            )
    _check_host_media(
        catalog, f"NICs of {node.type_id!r}", node.speed_gbps, nic.lanes, nic.form_factor, leaf
    )


def _check_host_media(
    catalog: Catalog, hosts: str, speed_gbps: float, lanes: int, form: str, leaf: SwitchPorts
) -> None:
    """:func:`check_media` for a host NIC given by its lanes and cage (the generic host of
    the fat tree is not in the catalog while the plan is made)."""
    port = port_table(catalog.device_types[leaf.type_id], leaf.breakout)[leaf.names[0]]
    lane_rates = {speed_gbps / lanes, port.speed_gbps / port.lanes}
    if _medium_joins(catalog, speed_gbps, lane_rates, {form, port.form_factor}):
        return
    rates = " and ".join(f"{r:g}G" for r in sorted(lane_rates))
    raise GenerateError(
        f"no medium in the catalog joins the {speed_gbps:g}G {hosts} to the "
        f"{leaf.speed_gbps:g}G ports of {leaf.type_id!r} (lanes at {rates}); choose a switch or "
        "port mode whose ports run the NICs' lane rate"
    )


def check_uplink_media(catalog: Catalog, leaf: SwitchPorts, spine: SwitchPorts) -> None:
    """Refuse leaves and spines no medium of the catalog can join (a QM9700's 400G on 4 x 100G
    lanes against a Q3400 split to 400G on 2 x 200G), before building uncableable links."""
    a = port_table(catalog.device_types[leaf.type_id], leaf.breakout)[leaf.names[0]]
    b = port_table(catalog.device_types[spine.type_id], spine.breakout)[spine.names[0]]
    lanes = {a.speed_gbps / a.lanes, b.speed_gbps / b.lanes}
    if _medium_joins(catalog, leaf.speed_gbps, lanes, {a.form_factor, b.form_factor}):
        return
    rates = " and ".join(f"{r:g}G" for r in sorted(lanes))
    raise GenerateError(
        f"no medium in the catalog joins the {leaf.speed_gbps:g}G ports of leaf {leaf.type_id!r} "
        f"to those of spine {spine.type_id!r} (lanes at {rates}); choose a --spine-switch whose "
        "ports run the leaves' lane rate"
    )


def _device_type(catalog: Catalog, type_id: str, option: str) -> DeviceType:
    dtype = catalog.device_types.get(type_id)
    if dtype is None:
        raise GenerateError(
            f"{option} {type_id!r} is not in the catalog; choose one of "
            + ", ".join(sorted(catalog.device_types))
        )
    return dtype


def require_positive(value: int, option: str, minimum: int = 1) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise GenerateError(f"{option} must be a whole number of at least {minimum}, not {value!r}")
    return value


def check_size(nodes: int, node: NodeSpec | None = None, gpus_per_node: int = 1) -> None:
    """Refuse more than ~1M GPUs (or ~1M NIC endpoints for GPU-light nodes) before building."""
    gpus = nodes * (node.gpus if node else gpus_per_node)
    if gpus > MAX_GPUS:
        raise GenerateError(
            f"{gpus:,} GPUs is more than the {MAX_GPUS:,} a generator builds; ask for fewer nodes"
        )
    nics = nodes * (len(node.nics) if node else 1)
    if nics > MAX_GPUS:
        raise GenerateError(
            f"{nics:,} node NICs is more than the {MAX_GPUS:,} a generator "
            "cables; ask for fewer nodes"
        )


def smallest_divisor_at_least(n: int, minimum: float) -> int | None:
    """The smallest divisor of ``n`` that is >= ``minimum`` (None when ``minimum > n``)."""
    for s in range(max(1, math.ceil(minimum - 1e-9)), n + 1):
        if n % s == 0:
            return s
    return None


def leaf_ports(radix: int, oversubscription: int, reserve: int) -> tuple[int, int]:
    """(uplinks, downlink capacity) of a leaf of ``radix`` ports; refuses a ratio that does not fit."""
    require_positive(oversubscription, "--oversubscription")
    if not isinstance(reserve, int) or reserve < 0:
        raise GenerateError(f"--reserve-ports must be 0 or more, not {reserve!r}")
    up = radix // (oversubscription + 1)
    if up < 1:
        raise GenerateError(
            f"an oversubscription of {oversubscription}:1 leaves no uplink on a {radix}-port "
            f"leaf; use a ratio below {radix - 1}"
        )
    down = up * oversubscription - reserve
    if down < 1:
        raise GenerateError(
            f"--reserve-ports {reserve} leaves no downlink ports on a {radix}-port "
            f"leaf with {up} uplinks; reserve fewer ports"
        )
    return up, down


def used_uplinks(downlinks_used: int, oversubscription: int, most: int) -> int:
    """Uplinks to cable for ``downlinks_used`` at ``R``:1 (never more than the leaf has)."""
    return max(1, min(most, -(-downlinks_used // oversubscription)))


def fewest_spines(need: int, most: int, leaves: int, spine_ports: int) -> tuple[int, int] | None:
    """(uplinks per leaf, spines) for ``leaves`` leaves of at least ``need`` uplinks each.

    Uplinks spread evenly (the spine count divides the uplinks). The smallest uplink count in
    ``need..most`` whose spine count is the port minimum ``ceil(leaves * u / spine_ports)`` wins
    (31 needed uplinks become 32 over 8 spines, not 31 over 31); failing that, the fewest
    spines. None when no count in the range fits.
    """
    best = None
    need = min(max(need, 2), most)  # two uplinks at least: no leaf hangs on one cable
    for u in range(need, most + 1):
        # At least two spines when there are two uplinks: no single point of failure.
        s = smallest_divisor_at_least(u, max(leaves * u / spine_ports, min(2, u)))
        if s is None:
            continue
        if s == max(math.ceil(leaves * u / spine_ports - 1e-9), min(2, u)):
            return u, s
        if best is None or s < best[1]:
            best = (u, s)
    return best


def clos_spines(need: int, most: int, leaves: int, spine_ports: int) -> tuple[int, int] | None:
    """(uplinks per leaf, spines) at the Clos minimum: :func:`fewest_spines`' even spread, or,
    where that needs more spines than the ports do, ``need`` uplinks spread round-robin over
    ``ceil(leaves * need / spine_ports)`` spines (each leaf 3 or 4 links to each spine, every
    spine port used: GB200 NVL72 1 SU is 18 leaves x 32 uplinks on 9 spines, not 16)."""
    fit = fewest_spines(need, most, leaves, spine_ports)
    if fit is None:
        return None
    need = min(max(need, 2), most)
    fewest = max(math.ceil(leaves * need / spine_ports - 1e-9), min(2, need))
    if fewest < fit[1] and fewest <= need:
        return need, fewest
    return fit


# ------------------------------------------------------------------------------------ leaf-spine


@dataclass(frozen=True)
class LeafSpinePlan:
    node: NodeSpec
    leaf: SwitchPorts
    spine: SwitchPorts
    nodes: int
    oversubscription: int
    uplinks: int
    downlinks: int
    nodes_per_leaf: int
    leaves: int
    spines: int

    def counts(self) -> dict:
        return {
            "tiers": 2,
            "nodes": self.nodes,
            "gpus": self.nodes * self.node.gpus,
            "switches": {"leaf": self.leaves, "spine": self.spines},
            "links": {
                "node-leaf": self.nodes * len(self.node.nics),
                "leaf-spine": self.leaves * self.uplinks,
            },
            "oversubscription": self.oversubscription,
            "nodes_per_leaf": self.nodes_per_leaf,
        }


def plan_leaf_spine(
    catalog: Catalog,
    *,
    nodes: int,
    node_type: str,
    switch: str,
    spine_switch: str | None = None,
    oversubscription: int = 1,
    reserve_ports: int = 0,
) -> LeafSpinePlan:
    """Every node's NICs go to one leaf (top-of-rack style); leaves spread uplinks over all spines."""
    require_positive(nodes, "--nodes")
    node = node_spec(catalog, node_type)
    check_size(nodes, node)
    leaf = switch_ports(catalog, switch, node.speed_gbps)
    spine = switch_ports(catalog, spine_switch or switch, node.speed_gbps, "--spine-switch")
    check_media(catalog, node, leaf)
    check_uplink_media(catalog, leaf, spine)
    up, down = leaf_ports(leaf.radix, oversubscription, reserve_ports)
    per_leaf = down // len(node.nics)
    if per_leaf < 1:
        raise GenerateError(
            f"a {leaf.radix}-port leaf has {down} downlink ports, fewer than the "
            f"{len(node.nics)} NICs of one {node.type_id}; use a bigger switch or "
            "a lower --oversubscription"
        )
    leaves = -(-nodes // per_leaf)
    need = used_uplinks(min(per_leaf, nodes) * len(node.nics), oversubscription, up)
    fit = fewest_spines(need, up, leaves, spine.radix)
    up, spines = fit if fit is not None else (up, None)
    if spines is None:
        raise GenerateError(
            f"{nodes} nodes need {leaves} leaves but a {spine.radix}-port spine reaches only "
            f"{spine.radix}; ask for at most {spine.radix * per_leaf} nodes, use a bigger "
            "--spine-switch, or generate rail-optimized with --tiers 3"
        )
    return LeafSpinePlan(
        node, leaf, spine, nodes, oversubscription, up, down, per_leaf, leaves, spines
    )


# ------------------------------------------------------------------------------------ fat-tree


@dataclass(frozen=True)
class FatTreePlan:
    k: int
    switch_type: str  # "" = the generic k-port switch (a custom type)
    node_type: str  # "" = the generic single-NIC host
    speed_gbps: float
    gpus_per_host: int

    def counts(self) -> dict:
        k = self.k
        hosts = k**3 // 4
        return {
            "tiers": 3,
            "nodes": hosts,
            "gpus": hosts * self.gpus_per_host,
            "pods": k,
            "switches": {"leaf": k * k // 2, "spine": k * k // 2, "core": (k // 2) ** 2},
            "links": {"node-leaf": hosts, "leaf-spine": k**3 // 4, "spine-core": k**3 // 4},
        }


GENERIC_SPEED_GBPS = 400.0
# The generic fat-tree host's one NIC: 4 lanes in an OSFP cage, like the generic k-port switch
# (`topology.generic_host_type`/`generic_switch_type` build them from these).
GENERIC_NIC_LANES = 4
GENERIC_NIC_FORM = "OSFP"


def plan_fat_tree(
    catalog: Catalog, *, k: int, switch: str | None = None, node_type: str | None = None
) -> FatTreePlan:
    require_positive(k, "--k", 2)
    if k % 2:
        raise GenerateError(f"a k-ary fat tree needs an even k, not {k}; use {k + 1}")
    speed, gpus = GENERIC_SPEED_GBPS, 1
    if node_type:
        node = node_spec(catalog, node_type)
        speed, gpus = node.speed_gbps, node.gpus
    check_size(k**3 // 4, gpus_per_node=gpus)
    if switch:
        ports = switch_ports(catalog, switch, speed)
        if ports.radix < k:
            raise GenerateError(
                f"switch {switch!r} has {ports.radix} ports at {speed:g}G, fewer "
                f"than k = {k}; use --k {ports.radix - ports.radix % 2} or less, "
                "or a bigger switch"
            )
        # The hosts must be cabled to the edge (a Q3400 at 400G runs 2 x 200G lanes, which no
        # 4-lane 400G NIC can join). Switch-to-switch links then need no check of their own:
        # every tier is this one switch at this speed, and a medium that joins a host to it
        # runs its lane rate and cage at both ends.
        if node_type:
            check_media(catalog, node, ports)
        else:
            hosts = "NICs of the generic hosts"
            _check_host_media(catalog, hosts, speed, GENERIC_NIC_LANES, GENERIC_NIC_FORM, ports)
    return FatTreePlan(k, switch or "", node_type or "", speed, gpus)


# ------------------------------------------------------------------------------------ NVL72

NVL72_COMPUTE_TRAYS = 18
NVL72_SWITCH_TRAYS = 9
# Rack-scale platforms: compute tray type and the scale-out switch that matches its NICs.
NVL72_PLATFORMS = {
    "gb200": ("gb200-compute-tray", "qm9700"),  # CX-7 class 400G NICs, Quantum-2 NDR
    "gb300": ("gb300-compute-tray", "q3400"),  # ConnectX-8 800G XDR, Quantum-X800
    # ConnectX-9 800G on a Spectrum-X Ethernet rail-optimized fat tree (NV-RA-VR); the RA's
    # switch model is not in the sources read: Spectrum-6 (SN6810 Photonics, 128 x 800G at
    # 200G lanes) is the Spectrum-X switch of that generation in the catalog (estimate).
    "vera-rubin": ("vr-nvl72-compute-tray", "sn6810"),
    # Rubin Ultra NVL576 in Kyber racks (TOMS-KYBER): 4 canisters of 18 blades per rack; its
    # scale-out NICs and switch are estimates (ConnectX-9 pairs per GPU on Spectrum-6, as VR).
    "rubin-ultra": ("kyber-nvl576-canister", "sn6810"),
}
# The NVLink switch tray of each NVL72 compute tray (NVLink 5 or NVLink 6), or blade (Kyber).
NVL72_SWITCH_TRAY_OF = {
    "vr-nvl72-compute-tray": "vr-nvlink6-switch-tray",
    "kyber-nvl576-canister": "kyber-nvlink-switch-blade",
    "helios-compute-tray": "helios-ualoe-switch-tray",  # AMD Helios (model.generators.helios)
}
NVL72_SWITCH_TRAY = "gb200-nvlink-switch-tray"  # GB200 and GB300
# Compute units and NVLink switch units per rack where they are not NVL72's 18 and 9: a Kyber
# rack's 4 canisters (TOMS-KYBER) and 8 switch blades (estimate, see the catalog's notes).
RACK_SCALE_UNITS = {"kyber-nvl576-canister": (4, 8)}


def rack_scale_units(tray_type: str) -> tuple[int, int]:
    """(compute trays or canisters, NVLink switch trays or blades) in one rack of ``tray_type``."""
    return RACK_SCALE_UNITS.get(tray_type, (NVL72_COMPUTE_TRAYS, NVL72_SWITCH_TRAYS))


MULTI_PLANE_SWITCH = "sn5610"  # Spectrum-X: multi-plane is an Ethernet capability (NV-NETOP-MP)
