"""The leak check (tests/leak_check.py) fails a test that leaves a window, a running timer, a
thread or an open analysis runner behind, names what leaked, and passes the same test once it
cleans up. Run in a separate pytest process (pytester) with the suite's own fixture."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
pytest_plugins = ["pytester"]

INNER_TESTS = """
import threading

from PySide6.QtCore import QTimer
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
"""


def test_the_leak_check_fails_leaking_tests_and_passes_clean_ones(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    pytester.makeconftest("from tests.leak_check import no_leaks  # noqa: F401\n")
    pytester.makeini("[pytest]\nqt_api = pyside6\n")
    pytester.makepyfile(test_inner=INNER_TESTS)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v", timeout=300)
    result.assert_outcomes(passed=7, errors=4)
    out = result.stdout.str()
    for name in ("closes_its_window", "stops_its_timer", "closes_its_analysis_runner"):
        assert f"test_{name} PASSED" in out
    assert "top-level window QWidget 'left open on purpose'" in out
    assert "running QTimer (60000 ms" in out
    assert "thread 'left running'" in out
    assert "analysis runner not closed" in out
    assert "closed properly" not in out
