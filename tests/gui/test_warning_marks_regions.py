"""Warning marks repaint only the badges that came, went or moved, not the whole hall."""

from __future__ import annotations

from PySide6.QtCore import QRectF

from model.common.findings import Finding
from tests.builders import copper_pod
from tests.gui.analysis_support import close_quietly, docks, open_window, wait_fresh


def test_a_new_finding_on_one_rack_repaints_only_its_badge(qtbot, tmp_path):
    window = open_window(qtbot, tmp_path, copper_pod())
    try:
        wait_fresh(qtbot, window)
        marks = docks(window).marks
        findings = list(window.analysis_docks.runner.result.report.warnings)
        marks.set_findings(findings)
        calls = []
        marks.update = lambda *rect: calls.append(QRectF(*rect) if rect else None)
        marks.set_findings(findings)
        assert calls == []  # nothing changed: nothing repainted
        rack = next(iter(window.document.design.racks))
        extra = Finding(code="TEST", severity="error", message="m", objects=(rack,))
        marks.set_findings([*findings, extra])
        assert marks.rack_severity[rack] == "error"
        assert len(calls) == 1 and calls[0] is not None
        item = window.scene.racks[rack]
        corner = item.mapToScene(item.footprint().topRight())
        assert calls[0].contains(corner)
        hall = window.scene.sceneRect()
        assert calls[0].width() * calls[0].height() < hall.width() * hall.height() / 4
    finally:
        close_quietly(window)
