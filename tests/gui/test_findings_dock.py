"""The findings dock: analysis warnings and cabling-check discrepancies in one list, driven by
clicks and keys: a row selects and zooms to its objects, F8 steps, filters narrow, Export writes."""

from __future__ import annotations

import csv

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from gui.document.document import Document, empty_design
from tests.gui.analysis_support import wait_fresh
from tests.gui.conftest import close_quietly, make_window


@pytest.fixture
def window(qtbot, tmp_path, pod_file):
    win = make_window(qtbot, tmp_path, pod_file)
    yield win
    close_quietly(win)


def _check(window, monkeypatch, tmp_path):
    """A report that sees every link but the last one, and a3 nic1 (free in the design) cabled
    to leaf1 p40 (free too): two UNEXPECTED rows and one MISSING."""
    design = window.document.design
    ids = sorted(design.links)
    path = tmp_path / "lldp.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["local_device", "local_port", "remote_device", "remote_port"])
        for link_id in ids[:-1]:
            link = design.links[link_id]
            writer.writerow([link.a.device, link.a.port, link.b.device, link.b.port])
        writer.writerow(["a3", "nic1", "leaf1", "p40"])
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), ""))
    )
    window.cabling_check_action.trigger()
    return ids


def _click_row(qtbot, panel, row):
    table = panel.table
    rect = table.visualRect(panel.model.index(row, 3))
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=rect.center())


def _rows_of(panel, code):
    model = panel.model
    return [r for r in range(model.rowCount()) if model.finding(r).code == code]


def test_an_unexpected_cable_is_listed_and_its_row_selects_and_zooms(
    qtbot, window, monkeypatch, tmp_path
):
    ids = _check(window, monkeypatch, tmp_path)
    panel = window.findings.panel
    assert window.findings.dock.isVisible()
    unexpected = _rows_of(panel, "CABLING_UNEXPECTED")
    assert len(unexpected) == 2  # a3 nic1 and leaf1 p40 each see a cable the design lacks
    assert any("a3 nic1" in panel.model.finding(r).message for r in unexpected)
    missing = _rows_of(panel, "CABLING_MISSING")
    assert [panel.model.finding(r).objects for r in missing] == [(ids[-1],)]
    view = window.view
    view.scale(4, 4)  # zoomed in away from the rack: the click must bring it into view
    view.centerOn(11, 8)
    row = next(r for r in unexpected if "a3 nic1" in panel.model.finding(r).message)
    _click_row(qtbot, panel, row)
    rack = window.document.design.devices["a3"].rack
    assert window.scene.selected_ids() == [rack]
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.contains(window.scene.item_for(rack).sceneBoundingRect().center())


def test_f8_steps_through_the_findings_and_filters_narrow_the_list(
    qtbot, window, monkeypatch, tmp_path
):
    wait_fresh(qtbot, window)
    ids = _check(window, monkeypatch, tmp_path)
    panel = window.findings.panel
    total = panel.model.rowCount()
    assert total >= 3
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key_F8)
    assert panel.current_row() == 0
    first = panel.model.finding(0).objects
    qtbot.keyClick(window.view, Qt.Key_F8)
    assert panel.current_row() == 1
    qtbot.keyClick(window.view, Qt.Key_F8, Qt.ShiftModifier)
    assert panel.current_row() == 0
    assert first and set(window.scene.selected_ids()) <= {
        *first,
        *(
            window.document.design.devices[o].rack
            for o in first
            if o in window.document.design.devices
        ),
    }
    # the code filter, chosen as a user would: only the MISSING link remains
    combo = panel.code
    combo.setCurrentIndex(combo.findData("CABLING_MISSING"))
    assert panel.model.rowCount() == 1
    assert panel.model.finding(0).objects == (ids[-1],)
    assert "(of " in panel.summary.text()
    qtbot.mouseClick(panel.next_button, Qt.LeftButton)
    assert window.scene.selected_ids() == [ids[-1]]
    # severity "Errors": no cabling error here (nothing MISWIRED) and no MISSING either
    panel.severity.setCurrentIndex(panel.severity.findData("error"))
    assert panel.model.rowCount() == 0


