"""tests/cpu_profile.py records each test's CPU, its children's and the processes it started, and
each fixture's setup CPU."""

from __future__ import annotations

import json
import subprocess
import sys
from types import SimpleNamespace

from tests import cpu_profile


def _run_test(nodeid: str, body=lambda: None) -> None:
    """Drive cpu_profile's hook around one test (``body``), as pytest does."""
    run = cpu_profile.pytest_runtest_protocol(SimpleNamespace(nodeid=nodeid), None)
    next(run)  # the test runs here
    body()
    try:
        run.send(None)
    except StopIteration:
        pass


def _only_record(path) -> dict:
    (record,) = [json.loads(line) for line in path.read_text().splitlines()]
    return record


def test_a_test_s_cpu_children_and_processes_are_recorded(tmp_path, monkeypatch):
    out = tmp_path / "cpu.jsonl"
    monkeypatch.setenv("CPU_PROFILE", str(out))
    cpu_profile.pytest_configure(None)
    try:

        def busy() -> None:  # some CPU of its own and one child process
            sum(i * i for i in range(300_000))
            subprocess.run([sys.executable, "-I", "-S", "-c", "sum(range(3_000_000))"], check=True)

        _run_test("t.py::busy", busy)
    finally:
        cpu_profile.pytest_unconfigure(None)
    assert subprocess.Popen.__init__ is cpu_profile._popen_init  # put back
    record = _only_record(out)
    assert record["id"] == "t.py::busy" and record["processes"] == 1
    assert record["cpu_s"] > 0 and record["child_cpu_s"] > 0


def test_records_go_to_the_file_named_at_start_when_a_test_changes_folder(tmp_path, monkeypatch):
    """A relative CPU_PROFILE is the file in the folder pytest started in, even while a test
    runs elsewhere (pytester's temporary folder)."""
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CPU_PROFILE", "out/cpu.jsonl")
    cpu_profile.pytest_configure(None)
    try:
        monkeypatch.chdir(tmp_path / "out")  # where out/cpu.jsonl does not exist
        _run_test("t.py::moved")
    finally:
        cpu_profile.pytest_unconfigure(None)
    assert _only_record(tmp_path / "out/cpu.jsonl")["id"] == "t.py::moved"


def test_the_summary_sums_per_file_and_puts_the_costliest_first():
    records = [
        {"id": "a.py::x", "cpu_s": 1.0, "child_cpu_s": 0.0, "processes": 0},
        {"id": "b.py::y", "cpu_s": 0.5, "child_cpu_s": 2.0, "processes": 3},
        {"id": "a.py::z", "cpu_s": 0.25, "child_cpu_s": 0.0, "processes": 0},
    ]
    lines = cpu_profile.summary(records).splitlines()
    assert lines[0] == "3 tests: 1.8 s CPU, 2.0 s in 3 child processes"
    files = lines[2:4]
    assert files[0].split() == ["0.5", "2.0", "3", "1", "b.py"]
    assert files[1].split() == ["1.2", "0.0", "0", "2", "a.py"]
    tests = [line.split()[-1] for line in lines[5:]]
    assert tests == ["b.py::y", "a.py::x", "a.py::z"]


def test_a_fixture_s_setup_cpu_is_recorded(tmp_path, monkeypatch):
    out = tmp_path / "cpu.jsonl"
    monkeypatch.setenv("CPU_PROFILE", str(out))
    fixturedef = SimpleNamespace(argname="hall", scope="module")
    run = cpu_profile.pytest_fixture_setup(fixturedef, None)
    next(run)  # the fixture's function runs here
    sum(i * i for i in range(300_000))
    try:
        run.send("the hall")
    except StopIteration as done:
        assert done.value == "the hall"  # its value is passed on
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["fixture"] == "hall" and record["scope"] == "module" and record["cpu_s"] > 0


def test_the_summary_sums_fixtures_apart_from_tests():
    records = [
        {"id": "a.py::x", "cpu_s": 1.0, "child_cpu_s": 0.0, "processes": 0},
        {"fixture": "pod", "scope": "function", "cpu_s": 0.25},
        {"fixture": "hall", "scope": "module", "cpu_s": 0.5},
        {"fixture": "pod", "scope": "function", "cpu_s": 0.5},
    ]
    lines = cpu_profile.summary(records).splitlines()
    assert lines[0] == "1 tests: 1.0 s CPU, 0.0 s in 0 child processes"
    at = lines.index("   CPU s  setups  fixture (scope)")
    assert [line.split() for line in lines[at + 1 :]] == [
        ["0.8", "2", "pod", "(function)"],
        ["0.5", "1", "hall", "(module)"],
    ]


def test_a_record_names_its_worker_and_when_it_ran(tmp_path, monkeypatch):
    out = tmp_path / "cpu.jsonl"
    monkeypatch.setenv("CPU_PROFILE", str(out))
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    _run_test("t.py::w")
    record = _only_record(out)
    assert record["worker"] == "gw1" and 0 < record["start"] <= record["end"]


def test_the_summary_gives_each_workers_share_and_the_idle_tail():
    def rec(test, worker, start, end, cpu):
        return {
            "id": f"a.py::{test}",
            "cpu_s": cpu,
            "child_cpu_s": 0.0,
            "processes": 0,
            "worker": worker,
            "start": start,
            "end": end,
        }

    records = [
        rec("x", "gw0", 100.0, 130.0, 20.0),
        rec("y", "gw1", 100.5, 110.0, 5.0),
        rec("z", "gw1", 110.0, 112.0, 1.5),
    ]
    lines = cpu_profile.summary(records).splitlines()
    at = lines.index("  worker  tests    CPU s  last test ended (s after the first began)")
    assert lines[at + 1].split() == ["gw0", "1", "20.0", "30.0"]
    assert lines[at + 2].split() == ["gw1", "2", "6.5", "12.0"]
    assert lines[at + 3] == "idle tail: 18.0 s wall"
    # One process (-n 0, or records without a worker): no worker lines
    assert not any("idle tail" in line for line in cpu_profile.summary(records[:1]).splitlines())
