"""Benchmark: save and load the reference workloads (targets for XL: save <= 2 s, load <= 3x a
bare decode of the same file with the GC off in a fresh process, measured in the same run)."""

from __future__ import annotations

import gc
import statistics
import tempfile
import time
from pathlib import Path

from model.fileio import load_design, save_design
from tests.benchmarks.floors import bare_decode_s
from tests.benchmarks.run_benchmarks import peak_rss_mb
from tests.benchmarks.workloads import build


def run(report) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for size in report.sizes:
            design = build(size)
            path = Path(folder) / f"{size}.hall.json"
            gc.collect()
            start = time.perf_counter()
            save_design(design, path)
            saved = time.perf_counter() - start
            del design
            gc.collect()
            mb = path.stat().st_size / 1e6
            report.add(
                size,
                "file: save (atomic)",
                saved,
                peak_rss_mb(),
                "<= 2 s" if size == "XL" else "",
                f"{mb:.1f} MB",
            )
            bare = bare_decode_s(path)
            report.add(
                size,
                "file: bare decode (floor: fresh process, GC off)",
                min(bare),
                peak_rss_mb(),
                note=f"min {min(bare) * 1000:.0f} / median {statistics.median(bare) * 1000:.0f} ms",
            )
            loads = []
            for _ in range(3):
                gc.collect()
                start = time.perf_counter()
                loaded = load_design(path)
                loads.append(time.perf_counter() - start)
                links = len(loaded.links)
                del loaded
            report.add(
                size,
                "file: load (parse, validate, build)",
                min(loads),
                peak_rss_mb(),
                "<= 3x floor" if size == "XL" else "",
                f"min {min(loads) * 1000:.0f} / median {statistics.median(loads) * 1000:.0f} ms "
                f"= {min(loads) / min(bare):.1f}x the bare decode; {links:,} links",
            )
