"""CompareDialog (KPIs of two designs and what differs) and SweepPlotDialog (Pareto view).

Both display what the model computed (:mod:`model.studies.compare`, :mod:`model.studies.sweep`): the KPI table
and diff lists of ``compare``, and a sweep CSV's rows with the Pareto front of two chosen
columns (pyqtgraph scatter).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from gui.panels.units_text import (
    count_text,
    figure_text,
    gbps_text,
    per_day_text,
    seconds_text,
    share_text,
    signed,
    usd_text,
    watts_text,
)
from model.studies.compare import KPI_LABELS
from model.studies.sweep import numeric_columns, pareto_front

DIFF_LABELS = (
    ("racks_moved", "Racks moved"),
    ("racks_added", "Racks added"),
    ("racks_removed", "Racks removed"),
    ("devices_added", "Devices added"),
    ("devices_removed", "Devices removed"),
    ("links_added", "Links added"),
    ("links_removed", "Links removed"),
)


# How each KPI of model.studies.compare reads: its unit, scaled as the analysis panel does
KPI_TEXT = {
    "gpus": count_text,
    "cost_per_gpu_usd": usd_text,
    "optics_w_per_gpu": watts_text,
    "optics_share_of_it_power": share_text,
    "transceivers_per_gpu": count_text,
    "lasers_per_gpu": count_text,
    "optics_cost_per_gpu_usd": usd_text,
    "bisection_gbps": gbps_text,
    "allreduce_time_s": seconds_text,
    "alltoall_time_s": seconds_text,
    "failures_per_day": per_day_text,
}


def _row_label(name: str) -> str:
    """The KPI's label without its unit in brackets: each cell carries its unit now."""
    label = KPI_LABELS[name]
    for unit in (" (USD)", " (Gb/s)", " (s)"):
        label = label.removesuffix(unit)
    return label


def kpi_cells(name: str, values: dict) -> tuple[str, str, str]:
    """The A, B and difference cells of one KPI row (``values``: the model's a, b, delta)."""
    text = KPI_TEXT.get(name, count_text)
    delta = values["delta"]
    if isinstance(delta, (int, float)) and not isinstance(delta, bool):
        delta_text = figure_text(delta, lambda d: signed(d, text))
    else:
        delta_text = figure_text(delta, text)
    return figure_text(values["a"], text), figure_text(values["b"], text), delta_text


class CompareDialog(QDialog):
    """The KPI table (other file = A, this design = B) and the physical diff as lists."""

    def __init__(self, result: dict, name_a: str, name_b: str, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Compare {name_b} with {name_a}")
        self.result = result
        kpis = result["kpis"]
        # Short column heads, the files named once above: a docked table is ~350 px wide, and
        # two file names as heads squeezed the figures until they wrapped.
        self.names = QLabel(f"A = {name_a} (the other file) · B = {name_b} (this design)")
        self.names.setWordWrap(True)
        self.table = QTableWidget(len(kpis), 3)
        self.table.setHorizontalHeaderLabels(["A", "B", "B − A"])
        for col, tip in enumerate((name_a, name_b, f"{name_b} minus {name_a}")):
            self.table.horizontalHeaderItem(col).setToolTip(tip)
        self.table.setVerticalHeaderLabels([_row_label(k) for k in kpis])
        # Each column as wide as its figures (equal shares elided "51.20 Tb/s" in a dock)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.setWordWrap(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        for row, (name, values) in enumerate(kpis.items()):
            for col, cell in enumerate(kpi_cells(name, values)):
                item = QTableWidgetItem(cell)
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.table.setItem(row, col, item)
        self.diff = QListWidget()
        diff = result["diff"]
        for key, label in DIFF_LABELS:
            if diff[key]:
                shown = ", ".join(diff[key][:20]) + (" …" if len(diff[key]) > 20 else "")
                self.diff.addItem(f"{label} ({len(diff[key]):,}): {shown}")
        for f in diff["media_flipped"][:200]:
            self.diff.addItem(f"Medium flipped on {f['link']}: {f['from']} → {f['to']}")
        for line in diff["bom_changed"][:200]:
            length = f" {line['length_m']:g} m" if line["length_m"] else ""
            quantities = f"{count_text(line['a'])} → {count_text(line['b'])}"
            self.diff.addItem(f"BOM {line['part']}{length}: {quantities}")
        if result["identical"]:
            self.diff.addItem("Physically identical.")
        note = QLabel("Differences are framed on the plan in lime (see the legend).")
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.names)
        layout.addWidget(self.table, 3)  # the figures first: the diff list scrolls
        layout.addWidget(self.diff, 1)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.resize(720, 560)


