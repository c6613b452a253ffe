"""A test that hangs ends the run with every thread's stack on stderr, instead of a silent CI
timeout.

Why: a deadlock between the GUI thread and the analysis worker once held a CI run until its
90-minute limit with nothing printed after the last dot. ``faulthandler`` dumps the Python stack
of every thread from a C watchdog thread (it works while the interpreter is stuck, GIL or not)
and then exits, so the run fails within minutes and says where it stood. pytest's own
``faulthandler_timeout`` only dumps and lets the hang go on.
"""

from __future__ import annotations

import faulthandler
import os
import sys

import pytest

# Far above the slowest test of the suite (~60 s on a loaded 2-core machine), far below CI's
# limit. The variable lets the watchdog's own test use a short limit.
HANG_S = float(os.environ.get("HALLWRIGHT_TEST_HANG_S", "600"))


_stderr_copy: int | None = None  # the terminal's stderr, whatever pytest captures during tests


def pytest_configure(config) -> None:
    """Keep a copy of the real stderr: while a test runs, fd 2 is pytest's capture file, and a
    dump written there is lost when the watchdog ends the process."""
    global _stderr_copy
    if _stderr_copy is None:
        _stderr_copy = os.dup(sys.__stderr__.fileno())  # capture is suspended at configure time


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Arm the watchdog for the test's set-up, call and teardown."""
    faulthandler.dump_traceback_later(HANG_S, exit=True, file=_stderr_copy)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
