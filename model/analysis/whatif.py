"""Failure analysis: what the compute fabric looks like after chosen elements fail.

``what_if(design, plant, ids)`` fails devices (NVLink switch trays among them), links, racks
(every device in them), one side of a rack's power (``RACK:pdu-a``, ``RACK:pdu-b``), trays and
tray segments (every link routed along them) and reports the fabric before and after, with the
keys of ``analyze --json`` where they overlap (``gpus``, ``bisection_gbps``,
``bisection_method``, ``hops``, ``bandwidth_per_gpu_gbps``, ``oversubscription``) plus
``islands`` (:mod:`model.analysis.islands`: how many, their GPUs, GPUs with no scale-out path,
the largest job that still runs), ``scale_out_per_gpu_gbps`` and ``scale_up_per_gpu_gbps``
{min, mean} per GPU and ``gpus_connected``.

Choices (written down because the issue leaves them open):

* A failed element is removed from the fabric; the survivors keep their tiers (a spine stays a
  spine). The bisection after is the minimum balanced cut of what survives
  (:mod:`model.analysis.min_cut`): a fabric split into islands that can be shared out evenly
  has a bisection of 0.
* A GPU owns its share of its server's compute ports in port order (8 NICs, 8 GPUs: NIC i is
  GPU i, as on a rail-optimized DGX); P ports for G > P GPUs are shared G/P ways. A GPU whose
  own ports all lost their link or switch has no NIC of its own left (``gpus_disconnected``,
  with the GPUs of failed servers): it still reaches the fabric over NVLink through a
  neighbour's NIC (NCCL's PXN), at the neighbour's expense, so it stays in its island. Whether
  the fabric beyond the switch is whole is the islands' question, not the GPU's.
* NVLink per GPU after the failure: see :mod:`model.analysis.failure_elements` (an NVL72 rack
  with 8 of its 9 NVLink switch trays has 6,400 Gb/s per GPU). Power feeds and panels of the
  hall (``Hall.power``) fail by id and take down the racks left with no live PDU
  (``unpowered_racks``); racks with no recorded power path are assumed A/B-fed, and a result
  says so (``assumptions``) whenever the design has such racks. A rack's N-th PDU or power
  shelf fails as ``RACK:pdu-N``. CDUs and CRAHs (``Hall.cooling``) fail by id and take down
  the racks left with no live CDU for their liquid heat or no live CRAH for their air heat
  (``uncooled_racks``, :func:`model.facility.cooling.uncooled_racks`).
* A tray segment is named ``TRAY#N`` (N from 1, the N-th straight piece of the polyline); a
  link fails with it when its route runs along that piece. Trays need the cable plant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import compress

import numpy as np

from model.analysis.bandwidth import bandwidth
from model.analysis.failure_collective import FailureCollective, change_json
from model.analysis.failure_elements import (
    POWER_ASSUMPTION,
    ScaleUp,
    pdu_of,
    racks_without_power,
)
from model.analysis.hops import server_hops
from model.analysis.islands import Islands, islands
from model.analysis.min_cut import MinCut
from model.analysis.survivor import SurvivorBase
from model.analysis.topology import LINK_COMPUTE, Topology, infer_topology
from model.common.arrays import unique_sorted
from model.design.design import Design
from model.facility.cooling import uncooled_racks
from model.facility.power_paths import power_paths


class WhatIfError(ValueError):
    """An id to fail that names nothing in the design (message says which)."""


@dataclass
class Failed:
    """The elements to fail, resolved to topology indices."""

    ids: list[str]  # as given
    devices: np.ndarray  # bool per device
    links: np.ndarray  # bool per link
    pdus: list[tuple[str, str]] = field(default_factory=list)  # (rack, side) failed
    power: list[str] = field(default_factory=list)  # feed and panel ids failed
    unpowered: list[str] = field(default_factory=list)  # racks left without power
    cooling: list[str] = field(default_factory=list)  # CDU and CRAH ids failed
    uncooled: list[str] = field(default_factory=list)  # racks that lose their cooling

    @property
    def device_count(self) -> int:
        return int(self.devices.sum())

    @property
    def link_count(self) -> int:
        return int(self.links.sum())


def resolve(
    design: Design, topo: Topology, plant, ids: list[str], links_at: Callable | None = None
) -> Failed:
    """Devices and links that fail with ``ids`` (devices, links, racks, trays, ``TRAY#N``,
    ``RACK:pdu-a`` / ``RACK:pdu-b``: a rack goes down when both its sides fail).

    ``links_at()``: link id -> position in ``topo.link_ids``, asked for only when a link or a
    tray fails (the caller's kept dict; by default made here)."""
    dead_dev = np.zeros(len(topo.device_ids), dtype=bool)
    dead_link = np.zeros(len(topo.link_ids), dtype=bool)
    link_index = None
    pdus: list[tuple[str, str]] = []
    paths = power_paths(design)
    power: list[str] = []
    units = {c.id for c in design.hall.cooling.cdus} | {c.id for c in design.hall.cooling.crahs}
    cooling: list[str] = []
    for raw in ids:
        oid = raw.strip()
        pdu = pdu_of(design, oid)
        if pdu is not None:
            pdus.append(pdu)
        elif oid in paths.feeds or oid in paths.panels:
            power.append(oid)
        elif oid in units:
            cooling.append(oid)
        elif oid in topo.device_index:
            dead_dev[topo.device_index[oid]] = True
        elif oid in design.links:
            link_index = link_index or _link_index(topo, links_at)
            dead_link[link_index[oid]] = True
        elif oid in design.racks:
            for device in design.devices_in_rack(oid):
                dead_dev[topo.device_index[device.id]] = True
        elif oid in design.trays or _segment(design, oid) is not None:
            if plant is None:
                raise WhatIfError(f"failing tray {oid!r} needs the routed cable plant")
            link_index = link_index or _link_index(topo, links_at)
            for lid in links_on_tray(design, plant, oid):
                dead_link[link_index[lid]] = True
        else:
            raise WhatIfError(
                f"no device, link, rack or tray has the id {oid!r} "
                "(a tray segment is TRAY#N, N counted from 1; a rack's PDUs are RACK:pdu-a, "
                "RACK:pdu-b or its N-th RACK:pdu-N; a power feed, panel, CDU or CRAH is named "
                "by its id)"
            )
    unpowered = racks_without_power(pdus, paths, tuple(power))
    uncooled = uncooled_racks(design, cooling)
    for rack in sorted({*unpowered, *uncooled}):
        for device in design.devices_in_rack(rack):
            dead_dev[topo.device_index[device.id]] = True
    return Failed(list(ids), dead_dev, dead_link, pdus, power, unpowered, cooling, uncooled)


def _link_index(topo: Topology, links_at: Callable | None) -> dict[str, int]:
    return links_at() if links_at is not None else {lid: i for i, lid in enumerate(topo.link_ids)}


def _segment(design: Design, oid: str) -> tuple[str, int] | None:
    tray_id, sep, number = oid.rpartition("#")
    if not sep or tray_id not in design.trays or not number.isdigit():
        return None
    n = int(number)
    if not 1 <= n < len(design.trays[tray_id].points):
        return None
    return tray_id, n


def segment_interval(design: Design, tray_id: str, n: int) -> tuple[float, float]:
    """Arc-length interval (m from the tray's first point) of the n-th piece (from 1)."""
    pts = np.asarray(design.trays[tray_id].points, dtype=float)
    cum = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(pts, axis=0).T))])
    return float(cum[n - 1]), float(cum[n])


