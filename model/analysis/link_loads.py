"""Bytes per link and direction for NCCL's communication patterns, routed over the live fabric.

Each pattern is built as NCCL builds it, between the job's scale-up domains ("nodes": a server,
or an NVL72 rack's trays) in topology order, one set of channels per rail (NIC r of every server;
PXN keeps inter-node traffic on the destination's rail):

* ``ring``: per rail, the ring visits the domains in order and closes; each domain's NICs on the
  rail share its one in-hop and one out-hop (NIC t sends to NIC t of the next domain).
* ``tree``: NCCL's double binary tree over the domains (src/graph/trees.cc: ncclGetBtree's
  in-order tree over the domain positions, and its mirror for an even count or its shift by one
  for an odd count, so every domain is interior in at most one), every edge carrying data both
  ways.
* ``all-to-all``: every GPU sends to every other; between domains X and Y g_X g_Y / n of the
  message per pair of GPUs, spread over the rails and the domains' NICs on each rail (PXN, NCCL's
  default); without PXN from each GPU's own NIC to the destination GPU's own NIC, across rails.

Routing (``route``): a flow from leaf A to leaf B climbs to the lowest level L at which A and B
are in one switch group (:class:`jobs.Fabric`), split equally over the live uplinks at every
step (ECMP, a fluid split), then comes down to B. In a Clos the way down mirrors the way up, so
the bytes coming down into B from level L load B's side exactly as B's own bytes going up to L
would, in the other direction. Per-flow work is numpy over the flows; the climb is per tier
(bincounts over each tier's uplinks), never a Python loop per flow.

Every figure is linear in the bytes: patterns are computed for unit bytes and scaled.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from model.analysis.ecmp_hash import collision_ratios
from model.analysis.jobs import Fabric, Job


@dataclass
class Loads:
    """Bytes per topology link: ``up`` from the lower level to the upper (server -> leaf ...)."""

    up: np.ndarray
    down: np.ndarray
    unreachable: int  # flows (or bytes groups) with no live path

    def busiest(self, capacity_gbps: np.ndarray) -> tuple[float, np.ndarray]:
        """(the busiest link's time: its busier direction's bytes over its capacity, in s; the
        rows of every link within 1e-9 of it). Only loaded links are looked at."""
        rows = np.flatnonzero((self.up > 0) | (self.down > 0))
        if not len(rows):
            return 0.0, rows
        worst = np.maximum(self.up[rows], self.down[rows]) * 8.0
        cap = capacity_gbps[rows] * 1e9
        t = np.divide(worst, cap, out=np.full(len(rows), np.inf), where=cap > 0)
        top = float(t.max())
        return top, rows[t >= top * (1 - 1e-9)]


@dataclass
class Nics:
    """The job's NICs grouped per (rail, domain): record arrays sorted by rail, domain, server."""

    link: np.ndarray  # topology link row
    leaf: np.ndarray
    group: np.ndarray  # group id of each record
    start: np.ndarray  # per group: first record
    count: np.ndarray  # per group: records (the domain's NICs on that rail)
    rail: np.ndarray  # per group
    domain: np.ndarray  # per group: the domain's position in the job (0 ..)
    domains: int
    rails: int
    domain_gpus: np.ndarray  # per domain position: GPUs


def job_nics(fabric: Fabric, job: Job) -> Nics:
    servers = job.servers
    dom = fabric.domain[servers]
    _, first, inverse = np.unique(dom, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first)] = np.arange(len(first))
    q = rank[inverse]  # each server's domain position, in ring order
    domain_gpus = np.bincount(q, weights=fabric.topo.gpus[servers], minlength=len(first))
    links, leaves = _stand_in_nics(fabric.nic_link[servers], fabric.nic_leaf[servers])
    pos, rail = np.nonzero(links >= 0)
    rec_q = q[pos]
    order = np.lexsort((pos, rec_q, rail))
    pos, rail, rec_q = pos[order], rail[order], rec_q[order]
    key = rail * max(len(first), 1) + rec_q
    _, start, count = np.unique(key, return_index=True, return_counts=True)
    group = np.repeat(np.arange(len(start)), count)
    return Nics(
        links[pos, rail], leaves[pos, rail], group, start, count,
        rail[start], rec_q[start], len(first), fabric.rails, domain_gpus,
    )  # fmt: skip


