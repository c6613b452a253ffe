"""The analysis worker's path after a tray-corner drop, stage by stage, as the editor drives it.

    PYTHONPATH=. nice -n 19 .venv/bin/python tests/benchmarks/profile_tray_drop.py HALL [--cprofile]

Loads HALL (e.g. a copy of the XL hall), routes it and makes the first analysis as the runner's
first job does; then moves the first corner of the busiest tray 1.2 m across its first segment
(bench_editor's drag) and runs the steps of one analysis job with a pending tray edit: the
snapshot with the edit (GUI thread), the re-route of a private copy, its frozen copy for the
analysis, the live plant adopting the copy (GUI thread), the incremental analysis and the
panels' figures. Prints CPU (``time.process_time``) and wall time per stage; with
``--cprofile`` the worker's stages' profile too. Not a test: a measuring tool.
"""

from __future__ import annotations

import cProfile
import gc
import pstats
import sys
import time

from gui.document.document import editing_plant
from gui.panels.links_model import TIER_NAMES
from model.analysis.analyzer import Analyzer
from model.analysis.tray_fill import medium_bundle_group
from model.asbuilt.findings import finding_fabrics, length_findings
from model.engine.length_histogram import length_histogram
from model.engine.retray_copy import adopt, pending_tray_edits, retray
from model.engine.retray_copy import frozen as retray_frozen
from model.engine.snapshot import Snapshotter
from model.files.design_file import load_design


def main(path: str, profile: bool) -> None:
    started = time.process_time()
    design = load_design(path)
    plant = editing_plant(design)  # its link index built, as the editor's is
    snaps = Snapshotter(design, plant)
    first_design, first_plant = snaps.take()
    analyzer = Analyzer(first_design, first_plant, subscribe=False, refresh_plant=False)
    analyzer.advance(first_design, first_plant, [], set())
    load = {t: sum(g.values()) for t, g in analyzer.cables_by_tray(medium_bundle_group).items()}
    analyzer.tier_codes(TIER_NAMES)
    analyzer.used_stretches()
    print(f"loaded, routed and analysed: {time.process_time() - started:.1f} s CPU")

    tray_id = max(design.trays, key=lambda t: load.get(t, 0))
    points = list(design.trays[tray_id].points)
    (x0, y0), (x1, y1) = points[0], points[1]
    nx, ny = -(y1 - y0), x1 - x0
    norm = (nx * nx + ny * ny) ** 0.5 or 1.0
    points[0] = (x0 + nx / norm * 1.2, y0 + ny / norm * 1.2)
    changes: list = []
    design.subscribe(changes.append)
    design.set_tray_points(tray_id, points)
    print(f"tray {tray_id} ({load.get(tray_id, 0):,} cables): first corner moved 1.2 m")

    gc.collect()
    gc.disable()  # as in the editor, whose collector runs on the GUI thread's timer only
    stages: dict[str, tuple[float, float]] = {}

    def stage(name, work):
        cpu, wall = time.process_time(), time.perf_counter()
        out = work()
        stages[name] = (time.process_time() - cpu, time.perf_counter() - wall)
        return out

    applied = pending_tray_edits(plant)
    snap_design, snap_plant = stage("snapshot (GUI thread)", lambda: snaps.take(pending_trays=True))
    profiler = cProfile.Profile() if profile else None
    if profiler is not None:
        profiler.enable()
    worked, rerouted = stage("re-route the copy", lambda: retray(snap_plant))
    frozen = stage("freeze the copy", lambda: retray_frozen(worked, snap_design))
    if profiler is not None:
        profiler.disable()
    stage("adopt (GUI thread)", lambda: adopt(plant, worked, applied))
    if profiler is not None:
        profiler.enable()
    report = stage(
        "analysis", lambda: analyzer.advance(snap_design, frozen, changes, set(rerouted))
    )
    stage("bundles", lambda: analyzer.cables_by_tray(medium_bundle_group))
    stage("length histogram", lambda: length_histogram(frozen))
    stage("tier codes", lambda: analyzer.tier_codes(TIER_NAMES))
    stage("used stretches", analyzer.used_stretches)
    measured = stage("length findings", lambda: length_findings(snap_design, frozen))
    stage("finding fabrics", lambda: finding_fabrics(snap_design, [*report.warnings, *measured]))
    if profiler is not None:
        profiler.disable()
    print(f"links whose length or medium changed: {len(rerouted):,}")
    for name, (cpu, wall) in stages.items():
        print(f"  {name:24s} CPU {cpu * 1000:8.1f} ms   wall {wall * 1000:8.1f} ms")
    worker = sum(cpu for name, (cpu, _) in stages.items() if "GUI" not in name)
    print(f"  worker CPU {worker * 1000:.1f} ms")
    print(
        f"report: cable {report.cable_length_total_m:,.3f} m, longest "
        f"{report.cable_length_max_m:.3f} m, cost ${report.cost_usd.get('total', 0):,.2f}, "
        f"{len(report.warnings)} warnings"
    )
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main(sys.argv[1], "--cprofile" in sys.argv)
