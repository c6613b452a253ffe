"""All-reduce time estimate for a job of G GPUs, and its curve as G grows.

The times follow NCCL's bus-bandwidth model with pipelined phases (see :mod:`collectives` for
the formulas of ``ring``, ``hierarchical`` and ``tree``): the NVLink and network phases overlap
and the narrowest per-rank bandwidth sets the time. Message M bytes (setting
``allreduce_message_mb``, MB = 10^6 bytes), bandwidths per direction from :mod:`bandwidth`.

Which tiers a job's traffic crosses comes from its placement (``collectives.RingPlacement``:
first N servers, by SU, by rack, or a list), so an oversubscribed tier slows only the jobs whose
rings cross it. Without a placement (callers that only have the per-GPU figures) a job is taken
to cross a tier once G exceeds the GPUs below one group of it (``Bandwidth.gpus_under``).

``layers`` gives each phase's time and its share of the all-reduce time (the phase that sets the
time has share 1; the other runs under it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from model.analysis.bandwidth import Bandwidth
from model.analysis.collectives import RingPlacement, job_scale_out, nccl_allreduce


@dataclass
class AllReduce:
    gpus: int
    algorithm: str
    message_mb: float
    time_s: float
    layers: dict[str, dict[str, float]]  # layer -> {"time_s", "share", "bandwidth_gbps"}
    scale_out_gbps: float  # per-GPU scale-out bandwidth this job sees
    busbw_gbps: float = 0.0  # nccl-tests bus bandwidth: algbw x 2(G-1)/G
    algbw_gbps: float = 0.0  # message / time
    limited_by: str = "none"  # the layer that sets the time
    placement: str = "first"
    tiers_crossed: list[str] = field(default_factory=list)


def scale_out_for(bw: Bandwidth, gpus: int, domain: int) -> tuple[str, float]:
    """Narrowest scale-out layer and its per-GPU bandwidth, by job size alone (no placement)."""
    if gpus <= domain:
        return "none", float("inf")
    best_name, best = "nic", bw.scale_out
    levels = {name: level for level, name in ((t.level, t.name) for t in bw.tiers.values())}
    for name, value in bw.layers[2:]:
        if gpus > bw.gpus_under.get(levels[name], 0) and value < best:
            best_name, best = name, value
    return best_name, best


def allreduce(
    bw: Bandwidth,
    gpus: int,
    domain: int,
    message_mb: float,
    algorithm: str,
    rings: RingPlacement | None = None,
    placement: str | list[str] = "first",
) -> AllReduce:
    g = max(int(gpus), 1)
    label = placement if isinstance(placement, str) else "list"
    if g == 1:
        return AllReduce(g, algorithm, message_mb, 0.0, {}, float("inf"), placement=label)
    crossed_names: list[str] = []
    if g <= domain:
        out_name, out = "none", float("inf")
    elif rings is not None:
        levels = rings.crossed(rings.job(g, placement))
        out_name, out = job_scale_out(bw, levels)
        crossed_names = [t.name for t in bw.tiers.values() if t.level in levels]
    else:
        out_name, out = scale_out_for(bw, g, domain)
    p = nccl_allreduce(message_mb * 1e6, g, domain, bw.scale_up, out, algorithm)
    layers: dict[str, dict[str, float]] = {}
    total = p.time_s
    if min(g, domain) > 1:
        layers["scale-up"] = _phase(p.t_up_s, total, bw.scale_up)
    if g > domain:
        layers[out_name] = _phase(p.t_out_s, total, out)
    limited = max(layers, key=lambda k: layers[k]["time_s"]) if layers else "none"
    return AllReduce(
        g,
        algorithm,
        message_mb,
        total,
        layers,
        out,
        busbw_gbps=p.busbw_gbps,
        algbw_gbps=p.algbw_gbps,
        limited_by=limited,
        placement=label,
        tiers_crossed=crossed_names,
    )


def _phase(t: float, total: float, gbps: float) -> dict[str, float]:
    return {"time_s": t, "share": t / total if total else 0.0, "bandwidth_gbps": gbps}


def curve(
    bw: Bandwidth,
    total_gpus: int,
    domain: int,
    message_mb: float,
    algorithm: str,
    rings: RingPlacement | None = None,
    placement: str | list[str] = "first",
) -> list[AllReduce]:
    """All-reduce from one scale-up domain to all GPUs, doubling (the last point = all GPUs)."""
    if total_gpus <= 0:
        return []
    points = []
    g = min(domain, total_gpus)
    while g < total_gpus:
        points.append(allreduce(bw, g, domain, message_mb, algorithm, rings, placement))
        g *= 2
    points.append(allreduce(bw, total_gpus, domain, message_mb, algorithm, rings, placement))
    return points


def knee(points: list[AllReduce]) -> str:
    """One sentence: from which job size the scale-out fabric sets the all-reduce time."""
    for p in points:
        if p.limited_by not in ("scale-up", "none"):
            layer = p.limited_by
            return (
                f"From {p.gpus:,} GPUs on, the scale-out fabric sets the all-reduce time "
                f"(limited by {'the NICs' if layer == 'nic' else 'the ' + layer + ' tier'}"
                f", {p.scale_out_gbps:,.0f} Gb/s per GPU)."
            )
    if points:
        return "The scale-up (NVLink) phase sets the time at every job size up to the whole hall."
    return "No GPUs, no all-reduce."


def job_context(design) -> tuple[Bandwidth, int, RingPlacement, int]:
    """(per-GPU bandwidths, scale-up domain, ring placement, GPUs) of a design, for job queries."""
    from model.analysis.bandwidth import bandwidth
    from model.analysis.topology import LINK_COMPUTE, components, infer_topology

    topo = infer_topology(design)
    n = len(topo.device_ids)
    compute = topo.kind == LINK_COMPUTE
    groups = {
        level: components(
            n, topo.a[compute], topo.b[compute], (topo.level >= 1) & (topo.level <= level)
        )
        for level in range(2, topo.top_level() + 1)
    }
    types = design.catalog.device_types
    domain = min(
        (
            types[d.type].gpus.scale_up_domain_gpus
            for d in design.devices.values()
            if types[d.type].gpu_count
        ),
        default=1,
    )
    total = int(topo.gpus.sum())
    return bandwidth(design, topo, groups), domain, RingPlacement(design, topo, groups), total


def job_allreduce(
    design,
    gpus: int,
    placement: str | list[str] = "first",
    algorithm: str | None = None,
    message_mb: float | None = None,
) -> AllReduce:
    """The all-reduce of one job of ``gpus`` GPUs placed on ``design`` (settings fill the rest)."""
    bw, domain, rings, _total = job_context(design)
    settings = design.settings
    return allreduce(
        bw,
        gpus,
        domain,
        settings.allreduce_message_mb if message_mb is None else message_mb,
        settings.allreduce_algorithm if algorithm is None else algorithm,
        rings,
        placement,
    )
