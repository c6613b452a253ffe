"""The analysis panel's power and cooling table: per feed, panel, CDU and CRAH, sortable.

One row per :class:`~model.facility.load_rows.LoadRow` (the report's ``power_feeds`` and
``cooling`` blocks, as ``analyze --json`` writes them): load and capacity at maximum draw, its
share, and the load and share with one side (power) or one other unit (cooling) failed. A click
on a header sorts by that column (numbers as numbers, a unit that goes down with its side
last). The figures are the model's; this widget only formats and colours them by the model's
band (``ok`` / ``high`` / ``over``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from model.facility.load_rows import LoadRow, load_rows

COLUMNS = (
    "Unit",
    "Kind",
    "Side",
    "Capacity kW",
    "Load kW at max",
    "% at max",
    "Load kW, one failed",
    "% one failed",
)
SORT_ROLE = Qt.UserRole + 1
BAND_BACKGROUND = {"high": QColor("#fff3bf"), "over": QColor("#ffc9c9")}
DOWN = -1.0  # sorts a unit that goes down with its side below every load


class FacilityTable(QTableView):
    """The table; :meth:`show_report` fills it from a report's facility blocks."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model_ = QStandardItemModel(0, len(COLUMNS), self)
        self.model_.setHorizontalHeaderLabels(list(COLUMNS))
        self.model_.setSortRole(SORT_ROLE)
        self.setModel(self.model_)
        self.setSortingEnabled(True)
        self.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.verticalHeader().hide()
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.setToolTip(
            "Each feed, busway / panel and cooling unit at the racks' maximum draw: its load and "
            "share of its rating, and with one side (A or B) or one other cooling unit failed. "
            "Yellow from 80 %, red over 100 %. Click a header to sort."
        )

    def show_report(self, power_feeds: list[dict], cooling: dict) -> int:
        """Fill from the report's blocks; returns the number of rows (0: no facility model)."""
        rows = load_rows(power_feeds, cooling)
        column = self.horizontalHeader().sortIndicatorSection()
        order = self.horizontalHeader().sortIndicatorOrder()
        self.setSortingEnabled(False)  # fill unsorted, then sort once as the user last chose
        self.model_.setRowCount(0)
        for row in rows:
            self.model_.appendRow(_items(row))
        self.setSortingEnabled(True)
        if 0 <= column < len(COLUMNS):
            self.sortByColumn(column, order)
        return len(rows)


def _items(row: LoadRow) -> list[QStandardItem]:
    down = row.failed_kw is None
    cells: list[tuple[str, object]] = [
        (row.id, row.id),
        (row.kind, row.kind),
        (row.side or "—", row.side),
        (f"{row.capacity_kw:,.1f}", row.capacity_kw),
        (f"{row.max_draw_kw:,.1f}", row.max_draw_kw),
        (f"{row.max_draw_pct:.1f} %", row.max_draw_pct),
        ("down" if down else f"{row.failed_kw:,.1f}", DOWN if down else row.failed_kw),
        ("down" if down else f"{row.failed_pct:.1f} %", DOWN if down else row.failed_pct),
    ]
    items = []
    background = BAND_BACKGROUND.get(row.band)
    for i, (text, key) in enumerate(cells):
        item = QStandardItem(text)
        item.setData(key, SORT_ROLE)
        if i >= 3:
            item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
        if background is not None:
            item.setBackground(QBrush(background))
        if i == 6:
            item.setToolTip(f"{row.failure}: the most it carries then")
        items.append(item)
    return items
