"""The suite's hang watchdog (tests/hang_watchdog.py) ends a hung run with the stacks printed."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_hung_test_ends_the_run_with_every_thread_stack(tmp_path):
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["tests.hang_watchdog"]\n')
    (tmp_path / "test_hangs.py").write_text(
        textwrap.dedent(
            """
            import threading

            def test_quick():
                pass

            def test_waits_forever():
                never = threading.Event()
                threading.Thread(target=never.wait, name="helper-thread").start()
                never.wait()  # a deadlock, as far as anyone can tell
            """
        )
    )
    env = dict(os.environ, HALLWRIGHT_TEST_HANG_S="2", PYTHONPATH=str(ROOT))
    # Nothing but the watchdog ends that run (both threads wait forever): without it, the
    # timeout raises here.
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 0
    assert "Timeout" in run.stderr and "test_waits_forever" in run.stderr
    assert "helper-thread" in run.stderr or run.stderr.count("Thread 0x") >= 2  # every thread
