"""FindingsPanel: the findings list (like a DRC report): filters, the table, next / previous and
export; choosing a row emits the ids of its objects for the window to select and zoom to."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from gui.panels.findings_model import ALL, NO_FABRIC, SEVERITY_NAMES, FindingsModel
from gui.plain_text import plain_labels
from model.common.findings import Finding
from model.common.wording import count


class FindingsPanel(QWidget):
    objects_chosen = Signal(tuple)  # ids of the chosen finding's objects
    export_requested = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = FindingsModel(self)
        self.summary = QLabel("No findings yet.")
        plain_labels(self.summary)
        self.summary.setStyleSheet("color: #555; padding: 2px 4px;")
        self.severity = QComboBox()
        self.code = QComboBox()
        self.fabric = QComboBox()
        for combo, tip in (
            (self.severity, "Show one severity"),
            (self.code, "Show one finding code"),
            (self.fabric, "Show the findings of one fabric"),
        ):
            combo.setToolTip(tip)
            combo.setSizeAdjustPolicy(QComboBox.AdjustToContents)
            combo.currentIndexChanged.connect(self._filter)
        self.severity.addItem("All severities", ALL)
        for name in SEVERITY_NAMES:
            self.severity.addItem(name.capitalize() + "s", name)
        self.previous_button = QPushButton("◀ Previous")
        self.next_button = QPushButton("Next ▶")
        self.export_button = QPushButton("Export CSV…")
        self.previous_button.setToolTip("Select and zoom to the previous finding (Shift+F8)")
        self.next_button.setToolTip("Select and zoom to the next finding (F8)")
        self.previous_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        self.export_button.clicked.connect(self.export_requested)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for widget in (self.severity, self.code, self.fabric, self.previous_button):
            bar.addWidget(widget)
        bar.addWidget(self.next_button)
        bar.addWidget(self.summary, 1)
        bar.addWidget(self.export_button)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        # Fixed row heights: the view never measures 60k rows to lay them out
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.table.horizontalHeader()
        for column, width_px in ((0, 70), (1, 190), (2, 90)):
            header.resizeSection(column, width_px)
        header.setSectionResizeMode(3, QHeaderView.Stretch)
        self.table.clicked.connect(lambda index: self.choose(index.row()))
        self.table.activated.connect(lambda index: self.choose(index.row()))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(bar)
        layout.addWidget(self.table)

    def set_findings(self, findings: list[Finding], fabrics: list[str], name=None) -> None:
        """Show these findings (``name`` turns an object id into its label); the filters
        chosen stay chosen when their code or fabric is still present."""
        if name is not None:
            self.model.name = name
        self.model.set_findings(findings, fabrics)
        self._fill_combo(self.code, "All codes", self.model.codes)
        fabrics_shown = self.model.fabric_names + ([NO_FABRIC] if "" in fabrics else [])
        self._fill_combo(self.fabric, "All fabrics", fabrics_shown)
        self._filter()

    def _fill_combo(self, combo: QComboBox, everything: str, values: list[str]) -> None:
        chosen = combo.currentData() or ALL
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(everything, ALL)
        for value in values:
            combo.addItem(value, value)
        combo.setCurrentIndex(max(0, combo.findData(chosen)))
        combo.blockSignals(False)

    def _filter(self) -> None:
        self.model.set_filters(
            self.severity.currentData() or ALL,
            self.code.currentData() or ALL,
            self.fabric.currentData() or ALL,
        )
        shown, total = len(self.model.rows), len(self.model.findings)
        counts = self.model.counts()
        parts = [count(n, name) for name, n in counts.items() if n]
        text = ", ".join(parts) if parts else "no findings"
        if shown != total:
            text += f" (of {total:,})"
        self.summary.setText(text if total else "No findings: the design passes every check.")

    def current_row(self) -> int:
        index = self.table.currentIndex()
        return index.row() if index.isValid() else -1

    def step(self, direction: int) -> None:
        """Choose the next (1) or previous (-1) finding shown, wrapping at the ends."""
        rows = self.model.rowCount()
        if rows == 0:
            return
        row = self.current_row()
        row = (0 if direction > 0 else rows - 1) if row < 0 else (row + direction) % rows
        self.choose(row)

    def choose(self, row: int) -> None:
        index = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.ClearAndSelect | QItemSelectionModel.Rows
        )
        self.table.scrollTo(index)
        objects = self.model.finding(row).objects
        if objects:
            self.objects_chosen.emit(tuple(objects))
