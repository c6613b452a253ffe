"""The links table panel: the links table's view with its filters, count and selection sync.

The model (:mod:`gui.panels.links_model`) holds the rows; this panel shows them, edits a
medium through :class:`MediumDelegate` and keeps the table's selection and the canvas's in step.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStyledItemDelegate,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from gui.panels.links_model import (
    COL_A,
    COL_B,
    COL_MEDIUM,
    COL_ORDERED,
    COL_ROUTED,
    COL_SPEED,
    COL_TIER,
    MAX_CANVAS_SELECTION,
    TIER_NAMES,
    LinksTableModel,
)
from gui.plain_text import plain_labels


class MediumDelegate(QStyledItemDelegate):
    """A combo of "auto" and the media that match the link, for the Medium column."""

    def createEditor(self, parent, option, index):
        if index.column() != COL_MEDIUM:
            return super().createEditor(parent, option, index)
        combo = QComboBox(parent)
        for media_id, label in index.model().medium_choices(index.row()):
            combo.addItem(label, media_id)
        return combo

    def setEditorData(self, editor, index):
        if isinstance(editor, QComboBox):
            k = editor.findData(index.data(Qt.EditRole))
            editor.setCurrentIndex(max(k, 0))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor, model, index):
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentData(), Qt.EditRole)
        else:
            super().setModelData(editor, model, index)


class LinksTablePanel(QWidget):
    """Filters above a QTableView of :class:`LinksTableModel`; selection follows the canvas."""

    links_selected = Signal(list)  # link ids chosen in the table
    link_activated = Signal(str)  # a row double-clicked outside the editable columns: show it

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model: LinksTableModel | None = None
        self.kind = QComboBox()
        self.kind.addItem("All media", None)
        for key, label in (
            ("copper", "Copper (DAC/ACC/AEC)"),
            ("aoc", "AOC"),
            ("mmf", "Multimode optics"),
            ("smf", "Single-mode optics"),
            ("none", "No medium"),
        ):
            self.kind.addItem(label, key)
        self.tier = QComboBox()
        self.tier.addItem("All tiers", None)
        for name in TIER_NAMES:
            self.tier.addItem(name, name)
        self.warning = QComboBox()
        self.warning.addItems(["All links", "With a warning"])
        self.rack = QLineEdit()
        self.rack.setPlaceholderText("rack name contains…")
        self.rack.setClearButtonEnabled(True)
        self.part = QLineEdit()
        self.part.setPlaceholderText("part number contains…")
        self.part.setToolTip(
            "Links whose module (either end), cable or fibre part number contains this"
        )
        self.part.setClearButtonEnabled(True)
        self.count = QLabel("")
        self.count.setStyleSheet("color: #555;")
        self.message = QLabel("")
        plain_labels(self.count, self.message)
        self.message.setStyleSheet("color: #c92a2a;")
        bar = QHBoxLayout()
        for w in (QLabel("Filter:"), self.kind, self.tier, self.warning, self.rack, self.part):
            bar.addWidget(w)
        bar.addStretch(1)
        bar.addWidget(self.message)
        bar.addWidget(self.count)
        self.view = QTableView()
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.view.setEditTriggers(
            QAbstractItemView.DoubleClicked | QAbstractItemView.EditKeyPressed
        )
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(20)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.setItemDelegate(MediumDelegate(self.view))
        self.view.setAlternatingRowColors(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(bar)
        layout.addWidget(self.view)
        self.kind.currentIndexChanged.connect(self._filters_changed)
        self.tier.currentIndexChanged.connect(self._filters_changed)
        self.warning.currentIndexChanged.connect(self._filters_changed)
        self.rack.textChanged.connect(self._filters_changed)
        self.part.textChanged.connect(self._filters_changed)
        self.view.doubleClicked.connect(self._double_clicked)
        self._syncing = False

    def _double_clicked(self, index) -> None:
        if self.model is not None and index.column() not in (COL_MEDIUM, COL_ORDERED):
            link_id = self.model.link_id(index.row())
            if link_id is not None:
                self.link_activated.emit(link_id)

    def set_source(self, design, plant, stack) -> None:
        old, old_selection = self.model, self.view.selectionModel()
        if old is not None:
            old.close()
        self.model = LinksTableModel(design, plant, stack, self)
        self.model.edit_refused.connect(self.message.setText)
        self.view.setModel(self.model)
        # The old model is the panel's child, and neither it nor its selection model (the
        # view's) is deleted by setModel: each opened file's model stayed, with its design,
        # plant and undo stack, until the window closed.
        for replaced in (old, old_selection):
            if replaced is not None:
                replaced.deleteLater()
        self.view.horizontalHeader().setSortIndicator(-1, Qt.AscendingOrder)
        for col, width in (
            (COL_A, 200),
            (COL_B, 200),
            (COL_TIER, 80),
            (COL_SPEED, 55),
            (COL_ROUTED, 75),
            (COL_ORDERED, 90),
            (COL_MEDIUM, 190),
        ):
            self.view.setColumnWidth(col, width)
        self.view.selectionModel().selectionChanged.connect(self._selection_changed)
        self._filters_changed()

    def analysis_finished(self, result) -> None:
        """A fresh analysis result (``AnalysisResult``): its tier codes fill the tier column."""
        if self.model is not None:
            self.model.tiers_follow_analysis = True
            self.model.set_tiers(result.tiers, result.revision)

    def plant_changed(self, changed: set[str] | None = None) -> None:
        if self.model is None:
            return
        selected = self.selected_link_ids()
        if self.model.plant_changed(changed):
            self._update_count()
            if selected:
                self.select_links(selected, emit=False)

    def _filters_changed(self, *_args) -> None:
        if self.model is None:
            return
        self.message.setText("")
        self.model.set_filter(
            kind=self.kind.currentData(),
            tier=self.tier.currentData(),
            warning=self.warning.currentIndex() == 1,
            rack=self.rack.text(),
            part=self.part.text(),
        )
        self._update_count()

    def _update_count(self) -> None:
        m = self.model
        self.count.setText(f"{len(m.order):,} of {len(m.plant.link_ids):,} links")

    def selected_link_ids(self) -> list[str]:
        if self.model is None:
            return []
        rows = sorted({i.row() for i in self.view.selectionModel().selectedRows()})
        ids = (self.model.link_id(r) for r in rows if r < len(self.model.order))
        return [i for i in ids if i is not None]

    def _selection_changed(self, *_args) -> None:
        if not self._syncing:
            self.links_selected.emit(self.selected_link_ids()[:MAX_CANVAS_SELECTION])

    def select_links(self, link_ids, emit: bool = False) -> None:
        """Select the rows of these links (from the canvas); scroll to the first."""
        if self.model is None:
            return
        rows = self.model.view_rows_of(link_ids)
        selection = QItemSelection()
        last = self.model.columnCount() - 1
        start = prev = None
        for r in rows.tolist() + [None]:
            if start is not None and (r is None or r != prev + 1):
                selection.select(self.model.index(start, 0), self.model.index(prev, last))
                start = None
            if r is not None and start is None:
                start = r
            prev = r
        self._syncing = not emit
        try:
            self.view.selectionModel().select(selection, QItemSelectionModel.ClearAndSelect)
            if len(rows):
                self.view.scrollTo(self.model.index(int(rows[0]), 0))
        finally:
            self._syncing = False
