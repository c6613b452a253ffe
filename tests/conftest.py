"""Shared test set-up: headless Qt, small designs built through the model's edit API, and a guard
that fails any test in which a change listener raised (the design logs and isolates such
failures, so without the guard a broken view would pass unnoticed)."""

from __future__ import annotations

import logging
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from tests.builders import small_pod  # noqa: E402


@pytest.fixture
def pod():
    """Two server racks with 2 DGX H100 each and a network rack with 2 QM9700 leaves, cabled."""
    return small_pod()


class ListenerErrors(logging.Handler):
    """Collects the failures ``model.changes`` logs while a test runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def take(self) -> int:
        """How many were logged; they count as expected from now on."""
        n = len(self.records)
        self.records.clear()
        return n


@pytest.fixture(autouse=True)
def listener_errors():
    """Fail the test if a change listener raised and the test did not ``take()`` the failure."""
    handler = ListenerErrors()
    logger = logging.getLogger("model.changes")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
    if handler.records:
        pytest.fail("a change listener raised: " + handler.records[0].getMessage(), pytrace=False)


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
