"""K equal jobs on the floor running one collective at once: the busiest link under their sum.

The default job's servers, in topology order, are cut into K runs of equal size (contiguous
placement, as a scheduler hands out whole SUs when it can; the remainder runs nothing). Each job
runs the collective with the algorithm and protocol NCCL picks for it alone; its link loads
(:mod:`link_loads`, under the design's routing) are scaled to bytes per byte of S and added
link by link over the K jobs, and the time is the busiest link of the sum (or a job's NVLink,
which no other job shares) plus NCCL's latency of one job.

Where jobs share links is then what the loads say: in a Clos every link has a leaf (or a
server) at one end, so jobs that each hold whole leaf groups (SUs, pods) share no link and do
not slow each other whatever the oversubscription; jobs whose boundary cuts through an SU share
that SU's leaf uplinks, and an all-to-all across SUs then pays for both jobs' bytes on them.
Under ``ecmp-hash`` each job's expected busiest uplinks are summed, which is above the
expectation of the sum's maximum where two jobs hash onto one switch (an upper bound there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from model.analysis import nccl_tuning as nt
from model.analysis.collectives import TOP_LINKS, Collectives, Estimate
from model.analysis.jobs import Job
from model.analysis.link_loads import Loads


@dataclass
class Concurrent:
    """K jobs at once against one of them alone."""

    jobs: int
    alone: Estimate  # the first job, the others idle
    together: Estimate  # every job at once: the time of each (equal jobs)
    labels: list[str]

    @property
    def slowdown(self) -> float:
        return self.together.time_s / self.alone.time_s if self.alone.time_s > 0 else 1.0

    def to_json(self) -> dict:
        return {
            "jobs": self.jobs,
            "job_labels": self.labels,
            "alone": self.alone.to_json(),
            "together": self.together.to_json(),
            "slowdown": self.slowdown,
        }


def split_jobs(c: Collectives, k: int) -> list[Job]:
    """The default job cut into ``k`` contiguous runs of equal server count, topology order."""
    whole = c.default_job
    servers = whole.servers
    if not 1 <= k <= max(len(servers), 1):
        raise ValueError(f"--jobs must be between 1 and {len(servers):,} (the job's servers)")
    size = len(servers) // k
    gpus = c.topo.gpus
    out = []
    for i in range(k):
        part = servers[i * size : (i + 1) * size]
        g = int(gpus[part].sum())
        out.append(Job(f"job {i + 1} of {k} ({g:,} GPUs)", part, g))
    return out


def concurrent(
    c: Collectives, k: int, collective: str, size_bytes: float, algorithm: str = "auto"
) -> Concurrent:
    """``k`` equal jobs running ``collective`` of ``size_bytes`` at once (module docstring)."""
    jobs = split_jobs(c, k)
    alone = c.estimate(jobs[0], collective, size_bytes, algorithm)
    if alone.algorithm == "none":
        return Concurrent(k, alone, alone, [j.label for j in jobs])
    algo, proto = alone.algorithm, alone.protocol
    times = {}
    for q in ("mean", "p95") if c.hashed else ("mean",):
        times[q] = _together(c, jobs, collective, algo, q)
    wire_s, layer, rows = times["mean"]
    nodes = alone.nodes
    bw_s = nt.protocol_time_s(
        collective, algo, proto, wire_s * size_bytes, size_bytes, alone.gpus, nodes,
        c.generation,
    )  # fmt: skip
    t = alone.latency_s + bw_s
    t95 = t
    if c.hashed:
        t95 = alone.latency_s + nt.protocol_time_s(
            collective, algo, proto, times["p95"][0] * size_bytes, size_bytes, alone.gpus,
            nodes, c.generation,
        )  # fmt: skip
    ids = [c.topo.link_ids[r] for r in rows[:TOP_LINKS].tolist()]
    together = Estimate(
        collective, f"{k} jobs of {alone.gpus:,} GPUs at once", alone.gpus, nodes, size_bytes,
        algo, proto, t, alone.latency_s, bw_s, layer, ids, len(rows), not math.isfinite(t),
        c.pxn_mode, c.routing, t95,
    )  # fmt: skip
    return Concurrent(k, alone, together, [j.label for j in jobs])


def _together(c: Collectives, jobs: list[Job], collective: str, algo: str, q: str):
    """(seconds per byte of S of the busiest link under every job's bytes, its layer, rows)."""
    n_links = len(c.topo.link_ids)
    up, down = np.zeros(n_links), np.zeros(n_links)
    unreachable, nv_t = 0, 0.0
    for job in jobs:
        nv, name, factor = c.wire_parts(job, collective, algo)
        nv_t = max(nv_t, nv)
        if name is not None:
            loads = c.pattern_loads(job, name, q)
            up += factor * loads.up
            down += factor * loads.down
            unreachable += loads.unreachable
    net_t, rows = Loads(up, down, unreachable).busiest(c.topo.capacity)
    if unreachable:
        net_t = math.inf
    if nv_t >= net_t:
        return nv_t, "scale-up", np.zeros(0, dtype=np.int64)
    return net_t, c.topo.link_tier[int(rows[0])], rows
