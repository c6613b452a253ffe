"""Benchmark: save and load the reference workloads (targets for XL: save <= 2 s, load <= 3x a
bare decode of the same file with the GC off in a fresh process, measured in the same run)."""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec

from model.files.design_file import save_design
from tests.benchmarks.floors import bare_decode_s
from tests.benchmarks.run_benchmarks import peak_rss_mb
from tests.benchmarks.workloads import build

ROOT = Path(__file__).resolve().parents[2]
_LOAD = """
import sys, time
from model.files.design_file import load_design
t0 = time.perf_counter()
load_design(sys.argv[1])
print(time.perf_counter() - t0)
"""


def _load_in_fresh_process(path: Path) -> float:
    done = subprocess.run(
        [sys.executable, "-c", _LOAD, str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return float(done.stdout.strip())


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
            # Each load in a fresh process, as `main.py validate` runs it: in this process the
            # second load would first collect the first one's million objects.
            loads = [_load_in_fresh_process(path) for _ in range(3)]
            links = len(msgspec.json.decode(path.read_bytes())["links"])
            report.add(
                size,
                "file: load (parse, validate, build)",
                min(loads),
                peak_rss_mb(),
                "<= 3x floor" if size == "XL" else "",
                f"min {min(loads) * 1000:.0f} / median {statistics.median(loads) * 1000:.0f} ms "
                f"= {min(loads) / min(bare):.1f}x the bare decode; {links:,} links",
            )
