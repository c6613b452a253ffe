"""Failure analysis: what the compute fabric looks like after chosen elements fail.

``what_if(design, plant, ids)`` fails devices, links, racks (every device in them), trays and
tray segments (every link routed along them) and reports the fabric before and after, with the
keys of ``analyze --json`` where they overlap (``gpus``, ``bisection_gbps``,
``bisection_method``, ``hops``, ``bandwidth_per_gpu_gbps``, ``oversubscription``) plus
``scale_out_per_gpu_gbps`` {min, mean} per GPU and ``gpus_connected``.

Choices (written down because the issue leaves them open):

* A failed element is removed from the fabric; the survivors keep their tiers (a spine stays a
  spine), and the bisection keeps the hall's split of the servers into halves, so before and
  after measure the same cut.
* A GPU owns its share of its server's compute ports in port order (8 NICs, 8 GPUs: NIC i is
  GPU i, as on a rail-optimized DGX); P ports for G > P GPUs are shared G/P ways. A port is
  *live* when its link survives and its switch is still in the main part of its plane (the
  surviving piece, of the switches that formed one connected fabric before, that holds the
  most server ports; a rail-only fabric has one plane per rail). A GPU with no live port is
  cut off from the scale-out fabric (it may still reach it over NVLink through a neighbour,
  which NCCL's PXN does, but at the neighbour's expense). GPUs of a failed server count as cut
  off. ``scale_out_per_gpu_gbps`` is over every GPU of the design (0 for those cut off).
* A tray segment is named ``TRAY#N`` (N from 1, the N-th straight piece of the polyline); a
  link fails with it when its route runs along that piece. Trays need the cable plant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import compress

import numpy as np

from model.analysis.bandwidth import bandwidth
from model.analysis.bisection import bisection, split_servers
from model.analysis.hops import server_hops
from model.analysis.topology import LINK_COMPUTE, Topology, components, infer_topology
from model.common.arrays import unique_sorted
from model.design.design import Design


class WhatIfError(ValueError):
    """An id to fail that names nothing in the design (message says which)."""


@dataclass
class Failed:
    """The elements to fail, resolved to topology indices."""

    ids: list[str]  # as given
    devices: np.ndarray  # bool per device
    links: np.ndarray  # bool per link

    @property
    def device_count(self) -> int:
        return int(self.devices.sum())

    @property
    def link_count(self) -> int:
        return int(self.links.sum())


def resolve(
    design: Design, topo: Topology, plant, ids: list[str], links_at: Callable | None = None
) -> Failed:
    """Devices and links that fail with ``ids`` (devices, links, racks, trays, ``TRAY#N``).

    ``links_at()``: link id -> position in ``topo.link_ids``, asked for only when a link or a
    tray fails (the caller's kept dict; by default made here)."""
    dead_dev = np.zeros(len(topo.device_ids), dtype=bool)
    dead_link = np.zeros(len(topo.link_ids), dtype=bool)
    link_index = None
    for raw in ids:
        oid = raw.strip()
        if oid in topo.device_index:
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
                "(a tray segment is TRAY#N, N counted from 1)"
            )
    return Failed(list(ids), dead_dev, dead_link)


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
    """The topology without the failed devices and links (tiers kept, see module docstring)."""
    keep = ~failed.links & ~failed.devices[topo.a] & ~failed.devices[topo.b]
    n = len(topo.device_ids)
    a, b, cap = topo.a[keep], topo.b[keep], topo.capacity[keep]
    kind = topo.kind[keep]
    la, lb = topo.level[a], topo.level[b]
    reached = (kind == LINK_COMPUTE) & (np.minimum(la, lb) >= 0)
    a_up, b_up = reached & (la < lb), reached & (lb < la)
    down, up = np.zeros(n), np.zeros(n)
    np.add.at(up, a[a_up], cap[a_up])
    np.add.at(down, b[a_up], cap[a_up])
    np.add.at(up, b[b_up], cap[b_up])
    np.add.at(down, a[b_up], cap[b_up])
    lower = np.concatenate([a[a_up], b[b_up]])
    upper = np.concatenate([b[a_up], a[b_up]])
    up_links = np.bincount(lower, minlength=n)
    pairs = unique_sorted(lower * max(n, 1) + upper) if len(lower) else lower
    up_neighbours = np.bincount(pairs // max(n, 1), minlength=n) if len(pairs) else up_links * 0
    used = np.zeros(n, dtype=np.int64)
    compute = kind == LINK_COMPUTE
    np.add.at(used, a[compute], 1)
    np.add.at(used, b[compute], 1)
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
        for k, (r, s) in enumerate(zip(rows.tolist(), srv.tolist(), strict=True)):
            link = design.links[topo.link_ids[r]]
            end = link.a if topo.device_index[link.a.device] == s else link.b
            table = design.ports(end.device)
            names = ordinals.get(id(table))
            if names is None:
                names = ordinals[id(table)] = {
                    name: i
                    for i, name in enumerate(n for n, p in table.items() if p.role == "compute")
                }
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
    """Live scale-out Gb/s of every GPU of the design (index = the design's GPU order)."""
    n = len(topo.device_ids)
    dead_dev = failed.devices if failed is not None else np.zeros(n, dtype=bool)
    dead_link = failed.links if failed is not None else np.zeros(len(topo.link_ids), dtype=bool)
    compute = topo.kind == LINK_COMPUTE
    switches = topo.level >= 1
    sw_links = compute & switches[topo.a] & switches[topo.b]
    plane = components(n, topo.a[sw_links], topo.b[sw_links], switches)
    alive_sw = switches & ~dead_dev
    ok = sw_links & ~dead_link & alive_sw[topo.a] & alive_sw[topo.b]
    piece = components(n, topo.a[ok], topo.b[ok], alive_sw)
    rows, sw = ports.rows, ports.switch
    live = ~dead_link[rows] & ~dead_dev[topo.a[rows]] & ~dead_dev[topo.b[rows]]
    # Main piece of each plane: the one with the most live server ports.
    if live.any():
        key = plane[sw[live]] * (n + 1) + piece[sw[live]]
        uniq, counts = np.unique(key, return_counts=True)
        order = np.lexsort((-counts, uniq // (n + 1)))
        planes_sorted = uniq[order] // (n + 1)
        first = np.concatenate([[True], planes_sorted[1:] != planes_sorted[:-1]])
        main = np.full(n, -2)
        main[planes_sorted[first]] = (uniq[order] % (n + 1))[first]
        live &= piece[sw] == main[plane[sw]]
    out = np.zeros(ports.total_gpus)
    np.add.at(out, ports.gpu[live], topo.capacity[rows[live]] * ports.share[live])
    return out


def figures(design: Design, topo: Topology, halves, per_gpu: np.ndarray) -> dict:
    """The fabric figures of one state (keys as in ``analyze --json`` where they overlap)."""
    n = len(topo.device_ids)
    compute = topo.kind == LINK_COMPUTE
    groups = {
        level: components(
            n, topo.a[compute], topo.b[compute], (topo.level >= 1) & (topo.level <= level)
        )
        for level in range(2, topo.top_level() + 1)
    }
    bw = bandwidth(design, topo, groups)
    alive = topo.is_gpu_server
    half_a, half_b = (h[alive[h]] for h in halves)
    bis = bisection(design, topo, halves=(half_a, half_b))
    hops = server_hops(topo)
    return {
        "gpus": int(topo.gpus.sum()),
        "bisection_gbps": bis.gbps,
        "bisection_method": bis.method,
        "bisection_regular": bis.regular,  # False: the tier figure is an estimate (analysis)
        "hops": {
            "max": hops.max,
            "typical": hops.typical,
            "disconnected_pairs": hops.disconnected_pairs,
        },
        "bandwidth_per_gpu_gbps": {
            "scale_up": bw.scale_up,
            "scale_out": bw.scale_out,
            "effective": bw.effective,
            "layers": dict(bw.layers),
        },
        "oversubscription": {name: t.max for name, t in bw.tiers.items()},
        "scale_out_per_gpu_gbps": {
            "min": float(per_gpu.min()) if len(per_gpu) else 0.0,
            "mean": float(per_gpu.mean()) if len(per_gpu) else 0.0,
        },
        "gpus_connected": int((per_gpu > 0).sum()),
    }


class WhatIf:
    """One design's baseline, reused for many failure cases (``--n-1`` runs hundreds)."""

    def __init__(self, design: Design, plant=None, topo: Topology | None = None) -> None:
        self.design = design
        self.plant = plant
        self.topo = topo if topo is not None else infer_topology(design)
        self.halves = split_servers(design, self.topo)
        self.ports = GpuPorts(design, self.topo)
        self._before: dict | None = None
        self._before_per_gpu: np.ndarray | None = None

    def before_per_gpu(self) -> np.ndarray:
        if self._before_per_gpu is None:
            self._before_per_gpu = per_gpu_scale_out(self.topo, self.ports, None)
        return self._before_per_gpu

    def before(self) -> dict:
        if self._before is None:
            self._before = figures(self.design, self.topo, self.halves, self.before_per_gpu())
        return self._before

    def resolve(self, ids: list[str]) -> Failed:
        return resolve(self.design, self.topo, self.plant, ids, lambda: self._link_index)

    @cached_property
    def _link_index(self) -> dict[str, int]:
        """Link id -> position in the topology (made once: ``--n-1`` fails a link of each
        link class, and at XL one such dict is ~0.3 s)."""
        return {lid: i for i, lid in enumerate(self.topo.link_ids)}

    def after(self, failed: Failed) -> tuple[dict, np.ndarray]:
        per_gpu = per_gpu_scale_out(self.topo, self.ports, failed)
        return figures(self.design, surviving(self.topo, failed), self.halves, per_gpu), per_gpu

    def run(self, ids: list[str]) -> dict:
        """``{"before", "after", "gpus_disconnected", "failed", ...}`` for failing ``ids``."""
        failed = self.resolve(ids)
        after, per_gpu = self.after(failed)
        before = self.before()
        cut = np.flatnonzero(per_gpu <= 0)
        return {
            "before": before,
            "after": after,
            "gpus_disconnected": int(len(cut)) - (before["gpus"] - before["gpus_connected"]),
            "failed": [s.strip() for s in ids],
            "failed_devices": [
                self.topo.device_ids[i] for i in np.flatnonzero(failed.devices).tolist()
            ],
            "failed_links": int(failed.link_count),
            "blast_radius": self.blast_radius(failed, per_gpu),
        }

    def blast_radius(self, failed: Failed, per_gpu: np.ndarray) -> dict:
        """Ids the editor draws: failed devices and links, servers that lost bandwidth."""
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
        }


def what_if(design: Design, plant, ids: list[str]) -> dict:
    """Before / after figures for failing ``ids`` (see :class:`WhatIf`)."""
    return WhatIf(design, plant).run(ids)
