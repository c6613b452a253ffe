"""Shared test set-up: headless Qt, small designs built through the model's edit API, and a guard
that fails any test in which a change listener raised (the design logs and isolates such
failures, so without the guard a broken view would pass unnoticed)."""

from __future__ import annotations

import gc
import logging
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from model.runtime import gc_policy  # noqa: E402
from tests.builders import small_pod  # noqa: E402
from tests.leak_check import no_leaks  # noqa: E402, F401 - autouse, for every test

pytest_plugins = ["tests.hang_watchdog"]  # a hung test ends the run with every stack printed

# Hypothesis's profile for the suite, loaded here (before any test module is imported) so every
# ``@settings`` decorator inherits what it does not name. Its defaults are two wall-clock
# windows: a 200 ms deadline per example and the too_slow health check on data generation; on
# the shared 2-core machine either fails a correct test when the load is high. "ci" drops both
# (a hang still ends the run through tests.hang_watchdog) and prints the reproduction blob of
# a failure, so a CI failure can be replayed with @reproduce_failure. The example counts stay
# each test's own (its decorator) or Hypothesis's 100. HYPOTHESIS_PROFILE=default restores
# Hypothesis's own defaults.
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

TESTS = Path(__file__).resolve().parent
# The order the folders run in (napari's: the GUI last). The model tests need no QApplication;
# run after the GUI tests they ran in a process with one and its editor's objects on the heap.
# tests/cli holds the command tests (once they move there); a folder not named comes before
# tests/fuzz.
FOLDER_ORDER = ("model", "cli", None, "fuzz", "gui")


def _folder_rank(item: pytest.Item) -> int:
    try:
        parts = item.path.relative_to(TESTS).parts
    except ValueError:
        parts = ()
    folder = parts[0] if len(parts) > 1 else None
    return FOLDER_ORDER.index(folder if folder in FOLDER_ORDER else None)


def _order(item: pytest.Item) -> tuple[int, bool]:
    """Folder first; in a folder the ``slow`` tests (the largest single tests: the XL and L
    halls, the fuzz runs, 400k table rows) before the rest.

    Why: pytest-xdist's worksteal (make test) hands each worker a contiguous share and a worker
    that runs out takes the back half of the other's queue; the run ends when the last test of
    the last queue ends. With the longest tests at the front, the tests left at the end are
    short ones, so neither worker waits long for the other: a slow test that happens to be
    running when the other worker finds nothing left to take (the XL hall: ~14 s of CPU) would
    keep that core idle for its remaining time."""
    return _folder_rank(item), item.get_closest_marker("slow") is None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Model tests first, then CLI, fuzz and GUI tests; in each folder the slow tests first,
    otherwise each keeps its own order (a stable sort: a module's tests stay together)."""
    items.sort(key=_order)


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


_REAL_SETTLE = gc_policy.settle_built_design


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "real_gc_settle: the test checks model.runtime.gc_policy's freeze and collection "
        "itself (every other test builds designs without them: see design_settling)",
    )
    # For the whole process, not per test: module- and session-scoped fixtures are set up
    # before a test's own fixtures, so the designs they built were settled for real (see
    # design_settling).
    gc_policy.settle_built_design = _settle_in_tests


def pytest_unconfigure(config: pytest.Config) -> None:
    gc_policy.settle_built_design = _REAL_SETTLE


def _settle_in_tests() -> None:
    """What a test process does once a design is built (see design_settling): what was frozen
    before (by the editor's window and analysis runner, which count on the next settle to
    collect the cycles among it) goes back to the collector's generations, uncollected."""
    gc.unfreeze()


@pytest.fixture(autouse=True)
def design_settling(request, monkeypatch):
    """Designs built in a test are not settled (``gc_policy.settle_built_design``: unfreeze
    everything, a full collection, freeze everything) but only unfreeze what was frozen, unless
    the test is marked ``real_gc_settle``.

    Why: settling is for a command (one design, the collector then skips it) and the editor
    (one design open at a time). A test process builds thousands of designs in one heap that
    holds every module, fixture and Hypothesis' state, and each settle after the first walked
    all of it: ~0.11 s of CPU per design loaded, 16 of the 25 s of
    test_successful_edits_always_save_and_load_back_byte_identical (150 loads). Without it the
    collector stays paused while a design is built, as in the editor, and CPython's automatic
    collector (the editor's, in GUI tests) frees what the tests leave in cycles. No figure
    depends on it (the collector never changes a result); the policy's own tests still get it.

    The stand-in is put in place for the whole process (pytest_configure) and the real policy
    back for a marked test only: patched here per test, it missed the designs built by module
    fixtures, set up before this fixture (the model tests, -n 0: 71 real settles, 8.5 s of
    CPU in their full collections, of 130 full collections in all).
    """
    if request.node.get_closest_marker("real_gc_settle") is not None:
        monkeypatch.setattr(gc_policy, "settle_built_design", _REAL_SETTLE)
