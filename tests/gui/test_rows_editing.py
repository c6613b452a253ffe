"""Rows, driven by clicks and menus: racks placed by hand are named by row and position, a drop
onto another rack is refused unless Shift is held, Renumber by Row is one undo step, Pack closes
the gaps to a spacing, and every row gets its label."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QInputDialog

from gui.document.document import Document, empty_design
from tests.gui.conftest import (
    click,
    close_quietly,
    make_window,
    mouse,
    snapshot,
    wait_until_idle,
)

RACK = "rack:rack-48u-600x1200"


@pytest.fixture
def window(qtbot, tmp_path, pod_file):
    win = make_window(qtbot, tmp_path, pod_file)
    yield win
    close_quietly(win)


def _place(window, points, modifiers=Qt.NoModifier):
    item = window.palette.item_for(RACK)
    window.palette.tree.itemClicked.emit(item, 0)
    for x, y in points:
        mouse(window.view, QEvent.MouseMove, x, y, buttons=Qt.NoButton)
        click(window.view, x, y, modifiers=modifiers)


def _menu_action(window, text):
    arrange = next(
        a.menu()
        for a in window.design_menu.actions()
        if a.menu() is not None and "Arrange" in a.text()
    )
    return next(a for a in arrange.actions() if a.text().replace("&", "") == text)


def test_racks_placed_by_hand_are_named_by_row_and_every_row_is_labelled(qtbot, window):
    window.set_document(Document(empty_design()))
    window.view.fit()
    _place(window, [(3.3, 3.6), (3.9, 3.6), (4.5, 3.6), (3.3, 7.2)])
    qtbot.keyClick(window.view, Qt.Key_Escape)
    design = window.document.design
    names = sorted((r.y, r.x, r.name) for r in design.racks.values())
    assert [n for _y, _x, n in names] == ["A01", "A02", "A03", "B01"]
    wait_until_idle(qtbot)
    labels = [text for text, _x, _y in window.scene.row_labels._labels]
    assert labels == ["Row A", "Row B"]


def test_a_drop_onto_another_rack_is_refused_unless_shift_is_held(qtbot, window):
    design = window.document.design
    before = len(design.racks)
    r1 = design.racks["r1"]
    _place(window, [(r1.x, r1.y)])
    assert len(design.racks) == before
    assert "Not placed" in window.statusBar().currentMessage()
    _place(window, [(r1.x, r1.y)], modifiers=Qt.ShiftModifier)
    assert len(design.racks) == before + 1


def test_renumber_by_row_is_one_undo_step(qtbot, window):
    design = window.document.design
    before = snapshot(window)
    count = window.document.stack.count()
    _menu_action(window, "Renumber Racks by Row").trigger()
    assert [design.racks[r].name for r in ("r1", "n1", "r2")] == ["A01", "A02", "A03"]
    assert window.document.stack.count() == count + 1
    qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier)
    assert snapshot(window) == before


def test_pack_closes_the_gaps_to_the_typed_spacing(qtbot, window, monkeypatch):
    design = window.document.design
    monkeypatch.setattr(QInputDialog, "getDouble", staticmethod(lambda *a, **k: (0.2, True)))
    for rack_id in ("r1", "n1", "r2"):
        window.scene.item_for(rack_id).setSelected(True)
    _menu_action(window, "Pack Horizontally…").trigger()
    r1, n1, r2 = (design.racks[r] for r in ("r1", "n1", "r2"))
    assert r1.x == 1.5  # the first stays
    assert n1.x == pytest.approx(r1.x + r1.width_m + 0.2)
    assert r2.x == pytest.approx(n1.x + n1.width_m + 0.2)
