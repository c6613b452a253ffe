"""The optimiser's annealing loop on a reference workload, stage by stage, with its fingerprint.

    PYTHONPATH=. nice -n 19 .venv/bin/python tests/benchmarks/profile_optimise.py SIZE ITERATIONS [--cprofile|--stages]

Builds the S, L or XL workload (tests/benchmarks/workloads.py), routes it and anneals it with
the default weights, seed 0, for ITERATIONS untimed iterations (so the run repeats exactly).
Prints the CPU (``time.process_time``) of the run and of its loop (from the first progress
report, after the pricer's set-up) per iteration, and a fingerprint of what the run found
(its objective, every rack's place, its counts and the best objective at each progress report):
two trees whose fingerprints agree took the same decisions. With ``--cprofile`` it prints the
stage table: each stage's cumulative CPU per priced candidate (the profiler's own cost
included, so shares, not absolute figures, are what to read). With ``--stages`` it prints each
stage's own CPU in the loop per iteration, clocked without a profiler (stage_clock.py): what a
change saves in CPU, which the profiler's table can misstate. Not a test: a measuring tool.
"""

from __future__ import annotations

import cProfile
import hashlib
import json
import pstats
import resource
import sys
import time

from model.engine.routed_links import RoutedLinks
from model.optimise import search
from model.optimise.objective import DEFAULT_WEIGHTS, Pricer
from model.optimise.search import anneal
from tests.benchmarks import stage_clock
from tests.benchmarks.workloads import build

# Stage -> (file suffix, function name) whose cumulative time the stage is.
STAGES = {
    "re-route (RoutedLinks.refresh)": ("engine/routed_links.py", "refresh"),
    "  media choice (_choose)": ("engine/routed_links.py", "_choose"),
    "  routing (_route)": ("engine/routing.py", "_route"),
    "  racks placed (_place_racks)": ("engine/routed_links.py", "_place_racks"),
    "pricing (Pricer.price)": ("optimise/objective.py", "price"),
    "  fill bound (tray_fill_probe.probe)": ("analysis/tray_fill_probe.py", "probe"),
    "    levels probed (TrayLevels.probe)": ("analysis/tray_levels.py", "probe"),
    "  tray fill update": ("analysis/tray_fill.py", "update"),
    "    naming routes (route_keys)": ("engine/routing.py", "route_keys"),
    "      new routes' spans": ("engine/tray_graph.py", "spans"),
    "    fill delta (_fill_delta)": ("analysis/tray_fill.py", "_fill_delta"),
    "      levels (TrayLevels.add)": ("analysis/tray_levels.py", "add"),
    "    recount (_recount)": ("analysis/tray_fill.py", "_recount"),
    "  plant count (build_plant)": ("plant/physical_plant.py", "build_plant"),
    "checkpoint": ("engine/move_undo.py", "checkpoint"),
    "restore": ("engine/move_undo.py", "restore"),
    "take back (Pricer.take_back)": ("optimise/objective.py", "take_back"),
    "clash index": ("optimise/clash_index.py", "clashes"),
    "design.move_racks": ("design/design.py", "move_racks"),
}


def fingerprint(run, trace: list) -> str:
    """What the run decided, hashed: equal in two trees means the same trajectory."""
    found = [run.objective, sorted(run.positions.items()), run.iterations]
    found += [run.feasible, run.accepted, trace]
    return hashlib.sha256(json.dumps(found).encode()).hexdigest()[:16]


def stage_table(stats: pstats.Stats, priced: int) -> list[str]:
    """Each stage's cumulative ms per priced candidate (calls in brackets)."""
    lines = []
    for name, (suffix, func) in STAGES.items():
        calls = cum = 0.0
        for (path, _, fn), row in stats.stats.items():  # type: ignore[attr-defined]
            if fn == func and path.endswith(suffix):
                calls, cum = calls + row[1], cum + row[3]
        lines.append(f"{name:<36} {cum / max(priced, 1) * 1000:7.2f} ms  ({int(calls)} calls)")
    return lines


def main(size: str, iterations: int, profile: bool, clocks: bool = False) -> None:
    design = build(size)
    spent = stage_clock.install(STAGES) if clocks else {}
    spent_at_loop: dict[str, float] = {}
    plant = RoutedLinks(design)
    plant.refresh()
    trace: list = []

    loop_from: list[float] = []  # CPU when the loop starts: its first report (iteration 0)

    def progress(p: dict) -> bool:
        if not loop_from:
            loop_from.append(time.process_time())
            spent_at_loop.update(spent)
        trace.append((p["iteration"], round(p["best"], 12), p["moved"]))
        return True

    pricers: list[Pricer] = []

    class Kept(Pricer):  # the run's pricer, for its counts
        def __init__(self, *args) -> None:
            super().__init__(*args)
            pricers.append(self)

    search.Pricer = Kept  # type: ignore[misc]
    prof = cProfile.Profile(time.process_time) if profile else None
    c0 = time.process_time()
    if prof is not None:
        prof.enable()
    run = anneal(design, plant, DEFAULT_WEIGHTS, iterations, 0, set(), progress=progress)
    if prof is not None:
        prof.disable()
    cpu = time.process_time() - c0
    loop_cpu = cpu - (loop_from[0] - c0 if loop_from else 0.0)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{size}: {run.iterations} iterations, {run.feasible} feasible, {run.accepted} accepted,"
        f" objective {run.objective:.12f}; cpu {cpu:.2f} s, of which the loop (and the put"
        f" back) {loop_cpu * 1000 / run.iterations:.2f} ms an iteration; peak {peak_mb:.0f} MB;"
        f" fingerprint {fingerprint(run, trace)}"
    )
    if pricers:
        p = pricers[0]
        print(
            f"tray fill bounded before the media choice: {getattr(p, 'bound_tries', '-')}, refused so: {getattr(p, 'bound_refusals', '-')}"
        )
    if prof is not None:
        stats = pstats.Stats(prof)
        priced = next(
            (
                row[1]
                for (p, _, f), row in stats.stats.items()  # type: ignore[attr-defined]
                if f == "price" and p.endswith("optimise/objective.py")
            ),
            0,
        )
        print("\n".join(stage_table(stats, int(priced))))
    for name, seconds in spent.items():
        loop_ms = (seconds - spent_at_loop.get(name, 0.0)) * 1000 / max(run.iterations, 1)
        print(f"{name:<36} {loop_ms:7.3f} ms CPU an iteration (loop)")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2 or args[0] not in ("S", "L", "XL") or not args[1].isdigit():
        print("usage: profile_optimise.py S|L|XL ITERATIONS [--cprofile|--stages]", file=sys.stderr)
        sys.exit(2)
    main(args[0], int(args[1]), "--cprofile" in sys.argv, "--stages" in sys.argv)