def _stand_in_nics(links: np.ndarray, leaves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A server without a live NIC on rail r (its link or leaf failed, or it has fewer NICs
    than the fabric has rails) still runs rail r's channels: NCCL binds them to another of its
    NICs (NCCL_CROSS_NIC=2, the default, allows it; the GPU reaches that NIC over NVLink, as
    PXN does), so the next live NIC in rail order carries them beside its own and its link
    carries both rails' bytes. Only servers with no live NIC at all drop out."""
    live = links >= 0
    rows = np.flatnonzero(~live.all(axis=1) & live.any(axis=1))
    if not len(rows):
        return links, leaves
    links, leaves = links.copy(), leaves.copy()
    for i in rows.tolist():
        have = np.flatnonzero(live[i])
        gone = np.flatnonzero(~live[i])
        stand_in = have[np.searchsorted(have, gone) % len(have)]  # the next live rail, cyclic
        links[i, gone] = links[i, stand_in]
        leaves[i, gone] = leaves[i, stand_in]
    return links, leaves


def ring_loads(fabric: Fabric, nics: Nics) -> Loads:
    """Bytes of one unit per ring hop and rail (module docstring)."""
    return climb(fabric, ring_flows(fabric, nics))


def tree_loads(fabric: Fabric, nics: Nics) -> Loads:
    """One unit per edge, direction and tree, on every rail (module docstring)."""
    return climb(fabric, tree_flows(fabric, nics))


def ring_flows(fabric: Fabric, nics: Nics) -> Routed:
    """The ring's hops met at their level (:func:`meet`), before the climb."""
    g = nics.group
    t = np.arange(len(g)) - nics.start[g]
    nxt = _next_group_same_rail(nics)
    dst = nics.start[nxt[g]] + t % nics.count[nxt[g]]
    keep = nxt[g] != g  # a rail with one domain has no network hop
    src = np.flatnonzero(keep)
    return meet(fabric, nics, src, dst[keep], 1.0 / nics.count[g[keep]])


def tree_flows(fabric: Fabric, nics: Nics) -> Routed:
    """The trees' edges met at their level (:func:`meet`), before the climb."""
    q_count = nics.domains
    if q_count < 2:
        return _no_flows(fabric)
    lookup = np.full((nics.rails, q_count), -1, dtype=np.int64)
    lookup[nics.rail, nics.domain] = np.arange(len(nics.start))
    child = np.arange(1, q_count)
    parent = btree_parent(child, q_count)
    if q_count % 2 == 0:  # ncclGetDtree: the mirror tree for an even count ...
        child2, parent2 = q_count - 1 - child, q_count - 1 - parent
    else:  # ... the tree shifted by one rank for an odd count
        child2, parent2 = (child + 1) % q_count, (parent + 1) % q_count
    pairs = np.concatenate([np.stack([child, parent], 1), np.stack([child2, parent2], 1)])
    srcs, dsts, byts = [], [], []
    for r in range(nics.rails):
        gc, gp = lookup[r, pairs[:, 0]], lookup[r, pairs[:, 1]]
        ok = (gc >= 0) & (gp >= 0)
        gc, gp = gc[ok], gp[ok]
        k = nics.count[gc]
        rep = np.repeat(np.arange(len(gc)), k)
        t = np.arange(len(rep)) - np.repeat(np.cumsum(k) - k, k)
        a = nics.start[gc][rep] + t
        b = nics.start[gp][rep] + t % nics.count[gp][rep]
        w = 1.0 / k[rep]
        srcs += [a, b]
        dsts += [b, a]
        byts += [w, w]
    if not srcs:
        return _no_flows(fabric)
    return meet(fabric, nics, np.concatenate(srcs), np.concatenate(dsts), np.concatenate(byts))


def btree_parent(rank: np.ndarray, nranks: int) -> np.ndarray:
    """NCCL's ncclGetBtree (src/graph/trees.cc) parent of each ``rank`` > 0: its lowest set bit
    moved up one place, ``(rank ^ bit) | (bit << 1)``, or just cleared when that is out of
    range. An in-order tree: every subtree is a run of consecutive ranks, so with ranks in
    topology order a subtree stays under one leaf or SU and few edges leave it."""
    bit = rank & -rank
    up = (rank ^ bit) | (bit << 1)
    return np.where(up >= nranks, rank ^ bit, up)


def alltoall_loads(
    fabric: Fabric, nics: Nics, gpus: int, pxn: bool = True, hashed: str | None = None
) -> Loads:
    """Bytes of an all-to-all of one unit per GPU (each GPU sends 1/n to each other GPU).

    ``pxn`` (NCCL_P2P_PXN_LEVEL=2, NCCL's default since 2.12): a GPU hands the bytes for a GPU
    of another domain over NVLink to its own domain's GPU on the destination's rail, so the
    network carries them NIC r to NIC r: per rail, only the bytes bound for another group of
    that rail's leaves climb. Without PXN (level 0, or GPUs without NVLink) a GPU sends through
    its own NIC to the destination GPU's own NIC: the rails are one pool, and a byte between
    two rails climbs to where their leaves meet (the spines of a rail-optimized SU) even inside
    one SU. Each NIC sends (n - g)/n of a unit either way; only the switch links differ.
    ``hashed``: static ECMP (:func:`_climb`), one flow per pair of NICs that exchange bytes."""
    n = fabric.n
    up = np.zeros(len(fabric.topo.link_ids))
    down = np.zeros_like(up)
    if nics.domains < 2 or gpus < 2:
        return Loads(up, down, 0)
    # a NIC's weight: the GPUs of its domain it carries traffic for, per rail
    weight = nics.domain_gpus[nics.domain] / (nics.rails * nics.count)
    s = weight[nics.group]
    # PXN: each rail its own pool (c = rails / n per unit of weight pair); without: one pool
    rails = nics.rails if pxn else 1
    c = rails / gpus
    rail_of = nics.rail[nics.group] if pxn else np.zeros(len(nics.group), dtype=np.int64)
    carry: dict[int, np.ndarray] = {}
    flows: dict[int, np.ndarray] = {}  # NIC pairs per leaf and meeting level (hashing)
    for r in range(rails):
        on = rail_of == r
        if not on.any():
            continue
        leaf, w = nics.leaf[on], s[on]
        total = w.sum()
        own = nics.domain_gpus[nics.domain[nics.group[on]]] / rails  # the domain's own GPUs
        up[nics.link[on]] += w * (total - own) * c
        down[nics.link[on]] += w * (total - own) * c
        for weights, factor, out in ((w, c, carry), (np.ones(len(w)), 1.0, flows)):
            if out is flows and not hashed:
                continue
            w_leaf = np.bincount(leaf, weights=weights, minlength=n)
            below = w_leaf
            for level in range(2, fabric.top + 1):
                lab = fabric.labels[level]
                ok = lab >= 0
                sums = np.bincount(lab[ok], weights=w_leaf[ok], minlength=n)
                within = np.where(ok, sums[np.maximum(lab, 0)], 0.0)
                band = np.maximum(within - below, 0.0)
                out[level] = out.get(level, 0.0) + w_leaf * band * factor
                below = np.maximum(within, below)
    if not pxn:
        _drop_own_domain(fabric, nics, s, c, carry)
        if hashed:
            _drop_own_domain(fabric, nics, np.ones(len(s)), 1.0, flows)
    # the way down into a leaf mirrors its way up (module docstring): the same climb, twice
    switch_links = np.zeros_like(up)
    stuck = _climb(fabric, carry, switch_links, flows if hashed else None, hashed)
    up += switch_links
    down += switch_links
    return Loads(up, down, 2 * stuck)


def _drop_own_domain(
    fabric: Fabric, nics: Nics, s: np.ndarray, c: float, carry: dict[int, np.ndarray]
) -> None:
    """Without PXN the rails are pooled, and the pool's sums count the bytes between two NICs
    of one domain (its GPUs exchange them over NVLink, or inside the host) as climbing from one
    rail's leaf to the other's. Take them out of ``carry`` at the level where those two leaves
    meet (the climb is linear in the bytes)."""
    dom = nics.domain[nics.group]
    order = np.argsort(dom, kind="stable")
    d_sorted = dom[order]
    starts = np.flatnonzero(np.r_[True, d_sorted[1:] != d_sorted[:-1]])
    counts = np.diff(np.r_[starts, len(order)])
    # every ordered pair (a, b), a != b, of records of one domain
    k = np.repeat(counts, counts)  # records in the domain of each record
    first = np.repeat(starts, counts)
    a = np.repeat(np.arange(len(order)), k)
    b = np.repeat(first, k) + (np.arange(len(a)) - np.repeat(np.cumsum(k) - k, k))
    keep = a != b
    a, b = order[a[keep]], order[b[keep]]
    la, lb = nics.leaf[a], nics.leaf[b]
    byts = s[a] * s[b] * c
    meet = np.where(la == lb, 1, 0)
    for level in range(2, fabric.top + 1):
        lab = fabric.labels[level]
        joined = (meet == 0) & (lab[la] == lab[lb]) & (lab[la] >= 0)
        meet[joined] = level
        m = meet == level
        if m.any() and level in carry:
            own = np.bincount(la[m], weights=byts[m], minlength=fabric.n)
            carry[level] = np.maximum(carry[level] - own, 0.0)  # float noise, never below 0


def collnet_loads(fabric: Fabric, nics: Nics) -> Loads:
    """IB SHARP (CollNet): per rail the domain's NICs send one unit up and get one back; every
    switch reduces what reaches it, so a switch forwards no more than the largest share one of
    its children sent it, spread over its uplinks, and only while the job's NICs of that rail
    span more than one group of its level (the top of the reduction tree). Both directions
    carry the same bytes (reduce up, result down)."""
    n_links = len(fabric.topo.link_ids)
    up = np.zeros(n_links)
    share_nic = 1.0 / nics.count[nics.group]
    np.add.at(up, nics.link, share_nic)
    stuck = 0
    for r in range(nics.rails):
        on = nics.rail[nics.group] == r
        leaves = np.unique(nics.leaf[on])
        if len(leaves) < 2:
            continue
        carry = np.zeros(fabric.n)
        carry[leaves] = 1.0
        for k in range(1, fabric.top):
            lab = fabric.labels[k + 1] if k + 1 in fabric.labels else None
            lower, upper, rows = fabric.uplinks[k]
            cnt = fabric.up_count[k]
            stuck += int(((carry > 0) & (cnt == 0)).sum())
            share = np.divide(carry, cnt, out=np.zeros(fabric.n), where=cnt > 0)
            sel = np.flatnonzero(share[lower] > 0)
            up[rows[sel]] += share[lower[sel]]
            nxt = np.zeros(fabric.n)
            np.maximum.at(nxt, upper[sel], share[lower[sel]])
            groups = fabric.labels[k + 1][leaves] if lab is not None else leaves
            if len(np.unique(groups)) < 2:
                break  # the level-(k+1) switches are the top of this rail's reduction tree
            carry = nxt
    return Loads(up, up.copy(), stuck)


@dataclass
class Routed:
    """Flows met at their level, before the climb: the NIC links' bytes, and per level L the
    bytes each leaf sends up (``ups``) and receives (``downs``) from level L. It depends only
    on the NIC records and on which leaves share a group of each level, not on the uplinks:
    a failure that leaves both alike (a spine, a spine or core link) reuses it."""

    up: np.ndarray
    down: np.ndarray
    ups: dict[int, np.ndarray]
    downs: dict[int, np.ndarray]
    unreachable: int
    # flows (NIC-to-NIC connections) per leaf and level, for static ECMP hashing (ecmp_hash)
    n_ups: dict[int, np.ndarray] = field(default_factory=dict)
    n_downs: dict[int, np.ndarray] = field(default_factory=dict)


def route(fabric: Fabric, nics: Nics, src: np.ndarray, dst: np.ndarray, byts: np.ndarray) -> Loads:
    """Route flows between NIC records ``src`` -> ``dst`` carrying ``byts`` each."""
    return climb(fabric, meet(fabric, nics, src, dst, byts))


def meet(fabric: Fabric, nics: Nics, src: np.ndarray, dst: np.ndarray, byts: np.ndarray) -> Routed:
    """The flows' NIC-link bytes and, per leaf, the bytes bound for each meeting level."""
    n_links = len(fabric.topo.link_ids)
    up = np.bincount(nics.link[src], weights=byts, minlength=n_links)
    down = np.bincount(nics.link[dst], weights=byts, minlength=n_links)
    a, b = nics.leaf[src], nics.leaf[dst]
    level_of = np.where(a == b, 1, 0)
    for level in range(2, fabric.top + 1):
        lab = fabric.labels[level]
        joined = (level_of == 0) & (lab[a] == lab[b]) & (lab[a] >= 0)
        level_of[joined] = level
    unreachable = int((level_of == 0).sum())
    n = fabric.n
    ups: dict[int, np.ndarray] = {}
    downs: dict[int, np.ndarray] = {}
    n_ups: dict[int, np.ndarray] = {}
    n_downs: dict[int, np.ndarray] = {}
    for level in range(2, fabric.top + 1):
        m = level_of == level
        if m.any():
            ups[level] = np.bincount(a[m], weights=byts[m], minlength=n)
            downs[level] = np.bincount(b[m], weights=byts[m], minlength=n)
            n_ups[level] = np.bincount(a[m], minlength=n).astype(float)
            n_downs[level] = np.bincount(b[m], minlength=n).astype(float)
    return Routed(up, down, ups, downs, unreachable, n_ups, n_downs)


def climb(fabric: Fabric, routed: Routed, hashed: str | None = None) -> Loads:
    """The met flows up and down this fabric's live uplinks (ECMP, tier by tier): an ideal
    split, or with ``hashed`` ("mean" or "p95") static flow hashing (:func:`_climb`)."""
    up, down = routed.up.copy(), routed.down.copy()
    n_up = dict(routed.n_ups) if hashed else None
    n_down = dict(routed.n_downs) if hashed else None
    stuck_up = _climb(fabric, dict(routed.ups), up, n_up, hashed)
    stuck_down = _climb(fabric, dict(routed.downs), down, n_down, hashed)
    return Loads(up, down, routed.unreachable + stuck_up + stuck_down)


def meet_key(fabric: Fabric, nics: Nics) -> bytes:
    """A digest of what :func:`meet` depends on: the NIC records (links, leaves, rails,
    domains) and, per level, which leaves share a group (labels of the leaf switches renumbered
    in order of first appearance, so a failed switch that renames a group but splits nothing
    keeps the key). Over the ~2k leaves of an XL hall, not its ~131k NICs."""
    h = hashlib.blake2b(digest_size=16)
    for arr in (nics.link, nics.leaf, nics.group, nics.rail, nics.domain, nics.count):
        h.update(np.ascontiguousarray(arr).tobytes())
    leaves = np.flatnonzero(fabric.topo.level == 1)
    for level in range(2, fabric.top + 1):
        lab = fabric.labels[level][leaves]
        _, first, canon = np.unique(lab, return_index=True, return_inverse=True)
        rank = np.empty(len(first), dtype=np.int64)
        rank[np.argsort(first)] = np.arange(len(first))
        named = np.where(lab >= 0, rank[canon.reshape(-1)], -1)
        h.update(level.to_bytes(2, "little") + named.tobytes())
    return h.digest()


def _climb(
    fabric: Fabric,
    carry: dict[int, np.ndarray],
    load: np.ndarray,
    flows: dict[int, np.ndarray] | None = None,
    hashed: str | None = None,
) -> int:
    """Add to ``load`` (bytes per link) the traffic at the leaves bound for level L
    (``carry[L]``), split equally over each switch's live uplinks tier by tier; return how many
    switches hold bytes with no uplink to take them.

    With ``flows`` (flows per leaf bound for level L) and ``hashed`` ("mean", "p95"), static
    ECMP: each switch's uplinks carry the fluid share times the collision ratio of its flows on
    its uplinks (:func:`ecmp_hash.collision_ratios`), the busiest uplink's expected (or 95th
    percentile) load; flows pass up a tier as a fluid count, as the bytes do."""
    stuck = 0
    for k in range(1, fabric.top):
        levels = [lv for lv in carry if lv > k]
        if not levels:
            break
        lower, upper, rows = fabric.uplinks[k]
        cnt = fabric.up_count[k]
        total = np.asarray(sum(carry[lv] for lv in levels), dtype=float)
        stuck += int(((total > 0) & (cnt == 0)).sum())
        share = np.divide(total, cnt, out=np.zeros_like(total), where=cnt > 0)
        if flows is not None and hashed:
            n_flows = np.asarray(sum(flows.get(lv, 0.0) for lv in levels), dtype=float)
            share = share * collision_ratios(np.where(share > 0, n_flows, 0.0), cnt, hashed)
        # only the uplinks of switches that carry bytes: a small job touches few of them
        sel = np.flatnonzero(share[lower] > 0)
        low, up_sel = lower[sel], upper[sel]
        load[rows[sel]] += share[low]
        nxt = {}
        nxt_flows = {}
        for lv in levels:
            if lv > k + 1:
                per = np.divide(carry[lv], cnt, out=np.zeros(fabric.n), where=cnt > 0)
                nxt[lv] = np.bincount(up_sel, weights=per[low], minlength=fabric.n)
                if flows is not None and lv in flows:
                    f = np.divide(flows[lv], cnt, out=np.zeros(fabric.n), where=cnt > 0)
                    nxt_flows[lv] = np.bincount(up_sel, weights=f[low], minlength=fabric.n)
        carry = nxt
        if flows is not None:
            flows = nxt_flows
    return stuck


def _next_group_same_rail(nics: Nics) -> np.ndarray:
    """Per (rail, domain) group, the next group of the same rail, cyclically."""
    g = len(nics.start)
    nxt = np.arange(1, g + 1)
    last = np.ones(g, dtype=bool)
    last[:-1] = nics.rail[1:] != nics.rail[:-1]
    first = np.ones(g, dtype=bool)
    first[1:] = nics.rail[1:] != nics.rail[:-1]
    first_of_rail = np.maximum.accumulate(np.where(first, np.arange(g), 0))
    nxt[last] = first_of_rail[last]
    return nxt


def _no_flows(fabric: Fabric) -> Routed:
    m = len(fabric.topo.link_ids)
    return Routed(np.zeros(m), np.zeros(m), {}, {}, 0)