def test_export_writes_the_rows_shown_as_csv(qtbot, window, monkeypatch, tmp_path):
    _check(window, monkeypatch, tmp_path)
    panel = window.findings.panel
    panel.code.setCurrentIndex(panel.code.findData("CABLING_UNEXPECTED"))
    out = tmp_path / "findings.csv"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), ""))
    )
    qtbot.mouseClick(panel.export_button, Qt.LeftButton)
    with open(out, newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["severity", "code", "fabric", "finding", "objects"]
    assert len(rows) == 3 and {r[1] for r in rows[1:]} == {"CABLING_UNEXPECTED"}


def test_opening_another_design_drops_the_last_cabling_check(qtbot, window, monkeypatch, tmp_path):
    _check(window, monkeypatch, tmp_path)
    assert _rows_of(window.findings.panel, "CABLING_UNEXPECTED")
    window.set_document(Document(empty_design()))
    assert not _rows_of(window.findings.panel, "CABLING_UNEXPECTED")


def test_sixty_thousand_findings_are_a_table_model_not_items(qtbot, monkeypatch):
    """An XL check's 60k rows: set, filtered, painted and stepped without an item per row. The
    work is counted, not timed (a wall-clock window flakes on a loaded machine): the view asks
    the model only for the rows it paints. The time it takes is in make bench (editor: findings
    panel takes 60k findings)."""
    from gui.panels.findings_model import FindingsModel
    from gui.panels.findings_panel import FindingsPanel
    from model.common.findings import Finding

    asked_rows: list[int] = []
    data = FindingsModel.data

    def counted(self, index, *args):
        asked_rows.append(index.row())
        return data(self, index, *args)

    monkeypatch.setattr(FindingsModel, "data", counted)
    findings = [
        Finding(
            code=f"CODE_{i % 7}",
            severity=("error", "warning", "info")[i % 3],
            message=f"link l-{i}",
            objects=(f"l-{i}",),
        )
        for i in range(60_000)
    ]
    panel = FindingsPanel()
    qtbot.addWidget(panel)
    panel.resize(800, 400)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_findings(findings, ["compute", "storage", ""] * 20_000)
    panel.code.setCurrentIndex(panel.code.findData("CODE_3"))
    panel.step(-1)  # wraps to the last of ~8.6k rows: the view scrolls there
    panel.grab()  # paints the panel as shown, scrolled to that row
    assert panel.model.rowCount() == len([f for f in findings if f.code == "CODE_3"])
    assert panel.current_row() == panel.model.rowCount() - 1
    assert panel.model.finding(panel.current_row()).code == "CODE_3"
    shown = {panel.model.finding(r).code for r in range(panel.model.rowCount())}
    assert shown == {"CODE_3"}
    # The rows painted: a viewport's worth at the top and at the end, not 8.6k (nor 60k).
    row_height_px = panel.table.verticalHeader().defaultSectionSize()
    rows_in_view = panel.table.viewport().height() // row_height_px + 1
    assert asked_rows, "the table painted no row"
    assert len(set(asked_rows)) <= 2 * (rows_in_view + 1)
    assert max(asked_rows) == panel.model.rowCount() - 1


def test_a_measured_length_typed_in_the_inspector_is_listed_with_its_fabric(qtbot, window):
    """The analysis worker makes the findings and their fabrics (AnalysisResult.findings,
    .finding_fabrics); the dock shows them as they came, computing nothing."""
    from model.asbuilt.findings import LENGTH_CODE
    from model.design.fabrics import link_fabric_map

    design = window.document.design
    wait_fresh(qtbot, window)
    link_id = sorted(design.links)[0]
    window.scene.select_ids([link_id])
    qtbot.waitUntil(lambda: "as_built" in window.inspector.fields, timeout=3000)
    spin = window.inspector.fields["as_built"]
    qtbot.waitUntil(spin.isVisible, timeout=3000)
    qtbot.mouseClick(spin, Qt.LeftButton)
    spin.selectAll()
    qtbot.keyClicks(spin, "95")  # 95 m measured on a link routed a few metres long
    qtbot.keyClick(spin, Qt.Key_Return)
    assert design.links[link_id].as_built_m == 95.0
    wait_fresh(qtbot, window)
    result = window.analysis_docks.runner.result
    assert [f.code for f in result.findings].count(LENGTH_CODE) == 1
    assert len(result.finding_fabrics) == len(result.findings)
    panel = window.findings.panel
    rows = _rows_of(panel, LENGTH_CODE)
    assert len(rows) == 1
    fabric = panel.model.index(rows[0], 2).data()
    assert fabric == link_fabric_map(design)[link_id] != ""
