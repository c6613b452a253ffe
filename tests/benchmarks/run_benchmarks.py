"""``make bench``: run every ``bench_*.py`` stage in this folder and print one table.

Each ``bench_<area>.py`` defines ``run(report)`` and calls ``report.add(workload, stage, seconds,
peak_mb=None, target=None, note="")`` for each figure. Stages run in the order of their module
names. Benchmarks are measurements, not tests: they print figures and never fail on a target.
Each stage runs once per workload size in a fresh Python process (``--in-process`` runs them
all in this one), so a figure's peak memory is that workload's alone, not the sum of every
workload held in one process, and no stage's heap or caches weigh on the next.
Usage: ``python tests/benchmarks/run_benchmarks.py [--sizes S,L,XL] [--only AREA]``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))


@dataclass
class Report:
    sizes: tuple[str, ...]
    rows: list[tuple[str, str, float, float | None, str, str]] = field(default_factory=list)

    def add(
        self,
        workload: str,
        stage: str,
        seconds: float,
        peak_mb: float | None = None,
        target: str = "",
        note: str = "",
    ) -> None:
        self.rows.append((workload, stage, seconds, peak_mb, target, note))
        peak = f"{peak_mb:8.0f}" if peak_mb is not None else "       -"
        print(
            f"  {workload:4} {stage:44} {seconds * 1000:10.1f} ms {peak} MB  {target:10} {note}",
            flush=True,
        )


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far (Linux/macOS)."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="S,L,XL")
    parser.add_argument("--only", default="")
    parser.add_argument("--in-process", action="store_true", help="no process per stage")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sizes = tuple(s.strip() for s in args.sizes.split(",") if s.strip())
    if not args.child:
        print(
            f"Hallwright benchmarks — {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
            f"{time.strftime('%Y-%m-%d %H:%M')}"
        )
        print(f"  {'size':4} {'stage':44} {'time':>13} {'peak':>11}  {'target':10} note")
    for path in sorted(HERE.glob("bench_*.py")):
        if args.only and args.only not in path.stem:
            continue
        if args.child and path.stem != args.only:
            continue  # a child runs its one module (bench_editor is in bench_editor_structured)
        if args.in_process or args.child:
            module = importlib.import_module(f"tests.benchmarks.{path.stem}")
            module.run(Report(sizes))
            continue
        for size in sizes:
            command = [sys.executable, __file__, "--child", "--only", path.stem, "--sizes", size]
            subprocess.run(command, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
