"""Per-switch and per-tier oversubscription, per-GPU bandwidth at each layer, the bottleneck.

All bandwidths are Gb/s per direction.

* Oversubscription of a switch = downlink capacity / uplink capacity (1.0 = non-blocking), for
  switches below the top level; a top-level switch has no uplinks by definition. A switch below
  the top with downlinks and no uplink has infinite oversubscription.
* Oversubscription of a tier = the **largest** ratio among its switches (the worst switch: a job
  placed under it sees that ratio, and on generated fabrics every switch of a tier is alike). The
  capacity-weighted ratio (sum down / sum up) is reported beside it as ``weighted``.
* Per GPU: ``scale_up`` = the catalog's NVLink bandwidth per GPU (smallest over the servers
  that have NVLink). A server without NVLink (scale-up bandwidth 0, e.g. a 1-GPU host) has no
  scale-up layer: when no server has one, the layers start at the NIC and ``scale_up`` is 0;
  ``nic`` = a server's cabled compute capacity (each link at the slower end's speed) / its GPUs
  (smallest over the servers with compute links); after each tier below the top the NIC figure
  is divided by that tier's oversubscription (ratios below 1 do not add bandwidth).
  ``effective`` is the smallest layer, the bottleneck (ties go to the lower layer). The
  explanation says why a design without NVLink has no scale-up layer (1-GPU hosts: none to have).
  This is the static per-layer figure; which links a collective actually saturates is the
  collectives' answer from link loads (:func:`model.analysis.allreduce.bottleneck_sentence`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from model.analysis.topology import LINK_COMPUTE, Topology, tier_name
from model.catalog.components import scale_up_name
from model.common.arrays import unique_sorted
from model.design.design import Design


@dataclass
class TierRatio:
    level: int
    name: str
    max: float
    weighted: float
    switches: int


@dataclass
class Bandwidth:
    switch_ratio: np.ndarray  # per device; nan where not applicable
    tiers: dict[str, TierRatio]  # oversubscribed tiers (below the top)
    layers: list[tuple[str, float]]  # (layer, Gb/s per GPU) from scale-up outwards
    scale_up: float
    scale_out: float
    effective: float
    bottleneck: str
    explanation: str
    slow_server_links: int  # server compute links below the NIC's port speed
    gpus_under: dict[int, int] = field(default_factory=dict)  # level -> GPUs below one group
    scale_up_name: str = "NVLink"  # the servers' scale-up technology (catalog scale_up_link)


def bandwidth(design: Design, topo: Topology, group_labels: dict[int, np.ndarray]) -> Bandwidth:
    n = len(topo.device_ids)
    top = topo.top_level()
    ratio = np.full(n, np.nan)
    below_top = (topo.level >= 1) & (topo.level < top)
    with_down = below_top & (topo.down_gbps > 0)
    ratio[with_down] = np.divide(
        topo.down_gbps[with_down],
        topo.up_gbps[with_down],
        out=np.full(int(with_down.sum()), np.inf),
        where=topo.up_gbps[with_down] > 0,
    )
    tiers: dict[str, TierRatio] = {}
    for level in range(1, top):
        members = np.flatnonzero((topo.level == level) & with_down)
        if not len(members):
            continue
        up = topo.up_gbps[members].sum()
        weighted = float(topo.down_gbps[members].sum() / up) if up > 0 else float("inf")
        tiers[tier_name(level)] = TierRatio(
            level, tier_name(level), float(ratio[members].max()), weighted, len(members)
        )

    types = design.catalog.device_types
    servers = np.flatnonzero(topo.is_gpu_server)
    scale_up_values = [
        gpus.scale_up_gbps_per_gpu
        if (gpus := types[design.devices[topo.device_ids[i]].type].gpus) is not None
        else 0.0
        for i in servers
    ]
    server_types = {design.devices[topo.device_ids[i]].type for i in servers}
    tech = scale_up_name(types[t] for t in server_types)
    # A server without NVLink has no scale-up tier to be narrow: it is no 0 Gb/s layer.
    with_nvlink = [v for v in scale_up_values if v > 0]
    scale_up = float(min(with_nvlink)) if with_nvlink else 0.0
    compute = topo.kind == LINK_COMPUTE
    la, lb = topo.level[topo.a], topo.level[topo.b]
    server_links = compute & (((la == 0) & (lb >= 1)) | ((lb == 0) & (la >= 1)))
    per_server = np.zeros(n)
    srv = np.where(la == 0, topo.a, topo.b)[server_links]
    np.add.at(per_server, srv, topo.capacity[server_links])
    port_speed = np.where(la == 0, topo.speed_a, topo.speed_b)
    slow = int((server_links & (topo.capacity < port_speed)).sum())
    cabled = servers[per_server[servers] > 0]
    nic = float((per_server[cabled] / topo.gpus[cabled]).min()) if len(cabled) else 0.0

    layers: list[tuple[str, float]] = [("scale-up", scale_up)] if with_nvlink else []
    layers.append(("nic", nic))
    value = nic
    for tier in sorted(tiers.values(), key=lambda t: t.level):
        value = value / max(1.0, tier.max)
        layers.append((tier.name, value))
    effective = min(v for _, v in layers) if servers.size else 0.0
    bottleneck = (
        next(name for name, v in layers if v <= effective * (1 + 1e-12)) if servers.size else "none"
    )
    return Bandwidth(
        ratio,
        tiers,
        layers,
        scale_up,
        nic,
        effective,
        bottleneck,
        _explain(layers, bottleneck, effective, tiers, slow, _no_scale_up(topo, servers), tech),
        slow,
        _gpus_under(topo, group_labels),
        tech,
    )


def _fmt(gbps: float) -> str:
    return f"{gbps:,.0f} Gb/s" if gbps >= 100 else f"{gbps:,.1f} Gb/s"


def _no_scale_up(topo: Topology, servers: np.ndarray) -> str:
    """Why the layers start at the NIC when no server has NVLink ("" when some server does)."""
    if not servers.size:
        return ""
    if (topo.gpus[servers] <= 1).all():
        return (
            "each host has one GPU, so there is no scale-up fabric: the NIC is every GPU's "
            "only path to another"
        )
    return (
        "the servers have no scale-up links (NVLink, UALink), so there is no scale-up fabric "
        "between their GPUs"
    )


def _explain(layers, bottleneck, effective, tiers, slow, no_scale_up="", tech="NVLink") -> str:
    if bottleneck == "none":
        return "The design has no GPU servers, so there is no per-GPU bandwidth to limit."
    others = ", ".join(
        f"{_label(name, tech)} {_fmt(v)}" for name, v in layers if name != bottleneck
    )
    if bottleneck == "scale-up":
        head = f"{tech} (scale-up) is the narrowest layer at {_fmt(effective)} per GPU"
    elif bottleneck == "nic" and effective == 0:
        head = "No GPU server has a cabled compute NIC, so there is no scale-out bandwidth"
    elif bottleneck == "nic":
        head = f"The scale-out NICs are the narrowest layer at {_fmt(effective)} per GPU"
        if slow:
            head += (
                f" ({slow} server link{'s' if slow != 1 else ''} run below the NIC's port "
                "speed because the far end is slower)"
            )
    else:
        t = tiers[bottleneck]
        ratio = "no uplinks" if t.max == float("inf") else f"{t.max:.2f}:1 oversubscription"
        # Only the bytes that cross the tier pay its ratio: all of an all-to-all's that leave
        # the group, a few hops of a topology-ordered ring (the collectives' link loads).
        head = (
            f"The {bottleneck} tier's {ratio} leaves {_fmt(effective)} per GPU for traffic "
            "that crosses it (what an all-to-all across its groups gets; a topology-ordered "
            "ring crosses it a few hops only)"
        )
    text = f"{head} (per direction; {others})." if others else f"{head} (per direction)."
    has_nvlink = any(name == "scale-up" for name, _ in layers)
    return f"{text} No scale-up layer: {no_scale_up}." if no_scale_up and not has_nvlink else text


def _label(name: str, tech: str = "NVLink") -> str:
    return {"scale-up": tech, "nic": "NIC"}.get(name, f"after {name}")


def _gpus_under(topo: Topology, group_labels: dict[int, np.ndarray]) -> dict[int, int]:
    """Per switch level k: the fewest GPUs below one level-k group that has GPU servers.

    A job no larger than this fits below one group and never crosses its uplinks.
    """
    compute = topo.kind == LINK_COMPUTE
    la, lb = topo.level[topo.a], topo.level[topo.b]
    edge = compute & (((la == 0) & (lb == 1)) | ((lb == 0) & (la == 1)))
    srv = np.where(la == 0, topo.a, topo.b)[edge]
    leaf = np.where(la == 0, topo.b, topo.a)[edge]
    out: dict[int, int] = {}
    for level in range(1, topo.top_level() + 1):
        group = leaf if level == 1 else group_labels[level][leaf]
        if not len(srv):
            continue
        n = len(topo.device_ids)
        pairs = unique_sorted(group * n + srv)  # each server once per group
        totals = np.bincount(pairs // n, weights=topo.gpus[pairs % n])
        present = unique_sorted(pairs // n)
        out[level] = int(totals[present].min())
    return out
