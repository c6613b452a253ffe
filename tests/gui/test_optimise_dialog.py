"""Design > Optimise Placement…: run on a worker, watch the best so far, see the moves as arrows
on the plan, apply them as one undo step; a stale result is refused."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from gui.canvas.move_preview_item import MovePreviewItem
from model.files.design_file import design_to_bytes, save_design
from model.generators.generate import generate
from model.optimise.moves import network_racks
from tests.gui.conftest import close_quietly, make_window


@pytest.fixture
def far_window(qtbot, tmp_path):
    """An 8-node leaf-spine pod whose leaf rack stands in the far corner (its links optics)."""
    design = generate("leaf-spine", nodes=8, node_type="dgx-h100", switch="qm9700")
    design.move_racks({network_racks(design)[0]: (5.1, 6.6)})
    path = tmp_path / "far.hall.json"
    save_design(design, path)
    win = make_window(qtbot, tmp_path, path)
    yield win
    close_quietly(win)


def _open_dialog(window):
    menu = window.design_menu
    action = next(a for a in menu.actions() if a.text() == "&Optimise Placement…")
    action.trigger()
    return window.optimise_dialog


def _run(qtbot, dialog):
    dialog.iterations.setValue(120)
    dialog.seed.setValue(3)
    qtbot.mouseClick(dialog.run_button, Qt.LeftButton)
    assert dialog.is_running()
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=120_000)


def test_run_preview_apply_and_undo(qtbot, far_window):
    window = far_window
    before = design_to_bytes(window.document.design)
    dialog = _open_dialog(window)
    _run(qtbot, dialog)
    assert dialog.result is not None and dialog.result.changed, dialog.best_label.text()
    assert "Best so far" not in dialog.best_label.text()  # the final sentence replaced it
    text = dialog.report.toPlainText()
    assert "What each move bought" in text and "links changed medium" in text
    previews = [i for i in window.scene.items() if isinstance(i, MovePreviewItem)]
    assert len(previews) == 1 and previews[0].moves
    assert design_to_bytes(window.document.design) == before  # nothing moved before Apply

    qtbot.mouseClick(dialog.apply_button, Qt.LeftButton)
    moved = {m["rack"]: tuple(m["to"]) for m in dialog.result.report["moved"]}
    racks = window.document.design.racks
    assert all((racks[r].x, racks[r].y) == to for r, to in moved.items())
    assert window.document.stack.undoText().startswith("Optimise placement: move ")
    assert not [i for i in window.scene.items() if isinstance(i, MovePreviewItem)]
    window.document.stack.undo()
    assert design_to_bytes(window.document.design) == before


def test_an_edit_after_the_run_makes_the_result_stale(qtbot, far_window):
    window = far_window
    dialog = _open_dialog(window)
    _run(qtbot, dialog)
    assert dialog.apply_button.isEnabled()
    # The user nudges a rack after the run: the proposal was priced for another layout.
    rack = next(iter(window.document.design.racks.values()))
    window.select_all()
    window.scene.clearSelection()
    from gui.edit.commands import MoveRacksCommand

    window.scene.push(MoveRacksCommand(window.document.design, {rack.id: (rack.x, rack.y + 0.6)}))
    after_edit = design_to_bytes(window.document.design)
    qtbot.mouseClick(dialog.apply_button, Qt.LeftButton)
    assert "changed since this run" in dialog.best_label.text()
    assert design_to_bytes(window.document.design) == after_edit


def test_stop_ends_the_run_at_its_best_so_far(qtbot, far_window):
    dialog = _open_dialog(far_window)
    dialog.iterations.setValue(100_000)
    dialog.seconds.setValue(600)
    qtbot.mouseClick(dialog.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: dialog.progress.value() > 0, timeout=60_000)
    qtbot.mouseClick(dialog.stop_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: not dialog.is_running(), timeout=60_000)
    assert dialog.result is not None
    runs = dialog.result.report.get("runs")
    assert runs is None or runs[0]["stopped"]
    assert dialog.progress.value() == dialog.progress.maximum()


def test_vary_optics_applies_the_tiers_with_the_moves_as_one_step(qtbot, tmp_path):
    design = generate("leaf-spine", nodes=4, node_type="dgx-b300", switch="q3400")
    path = tmp_path / "xdr.hall.json"
    save_design(design, path)
    window = make_window(qtbot, tmp_path, path)
    try:
        before = design_to_bytes(window.document.design)
        dialog = _open_dialog(window)
        dialog.preset.setCurrentText("power")
        dialog.vary_optics.setChecked(True)
        dialog.iterations.setValue(10)
        qtbot.mouseClick(dialog.run_button, Qt.LeftButton)
        qtbot.waitUntil(lambda: not dialog.is_running(), timeout=120_000)
        assert dialog.result is not None and dialog.result.changed, dialog.best_label.text()
        assert "Leaf tier pluggable -> co-packaged" in dialog.report.toPlainText()
        qtbot.mouseClick(dialog.apply_button, Qt.LeftButton)
        live = window.document.design
        assert design_to_bytes(live) == design_to_bytes(dialog.result.design)
        assert {d.type for d in live.devices.values() if d.role == "leaf"} == {"q3450-ld"}
        assert ", optics of " in window.document.stack.undoText()
        window.document.stack.undo()
        assert design_to_bytes(window.document.design) == before
    finally:
        close_quietly(window)


def test_servers_within_their_su_apply_with_one_undo_step(qtbot, tmp_path):
    from tests.model.test_optimise_servers import _two_rack_su

    design, home = _two_rack_su()
    path = tmp_path / "su.hall.json"
    save_design(design, path)
    window = make_window(qtbot, tmp_path, path)
    try:
        before = design_to_bytes(window.document.design)
        dialog = _open_dialog(window)
        for box in dialog.tier_boxes.values():
            box.setChecked(False)
        dialog.servers.setChecked(True)
        dialog.iterations.setValue(5)
        qtbot.mouseClick(dialog.run_button, Qt.LeftButton)
        qtbot.waitUntil(lambda: not dialog.is_running(), timeout=120_000)
        assert dialog.result is not None and dialog.result.changed, dialog.best_label.text()
        assert "Servers placed anew within their SU" in dialog.report.toPlainText()
        qtbot.mouseClick(dialog.apply_button, Qt.LeftButton)
        live = window.document.design
        assert {s: live.devices[s].rack for s in home} == home
        assert window.document.stack.undoText().endswith(" servers")
        window.document.stack.undo()
        assert design_to_bytes(window.document.design) == before
    finally:
        close_quietly(window)
