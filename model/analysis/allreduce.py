"""All-reduce time estimate for a job of G GPUs, and its curve as G grows.

Bandwidth-only model (no latency term), message M bytes (setting ``allreduce_message_mb``,
MB = 10^6 bytes), per-GPU bandwidths per direction from :mod:`bandwidth`:

* ``ring``: a flat ring over all G GPUs moves 2 (G-1)/G x M per GPU and runs at the pace of its
  slowest layer: t = 2 (G-1)/G x M / B, B = the narrowest layer the job spans. The whole time is
  attributed to that layer.
* ``hierarchical``: with d = min(G, scale-up domain) GPUs per domain and n = G/d domains,
  reduce-scatter inside the domain ((d-1)/d x M over NVLink), all-reduce of the M/d shard across
  domains (2 (n-1)/n x M/d over the scale-out fabric), all-gather inside ((d-1)/d x M over
  NVLink). The time of each phase is given and its share of the total.

A job spans the NIC once G exceeds one scale-up domain, and a switch tier's oversubscription
once G exceeds the GPUs below one group of that tier (see ``Bandwidth.gpus_under``).
"""

from __future__ import annotations

from dataclasses import dataclass

from model.analysis.bandwidth import Bandwidth


@dataclass
class AllReduce:
    gpus: int
    algorithm: str
    message_mb: float
    time_s: float
    layers: dict[str, dict[str, float]]  # layer -> {"time_s", "share", "bandwidth_gbps"}
    scale_out_gbps: float  # per-GPU scale-out bandwidth this job sees


def scale_out_for(bw: Bandwidth, gpus: int, domain: int) -> tuple[str, float]:
    """Narrowest scale-out layer and its per-GPU bandwidth for a job of ``gpus`` GPUs."""
    if gpus <= domain:
        return "none", float("inf")
    best_name, best = "nic", bw.scale_out
    levels = {name: level for level, name in ((t.level, t.name) for t in bw.tiers.values())}
    for name, value in bw.layers[2:]:
        if gpus > bw.gpus_under.get(levels[name], 0) and value < best:
            best_name, best = name, value
    return best_name, best


def allreduce(
    bw: Bandwidth, gpus: int, domain: int, message_mb: float, algorithm: str
) -> AllReduce:
    bits = message_mb * 8e6
    g = max(int(gpus), 1)
    up = bw.scale_up
    out_name, out = scale_out_for(bw, g, domain)
    layers: dict[str, dict[str, float]] = {}
    if g == 1:
        return AllReduce(g, algorithm, message_mb, 0.0, {}, out)
    if algorithm == "ring":
        if out < up:
            name, rate = out_name, out
        else:
            name, rate = "scale-up", up
        t = _secs(2 * (g - 1) / g * bits, rate)
        layers[name] = {"time_s": t, "share": 1.0, "bandwidth_gbps": rate}
        return AllReduce(g, algorithm, message_mb, t, layers, out)
    d = min(g, domain)
    n = g / d
    t_up = _secs(2 * (d - 1) / d * bits, up) if d > 1 else 0.0
    t_out = _secs(2 * (n - 1) / n * bits / d, out) if n > 1 else 0.0
    total = t_up + t_out
    if t_up or d > 1:
        layers["scale-up"] = {
            "time_s": t_up,
            "share": t_up / total if total else 0.0,
            "bandwidth_gbps": up,
        }
    if n > 1:
        layers[out_name] = {
            "time_s": t_out,
            "share": t_out / total if total else 0.0,
            "bandwidth_gbps": out,
        }
    return AllReduce(g, algorithm, message_mb, total, layers, out)


def curve(
    bw: Bandwidth, total_gpus: int, domain: int, message_mb: float, algorithm: str
) -> list[AllReduce]:
    """All-reduce from one scale-up domain to all GPUs, doubling (the last point = all GPUs)."""
    if total_gpus <= 0:
        return []
    points = []
    g = min(domain, total_gpus)
    while g < total_gpus:
        points.append(allreduce(bw, g, domain, message_mb, algorithm))
        g *= 2
    points.append(allreduce(bw, total_gpus, domain, message_mb, algorithm))
    return points


def knee(points: list[AllReduce]) -> str:
    """One sentence: from which job size the scale-out fabric dominates the all-reduce."""
    for p in points:
        shares = {k: v["share"] for k, v in p.layers.items() if k != "scale-up"}
        if shares and sum(shares.values()) > 0.5:
            layer = max(shares, key=shares.get)
            return (
                f"From {p.gpus:,} GPUs on, most of each all-reduce is spent on the scale-out "
                f"fabric (limited by {'the NICs' if layer == 'nic' else 'the ' + layer + ' tier'}"
                f", {p.scale_out_gbps:,.0f} Gb/s per GPU)."
            )
    if points:
        return "The scale-up (NVLink) phase dominates at every job size up to the whole hall."
    return "No GPUs, no all-reduce."


def _secs(bits: float, gbps: float) -> float:
    if gbps <= 0:
        return float("inf")
    if gbps == float("inf"):
        return 0.0
    return bits / (gbps * 1e9)
