"""WhatIfPanel: the before / after table of a failure case (the default job's collective among
its rows) and the worst single failure per tier.

It displays what :mod:`model.analysis.whatif` and :mod:`model.analysis.n_minus_one` computed;
the figures are formatted here, never derived. Choosing a row of the n-1 table asks (through
``case_chosen``) for that element's failure to be shown on the plan.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

ROWS = (
    ("GPUs", lambda s: f"{s['gpus']:,}"),
    ("Islands", lambda s: f"{s['islands']['count']:,}"),
    ("Largest job, GPUs", lambda s: f"{s['islands']['largest_job_gpus']:,}"),
    ("GPUs with no scale-out path", lambda s: f"{s['islands']['gpus_without_scale_out']:,}"),
    ("Bisection", lambda s: _gbps(s["bisection_gbps"])),
    ("Scale-up per GPU, min", lambda s: _gbps(s["scale_up_per_gpu_gbps"]["min"])),
    ("Scale-out per GPU, min", lambda s: _gbps(s["scale_out_per_gpu_gbps"]["min"])),
    ("Scale-out per GPU, mean", lambda s: _gbps(s["scale_out_per_gpu_gbps"]["mean"])),
    ("GPUs on the scale-out fabric", lambda s: f"{s['gpus_connected']:,}"),
    ("Switch hops, typical / max", lambda s: f"{s['hops']['typical']} / {s['hops']['max']}"),
    ("Server pairs disconnected", lambda s: f"{s['hops']['disconnected_pairs']:,}"),
)


# The default job's collective before and after (``result["collective"]``: Estimate.to_json).
COLLECTIVE_ROWS = (
    ("Collective job", lambda e: f"{e['job']} ({e['gpus']:,} GPUs)"),
    ("Collective time", lambda e: f"{_ms(e['time_s'])} ({e['algorithm']}, {e['protocol']})"),
    ("Busiest links", lambda e: _busiest(e)),
)


def _ms(seconds) -> str:
    if seconds is None or seconds == float("inf"):
        return "no path"
    return f"{seconds * 1e3:,.2f} ms"


def _busiest(e: dict) -> str:
    if e["limited_by"] in ("scale-up", "none"):
        return "scale-up" if e["limited_by"] == "scale-up" else "none"
    return f"{e['bottleneck_count']:,} {e['limited_by']}"


def _slowdown(value) -> str:
    return "—" if value is None else f"{value:.2f}x"


# The n-1 table, in the order the ranking sorts on.
WORST_COLUMNS = (
    ("tier", lambda t, w: t["tier"]),
    ("worst element", lambda t, w: f"{w['id']} (1 of {w['equivalent']:,} alike)"),
    ("job lost", lambda t, w: f"{w['largest_job_lost_gpus']:,} GPUs"),
    ("islands", lambda t, w: f"{w['islands']:,}"),
    ("no scale-out", lambda t, w: f"{w['gpus_without_scale_out']:,} GPUs"),
    ("bisection lost", lambda t, w: _gbps(w["bisection_lost_gbps"])),
    ("scale-up/GPU", lambda t, w: _gbps(w["scale_up_per_gpu_gbps"]["min"])),
    (
        "collective after",
        lambda t, w: f"{_ms(w['collective_time_s'])} ({_slowdown(w['collective_slowdown'])})",
    ),
)


def _gbps(value) -> str:
    if value is None:
        return "—"
    return f"{value / 1000:,.2f} Tb/s" if value >= 10_000 else f"{value:,.0f} Gb/s"


class WhatIfPanel(QWidget):
    case_chosen = Signal(list)  # ids to fail
    links_chosen = Signal(list)  # link ids to select on the plan (the collective's busiest)
    n_minus_one_requested = Signal()
    cut_requested = Signal()
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
        self.table = QTableWidget(len(ROWS) + len(COLLECTIVE_ROWS), 2)
        self.table.setHorizontalHeaderLabels(["before", "after"])
        self.table.setVerticalHeaderLabels([name for name, _ in ROWS + COLLECTIVE_ROWS])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        # Six rows show, the rest scroll: a taller minimum crowded the legend over the table
        # in a short dock.
        self.table.setMinimumHeight(30 + 26 * 6)
        self.legend = QLabel(
            "On the plan: <b style='color:#e03131'>failed</b> · "
            "<b style='color:#f76707'>servers with a GPU cut off</b> · "
            "<b style='color:#fab005'>servers that lost bandwidth</b> · "
            "<b style='color:#1c7ed6'>servers outside the largest island</b> · "
            "<b style='color:#0ca678'>bisection cut</b>"
        )
        self.legend.setWordWrap(True)
        self.worst = QTableWidget(0, len(WORST_COLUMNS))
        self.worst.setHorizontalHeaderLabels([name for name, _ in WORST_COLUMNS])
        self.worst.setToolTip(
            "Ranked on the largest job lost (a partition), then GPUs with no scale-out path, "
            "GPUs without a NIC link of their own, the default job's collective time after, "
            "bisection lost and scale-up per GPU"
        )
        self.worst.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.worst.horizontalHeader().setSectionResizeMode(1, QHeaderView.Stretch)
        self.worst.setEditTriggers(QTableWidget.NoEditTriggers)
        self.worst.setSelectionBehavior(QTableWidget.SelectRows)
        self.worst.cellDoubleClicked.connect(self._row_chosen)
        self.collective = QLabel("")
        self.collective.setWordWrap(True)
        self.links_button = QPushButton("Select the busiest links after")
        self.links_button.setToolTip(
            "Select on the plan the links that limit the default job's collective after the failure"
        )
        self.links_button.setEnabled(False)
        self.links_button.clicked.connect(self._links_chosen)
        self.n1_button = QPushButton("Worst single failure per tier")
        self.n1_button.clicked.connect(self.n_minus_one_requested)
        self.cut_button = QPushButton("Show the bisection cut")
        self.cut_button.setToolTip(
            "Draw the links of the minimum balanced cut the analysis found (its bisection)"
        )
        self.cut_button.clicked.connect(self.cut_requested)
        self.clear_button = QPushButton("Clear")
        self.clear_button.clicked.connect(self.clear)
        # Two rows: the dock is often narrower than the three buttons side by side.
        buttons = QGridLayout()
        buttons.addWidget(self.n1_button, 0, 0)
        buttons.addWidget(self.cut_button, 1, 0)
        buttons.addWidget(self.clear_button, 1, 1)
        buttons.setColumnStretch(0, 1)
        # In a scroll area: a short dock scrolls instead of drawing the legend over the table.
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.addWidget(self.title)
        layout.addWidget(self.summary)
        layout.addWidget(self.table)
        layout.addWidget(self.collective)
        layout.addWidget(self.links_button)
        layout.addWidget(self.legend)
        layout.addLayout(buttons)
        layout.addWidget(self.worst)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)  # the tables scroll sideways
        scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    def show_result(self, result: dict) -> None:
        self.result = result
        self.title.setText("What if " + ", ".join(result["failed"]) + " fails?")
        islands = result["islands"]
        sizes = ", ".join(f"{g:,}" for g in islands["gpus"][:8])
        more = ", …" if islands["count"] > 8 else ""
        self.summary.setText(
            f"{islands['count']:,} island{'s' if islands['count'] != 1 else ''} "
            f"({sizes}{more} GPUs): the largest job that still runs has "
            f"{result['largest_job_gpus']:,} GPUs ({result['largest_job_lost_gpus']:,} fewer); "
            f"{result['gpus_without_scale_out']:,} GPUs with no scale-out path; "
            f"{len(result['failed_devices']):,} devices and "
            f"{len(result['blast_radius']['links']):,} links down.\n"
            + " ".join(f"Assumption: {a}" for a in result["assumptions"])
        )
        for row, (_name, fmt) in enumerate(ROWS):
            for col, key in enumerate(("before", "after")):
                item = QTableWidgetItem(fmt(result[key]))
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.table.setItem(row, col, item)
        self._show_collective(result.get("collective"))

    def _show_collective(self, change: dict | None) -> None:
        """The default job's collective before and after (the model's figures, formatted)."""
        self.links_button.setEnabled(bool(change and change["after"]["bottleneck_links"]))
        if change is None:
            self.collective.setText("")
            return
        for row, (_name, fmt) in enumerate(COLLECTIVE_ROWS, start=len(ROWS)):
            for col, key in enumerate(("before", "after")):
                item = QTableWidgetItem(fmt(change[key]))
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.table.setItem(row, col, item)
        after = change["after"]
        shown = ", ".join(after["bottleneck_links"][:4])
        more = after["bottleneck_count"] - min(4, len(after["bottleneck_links"]))
        self.collective.setText(
            f"{change['collective'].capitalize()} of {change['size_bytes'] / 1e6:g} MB, "
            f"slowdown {_slowdown(change['slowdown'])}; busiest after: "
            + (
                f"{shown}{f' and {more:,} more' if more > 0 else ''}"
                if shown
                else after["limited_by"]
            )
        )

    def _links_chosen(self) -> None:
        if self.result is not None and self.result.get("collective"):
            self.links_chosen.emit(list(self.result["collective"]["after"]["bottleneck_links"]))

    def show_ranking(self, ranking: dict) -> None:
        self.ranking = ranking
        tiers = ranking["tiers"]
        self.worst.setRowCount(len(tiers))
        for row, t in enumerate(tiers):
            for col, (_name, fmt) in enumerate(WORST_COLUMNS):
                self.worst.setItem(row, col, QTableWidgetItem(fmt(t, t["worst"])))

    def show_cut(self, bisection: dict, drawn: int) -> None:
        """The analysis's minimum balanced cut (``Report.bisection``), ``drawn`` of its links
        on the plan."""
        self.result = None
        self.table.clearContents()
        self.collective.setText("")
        self.links_button.setEnabled(False)
        links = len(bisection["cut"]["links"])
        a, b = bisection["servers"]
        self.title.setText(f"Bisection {_gbps(bisection['gbps'])} ({bisection['method']})")
        shown = "" if drawn == links else f" ({drawn:,} drawn)"
        self.summary.setText(
            f"The cheapest balanced cut found splits the GPU servers {a:,} / {b:,} along "
            f"{bisection['halves']}; {links:,} links cross it{shown}, "
            f"{_gbps(bisection['cut']['capacity_gbps'])} in all."
        )

    def _row_chosen(self, row: int, _col: int) -> None:
        if self.ranking is not None:
            self.case_chosen.emit([self.ranking["tiers"][row]["worst"]["id"]])

    def clear(self) -> None:
        self.result = None
        self.collective.setText("")
        self.links_button.setEnabled(False)
        self.title.setText(
            "Right-click a rack, device, link or tray on the plan: What if this fails?"
        )
        self.summary.setText("")
        self.table.clearContents()
        self.cleared.emit()

    def set_stale(self) -> None:
        if self.result is not None:
            self.summary.setText("The design changed since: run the case again.")
