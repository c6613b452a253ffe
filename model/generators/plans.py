"""Fabric plans: the counts of a generated fabric, derived from formulas and checked before building.

A plan holds only integers and ids. Every refusal (:class:`GenerateError`) is raised here, before
anything is allocated; :func:`model.generate.preview` reports a plan's counts without building it.

Conventions (rail-optimized and leaf-spine): a leaf of radix K with oversubscription R
(downlink:uplink) has at most ``u = floor(K / (R + 1))`` uplinks and ``R u`` downlinks; the
``K - (R + 1) u`` ports left over are spares (2:1 on 64 ports = 42 down / 21 up + 1 spare);
``--reserve-ports P`` come out of the downlinks, leaving ``d = R u - P`` for nodes. The uplinks
actually cabled are sized to the downlinks in use, ``ceil(used / R)``, so a leaf that serves
fewer nodes than its ports allow is not over-built (SN5600 with 32-node SUs: 32 down, 32 up). Leaf uplinks spread evenly: the spine count S is the
smallest divisor of ``u`` with ``S * K >= leaves * u`` (each leaf has ``u / S`` parallel links to
every spine). Three tiers: pods of leaves with their own spines (half the spine ports down, half
up) joined by core groups, sized the same way.

Right-sizing choices (issue 14), written down here because they change counts:

* **Rails sharing a leaf.** When one rail of an SU already needs several leaves, r rails share
  each leaf (d // r nodes a leaf) if that builds fewer switches in all: GB200 NVL72's 144 trays
  a rail on 32-port leaves are 5 leaves of 29 rail-pure, or 9 of 16 with 2 rails a leaf (18
  leaves an SU, not 20; at 16 SU 720 switches, not 1,016; one SU stays rail-pure, 30 switches
  against 34). Rail-pure leaves stay whenever a rail fits one leaf (every DGX SuperPOD SU).
* **Pods span SUs.** A pod is a run of K/2 leaves, whatever the SU boundaries; a partial last pod
  takes only the spines its leaves need.
* **Full cores.** Core groups are one per spine position (the textbook) unless several spine
  positions sharing a group fills every core (9 pods of a GB200 16-SU fabric: 2 positions x 9
  pods x 32 uplinks = 9 cores of 64 ports); each spine then reaches m cores of its group in a
  cyclic window, m the largest divisor of its uplinks that fits, so every core is reached by
  the same number of spines and every spine sends the same to each of its cores (the analysis'
  regular Clos). The price: two pods meet on most, not all, of a group's cores, so one pod
  pair alone gets 87.5-94 % of a pod's uplinks through the cores (896-960 of 1,024 at GB200 16
  SU), while the bisection stays full.
* **Multi-plane.** ``planes`` P > 1 splits each NIC P ways (Spectrum-X multi-plane) and builds P
  copies of the fabric, one per plane; the counts are per plane times P.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from model.catalog import Catalog, DeviceType
from model.ports import port_table

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
    _positive(planes, "--planes")
    if planes > 1:
        return _split_node(dtype, table, planes)
    speeds = {table[n].speed_gbps for n in nics}
    if len(speeds) > 1:
        raise GenerateError(
            f"node type {type_id!r} has compute NICs of mixed speeds; choose a "
            "node type whose compute NICs share one speed"
        )
    return NodeSpec(type_id, nics, speeds.pop(), dtype.gpu_count)


def _split_node(dtype: DeviceType, table, planes: int) -> NodeSpec:
    groups = [g for g in dtype.port_groups if g.role == "compute"]
    options = [g.breakout(planes) for g in groups]
    if len(groups) != 1 or options[0] is None:
        offered = sorted({b.fanout for g in groups for b in g.breakouts})
        raise GenerateError(
            f"--planes {planes}: the compute NICs of {dtype.id!r} cannot be split {planes} ways"
            + (f" (they split {', '.join(map(str, offered))} ways)" if offered else "")
            + "; multi-plane needs NICs such as ConnectX-8 (dgx-b300, gb300-compute-tray)"
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


def _check_media(catalog: Catalog, node: NodeSpec, leaf: SwitchPorts) -> None:
    """Refuse a node-leaf pairing no medium of the catalog can cable (speed, both ends' lane
    rates and cages), before building thousands of links without a medium."""
    nic = port_table(catalog.device_types[node.type_id], node.breakout)[node.nics[0]]
    port = port_table(catalog.device_types[leaf.type_id], leaf.breakout)[leaf.names[0]]
    lanes = {nic.speed_gbps / nic.lanes, port.speed_gbps / port.lanes}
    forms = {nic.form_factor, port.form_factor}
    for m in catalog.media_types.values():
        if (
            any(abs(node.speed_gbps - s) < 1e-6 for s in m.speeds_gbps)
            and all(any(abs(r - x) < 1e-6 for x in m.lane_rates_gbps) for r in lanes)
            and forms <= set(m.form_factors)
        ):
            return
    rates = " and ".join(f"{r:g}G" for r in sorted(lanes))
    raise GenerateError(
        f"no medium in the catalog joins the {node.speed_gbps:g}G NICs of {node.type_id!r} to the "
        f"{leaf.speed_gbps:g}G ports of {leaf.type_id!r} (lanes at {rates}); choose a switch or "
        "port mode whose ports run the NICs' lane rate"
    )


def _device_type(catalog: Catalog, type_id: str, option: str) -> DeviceType:
    dtype = catalog.device_types.get(type_id)
    if dtype is None:
        raise GenerateError(
            f"{option} {type_id!r} is not in the catalog; choose one of "
            + ", ".join(sorted(catalog.device_types))
        )
    return dtype


def _positive(value: int, option: str, minimum: int = 1) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise GenerateError(f"{option} must be a whole number of at least {minimum}, not {value!r}")
    return value


def _check_size(nodes: int, node: NodeSpec | None = None, gpus_per_node: int = 1) -> None:
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
    _positive(oversubscription, "--oversubscription")
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


# ------------------------------------------------------------------------------------ rail-optimized


@dataclass(frozen=True)
class RailPlan:
    """Counts of a rail-optimized fabric of scalable units (SUs) of ``su_nodes`` nodes."""

    node: NodeSpec
    leaf: SwitchPorts
    nodes: int
    su_nodes: int
    oversubscription: int
    reserve_ports: int
    uplinks: int  # per leaf
    downlinks: int  # capacity per leaf (after reserve)
    leaves_per_rail: int  # leaves of one rail group (``rails_per_leaf`` rails) in one SU
    tiers: int
    spines: int = 0  # 2-tier: total; 3-tier: per pod
    pod_leaves: int = 0  # 3-tier: leaves per pod (pods span SUs; the last pod may be partial)
    rail_only: bool = False  # spines (2-tier: ``spines`` per rail) join only one rail's leaves
    rails_per_leaf: int = 1  # rails that share one leaf (several when a rail needs many leaves)
    last_pod_spines: int = 0  # 3-tier: spines of a partial last pod (0: ``spines``)
    # 3-tier core groups, one entry per run of spine positions with the same pods: (first
    # position, positions, positions per group G, cores per group, links spine -> each core).
    core_classes: tuple[tuple[int, int, int, int, int], ...] = ()

    @property
    def rails(self) -> int:
        return len(self.node.nics)

    @property
    def n_su(self) -> int:
        return -(-self.nodes // self.su_nodes)

    @property
    def rail_groups(self) -> int:
        return self.rails // self.rails_per_leaf

    @property
    def leaves_per_su(self) -> int:
        return self.rail_groups * self.leaves_per_rail

    @property
    def leaves(self) -> int:
        return self.n_su * self.leaves_per_su

    @property
    def pods(self) -> int:
        return -(-self.leaves // self.pod_leaves) if self.tiers == 3 else 1

    @property
    def spine_down(self) -> int:
        return self.leaf.radix // 2 if self.tiers == 3 else self.leaf.radix

    @property
    def spine_up(self) -> int:
        return self.leaf.radix - self.spine_down if self.tiers == 3 else 0

    @property
    def total_spines(self) -> int:
        if self.rail_only:
            return self.spines * self.rails
        if self.tiers == 3:
            return sum(self.pod_spines(p) for p in range(self.pods))
        return self.spines

    def pod_spines(self, pod: int) -> int:
        """Spines of pod ``pod`` (0-based): the last, partial pod may need fewer."""
        if pod == self.pods - 1 and self.last_pod_spines:
            return self.last_pod_spines
        return self.spines

    @property
    def cores(self) -> int:
        if self.tiers != 3:
            return 0
        return sum(n // g * cg for _, n, g, cg, _ in self.core_classes)

    @property
    def planes(self) -> int:
        return self.node.planes

    def counts(self) -> dict:
        """Counts of the whole fabric: every plane of a multi-plane fabric is one full copy."""
        gpus = self.nodes * self.node.gpus
        P = self.planes
        links = {
            "node-leaf": P * self.nodes * self.rails,
            "leaf-spine": P * self.leaves * self.uplinks,
        }
        switches = {"leaf": P * self.leaves, "spine": P * self.total_spines}
        if self.tiers == 3:
            switches["core"] = P * self.cores
            links["spine-core"] = P * self.total_spines * self.spine_up
        return {
            "tiers": self.tiers,
            "nodes": self.nodes,
            "gpus": gpus,
            "scalable_units": self.n_su,
            "pods": self.pods,
            "planes": P,
            "switches": switches,
            "links": links,
            "oversubscription": self.oversubscription,
        }


def plan_rail_optimized(
    catalog: Catalog,
    *,
    nodes: int,
    node_type: str,
    switch: str,
    su_nodes: int,
    tiers: str | int = "auto",
    oversubscription: int = 1,
    reserve_ports: int = 0,
    planes: int = 1,
    port_mode: str = "auto",
) -> RailPlan:
    """``planes`` > 1: Spectrum-X multi-plane, each NIC split across that many independent
    planes, each plane its own rail-optimized fabric (see :func:`node_spec`). ``port_mode``
    names the leaf switch's port mode (see :func:`switch_ports`)."""
    _positive(nodes, "--nodes")
    _positive(su_nodes, "--su-nodes")
    node = node_spec(catalog, node_type, planes)
    _check_size(nodes, node)
    leaf = switch_ports(catalog, switch, node.speed_gbps, port_mode=port_mode)
    _check_media(catalog, node, leaf)
    up, down = leaf_ports(leaf.radix, oversubscription, reserve_ports)
    su_nodes = min(su_nodes, nodes)
    tiers = str(tiers)
    if tiers not in ("auto", "2", "3", "rail-only"):
        raise GenerateError(f"--tiers must be auto, 2, 3 or rail-only, not {tiers!r}")
    rails = len(node.nics)
    args = (node, leaf, nodes, su_nodes, tiers, oversubscription, reserve_ports, up, down)
    if tiers == "rail-only" or -(-su_nodes // down) <= 1:
        return _plan_rails(*args, 1)
    # A rail of one SU already needs several leaves: r rails may share each leaf instead when
    # that builds fewer switches in all (GB200 NVL72 16 SU: 720 with 2 rails a leaf, not 1,016).
    plans, refusal = [], None
    for r in (r for r in range(1, rails + 1) if rails % r == 0 and down // r >= 1):
        try:
            plans.append(_plan_rails(*args, r))
        except GenerateError as exc:
            refusal = refusal or exc
    if not plans:
        raise refusal
    return min(plans, key=lambda p: (_switch_total(p), p.rails_per_leaf))


def _switch_total(plan: RailPlan) -> int:
    return plan.leaves + plan.total_spines + plan.cores


def _plan_rails(
    node: NodeSpec,
    leaf: SwitchPorts,
    nodes: int,
    su_nodes: int,
    tiers: str,
    oversubscription: int,
    reserve_ports: int,
    up: int,
    down: int,
    rpl: int,
) -> RailPlan:
    """The rail-optimized plan with ``rpl`` rails sharing each leaf."""
    rails = len(node.nics)
    lpr = -(-su_nodes // (down // rpl))
    need = used_uplinks(-(-su_nodes // lpr) * rpl, oversubscription, up)
    most = up
    base = dict(
        node=node,
        leaf=leaf,
        nodes=nodes,
        su_nodes=su_nodes,
        oversubscription=oversubscription,
        reserve_ports=reserve_ports,
        downlinks=down,
        leaves_per_rail=lpr,
        rails_per_leaf=rpl,
    )
    n_su = -(-nodes // su_nodes)
    leaves = n_su * (rails // rpl) * lpr
    if tiers == "rail-only":
        return _plan_rail_only(base, leaf, nodes, n_su, lpr, up, reserve_ports, need)
    if tiers in ("auto", "2"):
        fit = fewest_spines(need, most, leaves, leaf.radix)
        if fit is not None:
            return RailPlan(**base, uplinks=fit[0], tiers=2, spines=fit[1])
        if tiers == "2":
            raise GenerateError(
                f"two tiers of {leaf.radix}-port switches hold at most {leaf.radix} leaves, and "
                f"{nodes} nodes need {leaves}; use --tiers 3 (or auto), a bigger switch or fewer nodes"
            )
    k = leaf.radix
    spine_down, spine_up = k // 2, k - k // 2
    # Pods are runs of leaves, as many as a pod spine reaches with half its ports; they span SU
    # boundaries when an SU's leaves do not divide that (GB200: 18 leaves per SU, 32 per pod).
    pod_leaves = min(spine_down, leaves)
    fit = fewest_spines(need, most, pod_leaves, spine_down)
    if fit is None:  # cannot happen: pod_leaves <= spine_down
        raise GenerateError(
            "the pod's leaves cannot be spread evenly over its spines; use a different --su-nodes"
        )
    pods = -(-leaves // pod_leaves)
    if pods > k:
        max_nodes = k * pod_leaves * su_nodes // max(1, (rails // rpl) * lpr)
        raise GenerateError(
            f"three tiers of {k}-port switches hold at most {k} pods ({max_nodes:,} nodes) and "
            f"{nodes:,} nodes need {pods}; ask for fewer nodes or use a bigger switch"
        )
    u, spines = fit
    # A partial last pod of fewer leaves needs fewer spines (the same uplinks per leaf, spread
    # evenly): GB200 4 SU is pods of 32, 32 and 8 leaves, the last on 8 spines, not 32.
    last_leaves = leaves - (pods - 1) * pod_leaves
    last = smallest_divisor_at_least(u, max(last_leaves * u / spine_down, min(2, u)))
    last = last if pods > 1 and last is not None and last < spines else 0
    classes = []
    for first, positions, in_class in _position_runs(pods, spines, last):
        g, cg, q2 = core_grouping(in_class, positions, spine_up, k)
        classes.append((first, positions, g, cg, q2))
    return RailPlan(
        **base,
        uplinks=u,
        tiers=3,
        spines=spines,
        pod_leaves=pod_leaves,
        last_pod_spines=last,
        core_classes=tuple(classes),
    )


def _position_runs(pods: int, spines: int, last: int) -> list[tuple[int, int, int]]:
    """(first spine position, positions, pods with a spine there) runs: with a smaller last
    pod, its ``last`` positions are in every pod and the others in all pods but the last."""
    if not last:
        return [(0, spines, pods)]
    return [(0, last, pods), (last, spines - last, pods - 1)]


def core_grouping(pods: int, positions: int, spine_up: int, radix: int) -> tuple[int, int, int]:
    """(spine positions per core group, cores per group, links from a spine to each of its cores).

    Every spine sends equal capacity to each core it reaches (the analysis' regular Clos). The
    classic grouping is one core group per spine position, the group's cores a divisor of the
    spine's uplinks; with a pod count that is not a power of two (GB200 16 SU: 9 pods) that
    leaves cores half empty. Then G positions share a group whose cores are exactly full,
    ``pods * G * spine_up / radix`` of them, each spine reaching m of them (m the largest
    divisor of its uplinks that fits) in a cyclic window, so every core is reached by the same
    number of spines and all its ports are used. The fewer cores win.
    """
    # Every spine reaches two cores at least (no single uplink neighbour), where it has 2 uplinks.
    least = min(2, spine_up)
    classic = smallest_divisor_at_least(spine_up, max(pods * spine_up / radix, least))
    best = None
    if classic is not None:
        best = (positions * classic, 1, classic, spine_up // classic)
    for g in range(1, positions + 1):
        if positions % g or (pods * g * spine_up) % radix:
            continue
        cores = pods * g * spine_up // radix
        m = max(d for d in range(1, min(cores, spine_up) + 1) if spine_up % d == 0)
        if m < least or (pods * g * m) % cores:  # every core reached by as many spines
            continue
        total = (positions // g) * cores
        if best is None or total < best[0]:
            best = (total, g, cores, spine_up // m)
        break
    if best is None:  # cannot happen: pods <= radix leaves the classic grouping
        raise GenerateError("the spines' uplinks cannot be spread evenly over the cores")
    return best[1], best[2], best[3]


def _plan_rail_only(
    base: dict, leaf, nodes: int, n_su: int, lpr: int, up: int, reserve: int, need: int
):
    """Rail-only (RAILONLY, domain-facts 8e): no spine joins the rails; each rail is a network of
    its own and cross-rail traffic goes over NVLink. One switch per rail when it holds every
    node (all its ports face the nodes, no uplinks); else each rail is a two-tier Clos of its
    SUs' rail leaves and spines of its own."""
    k = leaf.radix
    if nodes <= k - reserve:
        one = base | dict(su_nodes=nodes, uplinks=0, downlinks=k - reserve, leaves_per_rail=1)
        return RailPlan(**one, tiers=1, rail_only=True)
    rail_leaves = n_su * lpr
    fit = fewest_spines(need, up, rail_leaves, k)  # uplinks sized to the downlinks in use
    if fit is None:
        raise GenerateError(
            f"a rail of {rail_leaves} leaves does not fit two tiers of {k}-port switches "
            f"(at most {k}); use fewer nodes, a bigger switch or a rail-optimized fabric"
        )
    return RailPlan(**base, uplinks=fit[0], tiers=2, spines=fit[1], rail_only=True)


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
    _positive(nodes, "--nodes")
    node = node_spec(catalog, node_type)
    _check_size(nodes, node)
    leaf = switch_ports(catalog, switch, node.speed_gbps)
    spine = switch_ports(catalog, spine_switch or switch, node.speed_gbps, "--spine-switch")
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


def plan_fat_tree(
    catalog: Catalog, *, k: int, switch: str | None = None, node_type: str | None = None
) -> FatTreePlan:
    _positive(k, "--k", 2)
    if k % 2:
        raise GenerateError(f"a k-ary fat tree needs an even k, not {k}; use {k + 1}")
    speed, gpus = GENERIC_SPEED_GBPS, 1
    if node_type:
        node = node_spec(catalog, node_type)
        speed, gpus = node.speed_gbps, node.gpus
    _check_size(k**3 // 4, gpus_per_node=gpus)
    if switch:
        ports = switch_ports(catalog, switch, speed)
        if ports.radix < k:
            raise GenerateError(
                f"switch {switch!r} has {ports.radix} ports at {speed:g}G, fewer "
                f"than k = {k}; use --k {ports.radix - ports.radix % 2} or less, "
                "or a bigger switch"
            )
    return FatTreePlan(k, switch or "", node_type or "", speed, gpus)


# ------------------------------------------------------------------------------------ NVL72

NVL72_COMPUTE_TRAYS = 18
NVL72_SWITCH_TRAYS = 9
# Rack-scale platforms: compute tray type and the scale-out switch that matches its NICs.
NVL72_PLATFORMS = {
    "gb200": ("gb200-compute-tray", "qm9700"),  # CX-7 class 400G NICs, Quantum-2 NDR
    "gb300": ("gb300-compute-tray", "q3400"),  # ConnectX-8 800G XDR, Quantum-X800
}


MULTI_PLANE_SWITCH = "sn5610"  # Spectrum-X: multi-plane is an Ethernet capability (NV-NETOP-MP)


@dataclass(frozen=True)
class Nvl72Plan:
    racks: int
    su_racks: int
    scale_out: RailPlan
    platform: str = "gb200"

    def counts(self) -> dict:
        out = self.scale_out.counts()
        out["nvl72_racks"] = self.racks
        out["switches"] = {"nvlink-switch": self.racks * NVL72_SWITCH_TRAYS, **out["switches"]}
        out["links"] = {
            "scale-up": self.racks * NVL72_COMPUTE_TRAYS * NVL72_SWITCH_TRAYS,
            **out["links"],
        }
        return out


def plan_nvl72(
    catalog: Catalog,
    *,
    racks: int,
    switch: str | None = None,
    su_racks: int = 8,
    tiers: str | int = "auto",
    oversubscription: int = 1,
    reserve_ports: int = 0,
    platform: str = "gb200",
    planes: int = 1,
    port_mode: str = "auto",
) -> Nvl72Plan:
    """NVL72 racks and their scale-out. With ``planes`` > 1 (multi-plane Spectrum-X, GB300's
    ConnectX-8 as 2 x 400G) the default scale-out switch is the Spectrum-X SN5610."""
    if platform not in NVL72_PLATFORMS:
        raise GenerateError(
            f"--platform {platform!r} is not an NVL72 platform; choose one of "
            + ", ".join(NVL72_PLATFORMS)
        )
    tray, default_switch = NVL72_PLATFORMS[platform]
    if isinstance(planes, int) and planes > 1:
        default_switch = MULTI_PLANE_SWITCH
    switch = switch or default_switch
    _positive(racks, "--racks")
    _positive(su_racks, "--su-racks")
    _check_size(racks * 72)
    scale_out = plan_rail_optimized(
        catalog,
        nodes=racks * NVL72_COMPUTE_TRAYS,
        node_type=tray,
        switch=switch,
        su_nodes=min(su_racks, racks) * NVL72_COMPUTE_TRAYS,
        tiers=tiers,
        oversubscription=oversubscription,
        reserve_ports=reserve_ports,
        planes=planes,
        port_mode=port_mode,
    )
    return Nvl72Plan(racks, min(su_racks, racks), scale_out, platform)
