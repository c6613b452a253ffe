"""The commands of ``bench_commands`` on the same workloads cabled in TIA-942 zones.

``generate --cabling zones`` gives every inter-rack link of the reference workload a channel
of patch cord - rack panel - trunk - zone panel - trunk - network-rack panel - patch cord
(``model.structured.layout``): at XL 393k channels, ~100k MPO trunks and 786k patch cords,
which the analysis, the BOM, the schedule (each link as its segments), the NetBox export
(panels, front and rear ports, trunk legs) and the picture (the trunks) all lay out. The
targets are the issue's, the same as for direct cabling; they are printed beside the figures
so a reader sees how far structured cabling is from them.

XL runs each command once (the five take minutes); S and L min/median of three. Floors as in
``bench_commands``: the bare decode of the file for analyze/bom/render, ``csv.writer`` of the
very rows written for the schedule and the NetBox folder.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from model.files.design_file import save_design
from model.generators.generate import apply_cabling
from tests.benchmarks import bench_commands as commands
from tests.benchmarks.run_benchmarks import Report
from tests.benchmarks.workloads import build


def _timed(args: list[str], runs: int) -> list[float]:
    return [commands._timed(args) for _ in range(runs)]


def run(report: Report) -> None:
    py = sys.executable
    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        runs = 1 if size == "XL" else commands.RUNS
        design = apply_cabling(build(size), "zones")
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            path = str(out / f"{size}-zones.hall.json")
            save_design(design, path)
            del design

            start = commands._three([py, "-c", "pass"])
            decode = commands._three([py, "-c", commands.BARE_DECODE, path])
            label = "zones: command: "
            analyze = _timed([py, "main.py", "analyze", "--json", path], runs)
            commands._add(report, size, label + "analyze --json", analyze, decode, "<= 2.5 s")
            schedule_csv = str(out / "schedule.csv")
            schedule = _timed([py, "main.py", "schedule", path, "-o", schedule_csv], runs)
            rows_floor = commands._rewrite(py, [schedule_csv], start)
            commands._add(report, size, label + "schedule -o .csv", schedule, rows_floor, "<= 4 s")
            netbox = _timed([py, "main.py", "export-netbox", path, "-o", str(out / "netbox")], runs)
            tables = sorted(str(p) for p in (out / "netbox").rglob("*.csv"))
            commands._add(
                report,
                size,
                label + "export-netbox",
                netbox,
                commands._rewrite(py, tables, start),
                "<= 4 s",
            )
            bom = _timed([py, "main.py", "bom", path, "-o", str(out / "bom.csv")], runs)
            commands._add(report, size, label + "bom -o .csv", bom, decode, "<= 4 s")
            render = _timed([py, "main.py", "render", path, "-o", str(out / "hall.png")], runs)
            commands._add(report, size, label + "render -o .png", render, decode, "<= 2 s")
