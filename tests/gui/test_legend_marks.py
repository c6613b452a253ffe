"""The plan's legend explains every colour the overlays put on it (issue 38: no key for the
info dots): a finding's dot on a rack and a finding's dashed link get a legend line each, in the
colours they are drawn, and the lines go when the marks go."""

from __future__ import annotations

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from gui.panels.warning_marks import BADGE_COLORS
from model.common.findings import Finding
from tests.gui.analysis_support import wait_fresh


def _legend_colours(view) -> set[str]:
    rect = view.viewport().rect()
    image = view.viewport().grab().toImage()
    return {
        image.pixelColor(x, y).name()
        for x in range(rect.left() + 20, rect.left() + 46)
        for y in range(max(0, rect.bottom() - 300), rect.bottom())
    }


def test_finding_dots_have_a_key_that_follows_the_marks(window, qtbot):
    wait_fresh(qtbot, window)  # the analysis's own marks first: they would replace ours
    marks = window.analysis_docks.marks
    info = QColor(BADGE_COLORS["info"]).name()
    link_id = next(iter(window.document.design.links))
    marks.set_findings(
        [
            Finding(code="X_INFO", severity="info", message="a note", objects=("r1",)),
            Finding(code="X_ERR", severity="error", message="broken", objects=(link_id,)),
        ]
    )
    key = window.scene.overlay_key()
    assert ("Info finding", BADGE_COLORS["info"], "dot") in key
    assert ("Link named by a finding", BADGE_COLORS["error"], "dash") in key
    QApplication.processEvents()
    assert info in _legend_colours(window.view)
    marks.set_findings([])
    QApplication.processEvents()
    key = window.scene.overlay_key()
    assert not [entry for entry in key if entry[0] in ("Info finding", "Link named by a finding")]
    assert info not in _legend_colours(window.view)
