"""Inspector edits (model -> view and view -> undo command -> model), keyboard shortcuts,
copy/paste/duplicate of racks with their devices and internal links."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.gui.conftest import click, snapshot


def settle(window=None, qtbot=None):
    """Let the inspector rebuild (debounced) and show its new fields."""
    QApplication.processEvents()
    QApplication.processEvents()
    if qtbot is not None:
        qtbot.waitUntil(
            lambda: all(w.isVisible() for w in window.inspector.fields.values()), timeout=2000
        )


def test_rename_rack_in_inspector_is_one_undoable_command(window, qtbot):
    before = snapshot(window)
    click(window.view, 2.7, 3.0)
    settle(window, qtbot)
    assert window.inspector.title.text() == "Rack R2"
    edit = window.inspector.fields["name"]
    edit.setFocus()  # as a person clicking into the field
    edit.selectAll()
    qtbot.keyClicks(edit, "B07")
    qtbot.keyClick(edit, Qt.Key_Return)
    assert window.document.design.racks["r2"].name == "B07"
    assert window.document.stack.undoText() == "Edit rack R2"
    settle()
    assert window.scene.racks["r2"]._label == "B07"  # the plan follows the model
    window.undo_action.trigger()
    assert snapshot(window) == before
    settle()
    assert window.inspector.fields["name"].text() == "R2"  # and so does the inspector


def test_duplicate_rack_name_is_refused_with_a_sentence(window, qtbot):
    click(window.view, 2.7, 3.0)
    settle(window, qtbot)
    edit = window.inspector.fields["name"]
    edit.setFocus()  # as a person clicking into the field
    edit.selectAll()
    qtbot.keyClicks(edit, "R1")
    qtbot.keyClick(edit, Qt.Key_Return)
    assert window.document.design.racks["r2"].name == "R2"
    assert "already called R1" in window.inspector.error.text()


def test_multi_selection_edit_applies_to_all(window):
    click(window.view, 1.5, 3.0)
    click(window.view, 2.7, 3.0, modifiers=Qt.ShiftModifier)
    settle()
    assert window.inspector.title.text() == "2 racks"
    spin = window.inspector.fields["budget"]
    spin.setValue(60.0)
    design = window.document.design
    assert design.racks["r1"].power_budget_kw == design.racks["r2"].power_budget_kw == 60.0
    assert design.racks["n1"].power_budget_kw == 45.0
    window.undo_action.trigger()
    assert design.racks["r1"].power_budget_kw == 45.0


def test_pin_a_link_medium_in_inspector(window):
    design = window.document.design
    window.scene.select_ids(["l-1"])
    settle()
    combo = window.inspector.fields["medium"]
    index = next(i for i in range(combo.count()) if combo.itemData(i) == "dr4-400g")
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    assert design.links["l-1"].medium == "dr4-400g"
    plant = window.document.plant
    if plant is not None:
        plant.refresh()
        assert plant.medium("l-1").id == "dr4-400g"


def test_arrow_keys_nudge_by_a_tile_and_merge_into_one_undo_step(window, qtbot):
    before = snapshot(window)
    count = window.document.stack.count()
    click(window.view, 1.5, 3.0)
    for _ in range(3):
        qtbot.keyClick(window.view, Qt.Key_Down)
    assert window.document.design.racks["r1"].y == 4.8
    assert window.document.stack.count() == count + 1
    qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier)
    assert snapshot(window) == before
    qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert window.document.design.racks["r1"].y == 4.8


def test_copy_paste_and_duplicate_racks_with_devices_and_internal_links(window, qtbot):
    design = window.document.design
    before = snapshot(window)
    racks = len(design.racks)
    click(window.view, 1.5, 3.0)
    click(window.view, 2.1, 3.0, modifiers=Qt.ShiftModifier)
    internal = {
        lk
        for lk in design.links_of_racks(["r1", "n1"])
        if {
            design.devices[design.links[lk].a.device].rack,
            design.devices[design.links[lk].b.device].rack,
        }
        <= {"r1", "n1"}
    }
    qtbot.keyClick(window.view, Qt.Key_C, Qt.ControlModifier)
    qtbot.keyClick(window.view, Qt.Key_V, Qt.ControlModifier)
    assert len(design.racks) == racks + 2
    new = [r for r in design.racks.values() if r.id not in ("r1", "r2", "n1")]
    assert sorted(r.name for r in new) == ["R03", "R04"]
    # one block (1.2 m) to the right would stand on R2 (2.4-3.0 m): the next free place
    assert {r.x for r in new} == {1.5 + 2.4, 2.1 + 2.4}
    new_ids = {r.id for r in new}
    new_devices = [d for d in design.devices.values() if d.rack in new_ids]
    assert len(new_devices) == 5  # a1, a2, a3, leaf1, leaf2
    new_links = design.links_of_racks(new_ids)
    assert len(new_links) == len(internal)
    assert set(window.scene.selected_ids()) == new_ids
    qtbot.keyClick(window.view, Qt.Key_D, Qt.ControlModifier)
    assert len(design.racks) == racks + 4
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert snapshot(window) == before


def test_cut_removes_and_paste_puts_back_beside(window, qtbot):
    design = window.document.design
    click(window.view, 2.7, 3.0)
    qtbot.keyClick(window.view, Qt.Key_X, Qt.ControlModifier)
    assert "r2" not in design.racks
    qtbot.keyClick(window.view, Qt.Key_V, Qt.ControlModifier)
    assert len(design.racks) == 3


def test_mode_shortcuts_and_escape_back_to_select(window, qtbot):
    for key, label in ((Qt.Key_T, "Draw tray"), (Qt.Key_C, "Connect"), (Qt.Key_M, "Measure")):
        qtbot.keyClick(window.view, key)
        assert window.mode_label.text().strip() == f"{label} mode"
        qtbot.keyClick(window.view, Qt.Key_Escape)
        assert window.mode_label.text().strip() == "Select mode"


def test_select_all_and_delete(window, qtbot):
    before = snapshot(window)
    qtbot.keyClick(window.view, Qt.Key_A, Qt.ControlModifier)
    assert set(window.scene.selected_ids()) == {"r1", "r2", "n1"}
    qtbot.keyClick(window.view, Qt.Key_Delete)
    assert window.document.design.racks == {}
    assert window.document.stack.undoText() == "Delete 3 racks"
    window.undo_action.trigger()
    assert snapshot(window) == before


def test_undo_menu_names_the_step_and_history_lists_it(window):
    click(window.view, 1.5, 3.0)
    window.rotate_action.trigger()
    assert window.undo_action.text() == "&Undo Rotate rack R1"
    assert window.undo_view.stack().count() == 1
