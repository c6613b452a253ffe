"""A job on the floor (a set of GPU servers in ring order) and the fabric it is routed over.

``Fabric`` is the compute fabric as the collectives see it, after removing failed elements: every
GPU server's NICs (rail r = its r-th compute link in port order, as NCCL binds channel r to NIC
r), the up-links between switch levels (for ECMP), the switch groups per level (a level-L group =
the switches of levels 1..L joined by live links: a leaf, a pod or SU, the whole fabric), and the
scale-up (NVLink) domains: a server alone when its catalog entry says ``device``; when it says
``links`` (GB200 NVL72), the servers joined by scale-up links.

A ``Job`` is a set of servers ordered as NCCL's topology-aware rings visit them (``topology
order``: by top-level group, then by lower groups, then by leaf of the first NIC, then by the
design's order), so servers under one leaf are neighbours in every ring and a ring leaves a leaf
only once per group it spans. Ways to name a job: the whole hall, the first N GPUs in topology
order, chosen SUs (level-2 groups), racks or servers (the editor's selection). The default is
the largest job the fabric holds: every server of its largest connected piece.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from model.analysis.topology import LINK_COMPUTE, LINK_SCALE_UP, Topology, components

PLACEMENTS = ("first", "by-su", "by-rack")


@dataclass
class Fabric:
    """The live compute fabric under a topology (module docstring)."""

    topo: Topology
    alive: np.ndarray  # bool per link: a compute link with neither it nor an end failed
    servers: np.ndarray  # device index of every GPU server, in topology order
    rails: int  # most compute links of a server
    nic_link: np.ndarray  # [server device index, rail] -> link row, -1 none (rows: devices)
    nic_leaf: np.ndarray  # [device, rail] -> leaf device index, -1 none
    labels: dict[int, np.ndarray]  # level -> group label per device (-1: not a switch <= level)
    top: int  # highest switch level
    uplinks: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]  # level -> (lower, upper, row)
    up_count: dict[int, np.ndarray]  # level -> live uplinks per device
    domain: np.ndarray  # scale-up domain label per device (servers), -1 elsewhere
    failed: tuple[str, ...] = ()
    piece: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def n(self) -> int:
        return len(self.topo.device_ids)


def build_fabric(
    design,
    topo: Topology,
    failed: tuple[str, ...] | list[str] = (),
    groups=None,
    dead: tuple[np.ndarray, np.ndarray] | None = None,
) -> Fabric:
    """The live fabric of ``topo``: ``failed`` ids (devices or links) removed, or the masks
    ``dead`` = (bool per device, bool per link) of what-if's resolved failure. ``groups``: the
    switch groups per level >= 2 of the fabric that is left (the analysis's when nothing failed,
    what-if's surviving topology's after a failure: components of the same live links), reused
    instead of recomputed; a failed switch's own label is dropped."""
    n = len(topo.device_ids)
    dead_dev = np.zeros(n, dtype=bool)
    dead_link = np.zeros(len(topo.link_ids), dtype=bool)
    if dead is not None:
        dead_dev, dead_link = dead
        failed = tuple(topo.device_ids[i] for i in np.flatnonzero(dead_dev).tolist())
    elif failed:
        link_index = {lid: k for k, lid in enumerate(topo.link_ids)}
        for fid in failed:
            if fid in topo.device_index:
                dead_dev[topo.device_index[fid]] = True
            elif fid in link_index:
                dead_link[link_index[fid]] = True
            else:
                raise ValueError(f"{fid!r} is neither a device nor a link of the design")
    a, b, level = topo.a, topo.b, topo.level
    live = ~dead_link & ~dead_dev[a] & ~dead_dev[b]
    alive = (topo.kind == LINK_COMPUTE) & live & (level[a] >= 0) & (level[b] >= 0)
    la, lb = level[a], level[b]
    edge = alive & (((la == 0) & (lb == 1)) | ((lb == 0) & (la == 1)))
    rows = np.flatnonzero(edge)
    srv = np.where(la == 0, a, b)[edge]
    leaf = np.where(la == 0, b, a)[edge]
    order = np.lexsort((rows, srv))
    srv, leaf, rows = srv[order], leaf[order], rows[order]
    start = np.searchsorted(srv, srv, side="left")
    rail = np.arange(len(srv)) - start
    rails = int(rail.max()) + 1 if len(rail) else 0
    nic_link = np.full((n, max(rails, 1)), -1, dtype=np.int64)
    nic_leaf = np.full((n, max(rails, 1)), -1, dtype=np.int64)
    nic_link[srv, rail] = rows
    nic_leaf[srv, rail] = leaf

    top = topo.top_level()
    switch = level >= 1
    labels = {1: np.where((level == 1) & ~dead_dev, np.arange(n), -1)}
    for lv in range(2, top + 1):
        if groups is not None and lv in groups:
            labels[lv] = np.where(dead_dev, -1, groups[lv]) if dead_dev.any() else groups[lv]
            continue
        members = switch & (level <= lv) & ~dead_dev
        labels[lv] = components(n, a[alive], b[alive], members)
    uplinks, up_count = {}, {}
    for lv in range(1, top):
        up = alive & (((la == lv) & (lb == lv + 1)) | ((lb == lv) & (la == lv + 1)))
        lower = np.where(la == lv, a, b)[up]
        upper = np.where(la == lv, b, a)[up]
        uplinks[lv] = (lower, upper, np.flatnonzero(up))
        up_count[lv] = np.bincount(lower, minlength=n)

    domain = np.where(topo.is_gpu_server, np.arange(n), -1)
    scale_up = (topo.kind == LINK_SCALE_UP) & live
    if scale_up.any():
        joined = components(n, a[scale_up], b[scale_up], ~dead_dev)
        types = design.catalog.device_types
        by_links = np.array(
            [
                types[design.devices[topo.device_ids[i]].type].gpus.scale_up_domain == "links"
                for i in np.flatnonzero(topo.is_gpu_server).tolist()
            ],
            dtype=bool,
        )
        servers = np.flatnonzero(topo.is_gpu_server)
        domain[servers[by_links]] = joined[servers[by_links]]

    # The fabric's pieces: a server belongs to the top-level switch group of its first live
    # NIC's leaf (the default job is the largest piece); a server with no live NIC is a piece
    # of its own.
    servers = np.flatnonzero(topo.is_gpu_server & ~dead_dev)
    piece = np.full(n, -1, dtype=np.int64)
    live = nic_leaf[servers] >= 0
    first_live = np.where(live.any(axis=1), live.argmax(axis=1), -1)
    leaf_of = nic_leaf[servers, np.maximum(first_live, 0)]
    top_label = labels[max(top, 1)]
    piece[servers] = np.where(first_live >= 0, top_label[np.maximum(leaf_of, 0)], -1)
    piece[servers] = np.where(piece[servers] >= 0, piece[servers], n + servers)
    keys = [servers, domain[servers]]
    keys.append(np.where(nic_leaf[servers, 0] >= 0, nic_leaf[servers, 0], n + servers))
    for lv in range(2, top + 1):
        lab = labels[lv]
        first_leaf = nic_leaf[servers, 0]
        keys.append(np.where(first_leaf >= 0, lab[np.maximum(first_leaf, 0)], n + servers))
    servers = servers[np.lexsort(keys)] if len(servers) else servers
    return Fabric(
        topo, alive, servers, rails, nic_link, nic_leaf, labels, top, uplinks, up_count,
        domain, tuple(failed), piece,
    )  # fmt: skip