def nearest_segment(design: Design, tray_id: str, x: float, y: float) -> int:
    """Number (from 1) of the straight piece of a tray nearest to the plan point (x, y)."""
    pts = np.asarray(design.trays[tray_id].points, dtype=float)
    a, b = pts[:-1], pts[1:]
    ab = b - a
    length2 = np.maximum((ab**2).sum(axis=1), 1e-12)
    t = np.clip(((np.array([x, y]) - a) * ab).sum(axis=1) / length2, 0.0, 1.0)
    dist = np.hypot(*(a + t[:, None] * ab - np.array([x, y])).T)
    return int(np.argmin(dist)) + 1


def links_on_tray(design: Design, plant, oid: str) -> list[str]:
    """Links whose route runs along tray ``oid`` (or along its segment ``TRAY#N``)."""
    seg = _segment(design, oid)
    tray_id = seg[0] if seg else oid
    lo, hi = segment_interval(design, *seg) if seg else (-np.inf, np.inf)
    keys = plant.route_keys()
    hit_routes = set()
    for key in unique_sorted(keys[keys >= 0]).tolist():
        for tid, s0, s1 in plant.tray_spans(key):
            # Overlap of positive length; a route that only touches the end point does not fail.
            if tid == tray_id and min(s1, hi) - max(s0, lo) > 1e-9:
                hit_routes.add(key)
                break
    if not hit_routes:
        return []
    rows = np.flatnonzero(np.isin(keys, np.fromiter(hit_routes, dtype=np.int64)))
    ids = plant.link_ids
    return [ids[r] for r in rows.tolist()]


