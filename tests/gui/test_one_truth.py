"""Every figure the editor shows is the model's: on a generated design, the canvas, the links
table, the inspector and the fabric wizard display exactly what model/ computes."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from tests.benchmarks.workloads import build
from tests.gui.analysis_support import close_quietly, open_window


@pytest.fixture
def s_window(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, build("S"))
    yield window
    close_quietly(window)


def test_canvas_tray_fill_is_the_analysis_tray_fill(s_window, qtbot):
    window, scene = s_window, s_window.scene
    report = window.analysis_docks.runner.result.report
    window.tray_fill_action.trigger()
    qtbot.waitUntil(lambda: not scene.tray_load.busy and bool(scene.tray_load.fill), timeout=10_000)
    QApplication.processEvents()
    assert any(f > 0 for f in report.tray_fill.values())
    for tray_id, item in scene.trays.items():
        assert item._fill_fraction == report.tray_fill[tray_id]
        assert item.toolTip() == f"Tray fill {report.tray_fill[tray_id]:.1%} at its fullest point"
