"""Benchmark: generate and place the S, L and XL reference workloads (target XL <= 15 s, <= 2 GB)."""

from __future__ import annotations

import gc
import time

from tests.benchmarks.run_benchmarks import peak_rss_mb
from tests.benchmarks.workloads import build


def run(report) -> None:
    for size in report.sizes:
        gc.collect()
        start = time.perf_counter()
        design = build(size)
        seconds = time.perf_counter() - start
        note = (
            f"{len(design.links):,} links, {len(design.racks):,} racks, {design.gpu_count():,} GPUs"
        )
        report.add(
            size,
            "generate + place",
            seconds,
            peak_rss_mb(),
            "<= 15 s, 2 GB" if size == "XL" else "",
            note,
        )
        del design
