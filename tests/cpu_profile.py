"""Where the suite's CPU goes, per test: an opt-in pytest plugin recording each test's CPU seconds
(setup, call and teardown: a module fixture counts in the first test that uses it), the CPU of
the child processes it waited for and how many processes it started, and each fixture's setup
CPU (its own: the fixtures it asks for are set up before it; also inside its test's figure);
run as a script it sums the records per file and per fixture and lists the costliest tests.

Why CPU and not pytest's --durations: the project's machine is shared and loaded, so a test's
wall time says more about its neighbours than about it. Use it under ``-n 0`` (one process):

    CPU_PROFILE=cpu.jsonl python -m pytest -p tests.cpu_profile -n 0 tests/gui
    python tests/cpu_profile.py cpu.jsonl

Under pytest-xdist (``-n 2 --dist worksteal``, as ``make test`` runs) each test's record also
names its worker and its start and end (wall clock), and the summary gives each worker's share
and the idle tail: how long the workers that had finished waited for the last one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterable

import pytest

started = [0]  # processes started through subprocess.Popen since the plugin loaded
_popen_init = subprocess.Popen.__init__


def _counting_init(self, *args, **kwargs):
    started[0] += 1
    _popen_init(self, *args, **kwargs)


# The records' file as an absolute path, fixed when the plugin is configured: a test may change
# the working directory (pytester runs in its own temporary one), and a relative CPU_PROFILE
# then named a file in a folder that does not exist there (the record's write failed that
# test's set-up).
_out = [""]


def pytest_configure(config: pytest.Config) -> None:
    _out[0] = os.path.abspath(os.environ.get("CPU_PROFILE", "cpu-profile.jsonl"))
    subprocess.Popen.__init__ = _counting_init  # type: ignore[method-assign]


def pytest_unconfigure(config: pytest.Config) -> None:
    subprocess.Popen.__init__ = _popen_init  # type: ignore[method-assign]
    _out[0] = ""


def _write(record: dict) -> None:
    with open(_out[0] or os.environ.get("CPU_PROFILE", "cpu-profile.jsonl"), "a") as out:
        out.write(json.dumps(record) + "\n")


def _children_cpu_s() -> float:
    t = os.times()
    return t.children_user + t.children_system


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    cpu, child, procs = time.process_time(), _children_cpu_s(), started[0]
    start = time.time()
    try:
        return (yield)
    finally:
        _write(
            {
                "id": item.nodeid,
                "cpu_s": round(time.process_time() - cpu, 4),
                "child_cpu_s": round(_children_cpu_s() - child, 4),
                "processes": started[0] - procs,
                "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
                "start": start,
                "end": time.time(),
            }
        )


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef, request: pytest.FixtureRequest):
    """A fixture's setup: ``{"fixture", "scope", "cpu_s"}`` (its teardown is not apart)."""
    cpu = time.process_time()
    try:
        return (yield)
    finally:
        _write(
            {
                "fixture": fixturedef.argname,
                "scope": fixturedef.scope,
                "cpu_s": round(time.process_time() - cpu, 4),
            }
        )


def summary(records: Iterable[dict], top: int = 30) -> str:
    """Totals, then files, tests and fixtures by CPU (own + children), costliest first."""
    rows: list[dict] = []
    fixtures: list[dict] = []
    for r in records:
        (fixtures if "fixture" in r else rows).append(r)
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0, 0])
    for r in rows:
        f = by_file[r["id"].split("::")[0]]
        f[0] += r["cpu_s"]
        f[1] += r["child_cpu_s"]
        f[2] += r["processes"]
        f[3] += 1
    lines = [
        f"{len(rows)} tests: {sum(r['cpu_s'] for r in rows):.1f} s CPU, "
        f"{sum(r['child_cpu_s'] for r in rows):.1f} s in "
        f"{sum(r['processes'] for r in rows)} child processes",
        "   CPU s  child s  procs  tests  file",
    ]
    files = sorted(by_file.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))
    lines += [f"{c:8.1f} {k:8.1f} {p:6d} {n:6d}  {name}" for name, (c, k, p, n) in files[:top]]
    lines.append("   CPU s  child s  procs  test")
    costly = sorted(rows, key=lambda r: -(r["cpu_s"] + r["child_cpu_s"]))
    lines += [
        f"{r['cpu_s']:8.2f} {r['child_cpu_s']:8.2f} {r['processes']:6d}  {r['id']}"
        for r in costly[:top]
    ]
    lines += workers(rows)
    if fixtures:
        by_fixture: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])
        for r in fixtures:
            f = by_fixture[(r["fixture"], r["scope"])]
            f[0] += r["cpu_s"]
            f[1] += 1
        lines.append("   CPU s  setups  fixture (scope)")
        ranked = sorted(by_fixture.items(), key=lambda kv: -kv[1][0])
        lines += [f"{c:8.1f} {n:7d}  {name} ({scope})" for (name, scope), (c, n) in ranked[:top]]
    return "\n".join(lines)


def workers(rows: list[dict]) -> list[str]:
    """Per xdist worker: its tests, their CPU and when its last test ended; then the idle
    tail, from the first worker to run out to the end of the last test. Empty for one process
    (records of -n 0, or written before the records named their worker)."""
    by_worker: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        if "end" in r:
            by_worker[r["worker"]].append(r)
    if len(by_worker) < 2:
        return []
    first = min(r["start"] for r in rows if "start" in r)
    ends = {w: max(r["end"] for r in rs) for w, rs in by_worker.items()}
    lines = ["  worker  tests    CPU s  last test ended (s after the first began)"]
    for w in sorted(by_worker):
        cpu = sum(r["cpu_s"] + r["child_cpu_s"] for r in by_worker[w])
        lines.append(f"{w:>8} {len(by_worker[w]):6d} {cpu:8.1f}  {ends[w] - first:8.1f}")
    lines.append(f"idle tail: {max(ends.values()) - min(ends.values()):.1f} s wall")
    return lines


def main(paths: list[str]) -> int:
    records = [json.loads(line) for path in paths for line in open(path) if line.strip()]
    print(summary(records))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
