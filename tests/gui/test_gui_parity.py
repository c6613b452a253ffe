"""GUI parity with the command line (issue 38 item 6): File > Export > P2P writes what
``export-p2p`` writes; the NetBox site, location and tenant typed in Design Settings reach
File > Export > NetBox; the check-cabling, compare and sweep file dialogs start beside the
design file."""

from __future__ import annotations

import csv

import openpyxl
import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog

from gui.panels.settings_dialog import DesignSettingsDialog
from model.outputs.p2p import P2P_COLUMNS
from tests.gui.test_export_menu import answer_folder, answer_save, trigger


@pytest.fixture
def export_window(window):
    return window


@pytest.mark.parametrize(
    ("name", "selected", "port"),
    [
        ("pod-p2p.csv", "CSV, design port names (*.csv)", "nic1"),
        ("pod-p2p", "Excel workbook, InfiniBand cage/port numbers (*.xlsx)", None),
    ],
)
def test_p2p_from_the_export_menu(window, monkeypatch, tmp_path, name, selected, port):
    answer_save(monkeypatch, tmp_path / name, selected)
    trigger(window, "P2P for the Cable Validation Tool (CSV/XLSX)…")
    links = len(window.document.design.links)
    if name.endswith(".csv"):
        with open(tmp_path / name, newline="") as handle:
            rows = list(csv.reader(handle))
    else:
        sheet = openpyxl.load_workbook(tmp_path / f"{name}.xlsx", read_only=True)["P2P"]
        rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    assert tuple(rows[0]) == P2P_COLUMNS and len(rows) - 1 == links
    ports = {str(cell) for row in rows[1:] for cell in row}
    if port is not None:
        assert port in ports  # the design's own port names
    else:
        assert "nic1" not in ports  # InfiniBand numbering instead
    assert f"{links} cables" in window.statusBar().currentMessage()


def test_netbox_names_typed_in_design_settings_reach_the_export(window, qtbot, tmp_path):
    design = window.document.design

    def drive():
        dialog = window.findChild(DesignSettingsDialog)
        if dialog is None or not dialog.isVisible():
            QTimer.singleShot(50, drive)
            return
        for field, text in (
            (dialog.netbox_site, "AMS-DH1"),
            (dialog.netbox_location, "Hall 1 West"),
            (dialog.netbox_tenant, "Research"),
        ):
            field.clear()
            qtbot.keyClicks(field, text)
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok).click()

    QTimer.singleShot(0, drive)
    window.analysis_docks.settings_action.trigger()
    assert (
        design.settings.netbox_site,
        design.settings.netbox_location,
        design.settings.netbox_tenant,
    ) == ("AMS-DH1", "Hall 1 West", "Research")
    assert window.document.stack.undoText() == "Edit design settings"
    answer_folder(qtbot, "netbox-new")
    trigger(window, "NetBox import files (folder)…")
    with open(tmp_path / "netbox-new" / "site" / "06_racks.csv", newline="") as handle:
        racks = list(csv.DictReader(handle))
    assert {(r["site"], r["location"], r["tenant"]) for r in racks} == {
        ("AMS-DH1", "Hall 1 West", "Research")
    }
    window.document.stack.undo()
    assert design.settings.netbox_site == ""


def test_file_dialogs_start_beside_the_design(window, monkeypatch):
    starts = []

    def record(parent, title, start, *args, **kwargs):
        starts.append((title, start))
        return "", ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(record))
    from gui.actions.cabling_check import run_cabling_check

    run_cabling_check(window)
    window.whatif.compare_with_dialog()
    window.whatif.open_sweep_dialog()
    QApplication.processEvents()
    folder = str(window.document.path.parent)
    assert [s for _t, s in starts] == [folder, folder, folder]
