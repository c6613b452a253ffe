"""The analysis worker's path after a tray-corner drop, stage by stage, as the editor drives it.

    PYTHONPATH=. nice -n 19 .venv/bin/python tests/benchmarks/profile_tray_drop.py HALL \
        [--cprofile] [--stages] [--repeat N]

Loads HALL (e.g. a copy of the XL hall), routes it and makes the first analysis as the runner's
first job does; then moves the first corner of the busiest tray 1.2 m across its first segment
(bench_editor's drag) and runs the steps of one analysis job with a pending tray edit: the
snapshot with the edit (GUI thread), the re-route of a private copy, its frozen copy for the
analysis, the live plant adopting the copy (GUI thread), the incremental analysis and the
panels' figures. Prints CPU (``time.process_time``) and wall time per stage; with
``--cprofile`` the worker's stages' profile too, clocked in process CPU (on this shared
machine wall time runs 3-7x the CPU and swings with the other users). ``--stages``: the CPU of the sub-stages in
``STAGES`` per drop, clocked without a profiler (``stage_clock.py``: cProfile charges each
Python call, ~5x for the route naming's). ``--repeat N``: N drops, the corner moved
out and back in turn, each stage's median printed (one run on this shared machine varies by
+-20 %). Not a test: a measuring tool.
"""

from __future__ import annotations

import cProfile
import gc
import pstats
import statistics
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
from tests.benchmarks import stage_clock

# Sub-stages of the worker's re-route and analysis: name -> (file under model/, function).
STAGES = {
    "thaw the snapshot": ("engine/retray_copy.py", "_thawed"),
    "tray graph built": ("engine/tray_graph.py", "__init__"),
    "drops attached": ("engine/tray_graph.py", "attach"),
    "drops attached after an edit": ("engine/tray_graph.py", "attach_after"),
    "distance rows carried": ("engine/tray_rows.py", "_carry_all"),
    "  carry: relaxed": ("engine/tray_rows.py", "_relax"),
    "  carry: predecessors": ("engine/tray_rows.py", "_preds"),
    "  carry: prepared": ("engine/tray_rows.py", "__init__"),
    "runs re-routed": ("engine/routing.py", "_reroute"),
    "routes named": ("engine/routing.py", "_name_routes"),
    "routes named as before": ("engine/routing.py", "_renamed_as_before"),
    "tray fill": ("analysis/tray_fill.py", "update"),
    "physical plant": ("plant/physical_plant.py", "build_plant"),
    "rack power": ("analysis/devices.py", "of"),
    "optics per tier": ("analysis/optics.py", "optics_by_tier"),
    "scale-up findings": ("analysis/warnings.py", "scale_up_findings"),
    "link media": ("analysis/link_media.py", "link_media"),
}


def main(path: str, profile: bool, repeat: int = 1, clocks: bool = False) -> None:
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
    first = list(design.trays[tray_id].points)
    (x0, y0), (x1, y1) = first[0], first[1]
    nx, ny = -(y1 - y0), x1 - x0
    norm = (nx * nx + ny * ny) ** 0.5 or 1.0
    moved = [(x0 + nx / norm * 1.2, y0 + ny / norm * 1.2), *first[1:]]
    changes: list = []
    design.subscribe(changes.append)
    print(f"tray {tray_id} ({load.get(tray_id, 0):,} cables): first corner moved 1.2 m")

    gc.collect()
    gc.disable()  # as in the editor, whose collector runs on the GUI thread's timer only
    stages: dict[str, list[tuple[float, float]]] = {}

    def stage(name, work, *args):
        cpu, wall = time.process_time(), time.perf_counter()
        out = work(*args)
        stages.setdefault(name, []).append((time.process_time() - cpu, time.perf_counter() - wall))
        return out

    profiler = cProfile.Profile(time.process_time) if profile else None
    spent = stage_clock.install(STAGES) if clocks else {}
    for drop in range(repeat):
        design.set_tray_points(tray_id, moved if drop % 2 == 0 else first)
        applied = pending_tray_edits(plant)
        snap_design, snap_plant = stage("snapshot (GUI thread)", snaps.take, True)
        if profiler is not None:
            profiler.enable()
        worked, rerouted = stage("re-route the copy", retray, snap_plant)
        frozen = stage("freeze the copy", retray_frozen, worked, snap_design)
        if profiler is not None:
            profiler.disable()
        if stage("adopt (GUI thread)", adopt, plant, worked, applied):
            snaps.adopted()  # as the runner does: the next snapshot shares the row tables
        if profiler is not None:
            profiler.enable()
        seen, changes[:] = list(changes), []
        report = stage("analysis", analyzer.advance, snap_design, frozen, seen, rerouted)
        stage("bundles", analyzer.cables_by_tray, medium_bundle_group)
        stage("length histogram", length_histogram, frozen)
        stage("tier codes", analyzer.tier_codes, TIER_NAMES)
        stage("used stretches", analyzer.used_stretches)
        measured = stage("length findings", length_findings, snap_design, frozen)
        stage("finding fabrics", finding_fabrics, snap_design, [*report.warnings, *measured])
        if profiler is not None:
            profiler.disable()
        print(
            f"drop {drop + 1}: {len(rerouted):,} links changed length or medium; report: cable "
            f"{report.cable_length_total_m:,.3f} m, longest {report.cable_length_max_m:.3f} m, "
            f"cost ${report.cost_usd.get('total', 0):,.2f}, {len(report.warnings)} warnings"
        )
    print(f"median of {repeat} drop(s):")
    for name, runs in stages.items():
        cpu = statistics.median(c for c, _ in runs)
        wall = statistics.median(w for _, w in runs)
        print(f"  {name:24s} CPU {cpu * 1000:8.1f} ms   wall {wall * 1000:8.1f} ms")
    worker = sum(
        statistics.median(c for c, _ in runs) for name, runs in stages.items() if "GUI" not in name
    )
    print(f"  worker CPU {worker * 1000:.1f} ms")
    if spent:
        print(f"sub-stages, CPU per drop (mean of {repeat}):")
        for name, seconds in spent.items():
            print(f"  {name:24s} CPU {seconds / repeat * 1000:8.1f} ms")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    args = sys.argv[1:]
    count = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 1
    main(args[0], "--cprofile" in args, count, "--stages" in args)
