"""Analysis benchmark: full analysis of the S, L, XL reference workloads, and the live refresh
after moving one rack (route + media + analysis together).

Uses ``tests.benchmarks.workloads.build`` (the generators' reference halls) and the geometry
engine's ``RoutedLinks``; until both are on the branch it reports what it waits for.
"""

from __future__ import annotations

import time

from tests.benchmarks.run_benchmarks import Report, peak_rss_mb


def run(report: Report) -> None:
    try:
        from model.engine.routed_links import RoutedLinks
        from tests.benchmarks.workloads import build
    except ImportError as exc:
        report.add("-", "analysis: waiting for workloads/cabling", 0.0, note=str(exc))
        return
    from model.analysis import Analyzer, analyze

    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        design = build(size)
        plant = RoutedLinks(design)
        plant.refresh()
        t0, c0 = time.perf_counter(), time.process_time()
        result = analyze(design, plant)
        full, cpu = time.perf_counter() - t0, time.process_time() - c0
        report.add(
            size,
            "analysis: full analyze(design, plant)",
            full,
            peak_rss_mb(),
            target="<= 2 s" if size == "XL" else "",
            note=f"cpu {cpu * 1000:.0f} ms; {result.gpus:,} GPUs, {result.links_total:,} "
            f"links, bisection by {result.bisection_method}",
        )
        analyzer = Analyzer(design, plant)
        analyzer.report()
        for label, rack_id in _racks(design):
            rack = design.racks[rack_id]
            times, cpus = [], []
            for step in range(5):
                t0, c0 = time.perf_counter(), time.process_time()
                design.move_racks({rack_id: (rack.x + 0.3 * (step + 1), rack.y)})
                analyzer.report()  # refreshes the plant (route + media) first
                times.append(time.perf_counter() - t0)
                cpus.append(time.process_time() - c0)
            design.move_racks({rack_id: (rack.x, rack.y)})
            analyzer.report()
            report.add(
                size,
                f"analysis: move one {label} + refresh",
                sorted(times)[2],
                peak_rss_mb(),
                target="<= 100 ms" if size == "XL" else "",
                note=f"median of 5 (cpu {sorted(cpus)[2] * 1000:.0f} ms), route + media + "
                f"analysis; {len(design.links_of_racks([rack_id])):,} links",
            )
        analyzer.close()
        plant.close()
        del analyzer, plant, design, result


def _racks(design) -> list[tuple[str, str]]:
    """A server rack and a network rack of the design (the first of each)."""
    server = network = None
    for rack_id in design.racks:
        devices = design.devices_in_rack(rack_id)
        if not devices:
            continue
        if any(design.device_type(d).gpu_count for d in devices):
            server = server or rack_id
        else:
            network = network or rack_id
        if server and network:
            break
    return [(label, r) for label, r in (("server rack", server), ("network rack", network)) if r]
