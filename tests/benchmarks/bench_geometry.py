"""Geometry engine benchmark: route + media for S, L, XL synthetic halls, and one-rack moves."""

from __future__ import annotations

import gc
import time

from model.engine.routed_links import RoutedLinks
from model.plant.physical_plant import build_plant
from tests.benchmarks.run_benchmarks import Report, peak_rss_mb
from tests.benchmarks.synthetic import WORKLOADS, synthetic_hall


def run(report: Report) -> None:
    for size, servers in WORKLOADS.items():
        if size not in report.sizes:
            continue
        t0 = time.perf_counter()
        design = synthetic_hall(servers)
        build = time.perf_counter() - t0
        report.add(
            size,
            "geometry: build synthetic hall (model API)",
            build,
            peak_rss_mb(),
            note=f"{len(design.racks):,} racks, {len(design.links):,} links",
        )
        gc.collect()  # garbage of the build stage is not this stage's cost
        t0, c0 = time.perf_counter(), time.process_time()
        plant = RoutedLinks(design)
        full, cpu = time.perf_counter() - t0, time.process_time() - c0
        graph = plant._graph
        report.add(
            size,
            "geometry: full route + media per cage (RoutedLinks)",
            full,
            peak_rss_mb(),
            target="<= 1 s" if size == "XL" else "",
            note=f"cpu {cpu * 1000:.0f} ms; {graph.node_count} tray nodes",
        )
        t0, c0 = time.perf_counter(), time.process_time()
        phys = build_plant(plant)
        report.add(
            size,
            "geometry: physical plant (modules, cables, cages)",
            time.perf_counter() - t0,
            peak_rss_mb(),
            note=f"cpu {(time.process_time() - c0) * 1000:.0f} ms; "
            f"{phys.summary()['modules']['total']:,} modules, "
            f"{phys.summary()['cages']['used']:,} cages, {phys.cages_invalid:,} invalid",
        )
        for label, rack_id in (
            ("server rack", "p0-r0"),
            ("leaf rack", "p0-r8"),
            ("spine rack", "net0"),
        ):
            rack = design.racks[rack_id]
            times, changed = [], 0
            for step in range(5):
                design.move_racks({rack_id: (rack.x + 0.3 * (step + 1), rack.y)})
                t0 = time.perf_counter()
                changed = len(plant.refresh())
                times.append(time.perf_counter() - t0)
            design.move_racks({rack_id: (rack.x, rack.y)})
            plant.refresh()
            report.add(
                size,
                f"geometry: move one {label} + refresh",
                sorted(times)[2],
                peak_rss_mb(),
                target="<= 50 ms" if size == "XL" else "",
                note=f"median of 5; {len(design.links_of_racks([rack_id])):,} links, "
                f"{changed:,} changed",
            )
        removed = design.delete(["net0"])
        t0 = time.perf_counter()
        plant.refresh()
        report.add(
            size,
            "geometry: refresh after deleting a spine rack",
            time.perf_counter() - t0,
            peak_rss_mb(),
            note=f"{len(removed.links):,} links removed",
        )
        design.restore(removed)
        t0 = time.perf_counter()
        plant.refresh()
        report.add(
            size,
            "geometry: refresh after undoing the delete",
            time.perf_counter() - t0,
            peak_rss_mb(),
            note=f"{len(removed.links):,} links back",
        )
        t0 = time.perf_counter()
        plant.findings()
        report.add(size, "geometry: findings", time.perf_counter() - t0, peak_rss_mb())
        del plant, design
