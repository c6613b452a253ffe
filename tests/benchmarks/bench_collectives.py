"""Collectives benchmark: one collective estimate for the whole-hall job at S, L and XL
(DESIGN.md: <= 1 s at XL), from the topology to the answer, beside its floor.

Floor: one ``np.bincount`` of one weight per NIC into the links, i.e. summing one ring hop per
NIC once over the link table, measured in the same run: no estimate that loads every link can
beat it. The estimate does this for the ring, the trees and the climb through each tier.
"""

from __future__ import annotations

import time

import numpy as np

from tests.benchmarks.run_benchmarks import Report, peak_rss_mb


def run(report: Report) -> None:
    from model.analysis.allreduce import collective_figures
    from model.analysis.collectives import Collectives
    from model.analysis.topology import infer_topology
    from tests.benchmarks.workloads import build

    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        design = build(size)
        topo = infer_topology(design)
        t0, c0 = time.perf_counter(), time.process_time()
        c = Collectives(design, topo)
        job = c.default_job
        e = c.estimate(job, "all-reduce", 2**30)
        whole, cpu = time.perf_counter() - t0, time.process_time() - c0
        t0 = time.perf_counter()
        a2a = c.estimate(job, "all-to-all", 2**30)
        alltoall = time.perf_counter() - t0
        rows = c.fabric.nic_link[job.servers].reshape(-1)
        rows = rows[rows >= 0]
        weights = np.ones(len(rows))
        floors = []
        for _ in range(5):
            t1 = time.perf_counter()
            np.bincount(rows, weights=weights, minlength=len(topo.link_ids))
            floors.append(time.perf_counter() - t1)
        floor = sorted(floors)[2]
        report.add(
            size,
            "collective: whole-hall all-reduce estimate",
            whole,
            peak_rss_mb(),
            target="<= 1 s" if size == "XL" else "",
            note=f"cpu {cpu * 1000:.0f} ms; {job.gpus:,} GPUs, {e.algorithm}/{e.protocol} {e.time_s * 1e3:.2f} ms, "
            f"busiest {e.limited_by}; floor {floor * 1000:.2f} ms (one bincount per NIC)",
        )
        report.add(
            size,
            "collective: whole-hall all-to-all (same fabric)",
            alltoall,
            peak_rss_mb(),
            note=f"{a2a.time_s * 1e3:.1f} ms, busiest {a2a.limited_by}",
        )
        t0, c0 = time.perf_counter(), time.process_time()
        collective_figures(Collectives(design, topo), design.settings)
        report.add(
            size,
            "collective: report figures (5 collectives, curves)",
            time.perf_counter() - t0,
            peak_rss_mb(),
            note=f"cpu {(time.process_time() - c0) * 1000:.0f} ms; what a full analysis adds "
            "when the topology changed",
        )
