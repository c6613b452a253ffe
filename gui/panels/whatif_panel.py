"""WhatIfPanel: the before / after table of a failure case and the worst single failure per tier.

It displays what :mod:`model.analysis.whatif` and :mod:`model.analysis.n_minus_one` computed;
the figures are formatted here, never derived. Choosing a row of the n-1 table asks (through
``case_chosen``) for that element's failure to be shown on the plan.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

ROWS = (
    ("GPUs", lambda s: f"{s['gpus']:,}"),
    ("Bisection", lambda s: _gbps(s["bisection_gbps"])),
    ("Scale-out per GPU, min", lambda s: _gbps(s["scale_out_per_gpu_gbps"]["min"])),
    ("Scale-out per GPU, mean", lambda s: _gbps(s["scale_out_per_gpu_gbps"]["mean"])),
    ("GPUs on the scale-out fabric", lambda s: f"{s['gpus_connected']:,}"),
    ("Switch hops, typical / max", lambda s: f"{s['hops']['typical']} / {s['hops']['max']}"),
    ("Server pairs disconnected", lambda s: f"{s['hops']['disconnected_pairs']:,}"),
)


def _gbps(value) -> str:
    if value is None:
        return "—"
    return f"{value / 1000:,.2f} Tb/s" if value >= 10_000 else f"{value:,.0f} Gb/s"


class WhatIfPanel(QWidget):
    case_chosen = Signal(list)  # ids to fail
    n_minus_one_requested = Signal()
    cleared = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.result: dict | None = None
        self.ranking: dict | None = None
        self.title = QLabel(
            "Right-click a rack, device, link or tray on the plan: What if this fails?"
        )
        self.title.setWordWrap(True)
        self.title.setStyleSheet("font-weight: 600;")
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.table = QTableWidget(len(ROWS), 2)
        self.table.setHorizontalHeaderLabels(["before", "after"])
        self.table.setVerticalHeaderLabels([name for name, _ in ROWS])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.setMinimumHeight(30 + 26 * len(ROWS))
        self.legend = QLabel(
            "On the plan: <b style='color:#e03131'>failed</b> · "
            "<b style='color:#f76707'>servers with a GPU cut off</b> · "
            "<b style='color:#fab005'>servers that lost bandwidth</b>"
        )
        self.legend.setWordWrap(True)
        self.worst = QTableWidget(0, 4)
        self.worst.setHorizontalHeaderLabels(
            ["tier", "worst element", "GPUs cut off", "bisection lost"]
        )
        self.worst.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.worst.setEditTriggers(QTableWidget.NoEditTriggers)
        self.worst.setSelectionBehavior(QTableWidget.SelectRows)
        self.worst.cellDoubleClicked.connect(self._row_chosen)
        self.n1_button = QPushButton("Worst single failure per tier")
        self.n1_button.clicked.connect(self.n_minus_one_requested)
        self.clear_button = QPushButton("Clear")
        self.clear_button.clicked.connect(self.clear)
        buttons = QHBoxLayout()
        buttons.addWidget(self.n1_button)
        buttons.addStretch(1)
        buttons.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.summary)
        layout.addWidget(self.table)
        layout.addWidget(self.legend)
        layout.addLayout(buttons)
        layout.addWidget(self.worst)

    def show_result(self, result: dict) -> None:
        self.result = result
        self.title.setText("What if " + ", ".join(result["failed"]) + " fails?")
        self.summary.setText(
            f"{result['gpus_disconnected']:,} GPUs cut off from the scale-out fabric; "
            f"{len(result['failed_devices']):,} devices and "
            f"{len(result['blast_radius']['links']):,} links down."
        )
        for row, (_name, fmt) in enumerate(ROWS):
            for col, key in enumerate(("before", "after")):
                item = QTableWidgetItem(fmt(result[key]))
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.table.setItem(row, col, item)

    def show_ranking(self, ranking: dict) -> None:
        self.ranking = ranking
        tiers = ranking["tiers"]
        self.worst.setRowCount(len(tiers))
        for row, t in enumerate(tiers):
            w = t["worst"]
            values = (
                t["tier"],
                f"{w['id']} (1 of {w['equivalent']:,} alike)",
                f"{w['gpus_disconnected']:,}",
                _gbps(w["bisection_lost_gbps"]),
            )
            for col, text in enumerate(values):
                self.worst.setItem(row, col, QTableWidgetItem(text))

    def _row_chosen(self, row: int, _col: int) -> None:
        if self.ranking is not None:
            self.case_chosen.emit([self.ranking["tiers"][row]["worst"]["id"]])

    def clear(self) -> None:
        self.result = None
        self.title.setText(
            "Right-click a rack, device, link or tray on the plan: What if this fails?"
        )
        self.summary.setText("")
        self.table.clearContents()
        self.cleared.emit()

    def set_stale(self) -> None:
        if self.result is not None:
            self.summary.setText("The design changed since: run the case again.")
