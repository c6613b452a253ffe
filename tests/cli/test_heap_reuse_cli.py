"""A headless command in ``main.py``'s own process reuses the memory it frees
(model.runtime.heap_reuse, whose effect tests/model/test_heap_reuse.py shows), and only there."""

from __future__ import annotations

from pathlib import Path

import cli
import cli.process_exit  # the test replaces its attribute: imported here, not by another test
from model.runtime import heap_reuse

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "small-pod.hall.json"


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
