"""Commands a user waits for, each beside its floor measured in the same run, with the ratio.

* load (``validate``'s work: decode + checks + build) against a bare ``msgspec.json.decode``
  of the same bytes with GC off, in a fresh process (the floor of any loader);
* ``routes`` (every link's route, medium and reason, printed) against writing the same number
  of lines with ``csv.writer`` (the floor of any per-link text output).

Each figure is min / median of 3 runs in fresh processes (``python main.py ...``), so the
process start is in both the figure and its floor.
Usage: ``python tests/benchmarks/run_benchmarks.py --only commands --sizes S,L``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from model.fileio import save_design
from tests.benchmarks.run_benchmarks import Report
from tests.benchmarks.workloads import build

ROOT = Path(__file__).resolve().parents[2]
RUNS = 3
BARE_DECODE = (
    "import gc, sys, msgspec; data = open(sys.argv[1], 'rb').read(); gc.disable(); "
    "msgspec.json.decode(data)"
)
CSV_LINES = (
    "import csv, sys; w = csv.writer(sys.stdout); n = int(sys.argv[1]); "
    "[w.writerow(('link-%d' % i, 'a', 'b', 400, 3.5, 'dac-400g-3m', 'reason')) for i in range(n)]"
)


def _timed(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(args, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def _three(args: list[str]) -> list[float]:
    return [_timed(args) for _ in range(RUNS)]


def _add(report, size, stage, runs, floor, target) -> None:
    best, floor_best = min(runs), min(floor)
    report.add(
        size,
        stage,
        best,
        None,
        target=target if size == "XL" else "",
        note=f"min/median {best:.2f}/{statistics.median(runs):.2f} s; floor min/median "
        f"{floor_best:.2f}/{statistics.median(floor):.2f} s; ratio {best / floor_best:.1f}x",
    )


def run(report: Report) -> None:
    py = sys.executable
    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        design = build(size)
        links = len(design.links)
        with tempfile.TemporaryDirectory() as tmp:
            path = str(Path(tmp) / f"{size}.hall.json")
            save_design(design, path)
            del design
            load = _three([py, "main.py", "validate", path])
            decode = _three([py, "-c", BARE_DECODE, path])
            _add(report, size, "command: validate (load)", load, decode, "<= 3x floor")
            routes = _three([py, "main.py", "routes", path])
            lines = _three([py, "-c", CSV_LINES, str(5 * links)])
            _add(report, size, "command: routes", routes, lines, "<= 5 s")