class SweepPlotDialog(QDialog):
    """Two columns of a sweep's rows against each other, the Pareto front joined and bold."""

    def __init__(self, rows: list[dict], title: str, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Sweep — {title}")
        self.rows = rows
        columns = numeric_columns(rows)
        if len(columns) < 2:
            raise ValueError("a sweep CSV needs at least two numeric columns")
        self.x_box, self.y_box = QComboBox(), QComboBox()
        self.x_box.addItems(columns)
        self.y_box.addItems(columns)
        self.x_box.setCurrentText(
            "cost_per_gpu_usd" if "cost_per_gpu_usd" in columns else columns[0]
        )
        self.y_box.setCurrentText(
            "allreduce_time_s" if "allreduce_time_s" in columns else columns[1]
        )
        # No ViewBox context menu: it is a parentless window pyqtgraph never deletes (a leak at close).
        self.plot = pg.PlotWidget(background="w", enableMenu=False)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.points = pg.ScatterPlotItem(
            size=8, brush=pg.mkBrush("#74c0fc"), pen=pg.mkPen("#1c7ed6")
        )
        self.front = pg.PlotDataItem(
            pen=pg.mkPen("#e8590c", width=2), symbol="o", symbolBrush="#e8590c", symbolSize=10
        )
        self.plot.addItem(self.points)
        self.plot.addItem(self.front)
        self.front_label = QLabel("")
        self.front_label.setWordWrap(True)
        self.x_box.currentTextChanged.connect(self.redraw)
        self.y_box.currentTextChanged.connect(self.redraw)
        form = QFormLayout()
        form.addRow("x", self.x_box)
        form.addRow("y", self.y_box)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.plot)
        layout.addWidget(self.front_label)
        self.resize(720, 560)
        self.front_rows: list[int] = []
        self.redraw()

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        # pyqtgraph's PlotItem keeps a parentless control QMenu until its own close(): without
        # this a closed dialog leaves a top-level menu window alive until the program exits.
        if self.plot.plotItem is not None:  # a dialog may be closed again with its window
            menu = self.plot.plotItem.ctrlMenu
            self.plot.close()  # also unparents the PlotWidget: delete it with the menu
            self.plot.deleteLater()
            if menu is not None:
                menu.deleteLater()
        super().closeEvent(event)

    @classmethod
    def from_csv(cls, path: Path, parent=None) -> SweepPlotDialog:
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        if not rows:
            raise ValueError("no rows")
        return cls(rows, path.name, parent)

    def redraw(self, *_args) -> None:
        x, y = self.x_box.currentText(), self.y_box.currentText()
        xs, ys = [], []
        for r in self.rows:
            try:
                xs.append(float(r[x]))
                ys.append(float(r[y]))
            except (TypeError, ValueError):
                continue
        self.points.setData(xs, ys)
        self.front_rows = pareto_front(self.rows, x, y)
        front = sorted((float(self.rows[i][x]), float(self.rows[i][y])) for i in self.front_rows)
        self.front.setData([p[0] for p in front], [p[1] for p in front])
        self.plot.setLabel("bottom", x)
        self.plot.setLabel("left", y)
        self.front_label.setText(
            f"{len(self.front_rows)} of {len(self.rows)} variants on the Pareto front of {x} and {y}."
        )
