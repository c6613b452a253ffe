"""The leak check (tests/leak_check.py) fails a test that leaves a window, a running timer, a
thread, an open analysis runner or a busy thread pool behind, names what leaked, and passes the
same test once it cleans up. A test that makes Qt objects without pytest-qt's fixtures is
checked too; a window or timer only dropped into a reference cycle is collected, not blamed.
Run in a separate pytest process (pytester) with the suite's own fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest_plugins = ["pytester"]

INNER_TESTS = """
import threading

from PySide6.QtCore import QThreadPool, QTimer
from PySide6.QtWidgets import QWidget

from gui.document.analysis_runner import AnalysisRunner
from model.engine.routed_links import RoutedLinks
from tests.builders import small_pod

kept = []  # what a leaking test keeps alive past its end


def test_leaks_a_window(qtbot):
    window = QWidget()
    window.setWindowTitle("left open on purpose")
    window.show()
    kept.append(window)


def test_closes_its_window(qtbot):
    window = QWidget()
    window.setWindowTitle("closed properly")
    window.show()
    window.close()
    window.deleteLater()


def test_leaks_a_running_timer(qtbot):
    timer = QTimer()
    timer.start(60_000)
    kept.append(timer)


def test_stops_its_timer(qtbot):
    timer = QTimer()
    timer.start(60_000)
    timer.stop()


def test_leaks_a_thread():
    stop = threading.Event()
    kept.append(stop)
    threading.Thread(target=stop.wait, name="left running", daemon=True).start()


def test_leaks_an_analysis_runner(qtbot):
    design = small_pod()
    kept.append(AnalysisRunner(design, RoutedLinks(design), delay_ms=60_000))


def test_closes_its_analysis_runner(qtbot):
    design = small_pod()
    runner = AnalysisRunner(design, RoutedLinks(design), delay_ms=60_000)
    runner.close()


def test_leaks_a_window_without_qtbot():  # the QApplication of the tests above is still there
    window = QWidget()
    window.setWindowTitle("left open without qtbot")
    window.show()
    kept.append(window)


def test_leaks_a_running_timer_without_qtbot():
    timer = QTimer()
    timer.start(45_000)
    kept.append(timer)


def test_drops_a_closed_window_in_a_reference_cycle(qtbot):
    window = QWidget()
    window.setWindowTitle("dropped in a cycle")
    window.me = window  # only a full collection frees it
    window.timer = QTimer(window)
    window.timer.start(30_000)
    window.show()
    window.close()


def test_leaks_a_busy_pool(qtbot):
    release = threading.Event()
    kept.append(release)
    QThreadPool.globalInstance().start(release.wait)


def test_releases_the_pool():
    kept[-1].set()
    QThreadPool.globalInstance().waitForDone()
"""


def test_the_leak_check_fails_leaking_tests_and_passes_clean_ones(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    pytester.makeconftest("from tests.leak_check import no_leaks  # noqa: F401\n")
    pytester.makeini("[pytest]\nqt_api = pyside6\n")
    pytester.makepyfile(test_inner=INNER_TESTS)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v", timeout=300)
    result.assert_outcomes(passed=12, errors=7)
    out = result.stdout.str()
    for name in (
        "closes_its_window",
        "stops_its_timer",
        "closes_its_analysis_runner",
        "drops_a_closed_window_in_a_reference_cycle",
        "releases_the_pool",
    ):
        assert f"test_{name} PASSED" in out
    assert "top-level window QWidget 'left open on purpose'" in out
    assert "running QTimer (60000 ms" in out
    assert "thread 'left running'" in out
    assert "analysis runner not closed" in out
    assert "top-level window QWidget 'left open without qtbot'" in out
    assert "running QTimer (45000 ms, owned by no parent)" in out
    assert "busy global QThreadPool" in out
    assert "closed properly" not in out
    assert "dropped in a cycle" not in out and "30000 ms" not in out


def test_a_known_qt_test_is_checked_without_counting_the_live_wrappers(qapp, monkeypatch):
    """Counting shiboken's wrappers costs more the longer the run (the table grows): a test that
    asks for qtbot or qapp, or lives in tests/gui, is checked for Qt leaks without it; any other
    test is told apart by the count before and after."""
    from types import SimpleNamespace

    from tests import leak_check

    gui_test = SimpleNamespace(fixturenames=["tmp_path"], node=SimpleNamespace(path=Path(__file__)))
    qtbot_test = SimpleNamespace(
        fixturenames=["qtbot"], node=SimpleNamespace(path=ROOT / "tests" / "model" / "test_x.py")
    )
    plain = SimpleNamespace(
        fixturenames=["tmp_path"], node=SimpleNamespace(path=ROOT / "tests" / "model" / "test_x.py")
    )
    assert leak_check.known_qt_test(gui_test) and leak_check.known_qt_test(qtbot_test)
    assert not leak_check.known_qt_test(plain)
    before = leak_check.qt_state()

    def counted():
        raise AssertionError("the live wrappers were counted")

    monkeypatch.setattr(leak_check, "qt_state", counted)
    assert leak_check.made_qt(gui_test, None) and leak_check.made_qt(qtbot_test, None)
    with pytest.raises(AssertionError, match="counted"):
        leak_check.made_qt(plain, before)  # the others are told apart by the count
