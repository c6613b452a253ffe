"""A headless command in ``main.py``'s own process reuses the memory it frees (cli/heap_reuse),
and only there."""

from __future__ import annotations

import platform
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cli
import cli.process_exit  # the test replaces its attribute: imported here, not by another test
from cli import heap_reuse

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "small-pod.hall.json"

# Six 24 MB arrays made and freed four times, as a command's routing and layout make and free
# their per-link columns; prints the minor page faults of each round.
ROUNDS = textwrap.dedent(
    """
    import resource, sys
    import numpy as np
    if sys.argv[1] == "command":
        from cli.heap_reuse import reuse_freed_heap
        assert reuse_freed_heap()
    def faults():
        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    def one_round():
        before = faults()
        arrays = [np.ones(3_000_000) for _ in range(6)]
        del arrays
        return faults() - before
    print(" ".join(str(one_round()) for _ in range(4)))
    """
)

glibc_only = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
    reason="the policy is glibc's mallopt",
)


def _rounds(mode: str) -> list[int]:
    out = subprocess.run(
        [sys.executable, "-c", ROUNDS, mode], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return [int(v) for v in out.stdout.split()]


@glibc_only
def test_a_command_reuses_freed_arrays_without_page_faults():
    first, *later = _rounds("command")
    assert first > 1000  # the first round touches new memory
    assert max(later) < first / 20  # the next rounds reuse it


@glibc_only
def test_without_it_glibc_maps_and_faults_the_same_arrays_again():
    """What the policy is for (and what makes the test above able to fail)."""
    first, *later = _rounds("default")
    assert min(later) > first / 4


def test_only_main_py_own_process_sets_the_policy(monkeypatch):
    calls: list[bool] = []
    monkeypatch.setattr(heap_reuse, "reuse_freed_heap", lambda: calls.append(True) or True)
    monkeypatch.setattr(cli.process_exit, "_owner_pid", None)
    monkeypatch.setattr(cli.process_exit, "_kept", [])  # what the command keeps, let go after
    assert cli.run_cli(["validate", str(EXAMPLE)]) == 0
    assert calls == []  # a test's (or a script's) process keeps its C library's behaviour
    cli.process_exit.own_process()
    assert cli.run_cli(["validate", str(EXAMPLE)]) == 0
    assert calls == [True]
