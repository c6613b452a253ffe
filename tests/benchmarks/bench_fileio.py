"""Benchmark: save and load the reference workloads (targets for XL: save <= 2 s, load <= 2 s
and <= 2x a bare JSON parse of the same file)."""

from __future__ import annotations

import gc
import tempfile
import time
from pathlib import Path

import msgspec

from model.fileio import load_design, save_design
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
            data = path.read_bytes()
            start = time.perf_counter()
            msgspec.json.decode(data)
            bare = time.perf_counter() - start
            report.add(size, "file: bare JSON parse (msgspec, untyped)", bare, peak_rss_mb())
            del data
            gc.collect()
            start = time.perf_counter()
            loaded = load_design(path)
            seconds = time.perf_counter() - start
            report.add(
                size,
                "file: load (parse, validate, build)",
                seconds,
                peak_rss_mb(),
                "<= 2 s, 2x" if size == "XL" else "",
                f"{seconds / bare:.1f}x the bare parse; {len(loaded.links):,} links",
            )
            del loaded
