"""Design > Optimise Placement…: run the model's placement optimiser on a worker, watch the best
so far, preview the moves on the plan and apply them as one undo step.

The dialog snapshots the design's file bytes on the GUI thread and hands them to
:func:`model.optimise.optimise.optimise` on a Python worker thread (the live design and plant
stay the GUI thread's; a Python thread rather than a QThreadPool's, because the model asks
``threading`` which thread it is on and a Qt pool thread would then live on as a dummy). The optimiser reports its best so far through a callback; the worker forwards it
as a queued signal, and Stop makes the next callback answer "stop", so the run ends at its best
state so far. Every figure shown (cost, watts, copper share, the per-rack sentences) is the
model's report; the dialog formats it. Apply pushes one command (the rack moves and, with "Vary
the optics strategy per tier", the tiers' optics setting and switch types: one undo step), and
only if the design is still the one that was optimised (same document, same undo index);
otherwise it says so.
"""

from __future__ import annotations

import threading

import msgspec
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from gui.canvas.move_preview_item import MovePreviewItem
from gui.edit.commands import DesignCommand
from gui.runtime.main_thread_gc import collect_on_gui_thread
from model.files.design_file import design_to_bytes, read_design_bytes
from model.optimise.front import PRESETS
from model.optimise.moves import MOVE_SERVERS, NETWORK_ROLES
from model.optimise.objective import TERMS
from model.runtime.gc_policy import settle_if_pending

TIERS = ("leaf", "spine", "core", "storage", "management", "patch-panel")
TERM_LABELS = {
    "cost_usd": "Capital cost",
    "optics_power_w": "Optics power (typical)",
    "optics_power_w_max": "Optics power (max)",
    "failures_per_day": "Failures per day",
    "cable_m": "Cable metres",
}


class _Signals(QObject):
    progress = Signal(dict)
    finished = Signal(object)  # the optimiser's Result, or the exception it raised


class _Run:
    """One optimiser run on its own thread; reports through queued signals."""

    def __init__(self, data: bytes, options: dict, stop: threading.Event) -> None:
        self.data, self.options, self.stop = data, options, stop
        self.signals = _Signals()
        self.thread = threading.Thread(target=self.run, name="optimise-placement", daemon=True)

    def run(self) -> None:
        from model.optimise.optimise import optimise

        def progress(p: dict) -> bool:
            self.signals.progress.emit(p)
            return not self.stop.is_set()

        try:
            design = read_design_bytes(self.data, "<snapshot>")
            result = optimise(design, data=self.data, progress=progress, **self.options)
        except Exception as exc:  # noqa: BLE001 - shown to the user as a sentence
            result = exc
        self.signals.finished.emit(result)


def _money(usd: float) -> str:
    return f"${usd:,.0f}"


