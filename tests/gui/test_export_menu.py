"""File → Export: each action asks for a destination, writes files a person (or NetBox, or
Excel) can open, and reports in the status bar; a failure names the file in a message box."""

from __future__ import annotations

import csv
import re
from xml.etree import ElementTree

import openpyxl
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog, QMessageBox

from model.outputs.bom_files import BOM_COLUMNS, SCHEDULE_COLUMNS
from tests.gui.conftest import close_quietly, make_window


@pytest.fixture
def export_window(qtbot, tmp_path, pod_file):
    win = make_window(qtbot, tmp_path, pod_file)
    yield win
    close_quietly(win)


def trigger(window, text: str) -> None:
    actions = {a.text().replace("&", ""): a for a in window.export_menu.actions()}
    actions[text].trigger()


def answer_save(monkeypatch, path, selected: str = "") -> None:
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *args, **kwargs: (str(path), selected))
    )


def test_export_menu_lists_the_six_exports(export_window):
    file_menu = export_window.menuBar().actions()[0].menu()
    assert export_window.export_menu.menuAction() in file_menu.actions()
    assert [a.text().replace("&", "") for a in export_window.export_menu.actions()] == [
        "Bill of materials (CSV/XLSX)…",
        "Cabling schedule (CSV)…",
        "NetBox import files (folder)…",
        "Floor plan picture (PNG/SVG/PDF)…",
        "Rack elevations (PDF)…",
        "P2P for the Cable Validation Tool (CSV/XLSX)…",
    ]


def test_bill_of_materials_as_xlsx_and_csv(export_window, monkeypatch, tmp_path):
    xlsx = tmp_path / "out" / "pod-bom.xlsx"
    xlsx.parent.mkdir()
    answer_save(monkeypatch, xlsx)
    trigger(export_window, "Bill of materials (CSV/XLSX)…")
    book = openpyxl.load_workbook(xlsx, read_only=True)
    assert book.sheetnames == ["Summary", "BOM", "Cabling schedule", "Warnings"]
    assert "pod-bom.xlsx" in export_window.statusBar().currentMessage()
    # no extension typed: the selected filter chooses it
    answer_save(monkeypatch, tmp_path / "out" / "pod-bom", "CSV (*.csv)")
    trigger(export_window, "Bill of materials (CSV/XLSX)…")
    with open(tmp_path / "out" / "pod-bom.csv", newline="") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == BOM_COLUMNS and len(rows) > 2
    assert any("Total" in cell for cell in rows[-1])


def test_cabling_schedule_csv(export_window, monkeypatch, tmp_path):
    out = tmp_path / "schedule.csv"
    answer_save(monkeypatch, out)
    trigger(export_window, "Cabling schedule (CSV)…")
    with open(out, newline="") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == SCHEDULE_COLUMNS
    assert len(rows) - 1 == len(export_window.document.design.links)
    assert "cables" in export_window.statusBar().currentMessage()


def test_netbox_folder(export_window, qtbot, tmp_path):
    """The folder chooser starts beside the design and takes a typed new name."""
    folder = tmp_path / "netbox"
    seen = answer_folder(qtbot, "netbox")
    trigger(export_window, "NetBox import files (folder)…")
    assert seen == [str(export_window.document.path.parent)]
    files = sorted(folder.glob("*/*.csv"))
    assert (folder / "site" / "08_cables.csv").exists()
    assert files and all(f.read_text().strip() for f in files)


def answer_folder(qtbot, typed: str) -> list[str]:
    """Type ``typed`` into the folder dialog the next action opens and choose it; returns
    (once it ran) the folder the dialog started in."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QLineEdit

    from gui.dialogs.folders import FolderDialog

    seen: list[str] = []

    def drive() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, FolderDialog):
            QTimer.singleShot(50, drive)
            return
        seen.append(dialog.directory().absolutePath())
        name = dialog.findChild(QLineEdit, "fileNameEdit")
        name.setText(typed)
        dialog.accept()

    QTimer.singleShot(0, drive)
    return seen


@pytest.mark.parametrize("suffix", ["png", "svg", "pdf"])
def test_floor_plan_picture(export_window, monkeypatch, tmp_path, suffix):
    out = tmp_path / f"floor.{suffix}"
    answer_save(monkeypatch, out)
    trigger(export_window, "Floor plan picture (PNG/SVG/PDF)…")
    if suffix == "png":
        assert QImage(str(out)).width() == 1800
    elif suffix == "svg":
        assert ElementTree.parse(out).getroot().tag.endswith("svg")
    else:
        assert out.read_bytes().startswith(b"%PDF")
    # the editor's own cable plant still follows edits afterwards
    document = export_window.document
    assert document.plant._subscription.active


def test_rack_elevations(export_window, monkeypatch, tmp_path):
    out = tmp_path / "elevations.pdf"
    answer_save(monkeypatch, out)
    trigger(export_window, "Rack elevations (PDF)…")
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and re.search(rb"/Type\s*/Page(?![a-zA-Z])", data)
    assert "pages" in export_window.statusBar().currentMessage()


def test_a_failed_export_names_the_file(export_window, monkeypatch, tmp_path):
    out = tmp_path / "no-such-folder" / "schedule.csv"
    answer_save(monkeypatch, out)
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text: shown.append(text))
    trigger(export_window, "Cabling schedule (CSV)…")
    assert len(shown) == 1 and str(out) in shown[0]


def test_cancelling_the_dialog_writes_nothing(export_window, monkeypatch, tmp_path):
    answer_save(monkeypatch, "")
    trigger(export_window, "Cabling schedule (CSV)…")
    assert list(tmp_path.glob("*.csv")) == []


def test_an_export_through_a_link_to_the_open_design_is_refused(
    export_window, monkeypatch, tmp_path, pod_file
):
    link = tmp_path / "schedule.csv"
    link.symlink_to(pod_file)
    before = pod_file.read_bytes()
    answer_save(monkeypatch, link)
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text: shown.append(text))
    trigger(export_window, "Cabling schedule (CSV)…")
    assert len(shown) == 1 and "it is the open design" in shown[0]
    assert pod_file.read_bytes() == before and link.is_symlink()
