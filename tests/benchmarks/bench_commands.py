"""Commands a user waits for, each beside its floor measured in the same run, with the ratio.

Every figure is min / median of 3 runs of ``python main.py ...`` in a fresh process, output
written, so the process start is in the figure; the peak column is the largest peak resident
memory of the command's process over its runs. Floors are measured in the same run:

* load (``validate``): a bare ``msgspec.json.decode`` of the same bytes with GC off, in a fresh
  process (the floor of any loader);
* ``schedule``, ``bom -o .xlsx``: the process start plus ``csv.writer`` writing the very rows of
  the schedule just produced (read back from it first, not timed): the floor of any per-cable
  output (the XLSX carries the same rows in its "Cabling schedule" sheet);
* ``export-p2p``: the process start plus ``csv.writer`` writing the rows of the file just
  produced;
* ``export-netbox``: the process start plus ``csv.writer`` writing the rows of every CSV of the
  folder just produced (cables and modules);
* ``routes``: the process start plus ``csv.writer`` writing the very lines of the report just
  produced (read back first, not timed), one field per line with quoting off, so that it writes
  the same bytes (checked) — the report is text, not a table, and its lines are long;
* ``bom -o .csv``, ``analyze --json``, ``render``: the bare decode above (their output is small,
  so reading the file is their floor).

Usage: ``python tests/benchmarks/run_benchmarks.py --only commands --sizes S,L,XL``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from model.files.design_file import save_design
from tests.benchmarks.run_benchmarks import Report
from tests.benchmarks.workloads import build

ROOT = Path(__file__).resolve().parents[2]
RUNS = 3
BARE_DECODE = (
    "import gc, sys, msgspec; data = open(sys.argv[1], 'rb').read(); gc.disable(); "
    "msgspec.json.decode(data)"
)
# Prints the seconds csv.writer takes to write the lines of the text file given (read first):
# one field per line, no quoting, "\n" after each, which gives back the file's bytes (checked).
LINES_REWRITE = (
    "import csv, io, sys, time\n"
    "text = open(sys.argv[1], encoding='utf-8', newline='').read()\n"
    "assert '\\x1f' not in text and '\\r' not in text and text.endswith('\\n')\n"
    "rows = [[line] for line in text[:-1].split('\\n')]\n"
    "started = time.perf_counter()\n"
    "out = io.StringIO()\n"
    "csv.writer(out, delimiter='\\x1f', quoting=csv.QUOTE_NONE, quotechar=None,\n"
    "           lineterminator='\\n').writerows(rows)\n"
    "open('/dev/null', 'w', encoding='utf-8').write(out.getvalue())\n"
    "took = time.perf_counter() - started\n"
    "assert out.getvalue() == text\n"
    "print(took)\n"
)
# Prints the seconds csv.writer takes to write the rows of the CSV files given (read first).
CSV_REWRITE = (
    "import csv, io, sys, time\n"
    "tables = [list(csv.reader(open(p, newline='', encoding='utf-8'))) for p in sys.argv[1:]]\n"
    "started = time.perf_counter()\n"
    "for rows in tables:\n"
    "    out = io.StringIO(); csv.writer(out, lineterminator='\\r\\n').writerows(rows)\n"
    "    open('/dev/null', 'w').write(out.getvalue())\n"
    "print(time.perf_counter() - started)\n"
)


class _Timed(float):
    """Wall seconds of one run, with the child's CPU seconds beside them (``user``, ``system``):
    on a virtual machine whose first touch of a page is slow, the system time of a process that
    uses ~1 GB varies by seconds from run to run, and the note says how much of a figure it is.
    ``peak_mb`` is the command's own peak resident memory (``wait4``'s rusage of that process:
    a forked helper that it reaped counts if it was larger, as its pages are mostly shared)."""

    user: float
    system: float
    peak_mb: float


def _timed(args: list[str]) -> _Timed:
    started = time.perf_counter()
    child = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    out = _Timed(time.perf_counter() - started)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, args)
    out.user, out.system = usage.ru_utime, usage.ru_stime
    out.peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    return out


def _three(args: list[str]) -> list[float]:
    return [_timed(args) for _ in range(RUNS)]


def _rewrite(
    py: str, files: list[str], start: list[float], script: str = CSV_REWRITE
) -> list[float]:
    """Process start plus csv.writer of the rows of ``files`` (``script``), RUNS times."""
    out = []
    for k in range(RUNS):
        done = subprocess.run(
            [py, "-c", script, *files], cwd=ROOT, check=True, capture_output=True, text=True
        )
        out.append(start[k] + float(done.stdout.strip()))
    return out


def _add(report, size, stage, runs, floor, target) -> None:
    best, floor_best = min(runs), min(floor)
    cpu = (
        f"; its cpu {best.user:.2f} user + {best.system:.2f} sys s" if hasattr(best, "user") else ""
    )
    peak = max(run.peak_mb for run in runs) if hasattr(best, "peak_mb") else None
    report.add(
        size,
        stage,
        best,
        peak,
        target=target if size == "XL" else "",
        note=f"min/median {best:.2f}/{statistics.median(runs):.2f} s; floor min/median "
        f"{floor_best:.2f}/{statistics.median(floor):.2f} s; ratio {best / floor_best:.1f}x{cpu}",
    )


def run(report: Report) -> None:
    py = sys.executable
    for size in ("S", "L", "XL"):
        if size not in report.sizes:
            continue
        design = build(size)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            path = str(out / f"{size}.hall.json")
            save_design(design, path)
            del design
            start = _three([py, "-c", "pass"])
            decode = _three([py, "-c", BARE_DECODE, path])
            load = _three([py, "main.py", "validate", path])
            _add(report, size, "command: validate (load)", load, decode, "<= 3x floor")
            schedule_csv = str(out / "schedule.csv")
            schedule = _three([py, "main.py", "schedule", path, "-o", schedule_csv])
            rows_floor = _rewrite(py, [schedule_csv], start)
            _add(report, size, "command: schedule -o .csv", schedule, rows_floor, "<= 4 s")
            netbox = _three([py, "main.py", "export-netbox", path, "-o", str(out / "netbox")])
            tables = sorted(str(p) for p in (out / "netbox").rglob("*.csv"))
            _add(
                report,
                size,
                "command: export-netbox",
                netbox,
                _rewrite(py, tables, start),
                "<= 4 s",
            )
            bom_csv = _three([py, "main.py", "bom", path, "-o", str(out / "bom.csv")])
            _add(report, size, "command: bom -o .csv", bom_csv, decode, "<= 4 s")
            bom_xlsx = _three([py, "main.py", "bom", path, "-o", str(out / "bom.xlsx")])
            _add(report, size, "command: bom -o .xlsx", bom_xlsx, rows_floor, "<= 4 s")
            p2p_csv = str(out / "p2p.csv")
            p2p = _three([py, "main.py", "export-p2p", path, "-o", p2p_csv])
            p2p_floor = _rewrite(py, [p2p_csv], start)
            _add(report, size, "command: export-p2p -o .csv", p2p, p2p_floor, "<= 4 s")
            routes = _three([py, "main.py", "routes", path])
            routes_txt = out / "routes.txt"
            with routes_txt.open("wb") as sink:  # the report itself, for its floor (not timed)
                subprocess.run([py, "main.py", "routes", path], cwd=ROOT, check=True, stdout=sink)
            lines = _rewrite(py, [str(routes_txt)], start, LINES_REWRITE)
            _add(report, size, "command: routes", routes, lines, "<= 5 s")
            analyze = _three([py, "main.py", "analyze", "--json", path])
            _add(report, size, "command: analyze --json", analyze, decode, "<= 2.5 s")
            render = _three([py, "main.py", "render", path, "-o", str(out / "hall.png")])
            _add(report, size, "command: render -o .png", render, decode, "<= 2 s")
