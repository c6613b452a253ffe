"""Documents: save, close and reopen; the unsaved-changes prompt; autosave and recovery after a
crash; a malformed file shows an error and stays untouched; new, revert, recent files."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

import gui.document.files as document_files_module
from gui.document.document import empty_design
from model.files.design_file import design_to_bytes
from tests.gui.conftest import click, close_quietly, drag, make_window, snapshot


def test_save_as_close_and_reopen_gives_the_same_design(window, qtbot, tmp_path, monkeypatch):
    drag(window.view, (1.5, 3.0), (1.5, 6.6))
    edited = snapshot(window)
    assert window.isWindowModified() and "[*]" in window.windowTitle()
    target = tmp_path / "copy"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.save_as_action.trigger()
    saved = tmp_path / "copy.hall.json"
    assert saved.read_bytes() == edited
    assert not window.isWindowModified()
    assert window.windowTitle().startswith("copy.hall.json")
    window.close()
    assert not window.isVisible()
    again = make_window(qtbot, tmp_path, saved)
    assert snapshot(again) == edited
    assert str(saved.resolve()) in again.recent.paths()
    close_quietly(again)


def test_ctrl_s_saves_to_the_open_file(window, qtbot, pod_file):
    click(window.view, 1.5, 3.0)
    qtbot.keyClick(window.view, Qt.Key_R)
    qtbot.keyClick(window.view, Qt.Key_S, Qt.ControlModifier)
    assert pod_file.read_bytes() == snapshot(window)
    assert window.document.stack.isClean()


def test_closing_with_unsaved_changes_asks_and_cancel_keeps_the_window(window, monkeypatch):
    click(window.view, 1.5, 3.0)
    window.rotate_action.trigger()
    asked = []

    def answer(button):
        def warning(parent, title, text, *args):
            asked.append(text)
            return button

        return warning

    monkeypatch.setattr(QMessageBox, "warning", answer(QMessageBox.Cancel))
    assert not window.close()
    assert window.isVisible() and asked and "unsaved changes" in asked[0]
    monkeypatch.setattr(QMessageBox, "warning", answer(QMessageBox.Discard))
    assert window.close()


def test_prompt_save_writes_the_file_before_closing(window, pod_file, monkeypatch):
    click(window.view, 1.5, 3.0)
    window.rotate_action.trigger()
    edited = snapshot(window)
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: QMessageBox.Save)
    assert window.close()
    assert pod_file.read_bytes() == edited


def test_autosave_writes_a_recovery_file_that_a_new_session_offers(
    window, qtbot, tmp_path, pod_file, monkeypatch
):
    original = pod_file.read_bytes()
    click(window.view, 1.5, 3.0)
    window.delete_action.trigger()
    edited = snapshot(window)
    window.autosaver.timer.setInterval(20)
    recovery = window.autosaver.recovery_path(window.document)
    qtbot.waitUntil(recovery.exists, timeout=3000)
    assert recovery.read_bytes() == edited
    # simulate a crash: the window disappears without closing the document
    window.autosaver.timer.stop()
    window.hide()
    asked = []
    monkeypatch.setattr(
        QMessageBox,
        "question",
        lambda parent, title, text, *a: asked.append(text) or QMessageBox.Yes,
    )
    fresh = make_window(qtbot, tmp_path)
    assert fresh.offer_recovery()
    assert asked and "pod.hall.json" in asked[0]
    assert snapshot(fresh) == edited
    assert fresh.document.path == pod_file
    assert fresh.document.modified and fresh.isWindowModified()
    assert pod_file.read_bytes() == original  # recovery never writes the user's file
    # the recovery file stays until the recovered design is saved or autosaved: a second
    # crash right after recovering must not lose the recovered edits
    assert recovery.read_bytes() == edited
    fresh.autosaver.timer.stop()
    fresh.hide()
    again = make_window(qtbot, tmp_path)
    assert again.offer_recovery()
    assert snapshot(again) == edited
    again.save_action.trigger()
    assert pod_file.read_bytes() == edited
    assert not recovery.exists() and again.autosaver.pending() == []
    close_quietly(again)
    close_quietly(fresh)


def test_saving_removes_the_recovery_file(window, qtbot):
    click(window.view, 1.5, 3.0)
    window.rotate_action.trigger()
    path = window.autosaver.autosave()
    assert path is not None and path.exists()
    window.save_action.trigger()
    assert not path.exists()
    assert window.autosaver.pending() == []


def test_malformed_file_shows_an_error_and_is_left_unchanged(window, tmp_path, monkeypatch):
    bad = tmp_path / "bad.hall.json"
    content = b'{"format": "hallwright", "schema_version": 1, "name": "x", "hall": {"outline": 5}}'
    bad.write_bytes(content)
    before = snapshot(window)
    errors = []
    monkeypatch.setattr(
        QMessageBox, "critical", lambda parent, title, text, *a: errors.append(text)
    )
    assert not window.open_path(bad)
    assert errors and "bad.hall.json" in errors[0] and "outline" in errors[0]
    assert bad.read_bytes() == content
    assert snapshot(window) == before  # the open document is untouched


def test_open_via_dialog_and_file_dropped_on_window(window, qtbot, tmp_path, monkeypatch):
    other = tmp_path / "other.hall.json"
    design = empty_design(10, 6, name="Other")
    other.write_bytes(design_to_bytes(design))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(other), ""))
    window.open_action.trigger()
    assert window.document.design.name == "Other"
    assert window.document.path == other
    assert str(other.resolve()) == window.recent.paths()[0]
    window.view.files_dropped.emit([str(window.recent.paths()[1])])
    assert window.document.path.name == "pod.hall.json"


def test_new_empty_hall(window, monkeypatch):
    class FakeNewHallDialog:
        Accepted = 1

        def __init__(self, parent):
            pass

        def exec(self):
            return 1

        def builder(self):
            return lambda: empty_design(30, 20, name="Hall B")

    monkeypatch.setattr(document_files_module, "NewHallDialog", FakeNewHallDialog)
    window.new_action.trigger()
    assert window.document.design.name == "Hall B"
    assert window.document.path is None
    assert window.scene.racks == {}
    assert window.windowTitle().startswith("Hall B (unsaved)")


def test_revert_reloads_the_saved_file(window, pod_file, monkeypatch):
    original = pod_file.read_bytes()
    click(window.view, 1.5, 3.0)
    window.delete_action.trigger()
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.Yes)
    window.revert_action.trigger()
    assert snapshot(window) == original
    assert not window.document.modified


def test_recovered_unsaved_design_reopens_without_a_path(qtbot, tmp_path, monkeypatch):
    win = make_window(qtbot, tmp_path)
    win.palette.tree.itemClicked.emit(win.palette.item_for("rack:rack-48u-600x1200"), 0)
    click(win.view, 3.0, 3.0)
    assert win.document.modified
    path = win.autosaver.autosave()
    edited = snapshot(win)
    win.autosaver.timer.stop()
    win.hide()
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.Yes)
    fresh = make_window(qtbot, tmp_path)
    assert fresh.offer_recovery()
    assert snapshot(fresh) == edited and fresh.document.path is None
    # kept, and reused by the recovered document: its autosave replaces it, a save removes it
    assert fresh.autosaver.recovery_path(fresh.document) == Path(path)
    assert len(fresh.autosaver.pending()) == 1
    close_quietly(fresh)
    close_quietly(win)


def test_new_design_from_a_template_is_generated_with_progress(window, monkeypatch):
    from gui.dialogs.design_dialogs import NewHallDialog

    class ChooseRailOptimized(NewHallDialog):
        def exec(self):  # the person picks a template and a size, then OK
            self.template.setCurrentIndex(self.template.findData("rail-optimized"))
            self.nodes.setValue(32)
            self.su_nodes.setValue(32)
            assert "GPU" in self.preview.text() or "gpus" in self.preview.text().lower()
            return NewHallDialog.Accepted

    monkeypatch.setattr(document_files_module, "NewHallDialog", ChooseRailOptimized)
    window.new_action.trigger()
    design = window.document.design
    assert design.gpu_count() == 256 and design.links
    assert set(window.scene.racks) == set(design.racks)
    assert window.document.path is None
