"""Minimum-cut bisection and ``whatif --n-1`` of the S, L, XL workloads, each beside its floor.

* ``min-cut bisection``: :func:`model.analysis.min_cut.min_bisection` on the design's topology
  (every candidate halves evaluated, the cut of the best found). Floor: one tier evaluation of
  one pair of halves (the old fixed left/right bisection), measured in the same run: the
  minimum evaluates several.
* ``whatif --n-1``: ``python main.py whatif FILE --n-1 --json`` in a fresh process, load
  included, each case with the all-reduce of the largest job that still runs; its CPU seconds
  beside the wall time. Floor: the process start and the load (``main.py validate``) plus, for every case
  the ranking evaluated, the surviving topology and its islands alone (the least any answer to
  "what does this failure split" must compute), measured in this process.

Usage: ``python tests/benchmarks/run_benchmarks.py --only cuts --sizes S,L,XL``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.benchmarks.run_benchmarks import Report, peak_rss_mb

ROOT = Path(__file__).resolve().parents[2]


def _timed_command(args: list[str]) -> tuple[float, float]:
    """(wall s, CPU s: user + system of the child) of one ``main.py`` command: on a loaded
    machine the CPU seconds say what the command costs, the wall what a user waits."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=ROOT,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def run(report: Report) -> None:
    from model.analysis.bisection import tier_bisection
    from model.analysis.islands import islands
    from model.analysis.min_cut import MinCut
    from model.analysis.n_minus_one import n_minus_one
    from model.analysis.topology import infer_topology
    from model.analysis.whatif import WhatIf, surviving
    from model.files.design_file import save_design
    from tests.benchmarks.workloads import build

    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        design = build(size)
        topo = infer_topology(design)
        t0, c0 = time.perf_counter(), time.process_time()
        mc = MinCut(topo)
        bis = mc.bisection(design)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        t0 = time.perf_counter()
        tier_bisection(topo, bis.half_a, bis.half_b)
        floor = time.perf_counter() - t0
        report.add(
            size,
            "min-cut bisection",
            seconds,
            peak_rss_mb(),
            target="<= 2 s" if size == "XL" else "",
            note=f"cpu {cpu:.2f} s; floor (one tier evaluation) {floor:.2f} s; "
            f"{bis.gbps:,.0f} Gb/s by {bis.method} over {len(bis.candidates)} halves, "
            f"minimum: {bis.cut}; {len(bis.cut_links):,} links cut",
        )

        whatif = WhatIf(design, topo=topo)
        ranking = n_minus_one(whatif)
        cases = [t["ranking"] for t in ranking["tiers"]]
        ids = [r["id"] for rows in cases for r in rows]
        t0 = time.perf_counter()
        for oid in ids:
            islands(surviving(topo, whatif.resolve([oid])))
        partition_floor = time.perf_counter() - t0
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"{size}.hall.json"
            save_design(design, path)
            load, _ = _timed_command(["validate", str(path)])
            n1, n1_cpu = _timed_command(["whatif", str(path), "--n-1", "--json"])
        floor = load + partition_floor
        report.add(
            size,
            "command: whatif --n-1",
            n1,
            None,
            target="<= 15 s" if size == "XL" else "",
            note=f"cpu {n1_cpu:.2f} s; floor (load {load:.2f} s + {len(ids)} partitions "
            f"{partition_floor:.2f} s) "
            f"{floor:.2f} s; ratio {n1 / floor:.1f}x",
        )
        del design, topo, whatif, mc
