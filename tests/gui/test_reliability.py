"""Nothing lost, nothing rendered as markup (issue #15) and bad files opened only by choice
(issue #12 item 3), driven like a person: menus, dialogs and buttons."""

from __future__ import annotations

import errno
import json
import os

import msgspec
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QMessageBox

from cli import run_cli
from cli.gui_command import EXAMPLE
from model.files.design_file import design_to_bytes
from tests.builders import small_pod
from tests.gui.conftest import click, close_quietly, make_window, snapshot

MARKUP = '<img src="/dev/zero"><b>R1</b>'


@pytest.fixture
def full_disk(monkeypatch):
    def no_space(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", no_space)


@pytest.mark.parametrize("suffix", ["png", "svg", "pdf"])
def test_render_on_a_full_disk_exits_2_and_keeps_the_old_picture(
    qapp, tmp_path, suffix, request, capsys
):
    out = tmp_path / f"plan.{suffix}"
    args = ["render", str(EXAMPLE), "-o", str(out), "--width", "300", "--no-links"]
    assert run_cli(args) == 0
    before = out.read_bytes()
    request.getfixturevalue("full_disk")
    assert run_cli(args) == 2
    assert "No space left" in capsys.readouterr().err
    assert out.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


def bad_file(tmp_path):
    doc = json.loads(design_to_bytes(small_pod()))
    doc["devices"][0]["type"] = "retired-server"  # a type this Hallwright does not know
    doc["racks"][2]["type"] = "no-such-rack"  # rack r2 and its two servers' links
    path = tmp_path / "bad.hall.json"
    data = json.dumps(doc).encode()
    path.write_bytes(data)
    return path, data


def answer_salvage(qtbot, button_text: str, seen: list[str]) -> None:
    """When the question appears, read it and press the button whose text starts so."""

    def press() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(50, press)
            return
        seen.append(box.text() + "\n" + box.detailedText())
        button = next(b for b in box.buttons() if b.text().startswith(button_text))
        qtbot.mouseClick(button, Qt.LeftButton)

    QTimer.singleShot(50, press)


def test_the_editor_offers_to_open_a_file_without_its_bad_records(window, qtbot, tmp_path):
    path, data = bad_file(tmp_path)
    seen: list[str] = []
    answer_salvage(qtbot, "Open without", seen)
    assert window.open_path(path)
    text = seen[0]
    assert "$.devices[0]" in text and "retired-server" in text
    assert "$.racks[2]" in text and "no-such-rack" in text
    design = window.document.design
    assert "a1" not in design.devices and "r2" not in design.racks
    assert not any(d.rack == "r2" for d in design.devices.values())
    assert window.document.modified and window.document.path == path
    assert path.read_bytes() == data  # the file on disk stays untouched


def test_declining_the_offer_keeps_the_open_design(window, qtbot, tmp_path):
    path, data = bad_file(tmp_path)
    before = snapshot(window)
    seen: list[str] = []
    answer_salvage(qtbot, "Cancel", seen)
    assert not window.open_path(path)
    assert seen and snapshot(window) == before and path.read_bytes() == data


def test_a_failing_autosave_is_shown_in_the_status_bar_and_once_in_a_dialog(window, qtbot, request):
    window.select_all()
    window.rotate_action.trigger()
    request.getfixturevalue("full_disk")
    assert window.autosaver.autosave() is None
    assert "Autosave failed" in window.statusBar().currentMessage()
    boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox)]
    assert len([b for b in boxes if b.isVisible()]) == 1
    window.autosaver.autosave()
    boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox)]
    assert len([b for b in boxes if b.isVisible()]) == 1  # once per session
    for box in boxes:
        box.close()


def test_rack_names_are_shown_as_text_never_as_markup(qtbot, tmp_path):
    design = small_pod()
    rack = design.racks["r1"]
    design.update_racks([msgspec.structs.replace(rack, name=MARKUP)])
    path = tmp_path / "markup.hall.json"
    path.write_bytes(design_to_bytes(design))
    window = make_window(qtbot, tmp_path, path)
    try:
        click(window.view, 1.5, 3.0)
        qtbot.waitUntil(lambda: window.inspector.title.text() == f"Rack {MARKUP}", timeout=3000)
        assert window.inspector.title.textFormat() == Qt.PlainText
        dialog = window.open_elevation("r1")
        shown = QTextDocument()
        shown.setHtml(dialog.summary.text())  # what the label draws
        assert shown.toPlainText().startswith(MARKUP + " — ")  # the name as typed, no image
        assert "<img" not in dialog.summary.text()
    finally:
        close_quietly(window)


def test_save_asks_before_replacing_a_read_only_file(window, pod_file, monkeypatch):
    pod_file.chmod(0o444)
    before = pod_file.read_bytes()
    window.select_all()
    window.rotate_action.trigger()
    asked: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "question", lambda p, t, text, *a: asked.append(text) or QMessageBox.No
    )
    assert not window.files.save()
    assert asked and "read-only" in asked[0] and pod_file.read_bytes() == before
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.Yes)
    assert window.files.save()
    assert pod_file.read_bytes() == snapshot(window)
