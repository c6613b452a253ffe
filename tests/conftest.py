"""Shared test set-up: headless Qt, and small designs built through the model's edit API."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from tests.builders import small_pod  # noqa: E402


@pytest.fixture
def pod():
    """Two server racks with 2 DGX H100 each and a network rack with 2 QM9700 leaves, cabled."""
    return small_pod()


_exit_status = 0


def pytest_sessionfinish(session, exitstatus):
    global _exit_status
    _exit_status = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """Leave without Python's final teardown once pytest has reported.

    PySide6 (seen with 6.11 and 6.12 on Python 3.11) can segfault or hang while the interpreter
    finalizes Qt wrappers after QApplication is gone, turning a green run red. Every test and
    pytest's own summary are done by now, so the process exits with pytest's status directly.
    """
    import sys

    if "PySide6" in sys.modules:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_exit_status)
