"""Fresh interpreters that record every ForkedCall (model/runtime/forked_call) they make: the tests of
the commands that fork run there, as pytest's own process (other threads) must never fork."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from model.runtime.forked_call import usable_cores

ROOT = Path(__file__).resolve().parents[1]

# A process on one core does not fork (model.runtime.forked_call.can_fork): nothing to test there.
needs_two_cores = pytest.mark.skipif(usable_cores() < 2, reason="forks only with two cores")

# Prepended to a test's code: ``made`` gets each ForkedCall's ``forked`` as it is made,
# ``recorded_calls`` the ForkedCalls themselves (``from_child`` once their result was asked for).
_RECORD_FORKS = (
    "from model.runtime import forked_call\n"
    "made = []\n"
    "recorded_calls = []\n"
    "class Recorded(forked_call.ForkedCall):\n"
    "    def __init__(self, fn, fork):\n"
    "        super().__init__(fn, fork)\n"
    "        made.append(self.forked)\n"
    "        recorded_calls.append(self)\n"
    "forked_call.ForkedCall = Recorded\n"
)


def run_recording_forks(code: str) -> list[str]:
    """The lines ``code`` prints, run in a fresh interpreter (offscreen Qt) beside ``made``."""
    done = subprocess.run(
        [sys.executable, "-c", _RECORD_FORKS + code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def main_py_forks(argv: list[str]) -> tuple[str, str]:
    """``main.py argv`` through its ``__main__`` block: ("exit N", "forked [...]")."""
    lines = run_recording_forks(
        "import runpy, sys\n"
        f"sys.argv = ['main.py', *{argv!r}]\n"
        "try:\n"
        "    runpy.run_path('main.py', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    print('exit', exc.code)\n"
        "print('forked', made)\n"
    )
    return lines[-2], lines[-1]