def surviving(topo: Topology, failed: Failed) -> Topology:
    """The topology without the failed devices and links (tiers kept, see module docstring),
    computed afresh; :class:`WhatIf` makes the same from masks (:mod:`survivor`)."""
    keep = ~failed.links & ~failed.devices[topo.a] & ~failed.devices[topo.b]
    n = len(topo.device_ids)
    a, b, cap = topo.a[keep], topo.b[keep], topo.capacity[keep]
    kind = topo.kind[keep]
    la, lb = topo.level[a], topo.level[b]
    reached = (kind == LINK_COMPUTE) & (np.minimum(la, lb) >= 0)
    a_up, b_up = reached & (la < lb), reached & (lb < la)
    lower = np.concatenate([a[a_up], b[b_up]])
    upper = np.concatenate([b[a_up], a[b_up]])
    up_cap = np.concatenate([cap[a_up], cap[b_up]])
    up = np.bincount(lower, weights=up_cap, minlength=n)
    down = np.bincount(upper, weights=up_cap, minlength=n)
    up_links = np.bincount(lower, minlength=n)
    pairs = unique_sorted(lower * max(n, 1) + upper) if len(lower) else lower
    up_neighbours = np.bincount(pairs // max(n, 1), minlength=n) if len(pairs) else up_links * 0
    compute = kind == LINK_COMPUTE
    used = np.bincount(a[compute], minlength=n) + np.bincount(b[compute], minlength=n)
    return replace(
        topo,
        is_gpu_server=topo.is_gpu_server & ~failed.devices,
        gpus=np.where(failed.devices, 0, topo.gpus),
        link_ids=list(compress(topo.link_ids, keep.tolist())),
        a=a,
        b=b,
        speed_a=topo.speed_a[keep],
        speed_b=topo.speed_b[keep],
        capacity=cap,
        kind=kind,
        link_tier=list(compress(topo.link_tier, keep.tolist())),
        down_gbps=down,
        up_gbps=up,
        up_links=up_links,
        up_neighbours=up_neighbours,
        compute_ports_used=used,
        cage_a=topo.cage_a[keep],
        cage_b=topo.cage_b[keep],
        ppc_a=topo.ppc_a[keep],
        ppc_b=topo.ppc_b[keep],
    )


class GpuPorts:
    """Which compute-port link of the original topology serves which GPU (module docstring)."""

    def __init__(self, design: Design, topo: Topology) -> None:
        compute = topo.kind == LINK_COMPUTE
        la, lb = topo.level[topo.a], topo.level[topo.b]
        a_srv = compute & (la == 0) & (lb >= 1)
        b_srv = compute & (lb == 0) & (la >= 1)
        rows = np.concatenate([np.flatnonzero(a_srv), np.flatnonzero(b_srv)])
        srv = np.concatenate([topo.a[a_srv], topo.b[b_srv]])
        switch = np.concatenate([topo.b[a_srv], topo.a[b_srv]])
        ordinal = np.zeros(len(rows), dtype=np.int64)
        total_ports = np.zeros(len(rows), dtype=np.int64)
        ordinals: dict[int, dict[str, int]] = {}
        of_server: dict[int, dict[str, int]] = {}  # a server's table once, not once per port
        for k, (r, s) in enumerate(zip(rows.tolist(), srv.tolist(), strict=True)):
            link = design.links[topo.link_ids[r]]
            end = link.a if topo.device_index[link.a.device] == s else link.b
            names = of_server.get(s)
            if names is None:
                table = design.ports(end.device)
                names = ordinals.get(id(table))
                if names is None:
                    names = ordinals[id(table)] = {
                        name: i
                        for i, name in enumerate(n for n, p in table.items() if p.role == "compute")
                    }
                of_server[s] = names
            ordinal[k] = names[end.port]
            total_ports[k] = len(names)
        self.gpu_offset = np.concatenate([[0], np.cumsum(topo.gpus)])[:-1]
        self.total_gpus = int(topo.gpus.sum())
        g = topo.gpus[srv]
        p = np.maximum(total_ports, 1)
        # P >= G: each port serves one GPU; P < G: each port serves G/P GPUs (expanded below).
        span = np.where(p >= g, 1, np.maximum(g // p, 1))
        first = np.where(p >= g, ordinal * g // p, ordinal * span)
        self.rows = np.repeat(rows, span)
        self.switch = np.repeat(switch, span)
        self.share = np.repeat(np.where(p >= g, 1.0, 1.0 / span), span)
        within = np.arange(len(self.rows)) - np.repeat(np.cumsum(span) - span, span)
        self.gpu = np.repeat(self.gpu_offset[srv] + first, span) + within


def per_gpu_scale_out(topo: Topology, ports: GpuPorts, failed: Failed | None) -> np.ndarray:
    """Live scale-out Gb/s of every GPU's own ports (index = the design's GPU order): a port is
    live while its link, its server and its switch are (module docstring)."""
    n = len(topo.device_ids)
    dead_dev = failed.devices if failed is not None else np.zeros(n, dtype=bool)
    dead_link = failed.links if failed is not None else np.zeros(len(topo.link_ids), dtype=bool)
    rows = ports.rows
    live = ~dead_link[rows] & ~dead_dev[topo.a[rows]] & ~dead_dev[topo.b[rows]]
    out = np.zeros(ports.total_gpus)
    np.add.at(out, ports.gpu[live], topo.capacity[rows[live]] * ports.share[live])
    return out


@dataclass
class State:
    """One state of the fabric (the design as it is, or after a failure): the surviving
    topology, its islands and minimum cut, each GPU's own scale-out Gb/s. A collective estimate
    of the default job after a failure takes ``topo`` and ``islands.largest_job_servers()``."""

    topo: Topology
    islands: Islands
    min_cut: MinCut
    per_gpu: np.ndarray
    scale_up: np.ndarray  # live NVLink Gb/s per GPU of each device (failure_elements.ScaleUp)


def figures(design: Design, state: State, *, brief: bool = False) -> dict:
    """The fabric figures of one state (keys as in ``analyze --json`` where they overlap).
    ``brief``: only what ``--n-1`` ranks on (islands, bisection, per-GPU figures), not the hops
    and per-layer bandwidth."""
    topo, per_gpu = state.topo, state.per_gpu
    bis = state.min_cut.bisection(design, want_cut=False)
    servers = np.flatnonzero(topo.is_gpu_server)
    up_per_gpu = np.repeat(state.scale_up[servers], topo.gpus[servers])
    out = {
        "gpus": int(topo.gpus.sum()),
        "bisection_gbps": bis.gbps,
        "bisection_method": bis.method,
        "bisection_regular": bis.regular,  # False: the tier figure is an estimate (analysis)
        "bisection_halves": bis.cut,
        "scale_out_per_gpu_gbps": _min_mean(per_gpu),
        "scale_up_per_gpu_gbps": _min_mean(up_per_gpu),
        "gpus_connected": int((per_gpu > 0).sum()),
        "islands": state.islands.to_json(),
    }
    if brief:
        return out
    groups = state.min_cut.switch_groups()  # the switch groups of each level, made once
    bw = bandwidth(design, topo, groups)
    hops = server_hops(topo, groups)
    layers = dict(bw.layers)
    if len(up_per_gpu):  # NVLink as it is now, not as the catalog sells it
        layers["scale-up"] = float(up_per_gpu.min())
    out["hops"] = {
        "max": hops.max,
        "typical": hops.typical,
        "disconnected_pairs": hops.disconnected_pairs,
    }
    out["bandwidth_per_gpu_gbps"] = {
        "scale_up": layers.get("scale-up", bw.scale_up),
        "scale_out": bw.scale_out,
        "effective": min(bw.effective, layers.get("scale-up", bw.effective)),
        "layers": layers,
    }
    out["oversubscription"] = {name: t.max for name, t in bw.tiers.items()}
    return out


def _min_mean(values: np.ndarray) -> dict:
    return {
        "min": float(values.min()) if len(values) else 0.0,
        "mean": float(values.mean()) if len(values) else 0.0,
    }


class WhatIf:
    """One design's baseline, reused for many failure cases (``--n-1`` runs hundreds)."""

    def __init__(
        self,
        design: Design,
        plant=None,
        topo: Topology | None = None,
        min_cut: MinCut | None = None,
    ) -> None:
        """``min_cut``: the intact fabric's :class:`MinCut`, when its settings (the size up to
        which max flow is used, incremental survivors) are not the defaults."""
        self.design = design
        self._min_cut = min_cut
        self.plant = plant
        self.topo = topo if topo is not None else infer_topology(design)
        self.ports = GpuPorts(design, self.topo)
        self._before: dict | None = None
        self._before_state: State | None = None
        self._scale_up = ScaleUp(design, self.topo)

    def before_state(self) -> State:
        if self._before_state is None:
            topo = self.topo
            per_gpu = per_gpu_scale_out(topo, self.ports, None)
            scale_up = self._scale_up.per_gpu(topo)
            cuts = self._min_cut if self._min_cut is not None else MinCut(topo)
            self._before_state = State(topo, islands(topo), cuts, per_gpu, scale_up)
        return self._before_state

    def before_per_gpu(self) -> np.ndarray:
        return self.before_state().per_gpu

    @cached_property
    def halves(self) -> tuple[np.ndarray, np.ndarray]:
        """The servers on each side of the design's minimum balanced cut."""
        bis = self.before_state().min_cut.bisection(self.design)
        return bis.half_a, bis.half_b

    def before(self) -> dict:
        if self._before is None:
            self._before = figures(self.design, self.before_state())
        return self._before

    def resolve(self, ids: list[str]) -> Failed:
        return resolve(self.design, self.topo, self.plant, ids, lambda: self._link_index)

    @cached_property
    def _link_index(self) -> dict[str, int]:
        """Link id -> position in the topology (made once: ``--n-1`` fails a link of each
        link class, and at XL one such dict is ~0.3 s)."""
        return {lid: i for i, lid in enumerate(self.topo.link_ids)}

    @cached_property
    def _survivors(self) -> SurvivorBase:
        """What every failure case's surviving topology shares (made once for ``--n-1``)."""
        return SurvivorBase(self.topo)

    def after_state(self, failed: Failed) -> State:
        """What survives ``failed``: the seam for figures of the fabric after a failure."""
        topo = self._survivors.survivor(failed.devices, failed.links)  # = surviving(topo, failed)
        per_gpu = per_gpu_scale_out(self.topo, self.ports, failed)
        base = self.before_state()
        # Groups and islands are recomputed only in the pieces the failure touches.
        base_topo = self.topo
        dead_rows = failed.links | failed.devices[base_topo.a] | failed.devices[base_topo.b]
        touched = np.concatenate(
            [np.flatnonzero(failed.devices), base_topo.a[dead_rows], base_topo.b[dead_rows]]
        )
        dead = (np.flatnonzero(failed.devices), np.flatnonzero(dead_rows))
        min_cut = base.min_cut.survivors(self.design, topo, touched, dead)
        state_islands = islands(topo, base.islands, touched)
        return State(topo, state_islands, min_cut, per_gpu, self._scale_up.per_gpu(topo))

    def after(self, failed: Failed) -> tuple[dict, np.ndarray]:
        state = self.after_state(failed)
        return figures(self.design, state), state.per_gpu

    def run(self, ids: list[str], *, brief: bool = False) -> dict:
        """``{"before", "after", "islands", "gpus_disconnected", "failed", ...}`` for failing
        ``ids`` (``brief``: the after figures ``--n-1`` ranks on, see :func:`figures`)."""
        failed = self.resolve(ids)
        state = self.after_state(failed)
        after, per_gpu = figures(self.design, state, brief=brief), state.per_gpu
        before = self.before()
        cut = np.flatnonzero(per_gpu <= 0)
        return {
            "before": before,
            "after": after,
            "islands": after["islands"],
            "largest_job_gpus": after["islands"]["largest_job_gpus"],
            "largest_job_lost_gpus": before["islands"]["largest_job_gpus"]
            - after["islands"]["largest_job_gpus"],
            "gpus_without_scale_out": after["islands"]["gpus_without_scale_out"],
            "gpus_disconnected": int(len(cut)) - (before["gpus"] - before["gpus_connected"]),
            "failed": [s.strip() for s in ids],
            "failed_devices": [
                self.topo.device_ids[i] for i in np.flatnonzero(failed.devices).tolist()
            ],
            "failed_links": int(failed.link_count),
            "failed_pdus": [f"{rack}:{side}" for rack, side in failed.pdus],
            "failed_power": failed.power,
            "unpowered_racks": failed.unpowered,
            "unpowered_gpus": self._gpus_in(failed.unpowered),
            "failed_cooling": failed.cooling,
            "uncooled_racks": failed.uncooled,
            "uncooled_gpus": self._gpus_in(failed.uncooled),
            "assumptions": [POWER_ASSUMPTION] if self._assumes_power() else [],
            "blast_radius": self.blast_radius(failed, per_gpu, state.islands),
            "collective": self.collective_change(failed, state),
        }

    @cached_property
    def collective(self) -> FailureCollective:
        """The default job's all-reduce before any failure (made once for ``--n-1``)."""
        return FailureCollective(self.design, self.topo)

    def collective_change(self, failed: Failed, state: State) -> dict:
        """The default job's all-reduce before, and after ``failed`` on the largest job that
        still runs (:mod:`model.analysis.failure_collective`)."""
        fc = self.collective
        dead = (failed.devices, failed.links)
        groups = state.min_cut.switch_groups()
        after = fc.after(dead, state.islands.largest_job_servers(), state.scale_up, groups)
        return change_json(fc.before, after)

    def _gpus_in(self, racks: list[str]) -> int:
        types = self.design.catalog.device_types
        return sum(types[d.type].gpu_count for r in racks for d in self.design.devices_in_rack(r))

    def _assumes_power(self) -> bool:
        """Some rack of the design has no recorded power path (the A/B assumption holds)."""
        return any(not rack.pdus for rack in self.design.racks.values())

    def blast_radius(
        self, failed: Failed, per_gpu: np.ndarray, after: Islands | None = None
    ) -> dict:
        """Ids the editor draws: failed devices and links, servers that lost bandwidth, and
        servers outside the largest island (they cannot join the largest job)."""
        topo = self.topo
        before = self.before_per_gpu()
        lost_gpu = per_gpu < before - 1e-9
        server_of_gpu = np.repeat(np.arange(len(topo.device_ids)), topo.gpus)
        hit = unique_sorted(server_of_gpu[lost_gpu]) if lost_gpu.any() else np.zeros(0, int)
        cut_gpu = per_gpu <= 0
        cut_servers = unique_sorted(server_of_gpu[cut_gpu]) if cut_gpu.any() else hit[:0]
        dead_links = failed.links | failed.devices[topo.a] | failed.devices[topo.b]
        return {
            "devices": [topo.device_ids[i] for i in np.flatnonzero(failed.devices).tolist()],
            "links": [topo.link_ids[i] for i in np.flatnonzero(dead_links).tolist()],
            "servers_degraded": [topo.device_ids[i] for i in hit.tolist()],
            "servers_cut_off": [topo.device_ids[i] for i in cut_servers.tolist()],
            "servers_off_largest_island": _off_largest(topo, after),
        }


def _off_largest(topo: Topology, after: Islands | None) -> list[str]:
    if after is None or after.count < 2:
        return []
    off = topo.is_gpu_server & (after.label >= 0) & (after.label != after.island_labels[0])
    return [topo.device_ids[i] for i in np.flatnonzero(off).tolist()]


def what_if(design: Design, plant, ids: list[str]) -> dict:
    """Before / after figures for failing ``ids`` (see :class:`WhatIf`)."""
    return WhatIf(design, plant).run(ids)
