"""The What-if dock forgets the last design's case when another file is opened (issue 38:
"Switch hops 3 / None", "1 devices" shown for a design that never ran the case)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from model.files.design_file import save_design
from tests.builders import small_pod
from tests.gui.test_editor_tools import right_click_and_choose


def test_opening_another_file_clears_the_what_if_results(window, qtbot, monkeypatch, tmp_path):
    right_click_and_choose(qtbot, window.view, 1.5, 3.0, "What if rack R1 fails?")
    panel = window.whatif.panel
    qtbot.waitUntil(lambda: panel.result is not None, timeout=20_000)
    assert panel.table.item(0, 1) is not None and panel.table.item(0, 1).text()
    other = tmp_path / "other.hall.json"
    save_design(small_pod(), other)
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(other), ""))
    )
    window.document.stack.setClean()
    qtbot.keyClick(window.view, Qt.Key_O, Qt.ControlModifier)  # File > Open
    assert window.document.path == other
    assert panel.result is None
    rows = panel.table.rowCount()
    assert all(
        panel.table.item(r, c) is None or not panel.table.item(r, c).text()
        for r in range(rows)
        for c in range(1, panel.table.columnCount())
    )
    assert "What if this fails?" in panel.title.text()