class OptimisePlacementDialog(QDialog):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.setWindowTitle("Optimise Placement")
        self.setModal(False)
        self._stop = threading.Event()
        self._run: _Run | None = None
        self._started_on: tuple[object, int] | None = None
        self.result = None
        self.preview: MovePreviewItem | None = None
        self._build()

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        weights = QGroupBox("Objective weights")
        form = QFormLayout(weights)
        self.preset = QComboBox()
        self.preset.addItems(["balanced", "cost", "power", "failures"])
        self.preset.currentTextChanged.connect(self._apply_preset)
        form.addRow("Preset", self.preset)
        self.weight_boxes: dict[str, QDoubleSpinBox] = {}
        for term in TERMS:
            box = QDoubleSpinBox()
            box.setRange(0.0, 100.0)
            box.setSingleStep(0.1)
            box.setDecimals(2)
            self.weight_boxes[term] = box
            form.addRow(TERM_LABELS[term], box)
        self._apply_preset("balanced")
        layout.addWidget(weights)

        moves = QGroupBox("What may move")
        grid = QGridLayout(moves)
        self.tier_boxes: dict[str, QCheckBox] = {}
        for i, tier in enumerate(TIERS):
            box = QCheckBox(tier)
            box.setChecked(tier in NETWORK_ROLES)
            self.tier_boxes[tier] = box
            grid.addWidget(box, i // 3, i % 3)
        self.only_selection = QCheckBox("Only the selected racks (the rest stay)")
        grid.addWidget(self.only_selection, 2, 0, 1, 3)
        self.anywhere = QCheckBox("Any free tile, not only along the existing rows")
        grid.addWidget(self.anywhere, 3, 0, 1, 3)
        self.swap_compute = QCheckBox(
            "May trade places with compute racks (they move too; a leaf slides past its servers)"
        )
        grid.addWidget(self.swap_compute, 4, 0, 1, 3)
        self.vary_optics = QCheckBox(
            "Vary the optics strategy per switch tier (pluggable, linear, co-packaged)"
        )
        grid.addWidget(self.vary_optics, 5, 0, 1, 3)
        self.servers = QCheckBox(
            "Servers within their SU (rack and U, every link kept: an exact assignment)"
        )
        grid.addWidget(self.servers, 6, 0, 1, 3)
        layout.addWidget(moves)

        budget = QHBoxLayout()
        self.seconds = QDoubleSpinBox()
        self.seconds.setRange(1.0, 3600.0)
        self.seconds.setValue(30.0)
        self.seconds.setSuffix(" s")
        self.iterations = QSpinBox()
        self.iterations.setRange(1, 1_000_000)
        self.iterations.setValue(300)
        self.seed = QSpinBox()
        self.seed.setRange(0, 1_000_000)
        for label, widget in (
            ("Time budget", self.seconds),
            ("Moves tried", self.iterations),
            ("Seed", self.seed),
        ):
            budget.addWidget(QLabel(label))
            budget.addWidget(widget)
        layout.addLayout(budget)

        self.progress = QProgressBar()
        self.progress.setFormat("%v of %m moves")
        layout.addWidget(self.progress)
        self.best_label = QLabel("Not run yet.")
        self.best_label.setTextFormat(Qt.PlainText)
        self.best_label.setWordWrap(True)
        layout.addWidget(self.best_label)
        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        self.report.setMinimumHeight(220)
        layout.addWidget(self.report)

        buttons = QDialogButtonBox()
        self.run_button = QPushButton("Run")
        self.stop_button = QPushButton("Stop")
        self.apply_button = QPushButton("Apply")
        self.stop_button.setEnabled(False)
        self.apply_button.setEnabled(False)
        for b in (self.run_button, self.stop_button, self.apply_button):
            buttons.addButton(b, QDialogButtonBox.ActionRole)
        buttons.addButton(QDialogButtonBox.Close)
        buttons.rejected.connect(self.close)
        self.run_button.clicked.connect(self.start)
        self.stop_button.clicked.connect(self.stop)
        self.apply_button.clicked.connect(self.apply)
        layout.addWidget(buttons)

    def _apply_preset(self, name: str) -> None:
        for term, value in PRESETS[name].items():
            self.weight_boxes[term].setValue(value)

    # ------------------------------------------------------------------ run

    def options(self) -> dict:
        """The optimiser's arguments from the widgets (and the plan's selection)."""
        design = self.window.document.design
        locked: list[str] = []
        if self.only_selection.isChecked():
            chosen = set(self.window.selected("racks"))
            locked = [r for r in design.racks if r not in chosen]
        return {
            "weights": {t: b.value() for t, b in self.weight_boxes.items()},
            "iterations": self.iterations.value(),
            "seconds": self.seconds.value(),
            "seed": self.seed.value(),
            "locked": locked,
            "anywhere": self.anywhere.isChecked(),
            "swap_compute": self.swap_compute.isChecked(),
            "vary_optics": self.vary_optics.isChecked(),
            "tiers": tuple(t for t, b in self.tier_boxes.items() if b.isChecked())
            + ((MOVE_SERVERS,) if self.servers.isChecked() else ()),
        }

    def start(self) -> None:
        document = self.window.document
        options = self.options()
        if not any(options["weights"].values()):
            self.best_label.setText("Every weight is 0: there is nothing to minimise.")
            return
        if not options["tiers"] and not options["vary_optics"]:
            self.best_label.setText("Tick at least one kind of rack that may move.")
            return
        self._discard_preview()
        self.result = None
        self.apply_button.setEnabled(False)
        self.report.clear()
        self.progress.setRange(0, options["iterations"])
        self.progress.setValue(0)
        self.best_label.setText("Running…")
        self._started_on = (document, document.stack.index())
        self._stop.clear()
        collect_on_gui_thread()  # the worker never collects (gui.runtime.main_thread_gc)
        self._run = _Run(design_to_bytes(document.design), options, self._stop)
        self._run.signals.progress.connect(self._on_progress, Qt.QueuedConnection)
        self._run.signals.finished.connect(self._on_finished, Qt.QueuedConnection)
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self._run.thread.start()

    def stop(self) -> None:
        self._stop.set()

    def is_running(self) -> bool:
        return self._run is not None

    def _on_progress(self, p: dict) -> None:
        self.progress.setValue(min(p["iteration"], self.progress.maximum()))
        t = p["terms"]
        self.best_label.setText(
            f"Best so far: objective {p['best']:.4f}, {_money(t['cost_usd'])},"
            f" {t['optics_power_w'] / 1000:.2f} kW typical optics,"
            f" {t['failures_per_day']:.4f} failures/day, copper share {p['copper_share']:.1%};"
            f" {len(p['moved'])} racks moved."
        )

    def _on_finished(self, result) -> None:
        if self._run is not None:
            self._run.thread.join()
        settle_if_pending()
        self._run = None
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.progress.setValue(self.progress.maximum())
        if isinstance(result, Exception):
            self.best_label.setText(f"The optimiser stopped: {result}")
            return
        self.result = result
        self.best_label.setText(result.sentence)
        self.report.setPlainText(report_text(result.report))
        if result.changed and self._still_current():
            scene = self.window.scene
            self.preview = MovePreviewItem(scene)
            scene.addItem(self.preview)
            self.preview.set_moves(result.report["moved"])
            self.apply_button.setEnabled(True)

    # ------------------------------------------------------------------ apply

    def _still_current(self) -> bool:
        document = self.window.document
        return self._started_on == (document, document.stack.index())

    def apply(self) -> None:
        if self.result is None or not self.result.changed:
            return
        if not self._still_current():
            self.best_label.setText(
                "The design changed since this run: run again to optimise what is there now."
            )
            self._discard_preview()
            self.apply_button.setEnabled(False)
            return
        command = ApplyOptimisedCommand(self.window.document.design, self.result)
        done = self.window.scene.push(command)
        self._discard_preview()
        self.apply_button.setEnabled(False)
        self.best_label.setText(
            f"Applied: {self.result.sentence}" if done else f"Not applied: {command.error}"
        )

    def _discard_preview(self) -> None:
        if self.preview is not None:
            scene = self.preview.scene()
            if scene is not None:
                scene.removeItem(self.preview)
            self.preview = None

    def closeEvent(self, event) -> None:
        self._stop.set()
        if self._run is not None:
            self._run.thread.join()  # the run stops at its next progress report
            settle_if_pending()
            self._run = None
        self._discard_preview()
        super().closeEvent(event)


def report_text(report: dict) -> str:
    """The optimiser's report as the dialog's plain text (terms, the sentence of each move)."""
    if not report:
        return ""
    lines = []
    for term, v in report["terms"].items():
        lines.append(
            f"{TERM_LABELS[term]}: {v['before']:,.4g} -> {v['after']:,.4g} ({v['delta']:+,.4g})"
        )
    share = report.get("copper_share")
    if share:
        lines.append(f"Copper share of cabled links: {share['before']:.1%} -> {share['after']:.1%}")
    lines.append("")
    lines.append(
        "What each move bought alone, and pairs only together (these sum to the moves' delta):"
    )
    lines.extend(w["sentence"] for w in report.get("why", []))
    optics = report.get("optics")
    if optics:
        lines.append("")
        lines.append("Optics strategy per switch tier (putting each tier back, the rest kept):")
        lines.extend(w["sentence"] for w in optics["why"])
        if not optics["why"]:
            lines.append("Every tier keeps its strategy.")
        lines.extend(f"{s}." for s in optics["skipped"])
    servers = report.get("servers")
    if servers:
        price = servers["link_price_usd"]
        lines.append("")
        lines.append(
            f"Servers placed anew within their SU: {len(servers['moved'])}"
            f" (link price {_money(price['before'])} -> {_money(price['after'])})"
        )
        lines.extend(
            f"{m['name']}: {m['from'][0]} U{m['from'][1]} -> {m['to'][0]} U{m['to'][1]}"
            for m in servers["moved"]
        )
    lines.append("")
    lines.extend(report.get("limits", []))
    return "\n".join(lines)


class ApplyOptimisedCommand(DesignCommand):
    """The optimiser's result as one undo step: the moved racks, and the switch types and optics
    setting of the tiers whose strategy it changed (taken from the result's design)."""

    def __init__(self, design, result) -> None:
        moved = result.report["moved"]
        self.positions = {m["rack"]: (float(m["to"][0]), float(m["to"][1])) for m in moved}
        self.old_positions = {r: (design.racks[r].x, design.racks[r].y) for r in self.positions}
        best = result.design
        servers = [m["server"] for m in result.report.get("servers", {}).get("moved", [])]
        self.places = {s: (best.devices[s].rack, best.devices[s].u) for s in servers}
        self.old_places = {s: (design.devices[s].rack, design.devices[s].u) for s in servers}
        self.new_devices = [
            msgspec.structs.replace(d, type=best.devices[d.id].type)
            for d in design.devices.values()
            if d.id in best.devices and best.devices[d.id].type != d.type
        ]
        self.old_devices = [design.devices[d.id] for d in self.new_devices]
        strategy = best.settings.optics_strategy
        self.old_settings = design.settings
        self.new_settings = (
            msgspec.structs.replace(design.settings, optics_strategy=dict(strategy))
            if strategy != design.settings.optics_strategy
            else design.settings
        )
        n = len(self.positions)
        tiers = len(result.report.get("optics", {}).get("why", []))
        text = f"Optimise placement: move {n} rack{'s' * (n != 1)}"
        if tiers:
            text += f", optics of {tiers} tier{'s' * (tiers != 1)}"
        if self.places:
            text += f", {len(self.places)} server{'s' * (len(self.places) != 1)}"
        super().__init__(design, text)

    def apply(self) -> None:
        # The moves first: the edit the design is likeliest to refuse, before anything changed.
        if self.positions:
            self.design.move_racks(self.positions)
        if self.places:
            self.design.move_devices(self.places)
        if self.new_devices:
            self.design.update_devices(self.new_devices)
        self.design.set_settings(self.new_settings)

    def revert(self) -> None:
        self.design.set_settings(self.old_settings)
        if self.old_devices:
            self.design.update_devices(self.old_devices)
        if self.old_places:
            self.design.move_devices(self.old_places)
        if self.positions:
            self.design.move_racks(self.old_positions)


def add_optimise_action(window) -> None:
    """Design > Optimise Placement… (one dialog per window, kept while the window lives)."""
    action = QAction("&Optimise Placement…", window)
    action.setStatusTip(
        "Move the network racks to lower cost, optics power and failures under the hall's limits"
    )

    def show() -> None:
        dialog = getattr(window, "optimise_dialog", None)
        if dialog is None:
            dialog = window.optimise_dialog = OptimisePlacementDialog(window)
        dialog.show()
        dialog.raise_()

    action.triggered.connect(show)
    window.optimise_action = action
    window.design_menu.addAction(action)
