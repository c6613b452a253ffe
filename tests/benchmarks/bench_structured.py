"""The commands of ``bench_commands`` on the workloads cabled in TIA-942 zones, and with every network.

``generate --cabling zones`` gives every inter-rack link of the reference workload a channel
of patch cord - rack panel - trunk - zone panel - trunk - network-rack panel - patch cord
(``model.structured.layout``): at XL 393k channels, ~100k MPO trunks and 786k patch cords,
which the analysis, the BOM, the schedule (each link as its segments), the NetBox export
(panels, front and rear ports, trunk legs) and the picture (the trunks) all lay out. The
targets are the issue's, the same as for direct cabling; they are printed beside the figures
so a reader sees how far structured cabling is from them.

The same workloads cross-connected (``--cabling cross-connect``: panel - trunk - panel, two
patch points), generated once per size, are timed too, with a row of the findings their
analysis lists (#43 wants every generated hall valid: at XL none, 393,216 channels).

The same workloads with every network (``fabrics="all"``: storage, in-band and OOB switches,
racks and links beside the compute fabric), cabled direct, are timed by the same commands: the
XL one also missed the direct-XL targets (#43 item 4).

XL runs each command once (the five take minutes); S and L min/median of three. Floors as in
``bench_commands``: the bare decode of the file for analyze/bom/render, ``csv.writer`` of the
very rows written for the schedule and the NetBox folder.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from model.files.design_file import save_design
from model.generators.generate import apply_cabling
from tests.benchmarks import bench_commands as commands
from tests.benchmarks.run_benchmarks import Report
from tests.benchmarks.workloads import build


def _timed(args: list[str], runs: int) -> list[float]:
    return [commands._timed(args) for _ in range(runs)]


def run(report: Report) -> None:
    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        runs = 1 if size == "XL" else commands.RUNS
        _commands(report, size, apply_cabling(build(size), "zones"), "zones: command: ", runs)
        # Cross-connected (two patch points per channel, #43): generated once per size, its
        # commands timed and its findings counted (the issue wants it valid at every size).
        _commands(
            report,
            size,
            apply_cabling(build(size), "cross-connect"),
            "cross-connect: command: ",
            runs,
            count_findings=True,
        )
        # Every network (storage, in-band, OOB with their own switches and racks), cabled
        # direct: the other hall #43 measured short of the direct-XL targets.
        _commands(report, size, build(size, fabrics="all"), "all fabrics: command: ", runs)


def _commands(
    report: Report, size: str, design, label: str, runs: int, count_findings: bool = False
) -> None:
    """The commands' rows of ``design`` at ``size``, each beside its floor; with
    ``count_findings`` a row of its analysis' findings by code (``analyze --json``)."""
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        path = str(out / f"{size}.hall.json")
        save_design(design, path)
        del design

        start = commands._three([py, "-c", "pass"])
        decode = commands._three([py, "-c", commands.BARE_DECODE, path])
        analyze = _timed([py, "main.py", "analyze", "--json", path], runs)
        commands._add(report, size, label + "analyze --json", analyze, decode, "<= 2.5 s")
        if count_findings:  # the report itself, for its findings (not timed)
            args = [py, "main.py", "analyze", "--json", path]
            _findings(report, size, label, args, min(analyze))
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
        bom_xlsx = _timed([py, "main.py", "bom", path, "-o", str(out / "bom.xlsx")], runs)
        commands._add(report, size, label + "bom -o .xlsx", bom_xlsx, rows_floor, "<= 4 s")
        render = _timed([py, "main.py", "render", path, "-o", str(out / "hall.png")], runs)
        commands._add(report, size, label + "render -o .png", render, decode, "<= 2 s")
        routes = _timed([py, "main.py", "routes", path], runs)
        routes_txt = out / "routes.txt"
        with routes_txt.open("wb") as sink:  # the report itself, for its floor (not timed)
            subprocess.run(
                [py, "main.py", "routes", path], cwd=commands.ROOT, check=True, stdout=sink
            )
        lines = commands._rewrite(py, [str(routes_txt)], start, commands.LINES_REWRITE)
        commands._add(report, size, label + "routes", routes, lines, "<= 5 s")


def _findings(report: Report, size: str, label: str, args: list[str], seconds: float) -> None:
    """A row of the findings ``analyze --json`` lists, by severity and code, beside the
    analysis' time (``seconds``)."""
    done = subprocess.run(args, cwd=commands.ROOT, check=True, capture_output=True)
    warnings = json.loads(done.stdout)["warnings"]
    by_code = Counter(f"{w['severity']} {w['code']}" for w in warnings)
    listed = ", ".join(f"{code} {n}" for code, n in sorted(by_code.items()))
    note = f"{len(warnings)} findings" + (f": {listed}" if listed else "")
    report.add(size, label.replace("command: ", "analyze findings"), seconds, note=note)
