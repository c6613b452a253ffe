"""Shared test set-up: headless Qt, small designs built through the model's edit API, and a guard
that fails any test in which a change listener raised (the design logs and isolates such
failures, so without the guard a broken view would pass unnoticed)."""

from __future__ import annotations

import logging
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from tests.builders import small_pod  # noqa: E402
from tests.leak_check import no_leaks  # noqa: E402, F401 - autouse, for every test

pytest_plugins = ["tests.hang_watchdog"]  # a hung test ends the run with every stack printed


@pytest.fixture
def pod():
    """Two server racks with 2 DGX H100 each and a network rack with 2 QM9700 leaves, cabled."""
    return small_pod()


class ListenerErrors(logging.Handler):
    """Collects the failures ``model.design.changes`` logs while a test runs."""

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
    logger = logging.getLogger("model.design.changes")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
    if handler.records:
        pytest.fail("a change listener raised: " + handler.records[0].getMessage(), pytrace=False)
