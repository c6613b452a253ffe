"""Rail-optimized and NVL72 fabric plans: scalable units, rails, pods, core groups and planes.

The counts follow the conventions of :mod:`model.generators.plans` (leaf ports, uplinks sized to
the downlinks in use, spines spread evenly), except that two rail-optimized tiers are built at
the Clos minimum (:func:`model.generators.plans.clos_spines`): where an even spread needs more
spines than the ports do, the uplinks go round-robin (GB200 NVL72 1 SU: 18 leaves + 9 spines,
2 SU: 36 + 18; issue 39). The price is a fabric that is not a regular Clos: an adversarial
balanced cut can be a few links short of the even formula (2 SU: 568 of 576 x 400G), which
the analysis measures by max flow. Quantum-X800 (XDR) fabrics take the even spread where it
costs no more spines over the Clos minimum than NVIDIA's XDR SuperPOD table itself accepts (4
SU: 32 leaves + 18 spines, not 16), else the Clos minimum (:func:`xdr_spines`).

Right-sizing choices (issue 14), written down here because they change counts:

* **Rails sharing a leaf.** When one rail of an SU already needs several leaves, r rails share
  each leaf (d // r nodes a leaf) if that builds fewer switches in all: GB200 NVL72's 144 trays
  a rail on 32-port leaves are 5 leaves of 29 rail-pure, or 9 of 16 with 2 rails a leaf (18
  leaves an SU, not 20; at 16 SU 720 switches, not 1,016; one SU stays rail-pure, 30 switches
  against 34). Rail-pure leaves stay whenever a rail fits one leaf (every DGX SuperPOD SU),
  except where no published table fixes them (AMD nodes, Vera Rubin, Kyber): there rails share
  whenever that builds fewer switches (Helios 1 rack: 4 leaves of 6 rails, not 12 leaves at 18
  of 64 ports), and a hall whose NICs all fit one switch is that one switch.
* **Pods span SUs.** A pod is a run of K/2 leaves, whatever the SU boundaries. The leaves left
  over after the full pods are cut into the smaller pods that need the fewest spines in all
  (:func:`tail_pods`): a pod of S spines (S a divisor of the leaf's uplinks u, u/S links from
  each leaf to each spine) holds S K/2 / u leaves, so GB200 5 SU's 26 leftover leaves are pods
  of 16, 8 and 2 leaves on 16, 8 and 2 spines, every spine port used, not one pod of 26 on 32
  spines (225 switches, the Clos bound, not 234; 12 SU: 540, not 552). Choice: more, smaller
  pods over spines with idle ports; the price is a pod count up to log2(K/2) higher (still at
  most K, else one partial pod as before), and a small pod's leaves reach each other through
  fewer spines (the same capacity).
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

from dataclasses import dataclass
from typing import TypedDict

from model.catalog.components import Catalog
from model.generators.plans import (
    MULTI_PLANE_SWITCH,
    NVL72_PLATFORMS,
    GenerateError,
    NodeSpec,
    SwitchPorts,
    check_media,
    check_size,
    clos_spines,
    fewest_spines,
    leaf_ports,
    node_spec,
    rack_scale_units,
    require_positive,
    smallest_divisor_at_least,
    switch_ports,
    used_uplinks,
)
from model.generators.xdr_spread import EVEN_SPREAD_SWITCHES, xdr_spines


class _PlanBase(TypedDict):
    """The fields of a :class:`RailPlan` a fabric's plans share, whatever their tiers."""

    node: NodeSpec
    leaf: SwitchPorts
    nodes: int
    su_nodes: int
    oversubscription: int
    reserve_ports: int
    downlinks: int
    leaves_per_rail: int
    rails_per_leaf: int


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
    # 3-tier: (leaves, spines) of each pod after the full ones, largest first (see tail_pods)
    tail_pods: tuple[tuple[int, int], ...] = ()
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
    def last_su_leaves_per_rail(self) -> int:
        """Leaves of one rail group in the last SU: as many as its nodes fill (a partial SU's
        empty leaves are not built: GB200 20 racks is 2 SUs and 4 racks, 36 + 10 leaves)."""
        return _last_su_leaves(self.nodes, self.su_nodes, self.leaves_per_rail, self.rail_only)

    @property
    def leaves(self) -> int:
        return (
            self.n_su - 1
        ) * self.leaves_per_su + self.rail_groups * self.last_su_leaves_per_rail

    @property
    def full_pods(self) -> int:
        return (self.leaves - sum(n for n, _ in self.tail_pods)) // self.pod_leaves

    @property
    def pods(self) -> int:
        return self.full_pods + len(self.tail_pods) if self.tiers == 3 else 1

    def pod_span(self, pod: int) -> tuple[int, int]:
        """(first leaf, leaves) of pod ``pod`` (0-based), leaves numbered over the SUs."""
        full = self.full_pods
        if pod < full:
            return pod * self.pod_leaves, self.pod_leaves
        first = full * self.pod_leaves + sum(n for n, _ in self.tail_pods[: pod - full])
        return first, self.tail_pods[pod - full][0]

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
        """Spines of pod ``pod`` (0-based): the smaller pods after the full ones need fewer."""
        full = self.full_pods
        return self.spines if pod < full else self.tail_pods[pod - full][1]

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
    share_rails: bool | None = None,
) -> RailPlan:
    """``planes`` > 1: Spectrum-X multi-plane, each NIC split across that many independent
    planes, each plane its own rail-optimized fabric (see :func:`node_spec`). ``port_mode``
    names the leaf switch's port mode (see :func:`switch_ports`). ``share_rails``: rails may
    share a leaf even where one rail of an SU fits one leaf, when that builds fewer switches
    (a Kyber SU's rail fills half a leaf: :func:`plan_nvl72`); None: where the node's vendor
    publishes no one-rail-a-leaf table (:data:`SHARED_RAIL_VENDORS`)."""
    require_positive(nodes, "--nodes")
    require_positive(su_nodes, "--su-nodes")
    node = node_spec(catalog, node_type, planes)
    if share_rails is None:
        share_rails = catalog.device_types[node_type].vendor in SHARED_RAIL_VENDORS
    check_size(nodes, node)
    leaf = switch_ports(catalog, switch, node.speed_gbps, port_mode=port_mode)
    check_media(catalog, node, leaf)
    up, down = leaf_ports(leaf.radix, oversubscription, reserve_ports)
    su_nodes = min(su_nodes, nodes)
    tiers = str(tiers)
    if tiers not in ("auto", "2", "3", "rail-only"):
        raise GenerateError(f"--tiers must be auto, 2, 3 or rail-only, not {tiers!r}")
    rails = len(node.nics)
    even = switch in EVEN_SPREAD_SWITCHES
    args = (node, leaf, nodes, su_nodes, tiers, oversubscription, reserve_ports, up, down, even)
    if tiers == "rail-only" or (not share_rails and -(-su_nodes // down) <= 1):
        return _plan_rails(*args, 1)
    if share_rails and tiers == "auto" and nodes * rails <= leaf.radix - reserve_ports:
        # Every NIC fits one switch (its ports all face the nodes): the Clos minimum is that
        # switch, not a leaf and two spines that join it to nothing (MI355X 16 nodes on a
        # 128 x 400G Tomahawk 5; Helios 1 rack on a 512 x 200G plane).
        return RailPlan(
            node=node,
            leaf=leaf,
            nodes=nodes,
            su_nodes=nodes,
            oversubscription=oversubscription,
            reserve_ports=reserve_ports,
            tiers=1,
            rails_per_leaf=rails,
            uplinks=0,
            downlinks=leaf.radix - reserve_ports,
            leaves_per_rail=1,
        )
    # A rail of one SU already needs several leaves: r rails may share each leaf instead when
    # that builds fewer switches in all (GB200 NVL72 16 SU: 720 with 2 rails a leaf, not 1,016).
    plans: list[RailPlan] = []
    refusal: GenerateError | None = None
    for r in (r for r in range(1, rails + 1) if rails % r == 0 and down // r >= 1):
        try:
            plans.append(_plan_rails(*args, r))
        except GenerateError as exc:
            refusal = refusal or exc
    if not plans:
        assert refusal is not None  # r = 1 is always tried
        raise refusal
    return min(plans, key=lambda p: (_switch_total(p), p.rails_per_leaf))


# Node vendors whose rails share leaves wherever that builds fewer switches (the Clos minimum):
# AMD's sources give the NICs of an MI355X node or a Helios tray, no leaf per rail (domain-facts
# §9), so one rail a leaf at 18 of 64 ports is no reference design's. NVIDIA's SuperPOD tables
# (and the OEM HGX built to them) put one rail on a leaf wherever it fits, and stay so.
SHARED_RAIL_VENDORS = frozenset({"AMD"})


def uneven_spread_note(plan: RailPlan) -> str | None:
    """A sentence where :func:`xdr_spines` left an :data:`EVEN_SPREAD_SWITCHES` fabric's
    leaf-spine pairs uneven (round-robin, where NVIDIA's table spreads them evenly)."""
    u, s = plan.uplinks, plan.spines
    if plan.leaf.type_id not in EVEN_SPREAD_SWITCHES or plan.tiers != 2 or not s or u % s == 0:
        return None
    return (
        f"the compute leaves' {u} uplinks go round-robin over {s} spines ({u // s} or "
        f"{u // s + 1} links a leaf-spine pair): NVIDIA's XDR SuperPOD table spreads them evenly, "
        f"which here would take {smallest_divisor_at_least(u, s)} spines, more than the 9/8 of "
        "the Clos minimum its own rows accept"
    )


def _last_su_leaves(nodes: int, su_nodes: int, lpr: int, rail_only: bool) -> int:
    """Leaves of one rail group the last SU fills: a leaf takes ``ceil(su_nodes / lpr)`` nodes,
    so a partial SU of ``rest`` nodes needs ``ceil(rest / that)`` (all ``lpr`` when rail-only:
    its spines join each rail's leaves across the SUs position by position)."""
    if rail_only:
        return lpr
    rest = nodes - (-(-nodes // su_nodes) - 1) * su_nodes
    per_leaf = -(-su_nodes // lpr)
    return min(lpr, -(-rest // per_leaf))


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
    even: bool,
    rpl: int,
) -> RailPlan:
    """The rail-optimized plan with ``rpl`` rails sharing each leaf; ``even``: two tiers spread
    each leaf's uplinks evenly over the spines (:data:`EVEN_SPREAD_SWITCHES`)."""
    rails = len(node.nics)
    lpr = -(-su_nodes // (down // rpl))
    need = used_uplinks(-(-su_nodes // lpr) * rpl, oversubscription, up)
    most = up
    base = _PlanBase(
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
    leaves = (n_su - 1) * (rails // rpl) * lpr + (rails // rpl) * _last_su_leaves(
        nodes, su_nodes, lpr, False
    )
    if tiers == "rail-only":
        return _plan_rail_only(base, leaf, nodes, n_su, lpr, up, reserve_ports, need)
    if tiers in ("auto", "2"):
        if even:
            fit = xdr_spines(need, leaves, leaf.radix)
        else:
            fit = clos_spines(need, most, leaves, leaf.radix)
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
    # The leaves after the full pods go to smaller pods with only the spines they need (the
    # same uplinks per leaf, spread evenly): GB200 4 SU is pods of 32, 32 and 8 leaves, the
    # last on 8 spines, not 32; 5 SU's 26 leftover leaves are pods of 16, 8 and 2.
    full = leaves // pod_leaves
    rest = leaves - full * pod_leaves
    tail = tail_pods(rest, u, spine_down, k - full) if rest else ()
    counts = [spines] * full + [s for _, s in tail]
    classes = []
    for first, positions, in_class in _position_runs(counts):
        g, cg, q2 = core_grouping(in_class, positions, spine_up, k)
        classes.append((first, positions, g, cg, q2))
    return RailPlan(
        **base,
        uplinks=u,
        tiers=3,
        spines=spines,
        pod_leaves=pod_leaves,
        tail_pods=tail,
        core_classes=tuple(classes),
    )


def tail_pods(rest: int, u: int, spine_down: int, room: int) -> tuple[tuple[int, int], ...]:
    """(leaves, spines) of the pods for the ``rest`` leaves left after the full pods: the fewest
    spines in all (then the fewest pods), largest pod first. A pod of S spines, S a divisor of
    the leaves' ``u`` uplinks (u/S links from each leaf to each spine, at least two spines
    where u allows), holds ``S * spine_down // u`` leaves. More than ``room`` pods: one pod of
    them all on the spines they need, as the one partial pod always was."""
    least = min(2, u)
    sizes = [
        (s, s * spine_down // u)
        for s in range(least, u + 1)
        if u % s == 0 and s * spine_down // u >= 1
    ]
    # best[r] = (spines, pods, (spines of the first pod, its leaves)) for r leaves
    best: list[tuple[int, int, tuple[int, int]] | None] = [(0, 0, (0, 0))] + [None] * rest
    for r in range(1, rest + 1):
        for s, cap in sizes:
            take = min(cap, r)
            prev, now = best[r - take], best[r]
            assert prev is not None  # every count below r has its best by now
            cand = (prev[0] + s, prev[1] + 1, (s, take))
            if now is None or cand[:2] < now[:2]:
                best[r] = cand
    out, r = [], rest
    while r:
        got = best[r]
        assert got is not None  # sizes holds u itself, which takes any r
        s, take = got[2]
        out.append((take, s))
        r -= take
    if len(out) > room:
        one = smallest_divisor_at_least(u, max(rest * u / spine_down, least))
        assert one is not None  # rest < spine_down leaves need fewer than u spines; least <= u
        out = [(rest, one)]
    return tuple(sorted(out, key=lambda p: (-p[1], -p[0])))


def _position_runs(pod_spines: list[int]) -> list[tuple[int, int, int]]:
    """(first spine position, positions, pods with a spine there) runs: position i is in every
    pod of more than i spines (the pods come largest first, so positions nest)."""
    runs, first = [], 0
    for count in sorted(set(pod_spines)):
        runs.append((first, count - first, sum(1 for n in pod_spines if n >= count)))
        first = count
    return runs


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
    base: _PlanBase, leaf, nodes: int, n_su: int, lpr: int, up: int, reserve: int, need: int
):
    """Rail-only (RAILONLY, domain-facts 8e): no spine joins the rails; each rail is a network of
    its own and cross-rail traffic goes over NVLink. One switch per rail when it holds every
    node (all its ports face the nodes, no uplinks); else each rail is a two-tier Clos of its
    SUs' rail leaves and spines of its own."""
    k = leaf.radix
    if nodes <= k - reserve:
        one: _PlanBase = {**base, "su_nodes": nodes, "downlinks": k - reserve, "leaves_per_rail": 1}
        return RailPlan(**one, uplinks=0, tiers=1, rail_only=True)
    rail_leaves = n_su * lpr
    fit = fewest_spines(need, up, rail_leaves, k)  # uplinks sized to the downlinks in use
    if fit is None:
        raise GenerateError(
            f"a rail of {rail_leaves} leaves does not fit two tiers of {k}-port switches "
            f"(at most {k}); use fewer nodes, a bigger switch or a rail-optimized fabric"
        )
    return RailPlan(**base, uplinks=fit[0], tiers=2, spines=fit[1], rail_only=True)


@dataclass(frozen=True)
class Nvl72Plan:
    racks: int
    su_racks: int
    scale_out: RailPlan
    platform: str = "gb200"

    def counts(self) -> dict:
        out = self.scale_out.counts()
        trays, switch_trays = rack_scale_units(self.scale_out.node.type_id)
        out["nvl72_racks"] = self.racks
        out["switches"] = {"nvlink-switch": self.racks * switch_trays, **out["switches"]}
        out["links"] = {"scale-up": self.racks * trays * switch_trays, **out["links"]}
        return out


# Platforms whose rails share leaves wherever that builds fewer switches: Kyber and Vera Rubin,
# which no NVIDIA table fixes at one rail a leaf (their scale-out switch counts are the Clos
# minimum of an estimated switch: TOMS-KYBER, NV-RA-VR gives no table). GB200 and GB300 keep
# one rail a leaf where it fits, as their SuperPOD tables build.
SHARED_RAIL_PLATFORMS = frozenset({"rubin-ultra", "vera-rubin"})


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
    require_positive(racks, "--racks")
    require_positive(su_racks, "--su-racks")
    trays = rack_scale_units(tray)[0]
    check_size(racks * trays * catalog.device_types[tray].gpu_count)
    scale_out = plan_rail_optimized(
        catalog,
        nodes=racks * trays,
        node_type=tray,
        switch=switch,
        su_nodes=min(su_racks, racks) * trays,
        tiers=tiers,
        oversubscription=oversubscription,
        reserve_ports=reserve_ports,
        planes=planes,
        port_mode=port_mode,
        # A Kyber canister carries 72 NICs, so an SU of 8 racks (32 canisters) fills half of
        # each 64-downlink rail leaf: two rails a leaf is the Clos minimum (36 leaves, not 72).
        # Vera Rubin 1 rack: 144 NIC ports on 3 leaves of 8 rails, not 8 rail leaves of 18.
        # GB200 and GB300 keep one rail a leaf where it fits, as NVIDIA's tables build.
        share_rails=platform in SHARED_RAIL_PLATFORMS,
    )
    return Nvl72Plan(racks, min(su_racks, racks), scale_out, platform)
