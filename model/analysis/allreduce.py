"""The report's collective figures: the default job's collectives, their curves, the sentences.

The default job is the largest the design holds (:func:`jobs.largest_job`); every collective of
:data:`collectives.COLLECTIVES` is estimated on it at the design's message size (setting
``allreduce_message_mb``, MB = 10^6 bytes) with the design's algorithm (setting
``allreduce_algorithm``, ``auto`` = NCCL's own choice). Each curve takes the first G GPUs in
topology order (or by rack, setting ``job_placement``), G doubling from one scale-up domain to
the default job, so the chart shows where the latency terms give way to the busiest link.
Files written before NCCL's algorithms replaced it say ``hierarchical``, which NCCL does not
implement: it is read as ``auto``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.analysis.collectives import COLLECTIVES, Collectives, Estimate
from model.catalog.components import scale_up_name


@dataclass
class CollectiveFigures:
    job: str
    gpus: int
    size_bytes: float
    algorithm: str  # as asked ("auto" = NCCL's choice)
    default: dict[str, Estimate]  # collective -> estimate on the default job
    curves: dict[str, list[Estimate]]  # collective -> estimates over job sizes
    knee: str
    one_gpu_hosts: bool = False  # every server of the job has one GPU: no scale-up fabric
    routing: str = ""  # Collectives.routing_words(): how bytes spread over equal-cost uplinks
    scale_up_name: str = "NVLink"  # the servers' scale-up technology (catalog scale_up_link)

    def to_json(self) -> dict:
        return {
            "job": self.job,
            "gpus": self.gpus,
            "size_bytes": self.size_bytes,
            "algorithm": self.algorithm,
            "default_job": {k: e.to_json() for k, e in self.default.items()},
            "curves": {
                k: [
                    {
                        "gpus": p.gpus,
                        "time_s": p.time_s,
                        "latency_s": p.latency_s,
                        "bandwidth_s": p.bandwidth_s,
                        "algorithm": p.algorithm,
                        "protocol": p.protocol,
                        "limited_by": p.limited_by,
                    }
                    for p in points
                ]
                for k, points in self.curves.items()
            },
            "knee": self.knee,
            "pxn": self.default["all-to-all"].pxn if "all-to-all" in self.default else "",
            "routing": self.routing,
            "bottleneck": bottleneck_sentence(self),
        }


def asked_algorithm(settings) -> str:
    algorithm = settings.allreduce_algorithm
    return "auto" if algorithm == "hierarchical" else algorithm


def collective_figures(c: Collectives, settings) -> CollectiveFigures | None:
    """Every collective on the default job and over job sizes (module docstring)."""
    job = c.default_job
    if job.gpus < 1:
        return None
    size = settings.allreduce_message_mb * 1e6
    algorithm = asked_algorithm(settings)
    default, curves = {}, {}
    for name in COLLECTIVES:
        algo = algorithm if name == "all-reduce" else "auto"
        default[name] = c.estimate(job, name, size, algo)
        curves[name] = c.curve(name, size, algo, settings.job_placement)
    one_gpu = bool(len(job.servers)) and bool((c.topo.gpus[job.servers] <= 1).all())
    types = c.design.catalog.device_types
    servers = np.flatnonzero(c.topo.is_gpu_server)
    tech = scale_up_name(
        types[t] for t in {c.design.devices[c.topo.device_ids[i]].type for i in servers}
    )
    return CollectiveFigures(
        job.label, job.gpus, size, algorithm, default, curves, knee(curves["all-reduce"], tech),
        one_gpu, c.routing_words(), tech,
    )  # fmt: skip


def knee(points: list[Estimate], tech: str = "NVLink") -> str:
    """One sentence: from which job size the links, not the latency, set the collective's time
    (the all-reduce's in the report; ``collective`` names its own)."""
    if not points:
        return "No GPUs, no collective."
    name = points[0].collective
    bound = [p for p in points if p.gpus > 1 and not p.latency_bound]
    if not bound:
        return f"NCCL's latency terms set the {name} time at every job size up to the job."
    first = bound[0]
    layer = tech if first.limited_by == "scale-up" else f"the {first.limited_by} links"
    net = next((p for p in bound if p.limited_by != "scale-up"), None)
    if net is not None and net is not first:
        layer += f", from {net.gpus:,} GPUs the {net.limited_by} links"
    if all(not p.latency_bound for p in points if p.gpus >= first.gpus):
        return f"From {first.gpus:,} GPUs on the {name} is bandwidth-bound ({layer})."
    return (
        f"At {first.gpus:,} GPUs the {name} is bandwidth-bound ({layer}); larger jobs "
        "turn latency-bound again (NCCL's per-step latency grows with the ranks)."
    )


def bottleneck_sentence(fig: CollectiveFigures | None) -> str:
    """The busiest links under the default job's all-reduce, named from the link loads; then
    the all-to-all's when other links limit it (an oversubscribed tier charges the all-to-all,
    not the ring); and, on hosts of one GPU, that there is no scale-up fabric."""
    if fig is None:
        return ""
    tech = fig.scale_up_name
    text = _limited(fig.default["all-reduce"], fig.job, tech)
    a2a = fig.default.get("all-to-all")
    ar = fig.default["all-reduce"]
    if a2a is not None and a2a.gpus > 1 and a2a.limited_by != ar.limited_by:
        text += " " + _limited(a2a, "same job", tech)[:-1] + f"; PXN {a2a.pxn}."
    if ar.routing == "ecmp-hash":
        text += (
            f" Static ECMP hashing ({fig.routing}): the expected busiest uplinks; at the 95th "
            f"percentile of the hashing the all-reduce takes {ar.time_p95_s * 1e3:,.2f} ms"
            + (f", the all-to-all {a2a.time_p95_s * 1e3:,.2f} ms." if a2a is not None else ".")
        )
    if fig.one_gpu_hosts:
        text += f" Each host has one GPU: no scale-up ({tech}) fabric, every byte uses its NIC."
    return text


def _limited(e: Estimate, job: str, tech: str = "NVLink") -> str:
    head = (
        f"{e.collective.capitalize()} of {e.size_bytes / 1e6:g} MB on the {job}: "
        f"{e.time_s * 1e3:,.2f} ms ({e.algorithm}, {e.protocol})"
    )
    if e.unreachable:
        return head + "; some of the job's GPUs cannot reach the others."
    bound = (
        ", latency-bound (NCCL's latencies exceed the transfer time); the busiest links"
        if e.latency_bound
        else ", limited by"
    )
    if e.limited_by == "scale-up":
        return head + f"{bound} {tech} (the scale-up bandwidth per GPU)."
    if e.limited_by == "none":
        return head + "."
    shown = ", ".join(e.bottleneck_links[:4])
    more = f" and {e.bottleneck_count - 4:,} more" if e.bottleneck_count > 4 else ""
    return head + f"{bound} the {e.limited_by} links {shown}{more} (equally busiest)."


def job_allreduce(
    design,
    gpus: int | None = None,
    placement: str = "first",
    algorithm: str | None = None,
    message_mb: float | None = None,
    protocol: str | None = None,
) -> Estimate:
    """The all-reduce of the first ``gpus`` GPUs of ``design`` (settings fill the rest)."""
    c = Collectives(design)
    settings = design.settings
    size = (settings.allreduce_message_mb if message_mb is None else message_mb) * 1e6
    algo = asked_algorithm(settings) if algorithm is None else algorithm
    return c.estimate(c.job(gpus, placement), "all-reduce", size, algo, protocol)
