"""Collective times of a job from the link loads of NCCL's patterns, plus NCCL's latency model.

For a job (:mod:`jobs`) and a collective of S bytes (nccl-tests' size: the buffer of an
all-reduce, broadcast or all-to-all per rank, the whole output of an all-gather, the whole input
of a reduce-scatter), every algorithm NCCL could use is costed:

* the **wire time**: the pattern's bytes per link and direction (:mod:`link_loads`), each link's
  bytes over its capacity, the busiest link setting the time; beside it the NVLink port of each
  GPU (the scale-up bandwidth per GPU of the catalog), because NCCL pipelines the NVLink and
  network hops of a channel, the slower of the two sets the time, they do not add. Per rail a
  ring hop carries f S / R (R rails, f = 2(n-1)/n all-reduce, (n-1)/n all-gather and
  reduce-scatter, 1 broadcast); a tree edge S / 2R each way per tree. On NVLink a GPU sends
  f S (g-1)/g in a ring (f S inside one domain), 2S in a tree chain, and NVLS sends through the
  NVSwitch at NCCL's NVLS bandwidth (2 x efficiency x NVLink for all-reduce).
* CollNet (IB SHARP, only on InfiniBand Quantum fabrics and only when asked, as NCCL leaves it
  off by default): per rail a NIC sends S/R up and gets S/R back, every switch reducing what its
  children send (:func:`link_loads.collnet_loads`); 2(g-1)/g S per GPU on NVLink.
* the **protocol** (LL, LL128, Simple) scales that time by NCCL's efficiency refinements and adds
  NCCL's latency (:mod:`nccl_tuning`); the fastest enabled pair wins, as in NCCL.

The all-to-all (NCCL's send/receive) assumes PXN, NCCL_P2P_PXN_LEVEL=2, NCCL's default since
2.12 (NCCL env.rst; NVIDIA, "Doubling all2all performance with NCCL 2.12"): the bytes for a GPU
of another server go over NVLink to the sender's GPU on the destination's rail and leave by
that rail's NIC, so on a rail-optimized fabric only what crosses to another group of the rail's
leaves climbs. The design's setting ``pxn`` ("on" by default) chooses. ``pxn=False`` (level
0), or servers without NVLink, send from each GPU's own NIC to the destination GPU's own NIC: a
byte between two rails climbs to the spines even inside one SU.

Routing over the equal-cost uplinks (setting ``routing``): ``adaptive`` (InfiniBand's adaptive
routing, on by default in NVIDIA's subnet manager; Spectrum-X's per-packet RoCE adaptive
routing) and ``ideal`` split the bytes evenly (fluid); ``ecmp-hash`` (static 5-tuple hashing,
generic Ethernet) puts each flow on one uplink, so a switch's busiest uplink carries the
expected maximum of its flows hashed onto its uplinks (:mod:`ecmp_hash`): the time is that
mean, and ``time_p95_s`` the 95th percentile. ``auto`` (the default) follows the fabric's
switches (:func:`fabric_routing`). Every pattern's NIC-to-NIC connections are taken as
concurrent, one flow each: NCCL running its send/receive peers in rounds has fewer flows at a
time and so collides more, which makes ``ecmp-hash`` a lower bound of the hashing cost.

``algorithm="auto"`` (the default) is NCCL's choice; naming one forces it. The result names the
busiest links (their ids, for the editor to select) and the layer they belong to. Oversubscription
therefore costs what the loads say: a topology-ordered ring crosses a leaf's uplinks with one
hop per rail and per group it leaves, an all-to-all sends most of its bytes across them.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from model.analysis import nccl_tuning as nt
from model.analysis.jobs import PLACEMENTS, Fabric, Job, build_fabric, first_gpus, largest_job
from model.analysis.link_loads import (
    Loads,
    Routed,
    alltoall_loads,
    climb,
    collnet_loads,
    job_nics,
    meet_key,
    ring_flows,
    tree_flows,
)
from model.analysis.topology import LINK_SCALE_UP, Topology, infer_topology

ALGORITHMS = ("auto", "ring", "tree", "nvls", "nvls-tree", "collnet")
ROUTINGS = ("ideal", "ecmp-hash", "adaptive")
COLLECTIVES = nt.COLLECTIVES
__all__ = [
    "ALGORITHMS", "COLLECTIVES", "PLACEMENTS", "ROUTINGS", "Estimate", "Collectives",
    "fabric_routing", "pxn_words",
]  # fmt: skip
TOP_LINKS = 64  # bottleneck link ids listed (the count says how many tie)
MET_KEPT = 8  # met flows kept per design (each ~7 MB at XL: two float arrays per link)
PXN_ON = "on (NCCL_P2P_PXN_LEVEL=2, NCCL's default)"
PXN_OFF = "off (NCCL_P2P_PXN_LEVEL=0)"
PXN_NONE = "off (no NVLink between a server's GPUs to relay over)"


def fabric_routing(switch_models: set[str]) -> tuple[str, str]:
    """(routing, why) that ``routing: auto`` takes for a compute fabric of these switch
    models: adaptive on InfiniBand Quantum (NVIDIA's subnet manager enables adaptive routing by
    default) and on Spectrum-X (Spectrum-4 and later, per-packet RoCE adaptive routing with the
    SuperNICs reordering); static ECMP hashing on any other Ethernet switch. Sources
    (resources/catalog/sources.json): NV-IB-AR, NV-SPECTRUMX-AR, ONW-SPECX-AR; that every
    Spectrum-4 fabric has the SuperNICs Spectrum-X pairs with it is assumed."""
    if not switch_models:
        return "ideal", "no switch between the servers"
    if all(m.startswith("Quantum") for m in switch_models):
        return "adaptive", "InfiniBand adaptive routing (the subnet manager's default)"
    if all(any(g in m for g in SPECTRUM_X) for m in switch_models):
        return "adaptive", "Spectrum-X RoCE adaptive routing (per-packet, SuperNIC reorder)"
    return "ecmp-hash", "static ECMP flow hashing (Ethernet without adaptive routing)"


SPECTRUM_X = ("Spectrum-4", "Spectrum-X", "Spectrum-6")  # switch generations of Spectrum-X


def pxn_words(asked: bool, nvlink: bool) -> str:
    """The PXN mode an all-to-all runs in, in words (NCCL env.rst, NCCL_P2P_PXN_LEVEL)."""
    if not nvlink:
        return PXN_NONE
    return PXN_ON if asked else PXN_OFF


@dataclass
class Estimate:
    """One collective on one job."""

    collective: str
    job: str
    gpus: int
    nodes: int  # scale-up domains in the job
    size_bytes: float
    algorithm: str
    protocol: str
    time_s: float
    latency_s: float
    bandwidth_s: float
    limited_by: str  # the busiest links' layer: "scale-up" or a tier ("server-leaf" ...)
    bottleneck_links: list[str] = field(default_factory=list)
    bottleneck_count: int = 0
    unreachable: bool = False
    pxn: str = PXN_ON  # the PXN mode the all-to-all pattern assumes (pxn_words)
    routing: str = "ideal"  # ROUTINGS: how the bytes spread over equal-cost uplinks
    time_p95_s: float = 0.0  # ecmp-hash: the 95th percentile of the hashing (else time_s)

    @property
    def algbw_gbps(self) -> float:
        return self.size_bytes * 8 / self.time_s / 1e9 if self.time_s > 0 else math.inf

    @property
    def busbw_gbps(self) -> float:
        n = self.gpus
        if n < 2:  # no GPU left (a failure took them all), or one: nothing to exchange
            return math.inf
        factor = {"all-reduce": 2 * (n - 1) / n, "all-gather": (n - 1) / n}.get(
            self.collective, (n - 1) / n if self.collective != "broadcast" else 1.0
        )
        return self.algbw_gbps * factor if n > 1 else math.inf

    @property
    def message_mb(self) -> float:
        return self.size_bytes / 1e6

    @property
    def latency_bound(self) -> bool:
        return self.latency_s >= self.bandwidth_s

    def to_json(self) -> dict:
        return {
            "collective": self.collective,
            "job": self.job,
            "gpus": self.gpus,
            "nodes": self.nodes,
            "size_bytes": self.size_bytes,
            "algorithm": self.algorithm,
            "protocol": self.protocol,
            "time_s": self.time_s,
            "latency_s": self.latency_s,
            "bandwidth_s": self.bandwidth_s,
            "bound": "latency" if self.latency_bound else "bandwidth",
            "algbw_gbps": self.algbw_gbps,
            "busbw_gbps": self.busbw_gbps,
            "limited_by": self.limited_by,
            "bottleneck_links": self.bottleneck_links,
            "bottleneck_count": self.bottleneck_count,
            "unreachable": self.unreachable,
            "pxn": self.pxn,
            "routing": self.routing,
            "time_p95_s": self.time_p95_s,
        }


@dataclass
class _Wire:
    time_s: float  # at line rate, for S = 1 byte
    layer: str
    rows: np.ndarray  # busiest link rows (empty: NVLink)


class Collectives:
    """The collectives of one design (optionally with failed elements), jobs of any size."""

    def __init__(
        self,
        design,
        topo: Topology | None = None,
        failed=(),
        groups=None,
        pxn: bool | None = None,
        routing: str | None = None,
    ) -> None:
        """``groups``: the analysis's switch groups per level (reused when nothing failed).
        ``pxn``: NCCL's PXN for the all-to-all (NCCL_P2P_PXN_LEVEL=2, the default; False is
        level 0), by default the design's setting ``pxn``; it needs NVLink between a server's
        GPUs, so without NVLink it is off. ``routing``: one of :data:`ROUTINGS` or ``auto``
        (what the fabric's switches do), by default the design's setting ``routing``."""
        if pxn is None:
            pxn = design.settings.pxn == "on"
        self.design = design
        self.topo = topo if topo is not None else infer_topology(design)
        self.fabric: Fabric = build_fabric(design, self.topo, tuple(failed), groups)
        types = design.catalog.device_types
        servers = np.flatnonzero(self.topo.is_gpu_server).tolist()
        kinds = {design.devices[self.topo.device_ids[i]].type for i in servers}
        specs = [types[kind].gpus for kind in kinds]
        self.scale_up_gbps = float(min((s.scale_up_gbps_per_gpu for s in specs), default=0.0))
        self.generation = min(
            (nt.generation(s.model) for s in specs), key=nt.GENERATIONS.index, default="volta"
        )
        domain = min((s.scale_up_domain_gpus for s in specs), default=1)
        # NVLink SHARP is in the NVSwitch of Hopper and later (NVSwitch 3, NVLink 4+).
        self.nvls = domain > 1 and nt.GENERATIONS.index(self.generation) >= 2
        self.intra = "nvlink" if self.scale_up_gbps > 0 and domain > 1 else "pci"
        # PXN relays through a GPU of the destination's rail over NVLink: none without NVLink.
        self.pxn_asked = pxn
        self.pxn = pxn and self.intra == "nvlink"
        self.pxn_mode = pxn_words(pxn, self.intra == "nvlink")
        # IB SHARP (NCCL's CollNet) is in InfiniBand Quantum switches (Quantum-2: SHARPv3,
        # Quantum-X800: SHARPv4); every switch of the compute fabric must have it.
        switch_types = {
            design.devices[self.topo.device_ids[i]].type
            for i in np.flatnonzero(self.topo.level >= 1).tolist()
        }
        self.sharp = bool(switch_types) and all(
            types[t].model.startswith("Quantum") for t in switch_types
        )
        self.fabric_routing, self.routing_why = fabric_routing(
            {types[t].model for t in switch_types}
        )
        self.routing = ""
        self._set_routing(routing if routing is not None else design.settings.routing)
        self._loads: dict = {}
        self._routes: dict = {}  # met flows (link_loads.Routed), shared with without() copies

    def without(
        self, dead: tuple[np.ndarray, np.ndarray], groups=None, scale_up_gbps: float | None = None
    ) -> Collectives:
        """These collectives once the devices and links of the masks ``dead`` fail (what-if's
        resolved failure; ``groups``: the surviving fabric's switch groups, see
        :func:`jobs.build_fabric`). The catalog figures are this design's, read once: ``--n-1``
        asks for one per case. ``scale_up_gbps``: the live NVLink per GPU after the failure (an
        NVL72 rack that lost a tray), when lower than the catalog's."""
        other = copy.copy(self)
        other.__dict__.pop("default_job", None)
        other.fabric = build_fabric(self.design, self.topo, groups=groups, dead=dead)
        other._loads = {}
        if scale_up_gbps is not None:
            other.scale_up_gbps = min(self.scale_up_gbps, scale_up_gbps)
        return other

    def with_pxn(self, pxn: bool) -> Collectives:
        """These collectives with PXN set to ``pxn`` (the design's setting changed): the
        fabric and the ring and tree flows are shared, the costed patterns are not."""
        if pxn == self.pxn_asked:
            return self
        other = copy.copy(self)
        other._loads = {}
        other.pxn_asked = pxn
        other.pxn = pxn and self.intra == "nvlink"
        other.pxn_mode = pxn_words(pxn, self.intra == "nvlink")
        return other

    def _set_routing(self, routing: str) -> None:
        if routing != "auto" and routing not in ROUTINGS:
            raise ValueError(f"unknown routing {routing!r}; choose auto, " + ", ".join(ROUTINGS))
        self.routing_asked = routing
        self.routing = self.fabric_routing if routing == "auto" else routing
        self.hashed = self.routing == "ecmp-hash"

    def routing_words(self) -> str:
        """The routing the figures assume, in words (and why, when the fabric chose it)."""
        if self.routing_asked == "auto":
            return f"{self.routing} ({self.routing_why})"
        return f"{self.routing} (the design's or the command's choice)"

    def with_routing(self, routing: str) -> Collectives:
        """These collectives with the setting ``routing`` changed: the fabric and the met flows
        are shared, the costed patterns are not."""
        if routing == self.routing_asked:
            return self
        other = copy.copy(self)
        other._loads = {}
        other._set_routing(routing)
        return other

    @cached_property
    def default_job(self) -> Job:
        return largest_job(self.fabric)

    def job(self, gpus: int | None = None, placement: str = "first") -> Job:
        """The default job, or the first ``gpus`` GPUs of it in ``placement`` order."""
        if gpus is None:
            return self.default_job
        key = ("job", gpus, placement)
        if key not in self._loads:
            whole = self.default_job
            self._loads[key] = first_gpus(self.fabric, gpus, placement, self.design, whole)
        return self._loads[key]

    def estimate(
        self,
        job: Job,
        collective: str,
        size_bytes: float,
        algorithm: str = "auto",
        protocol: str | None = None,
    ) -> Estimate:
        """The collective's time on ``job`` (module docstring); ``protocol`` forces one."""
        if collective not in COLLECTIVES:
            raise ValueError(f"unknown collective {collective!r}; choose " + ", ".join(COLLECTIVES))
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; choose " + ", ".join(ALGORITHMS))
        nics = self._nics(job)
        n, nodes = job.gpus, max(nics.domains, 1)
        if n < 2:
            return Estimate(collective, job.label, n, nodes, size_bytes, "none", "none",
                            0.0, 0.0, 0.0, "none", pxn=self.pxn_mode,
                            routing=self.routing)  # fmt: skip
        best = None
        names = nt.ALGORITHMS if algorithm == "auto" else (algorithm,)
        for algo in names:
            if algo == "collnet" and algorithm == "auto":
                continue  # NCCL_COLLNET_ENABLE is 0 by default: only when asked
            for proto in (protocol,) if protocol else nt.PROTOCOLS:
                if not nt.enabled(
                    collective, algo, proto, nodes, self.generation, self.nvls, self.sharp
                ):
                    continue
                wire = self._wire(job, collective, algo)
                bw_s = nt.protocol_time_s(
                    collective, algo, proto, wire.time_s * size_bytes, size_bytes, n, nodes,
                    self.generation,
                )  # fmt: skip
                lat_us = nt.latency_us(collective, algo, proto, n, nodes, self.intra)
                if (
                    algo == "ring" and proto == "Simple" and nodes > 1
                    and collective == "all-reduce"
                    and nt.GENERATIONS.index(self.generation) >= 1
                    and size_bytes / (2 * max(nics.rails, 1) * n) >= 64
                ):  # fmt: skip
                    lat_us *= 1.4  # NCCL's ring plateau (2 channels per NIC assumed)
                t = lat_us * 1e-6 + bw_s
                if best is None or t < best[0]:
                    best = (t, algo, proto, lat_us * 1e-6, bw_s, wire)
        if best is None:
            raise ValueError(self._why_not(algorithm, collective, nodes))
        t, algo, proto, lat_s, bw_s, wire = best
        t95 = t
        if self.hashed:  # the same algorithm and protocol under an unlucky (95th pct) hashing
            w95 = self._wire(job, collective, algo, "p95")
            t95 = lat_s + nt.protocol_time_s(
                collective, algo, proto, w95.time_s * size_bytes, size_bytes, n, nodes,
                self.generation,
            )  # fmt: skip
        limited = wire.layer
        ids = [self.topo.link_ids[r] for r in wire.rows[:TOP_LINKS].tolist()]
        return Estimate(
            collective, job.label, n, nodes, size_bytes, algo, proto, t, lat_s, bw_s, limited,
            ids, len(wire.rows), not math.isfinite(t), self.pxn_mode, self.routing, t95,
        )  # fmt: skip

    def curve(
        self, collective: str, size_bytes: float, algorithm: str = "auto", placement="first"
    ) -> list[Estimate]:
        """The collective on the first G GPUs (in topology order, or by rack), G doubling (or
        quadrupling on large halls) from one scale-up domain to the default job (its last
        point)."""
        whole = self.default_job
        if whole.gpus < 1:
            return []
        domain = self.fabric.domain[whole.servers]
        first = whole.servers[domain == domain[0]] if len(whole.servers) else whole.servers
        out, g = [], max(int(self.topo.gpus[first].sum()), 1)
        # x2 steps, x4 when that would pass 9 points (131k GPUs: 8 .. 131,072 in 8 points)
        step = 2 if whole.gpus / g <= 2**8 else 4
        while g < whole.gpus:
            job = self.job(g, placement)
            out.append(self.estimate(job, collective, size_bytes, algorithm))
            g *= step
        out.append(self.estimate(whole, collective, size_bytes, algorithm))
        return out

    # -- patterns ---------------------------------------------------------------------------

    def _nics(self, job: Job):
        key = ("nics", job.servers.tobytes())
        if key not in self._loads:
            self._loads[key] = job_nics(self.fabric, job)
        return self._loads[key]

    def _pattern(self, job: Job, name: str, hashed: str | None = None, keep=True) -> Loads:
        """The pattern's loads; ``hashed`` ("mean", "p95"): under static ECMP hashing. IB
        SHARP's reduction trees are set by its aggregation manager, not hashed. ``keep``: kept
        for the next caller (an estimate only reads their busiest links once: see _network)."""
        key = (name, job.servers.tobytes(), hashed)
        loads = self._loads.get(key)
        if loads is None:
            nics = self._nics(job)
            if name in ("ring", "tree"):
                loads = climb(self.fabric, self._met(name, nics), hashed)
            elif name == "collnet":
                loads = collnet_loads(self.fabric, nics)
            else:
                loads = alltoall_loads(self.fabric, nics, job.gpus, self.pxn, hashed)
            if keep:
                self._loads[key] = loads
        return loads

    def _met(self, name: str, nics) -> Routed:
        """The pattern's flows met at their levels, shared with the :meth:`without` copies:
        a failure that changes neither the job's NICs nor which leaves share a group (a spine,
        a spine or core link) only climbs them again over the uplinks left (``--n-1``)."""
        key = (name, meet_key(self.fabric, nics))
        routed = self._routes.get(key)
        if routed is None:
            routed = (ring_flows if name == "ring" else tree_flows)(self.fabric, nics)
            if len(self._routes) < MET_KEPT:
                self._routes[key] = routed
        return routed

    def _network(self, job: Job, name: str, q: str = "mean") -> tuple[float, np.ndarray, str]:
        """(busiest link's seconds per unit of pattern bytes, the busiest rows, their tier);
        ``q``: the hashing quantile when the routing is ``ecmp-hash``."""
        key = ("net", name, job.servers.tobytes(), q)
        if key not in self._loads:
            # Not kept: two float arrays per link, read here once per (pattern, job, quantile);
            # the editor's analyzer held ~105 MB of them at the XL hall's curves.
            loads = self._pattern(job, name, q if self.hashed else None, keep=False)
            worst, rows = loads.busiest(self.topo.capacity)
            if loads.unreachable:
                worst = math.inf
            layer = self.topo.link_tier[int(rows[0])] if len(rows) else "none"
            self._loads[key] = (worst, rows, layer)
        return self._loads[key]

    def _wire(self, job: Job, collective: str, algo: str, q: str = "mean") -> _Wire:
        """Line-rate time per byte of S for the pattern of (collective, algorithm)."""
        key = ("wire", collective, algo, job.servers.tobytes(), q)
        if key not in self._loads:
            self._loads[key] = self._make_wire(job, collective, algo, q)
        return self._loads[key]

    def _make_wire(self, job: Job, collective: str, algo: str, q: str = "mean") -> _Wire:
        nv_t, name, factor = self.wire_parts(job, collective, algo)
        net_t, rows, layer = 0.0, np.zeros(0, dtype=np.int64), "none"
        if name is not None:
            unit, rows, layer = self._network(job, name, q)
            net_t = unit * factor
        if nv_t >= net_t:
            return _Wire(nv_t, "scale-up", self._scale_up_rows(job))
        return _Wire(net_t, layer, rows)

    def wire_parts(self, job: Job, collective: str, algo: str) -> tuple[float, str | None, float]:
        """(NVLink seconds per byte of S, the network pattern or None, the factor that turns
        the pattern's unit loads into bytes per byte of S) for (collective, algorithm)."""
        nics = self._nics(job)
        n, nodes, rails = job.gpus, max(nics.domains, 1), max(nics.rails, 1)
        g = n / nodes  # GPUs per domain
        up = self.scale_up_gbps * 1e9 / 8  # bytes/s per GPU
        f = {"all-reduce": 2 * (n - 1) / n, "broadcast": 1.0}.get(collective, (n - 1) / n)
        name, factor = None, 0.0
        if collective == "all-to-all":
            # own domain's GPUs, plus with PXN the relay to the GPU on the destination's rail
            relay = (n - g) / n * (g - 1) / g if self.pxn else 0.0
            nv = ((g - 1) / n + relay) if g > 1 else 0.0
            if nodes > 1:
                name, factor = "all-to-all", 1.0
        elif algo == "ring":
            nv = f * ((g - 1) / g if nodes > 1 else 1.0)
            if nodes > 1:
                name, factor = "ring", f / rails
        elif algo == "tree":
            nv = 2.0 if g > 1 else 0.0
            if nodes > 1:
                name, factor = "tree", 1 / (2 * rails)
        elif algo == "collnet":  # in-network reduction: S/R per rail up and back, once
            nv = 2 * (g - 1) / g if g > 1 else 0.0
            if nodes > 1:
                name, factor = "collnet", 1 / rails
        else:  # nvls, nvls-tree: NVSwitch reduction at NCCL's NVLS bus bandwidth
            eff = nt.NVLS_EFFICIENCY[self.generation]
            bus = 2 * eff if collective == "all-reduce" else eff * (g - 1) / g
            nv = nt.nsteps(collective, n) / n / bus if bus > 0 else math.inf
            if algo == "nvls-tree":
                name, factor = "tree", 1 / (2 * rails)
        nv_t = nv / up if up > 0 else (math.inf if nv > 0 else 0.0)
        return nv_t, name, factor

    def pattern_loads(self, job: Job, name: str, q: str = "mean") -> Loads:
        """The unit loads of pattern ``name`` on ``job`` under this routing (``q``: the
        hashing quantile when it is ``ecmp-hash``), for callers that sum several jobs."""
        return self._pattern(job, name, q if self.hashed else None)

    def _scale_up_rows(self, job: Job) -> np.ndarray:
        """The job's scale-up links (NVL72 trays' backplane links); none for in-server NVLink."""
        topo = self.topo
        member = np.zeros(len(topo.device_ids), dtype=bool)
        member[job.servers] = True
        su = topo.kind == LINK_SCALE_UP
        return np.flatnonzero(su & (member[topo.a] | member[topo.b]))

    def _why_not(self, algorithm: str, collective: str, nodes: int) -> str:
        if algorithm in ("nvls", "nvls-tree") and not self.nvls:
            return (
                f"{algorithm} needs NVLink SHARP (NVSwitch of Hopper or later); "
                f"these GPUs ({self.generation}) do not have it"
            )
        if algorithm == "nvls" and nodes > 1:
            return "nvls across nodes needs CollNet (off by default in NCCL); use nvls-tree"
        if algorithm == "collnet" and not self.sharp:
            return "collnet needs IB SHARP: every switch of the fabric an InfiniBand Quantum"
        if algorithm == "nvls-tree" and nodes == 1:
            return "nvls-tree needs several nodes; within one NVLink domain use nvls"
        return f"NCCL does not run {collective} with {algorithm}"


def after_failure(
    design, failed: list[str] | tuple[str, ...], collective: str = "all-reduce",
    size_bytes: float | None = None, job_servers: list[str] | None = None,
) -> Estimate:  # fmt: skip
    """The collective of the default job (the largest that still runs) once ``failed`` element
    ids (devices or links) are gone; or of the named servers' job. For what-if and N-1."""
    from model.analysis.jobs import named_job

    c = Collectives(design, failed=failed)
    size = size_bytes if size_bytes is not None else design.settings.allreduce_message_mb * 1e6
    job = named_job(c.fabric, design, job_servers) if job_servers else c.default_job
    return c.estimate(job, collective, size)