@dataclass
class Job:
    """A set of GPU servers in topology (ring) order, and what it was named after."""

    label: str
    servers: np.ndarray  # device indices, topology order
    gpus: int


def largest_job(fabric: Fabric) -> Job:
    """Every server of the fabric's largest piece (most GPUs): the default job."""
    servers = fabric.servers
    if not len(servers):
        return Job("no GPUs", servers, 0)
    gpus = fabric.topo.gpus
    piece = fabric.piece[servers]
    sums = np.bincount(piece, weights=gpus[servers], minlength=2 * fabric.n)
    best = int(np.argmax(sums))  # the first of equals: the lowest label
    chosen = servers[piece == best]
    total = int(gpus.sum())
    label = "whole hall" if len(chosen) == len(fabric.topo.gpus[fabric.topo.is_gpu_server]) else (
        "largest connected piece"
    )  # fmt: skip
    g = int(gpus[chosen].sum())
    return Job(f"{label} ({g:,} of {total:,} GPUs)" if g < total else label, chosen, g)


def first_gpus(
    fabric: Fabric, gpus: int, placement: str = "first", design=None, pool: Job | None = None
) -> Job:
    """The first servers holding ``gpus`` GPUs, in topology order (``first``, ``by-su``) or in
    the design's rack order (``by-rack``), within ``pool`` (default: the largest piece)."""
    servers = (pool or largest_job(fabric)).servers
    if placement in ("first", "by-su"):
        order = servers
    elif placement == "by-rack":
        ids = fabric.topo.device_ids
        rank = {r: k for k, r in enumerate(design.racks)}
        keys = [
            (rank.get(design.devices[ids[i]].rack, 0), design.devices[ids[i]].u) for i in servers
        ]
        order = servers[sorted(range(len(servers)), key=lambda k: (keys[k], k))]
    else:
        raise ValueError(f"unknown placement {placement!r}; choose one of " + ", ".join(PLACEMENTS))
    need = np.cumsum(fabric.topo.gpus[order])
    count = int(np.searchsorted(need, gpus, side="left")) + 1
    chosen = _in_topology_order(fabric, order[: min(count, len(order))])
    g = int(fabric.topo.gpus[chosen].sum())
    order_name = "in topology order" if placement != "by-rack" else "by rack"
    return Job(f"first {g:,} GPUs {order_name}", chosen, g)


