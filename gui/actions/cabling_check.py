"""File → Check cabling against a report…: the cabling check's problems painted on the plan.

Reads a neighbour report (LLDP / ibnetdiscover as CSV), runs ``model.asbuilt.cabling_check``
on the open design and marks every MISWIRED and MISSING link along its route with an overlay of
its own (not the analysis warnings' marks, which refresh with every edit), selects those links
so the links table and inspector show them, lists every discrepancy (UNEXPECTED cables too) in
the findings dock and reports the counts in the status bar. Opening
another report replaces the marks; "Clear cabling check" removes them. The marks show the routes
as they were when checked (a later edit does not move them: check again).
"""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QMessageBox

from gui.dialogs.folders import design_folder
from gui.panels.warning_marks import WarningMarksItem
from model.asbuilt.cabling_check import ReportError, check_cabling, read_report, summary
from model.asbuilt.findings import cabling_findings

REPORT_FILTER = "Neighbour report (*.csv);;All files (*)"


def add_cabling_check_actions(window: QMainWindow, file_menu: QMenu) -> None:
    check = QAction("Check cabling against a &report…", window)
    clear = QAction("Clear cabling check", window)
    check.triggered.connect(lambda: run_cabling_check(window))
    clear.triggered.connect(lambda: clear_cabling_check(window))
    file_menu.addAction(check)
    file_menu.addAction(clear)
    window.cabling_check_action = check
    window.cabling_clear_action = clear
    window.cabling_marks = None


def clear_cabling_check(window: QMainWindow) -> None:
    marks = window.cabling_marks
    window.cabling_marks = None
    try:
        scene = marks.scene() if marks is not None else None
    except RuntimeError:  # the document (and its scene with the marks) was closed meanwhile
        scene = None
    if scene is not None:
        scene.removeItem(marks)
    findings_dock = getattr(window, "findings", None)
    if findings_dock is not None:
        findings_dock.set_cabling([])


def run_cabling_check(window: QMainWindow, path: str | None = None) -> dict[str, int] | None:
    """Check the open design against the report at ``path`` (asked for when None)."""
    if window.document is None or window.scene is None:
        return None
    if path is None:
        start = design_folder(window)  # reports are kept beside the design, not in home
        path, _ = QFileDialog.getOpenFileName(window, "Neighbour report", start, REPORT_FILTER)
        if not path:
            return None
    design = window.document.design
    try:
        rows = check_cabling(design, read_report(path))
    except ReportError as exc:
        QMessageBox.warning(window, "Cabling check", str(exc))
        return None
    findings = cabling_findings(design, rows)
    # Painted and selected: the links cabled wrong or not seen (a free port's cable or an
    # unknown device is listed in the findings dock, with its rack to zoom to)
    on_links = [f for f in findings if f.objects and f.objects[0] in design.links]
    clear_cabling_check(window)
    marks = WarningMarksItem(window.scene)
    marks.setZValue(45)
    window.scene.addItem(marks)
    marks.set_findings(on_links)
    window.cabling_marks = marks
    window.scene.select_ids([f.objects[0] for f in on_links])
    findings_dock = getattr(window, "findings", None)
    if findings_dock is not None:
        findings_dock.set_cabling(findings)
    counts = summary(rows)
    window.statusBar().showMessage(
        "Cabling check: " + ", ".join(f"{n} {status}" for status, n in counts.items())
    )
    return counts
