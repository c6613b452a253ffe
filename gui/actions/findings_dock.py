"""FindingsDock: the findings list docked under the plan, fed by each analysis (its warnings and
the measured-length deviations) and by the last cabling check; Next / Previous Finding (F8,
Shift+F8) and Export as CSV.

The findings are the model's (``Report.warnings``, ``model.asbuilt.findings``): this module only
gathers them for the document open now and drops the cabling check's when another opens.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox

from gui.panels.findings_model import COLUMNS
from gui.panels.findings_panel import FindingsPanel
from model.asbuilt.findings import finding_fabrics
from model.common.findings import Finding
from model.outputs.writers import ExportError
from model.outputs.writers.csv_writer import write_csv

CSV_FILTER = "CSV (*.csv)"


class FindingsDock(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.panel = FindingsPanel()
        self.dock = window.add_panel("Findings", self.panel, Qt.BottomDockWidgetArea)
        # A tab beside the warnings, links and charts: the plan keeps its height
        window.tabifyDockWidget(window.analysis_docks.details_dock, self.dock)
        window.analysis_docks.details_dock.raise_()
        self.warnings: list[Finding] = []
        self.warning_fabrics: list[str] = []  # the worker's, one per warning
        self.cabling: list[Finding] = []
        self.cabling_fabrics: list[str] = []
        self.panel.objects_chosen.connect(window.analysis_docks.select_objects)
        self.panel.export_requested.connect(self.export)
        window.analysis_docks.report_shown.connect(self._report)
        window.document_set.connect(self._document_set)
        self.next_action = self._action("Next Finding", "F8", lambda: self._step(1))
        self.previous_action = self._action("Previous Finding", "Shift+F8", lambda: self._step(-1))

    def _action(self, text: str, key: str, slot) -> QAction:
        action = QAction(text, self.window)
        action.setShortcut(QKeySequence(key))
        action.setShortcutContext(Qt.ApplicationShortcut)  # from the plan and from the list
        action.setStatusTip(f"Select and zoom to the {text.split()[0].lower()} finding ({key})")
        action.triggered.connect(slot)
        self.window.addAction(action)
        self.window.design_menu.addAction(action)
        return action

    def _step(self, direction: int) -> None:
        self.dock.show()
        self.dock.raise_()
        self.panel.step(direction)

    # ------------------------------------------------------------------ sources

    def _document_set(self) -> None:
        """Another design is open: the last one's findings and cabling check are not its."""
        self.warnings, self.cabling = [], []
        self.warning_fabrics, self.cabling_fabrics = [], []
        self._show()

    def _report(self, result) -> None:
        """An analysis's findings and their fabrics, as its worker made them: nothing is
        computed here on the GUI thread."""
        if self.window.document is None:
            return
        self.warnings, self.warning_fabrics = result.findings, result.finding_fabrics
        self._show()

    def set_cabling(self, findings: list[Finding]) -> None:
        """The last cabling check's discrepancies (an empty list clears them)."""
        self.cabling = list(findings)
        document = self.window.document
        # Once per check (the user's action), not after every analysis
        self.cabling_fabrics = (
            finding_fabrics(document.design, self.cabling) if document is not None else []
        )
        self._show()
        if findings:
            self.dock.show()
            self.dock.raise_()

    def _show(self) -> None:
        findings = [*self.warnings, *self.cabling]
        fabrics = [*self.warning_fabrics, *self.cabling_fabrics]
        document = self.window.document
        name = self.window.analysis_docks.object_name if document is not None else None
        self.panel.set_findings(findings, fabrics, name)

    # ------------------------------------------------------------------ export

    def export(self, path: str | None = None) -> bool:
        """Write the findings shown (filters applied) as CSV through the project's writer."""
        if path is None:
            document = self.window.document
            start = ""
            if document is not None and document.path is not None:
                start = str(Path(document.path).with_suffix("").with_suffix("")) + "-findings.csv"
            path, _ = QFileDialog.getSaveFileName(self.window, "Export findings", start, CSV_FILTER)
            if not path:
                return False
        try:
            write_csv(path, [c.lower() for c in COLUMNS], self.panel.model.table_rows())
        except ExportError as exc:
            QMessageBox.warning(self.window, "Export findings", str(exc))
            return False
        self.window.statusBar().showMessage(f"Findings written to {path}", 6000)
        return True


def install_findings_dock(window) -> FindingsDock:
    """Dock the findings list in ``window`` (after the analysis docks it lists)."""
    return FindingsDock(window)
