"""Find as you type: each key searches on the next turn of the event loop and the previous
query's results are gone the moment the text changes (never shown as this query's)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


def _texts(dialog):
    return [dialog.results.item(i).text() for i in range(dialog.results.count())]


def test_a_key_clears_the_last_results_then_shows_the_new_ones(window, qtbot):
    qtbot.keyClick(window.view, Qt.Key_F, Qt.ControlModifier)
    dialog = window.find_dialog
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.text)
    qtbot.keyClicks(dialog.text, "leaf")
    qtbot.waitUntil(lambda: dialog.results.count() > 0)
    assert all("leaf" in t for t in _texts(dialog))
    qtbot.keyClick(dialog.text, Qt.Key_2)  # "leaf2"
    assert dialog.results.count() == 0 and dialog.status.text() == "…"  # nothing stale
    qtbot.waitUntil(lambda: dialog.results.count() > 0)
    texts = _texts(dialog)
    assert texts[0].startswith("Device leaf2") and not any("leaf1 ·" in t for t in texts)
    qtbot.keyClick(dialog.text, Qt.Key_Return)
    assert window.scene.selected_ids() == ["leaf2"]  # shown in its rack
    dialog.close()


def test_the_index_follows_edits(window, qtbot):
    from gui.edit.commands import UpdateCommand

    qtbot.keyClick(window.view, Qt.Key_F, Qt.ControlModifier)
    dialog = window.find_dialog
    design = window.document.design
    import msgspec

    renamed = msgspec.structs.replace(design.racks["r2"], name="Zed9")
    window.scene.push(UpdateCommand(design, "racks", [renamed]))
    qtbot.keyClicks(dialog.text, "zed9")
    qtbot.waitUntil(lambda: dialog.results.count() > 0)
    assert _texts(dialog) == ["Rack Zed9"]
    dialog.close()