def named_job(fabric: Fabric, design, ids: list[str]) -> Job:
    """The servers named by ``ids``: GPU servers, racks (their servers) or SUs written
    ``su:<n>`` (the n-th set of servers sharing their leaves, in topology order, from 1)."""
    topo, chosen = fabric.topo, []
    su_of = None
    for raw in ids:
        name = raw.strip()
        if name.startswith("su:"):
            if su_of is None:
                su_of = _su_groups(fabric)
            try:
                chosen.extend(su_of[int(name[3:]) - 1].tolist())
            except (ValueError, IndexError):
                raise ValueError(f"{name!r}: the design has {len(su_of)} SUs") from None
        elif name in design.racks:
            chosen.extend(
                topo.device_index[d]
                for d, dev in design.devices.items()
                if dev.rack == name and topo.is_gpu_server[topo.device_index[d]]
            )
        elif name in topo.device_index and topo.is_gpu_server[topo.device_index[name]]:
            chosen.append(topo.device_index[name])
        else:
            raise ValueError(f"{name!r} is not a GPU server, a rack or an SU (su:1) of the design")
    servers = _in_topology_order(fabric, np.unique(np.array(chosen, dtype=np.int64)))
    g = int(topo.gpus[servers].sum())
    shown = ", ".join(ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
    return Job(f"{shown} ({g:,} GPUs)", servers, g)


def _in_topology_order(fabric: Fabric, servers: np.ndarray) -> np.ndarray:
    rank = np.full(fabric.n, -1, dtype=np.int64)
    rank[fabric.servers] = np.arange(len(fabric.servers))
    known = servers[rank[servers] >= 0]
    return known[np.argsort(rank[known], kind="stable")]


def _su_groups(fabric: Fabric) -> list[np.ndarray]:
    """Servers per SU (the servers whose NICs reach the same leaves), in topology order."""
    servers = fabric.servers
    leaves = np.sort(fabric.nic_leaf[servers], axis=1)
    _, first, inverse = np.unique(leaves, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    return [servers[inverse == k] for k in np.argsort(first)]
