"""Every figure the editor shows is the model's: on a generated design, the canvas, the links
table, the inspector and the fabric wizard display exactly what model/ computes."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest
from PySide6.QtWidgets import QApplication

from gui.panels.links_table import COL_TIER
from model.analysis.topology import link_tiers
from tests.benchmarks.workloads import build
from tests.gui.analysis_support import close_quietly, open_window, wait_fresh


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


def test_links_table_tier_is_the_analysis_tier_even_when_typed_roles_mislead(s_window, qtbot):
    window = s_window
    design = window.document.design
    # Type every leaf as a spine: the roles now say "spine-spine", the graph still says leaf.
    design.update_devices(
        [
            msgspec.structs.replace(d, role="spine")
            for d in design.devices.values()
            if d.role == "leaf"
        ]
    )
    wait_fresh(qtbot, window)
    report = window.analysis_docks.runner.result.report
    model = window.analysis_docks.links.model
    tier_of = link_tiers(design)
    shown = Counter()
    for r in range(model.rowCount()):
        link_id = model.link_id(r)
        text = model.index(r, COL_TIER).data()
        assert text == tier_of[link_id]
        shown[text] += 1
    assert {t: n for t, n in shown.items() if t in report.links_by_tier} == report.links_by_tier
    assert shown["server-leaf"] == report.links_by_tier["server-leaf"] > 0
