"""The placement optimiser on the S, L, XL workloads: candidate moves priced per second, and a
whole run with the improvement it found, each beside its floor.

* ``optimise: moves priced``: :func:`model.optimise.search.anneal` for a fixed time budget
  (``BUDGET_S``); the figure is the time per candidate move (edit, incremental re-route,
  plant, forecast and limits priced). Target at XL: >= 200 moves per second (<= 5 ms each).
  Floor: one ``RoutedLinks.refresh()`` with nothing changed plus one pricing of the unchanged
  plant, measured in the same run (what any candidate costs before it moves anything).
* ``optimise: whole run``: :func:`model.optimise.optimise.optimise` with its default 300
  iterations (L: target <= 60 s); the note gives what it found (cost, optics kW, copper share).

Usage: ``python tests/benchmarks/run_benchmarks.py --only optimise --sizes S,L,XL``.
"""

from __future__ import annotations

import gc
import time

from tests.benchmarks.run_benchmarks import Report, peak_rss_mb

BUDGET_S = 20.0
RUN_ITERATIONS = 300


def run(report: Report) -> None:
    from model.engine.routed_links import RoutedLinks
    from model.optimise.objective import DEFAULT_WEIGHTS, Pricer
    from model.optimise.optimise import optimise
    from model.optimise.search import anneal
    from tests.benchmarks.workloads import build

    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        design = build(size)
        plant = RoutedLinks(design)
        pricer = Pricer(design, plant)
        # The first pricing builds the pricer's and the plant's caches (at XL ~0.13 s, more than
        # a move): the floor is the median of warm ones, what any candidate pays before it moves.
        pricer.price(plant.refresh())
        floors = []
        for _ in range(5):
            t0 = time.perf_counter()
            pricer.price(plant.refresh())
            floors.append(time.perf_counter() - t0)
        floor = sorted(floors)[len(floors) // 2]
        del pricer  # the run prices with its own: two pricers' caches were ~150 MB more at XL
        t0, c0 = time.perf_counter(), time.process_time()
        done = anneal(design, plant, DEFAULT_WEIGHTS, 10**9, seed=0, locked=set(), seconds=BUDGET_S)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        plant.close()
        per_move = seconds / max(done.iterations, 1)
        report.add(
            size,
            "optimise: one candidate move priced",
            per_move,
            peak_rss_mb(),
            target="<= 5 ms" if size == "XL" else "",
            note=f"{done.iterations / seconds:,.0f} moves/s ({done.feasible} feasible) in"
            f" {seconds:.1f} s, cpu {cpu:.1f} s; floor (refresh + price, no change)"
            f" {floor * 1000:.1f} ms",
        )
        # One design at a time: the peak printed is the process's high-water mark (ru_maxrss),
        # so a row never reads lower than one before it; with one design alive it is set by
        # one design, not two (XL: 1.0 GB for one, 1.9-2.3 GB with two alive).
        del design, plant, done
        gc.collect()
        design = build(size)
        t0, c0 = time.perf_counter(), time.process_time()
        result = optimise(design, DEFAULT_WEIGHTS, iterations=RUN_ITERATIONS, seed=0)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        report.add(
            size,
            f"optimise: whole run ({RUN_ITERATIONS} moves)",
            seconds,
            peak_rss_mb(),
            target="<= 60 s" if size == "L" else "",
            note=f"cpu {cpu:.1f} s; {_found(result)}",
        )
        if size == "XL":
            # The "a 60 s run improves the XL hall": its network racks stand in rows
            # full of their servers, so their short moves are slides, which move compute racks
            # and so need the user's --swap-compute.
            del design, result
            gc.collect()
            design = build(size)
            t0, c0 = time.perf_counter(), time.process_time()
            result = optimise(
                design, DEFAULT_WEIGHTS, iterations=10**9, seed=0, seconds=60, swap_compute=True
            )
            seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
            report.add(
                size,
                "optimise: 60 s run, --swap-compute",
                seconds,
                peak_rss_mb(),
                target="improves",
                note=f"cpu {cpu:.1f} s; {_found(result)}",
            )
        del design, result  # not alive while the next size is built
        gc.collect()


def _found(result) -> str:
    """What a run found, in the note's words."""
    if not result.changed:
        return "no improving move"
    t = result.report["terms"]
    share = result.report["copper_share"]
    return (
        f"{len(result.report['moved'])} racks moved, {t['cost_usd']['delta']:+,.0f} USD,"
        f" {t['optics_power_w']['delta'] / 1000:+.2f} kW optics, copper share"
        f" {share['before']:.1%} -> {share['after']:.1%}"
    )
