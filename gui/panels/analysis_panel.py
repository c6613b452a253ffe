"""AnalysisPanel: summary tiles, the bottleneck sentence, the delta of the last edit, per fabric.

The "Fabric" box shows the report's per-fabric figures (switches, links, transceivers, power
typical / max, cost) for one network or a table of all of them; the figures are the model's
(``Report.fabrics``), only formatted here.

It shows what an :class:`~gui.document.analysis_runner.AnalysisRunner` publishes. Between an edit and the
next fresh report the tiles are greyed and the status line says "recomputing…", so numbers of an
older revision are never presented as current.
"""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from gui.document.analysis_runner import AnalysisResult, AnalysisRunner
from gui.panels.facility_table import FacilityTable
from gui.plain_text import plain_labels
from model.analysis import Report
from model.analysis.allreduce import bottleneck_sentence
from model.analysis.report_delta import KIND_SHORT
from model.common.wording import count
from model.design.fabrics import FABRIC_LABELS

ALL_FABRICS = "all"

# A tile's value: dark, or red when bad; grey while stale, which is the label disabled. Why
# not a sheet per state: setting a style sheet parses it and re-polishes the label, and the
# eleven tiles' stale and fresh sheets were ~1.4 ms of the GUI thread's CPU per edit at XL on
# the way to a fresh panel (the edit's stale look and the publish), toggling enabled ~0.4 ms.
_STALE_LOOK = "QLabel:disabled { color: #9aa0a6; }"
FRESH_VALUE = "QLabel { color: #111; font-size: 17px; font-weight: 600; } " + _STALE_LOOK
BAD_VALUE = "QLabel { color: #c92a2a; font-size: 17px; font-weight: 600; } " + _STALE_LOOK


class Tile(QFrame):
    """One figure: a caption, a large value and a line of detail; the tooltip explains it."""

    def __init__(self, caption: str, tooltip: str, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("tile")
        self.setStyleSheet(
            "#tile { background: #ffffff; border: 1px solid #d7dbe0; border-radius: 4px; }"
        )
        self.setToolTip(tooltip)
        self.caption = QLabel(caption)
        self.caption.setStyleSheet("color: #555; font-size: 11px;")
        self.value = QLabel("–")
        self.value.setStyleSheet(FRESH_VALUE)
        self.value.setEnabled(False)  # stale until the first report
        self.detail = QLabel("")
        plain_labels(self.caption, self.value, self.detail)
        self.detail.setStyleSheet("color: #444; font-size: 11px;")
        self.detail.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 5, 8, 6)
        layout.setSpacing(1)
        layout.addWidget(self.caption)
        layout.addWidget(self.value)
        layout.addWidget(self.detail)
        self._bad = False

    def set(self, value: str, detail: str = "", bad: bool = False) -> None:
        self.value.setText(value)
        self.detail.setText(detail)
        if bad != self._bad:
            self._bad = bad
            self.value.setStyleSheet(BAD_VALUE if bad else FRESH_VALUE)
        self.value.setEnabled(True)

    def set_stale(self) -> None:
        self.value.setEnabled(False)


TILES = (  # key, caption, tooltip
    ("gpus", "GPUs", "GPUs in the design, with the servers and racks that hold them."),
    (
        "bandwidth",
        "Scale-out per GPU",
        "Cabled scale-out (NIC) bandwidth per GPU, Gb/s per direction; 'effective' divides it by "
        "every oversubscribed tier above: what one GPU gets when all GPUs talk across the fabric.",
    ),
    (
        "bisection",
        "Bisection",
        "Capacity of the narrowest cut that splits the GPU servers into two equal halves of the "
        "hall (Tb/s per direction). Non-blocking: half the GPUs × their scale-out bandwidth.",
    ),
    (
        "oversub",
        "Oversubscription",
        "Downlink : uplink capacity of the worst switch of each tier (1.00:1 = non-blocking), "
        "against the design's target (Design settings). Red when a tier exceeds the target.",
    ),
    (
        "optics",
        "Transceiver modules",
        "Modules the plant needs: one per used cage that takes a module (a twin-port module "
        "serves both ports of its cage), and the power they draw, typical and maximum.",
    ),
    (
        "cables",
        "Cables by kind",
        "Cables pulled, as the cabling schedule and the BOM count them: each assembly once (a "
        "straight twin-port cable carries two links), fibres, patch cords and trunks, by kind; "
        "then the links per medium kind and the cages used.",
    ),
    (
        "power",
        "Total power (typical / max)",
        "Power of servers, switches, modules and cable ends (and any other device), at typical "
        "draw and at maximum draw (what rack budgets are checked against).",
    ),
    (
        "cost",
        "Indicative cost",
        "Catalog list prices of servers, switches, optics, cables and racks: an order of "
        "magnitude for comparing options, not a quote.",
    ),
    (
        "allreduce",
        "All-reduce",
        "Time of one all-reduce of the design's message size on the largest job the design "
        "holds: NCCL's pattern routed over the fabric (ECMP), the busiest link's bytes over its "
        "capacity plus NCCL's latency model, with the algorithm and protocol NCCL would pick "
        "(named under the bottleneck). Algorithm, message size and job placement: Design settings.",
    ),
    (
        "reliability",
        "Expected failures",
        "Interruptions per day from all causes (GPUs, HBM, hosts, NICs, switches, scale-up trays (NVLink or UALink), "
        "optics per laser, cables, software) from FIT rates derived from Llama 3's 54-day record "
        "or marked estimate (catalog, overridable in Design settings), and the GPU-hours a day "
        "they put at risk for the job (job size × restart time).",
    ),
    (
        "warnings",
        "Warnings",
        "Findings of the analysis (errors first). The Warnings list selects their objects.",
    ),
)


class AnalysisPanel(QWidget):
    """Tiles + bottleneck + delta, following a runner (``set_runner``)."""

    links_chosen = Signal(list)  # link ids to select: the busiest links of the largest job

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.runner: AnalysisRunner | None = None
        self.report: Report | None = None
        self.edit_label = ""  # names the edits the next delta is about (set by the dock wiring)
        self.status = QLabel("waiting for the first analysis…")
        self.status.setStyleSheet("color: #666; font-size: 11px;")
        self.bottleneck = QLabel("")
        self.bottleneck.setWordWrap(True)
        self.bottleneck.setToolTip(
            "The links the default job's collectives load most, then the per-GPU layers."
        )
        self.bottleneck.setStyleSheet(
            "font-size: 13px; font-weight: 600; color: #1d3557; "
            "background: #e7f0fa; border-left: 4px solid #1c7ed6; padding: 6px;"
        )
        # Selects the links the largest job's all-reduce loads most (named under the bottleneck).
        self.collective = QLabel('<a href="select">Select the busiest links</a>')
        self.collective.setTextFormat(Qt.RichText)
        self.collective.setToolTip(
            "Select, in the editor, the links the largest job's all-reduce loads most."
        )
        self.collective.setStyleSheet("font-size: 11px; padding: 0 6px;")
        self.collective.linkActivated.connect(self._choose_busiest)
        self.delta = QLabel("")
        plain_labels(self.status, self.bottleneck, self.delta)
        self.delta.setWordWrap(True)
        self.delta.setToolTip("What the last edit changed in counts, power and cost.")
        self.delta.setStyleSheet("font-size: 12px; color: #333; padding: 2px 4px;")
        self.tiles: dict[str, Tile] = {}
        grid_host = QWidget()
        grid = QGridLayout(grid_host)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(6)
        for key, caption, tip in TILES:
            self.tiles[key] = Tile(caption, tip)
        self._grid = grid
        self._columns = 0
        self._flow_tiles(3)
        self.fabric_box = QComboBox()
        self.fabric_box.setToolTip("Show the figures of one network of the hall, or all of them")
        self.fabric_box.addItem("All fabrics", ALL_FABRICS)
        self.fabric_box.currentIndexChanged.connect(self._show_fabrics)
        self.fabric_view = QLabel("")
        self.fabric_view.setTextFormat(Qt.RichText)
        self.fabric_view.setStyleSheet("font-size: 11px; color: #222;")
        self.fabric_view.setWordWrap(True)  # never wider than the dock (the tiles reflow too)
        self.fabric_box.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.fabric_box.setMinimumContentsLength(8)
        fabric_row = QHBoxLayout()
        fabric_row.addWidget(QLabel("Fabric:"))
        fabric_row.addWidget(self.fabric_box, 1)
        # Per feed, panel and cooling unit at max draw (hidden when the hall has no facility).
        self.facility_caption = QLabel("Power and cooling at maximum draw")
        self.facility_caption.setStyleSheet("font-size: 11px; font-weight: 600; color: #333;")
        self.facility_table = FacilityTable()
        self.facility_table.setMinimumHeight(160)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)
        layout.addWidget(self.status)
        layout.addWidget(self.bottleneck)
        layout.addWidget(self.collective)
        layout.addWidget(self.delta)
        layout.addWidget(grid_host)
        layout.addLayout(fabric_row)
        layout.addWidget(self.fabric_view)
        layout.addWidget(self.facility_caption)
        layout.addWidget(self.facility_table)
        self._show_facility([], {})
        layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.NoFrame)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    def _flow_tiles(self, columns: int) -> None:
        """Lay the tiles out in ``columns`` columns (fewer when the dock is narrow, so that a
        value such as "26,214.4 Tb/s" is never cut off at the dock's edge)."""
        if columns == self._columns:
            return
        self._columns = columns
        for i, tile in enumerate(self.tiles.values()):
            self._grid.addWidget(tile, i // columns, i % columns)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        widest = max(t.minimumSizeHint().width() for t in self.tiles.values())
        room = self.width() - 12 - 16  # body margins and a vertical scrollbar
        self._flow_tiles(max(1, min(3, (room + 6) // (widest + 6))))

    def set_runner(self, runner: AnalysisRunner) -> None:
        self.runner = runner
        runner.stale.connect(self.show_stale)
        runner.finished.connect(self.show_result)
        runner.failed.connect(self.show_failure)
        if runner.result is not None and runner.fresh:
            self.show_result(runner.result)
        else:
            self.show_stale()

    def _choose_busiest(self, _href: str = "") -> None:
        fig = getattr(self.report, "collectives", None) if self.report else None
        if fig is not None:
            self.links_chosen.emit(list(fig.default["all-reduce"].bottleneck_links))

    # ------------------------------------------------------------------ states

    def show_stale(self) -> None:
        self.status.setText("⟳ recomputing…")
        self.status.setStyleSheet("color: #b35c00; font-size: 11px; font-weight: 600;")
        for tile in self.tiles.values():
            tile.set_stale()
        self.bottleneck.setEnabled(False)
        self.facility_table.setEnabled(False)  # greyed: an older revision's figures

    def show_failure(self, error: str) -> None:
        self.status.setText("analysis failed: " + error.strip().splitlines()[-1])
        self.status.setStyleSheet("color: #c92a2a; font-size: 11px;")

    def show_result(self, result: AnalysisResult) -> None:
        self.report = r = result.report
        self.status.setText(
            f"up to date · revision {result.revision} · computed in {result.seconds * 1000:,.0f} ms"
        )
        self.status.setStyleSheet("color: #2b8a3e; font-size: 11px;")
        self.bottleneck.setEnabled(True)
        sentence = bottleneck_sentence(getattr(r, "collectives", None))
        # The links the default job's collectives load most come first (link loads); the
        # static per-layer figure after them (an oversubscribed tier is not charged to a ring).
        layers = r.bottleneck_explanation or "none found"
        self.bottleneck.setText(
            f"Bottleneck: {sentence}\nPer-GPU layers: {layers}" if sentence
            else f"Bottleneck: {layers}"
        )  # fmt: skip
        fig = getattr(r, "collectives", None)
        self.collective.setVisible(bool(fig and fig.default["all-reduce"].bottleneck_links))
        what = self.edit_label or "Last edit"
        self.delta.setText(f"{what}: {result.delta}" if result.delta else "")
        self.edit_label = ""
        target = self.runner.design.settings.oversubscription_target if self.runner else 1.0
        t = self.tiles
        t["gpus"].set(
            f"{r.gpus:,}",
            f"{count(r.servers, 'server')} · {count(r.racks, 'rack')} · "
            f"{count(r.switches_total, 'switch')}",
        )
        t["bandwidth"].set(
            f"{_gbps(r.scale_out_gbps)}",
            f"effective {_gbps(r.effective_gbps)} · {r.scale_up_name} {_gbps(r.scale_up_gbps)}",
            bad=r.effective_gbps < r.scale_out_gbps - 1e-6,
        )
        t["bisection"].set(f"{r.bisection_gbps / 1000:,.1f} Tb/s", r.bisection_method)
        ratios = [(name, tr.max) for name, tr in r.oversubscription.items()]
        worst = max((v for _, v in ratios), default=1.0)
        t["oversub"].set(
            ", ".join(f"{n} {_ratio(v)}" for n, v in ratios) or "—",
            f"target {target:.2f}:1",
            bad=worst > target + 1e-9,
        )
        by_kind = getattr(r, "transceivers_by_kind", {}) or {}
        kinds_text = " · ".join(
            f"{KIND_SHORT.get(k, k)} {int(v.get('modules', 0)):,}"
            for k, v in by_kind.items()
            if v.get("modules")
        )
        pm = r.power_w_max or {}
        t["optics"].set(
            f"{r.transceivers:,}",
            f"typical {_watts(r.transceiver_power_w)} · max {_watts(pm.get('transceivers', 0))}"
            + (f" ({kinds_text})" if kinds_text else ""),
        )
        kinds = [(k, v) for k, v in r.links_by_kind.items() if v]
        plant = r.plant or {}
        cables = plant.get("cables", {})
        cages = plant.get("cages", {})
        t["cables"].set(
            f"{cables.get('total', 0):,} cables" if plant else f"{r.links_total:,} links",
            " · ".join(f"{k} {v:,}" for k, v in cables.get("by_kind", {}).items())
            + f" — {r.links_total:,} links: "
            + " · ".join(f"{KIND_SHORT.get(k, k)} {v:,}" for k, v in kinds)
            + (f" · none {r.links_without_medium:,}" if r.links_without_medium else "")
            + (
                f" — cages {cages.get('used', 0):,} used, {cages.get('invalid', 0):,} invalid"
                if cages
                else ""
            ),
            bad=r.links_without_medium > 0 or cages.get("invalid", 0) > 0,
        )
        p = r.power_w
        t["power"].set(
            # Short enough for one tile column; the caption says which figure is which.
            f"{_watts(p.get('total', 0.0))} / {_watts(pm.get('total', 0.0))}",
            f"servers {_watts(p.get('servers', 0))} / {_watts(pm.get('servers', 0))} · switches "
            f"{_watts(p.get('switches', 0))} / {_watts(pm.get('switches', 0))} · modules "
            f"{_watts(p.get('transceivers', 0))} / {_watts(pm.get('transceivers', 0))} "
            "(typical / max)",
        )
        c = r.cost_usd
        t["cost"].set(
            _usd(c.get("total", 0.0)),
            f"optics {_usd(c.get('transceivers', 0))} · cables {_usd(c.get('cables', 0))}",
        )
        a = r.allreduce
        if a is not None:
            t["allreduce"].set(
                f"{a.time_s * 1000:,.2f} ms",
                f"{a.message_mb:g} MB over {a.gpus:,} GPUs · busBW {_gbps(a.busbw_gbps)} · "
                f"limited by {a.limited_by}",
            )
        else:
            t["allreduce"].set("—", "no GPUs")
        rel = getattr(r, "reliability", None) or {}
        if rel:
            worst = max(rel["categories"].values(), key=lambda c: c["failures_per_day"])
            t["reliability"].set(
                f"{rel['failures_per_day']:.2f} / day",
                f"{rel['label']} · {rel['failures_per_year']:,.0f} / year · most from "
                f"{worst['label']} · {rel['gpu_hours_at_risk_per_day']:,.0f} GPU-h at risk / day",
            )
        errors = len(r.errors())
        t["warnings"].set(
            f"{len(r.warnings):,}", f"{errors:,} errors" if errors else "no errors", bad=errors > 0
        )
        self._fill_fabric_box(list(r.fabrics))
        self._show_fabrics()
        self._show_facility(getattr(r, "power_feeds", []), getattr(r, "cooling", {}))

    def _show_facility(self, power_feeds: list[dict], cooling: dict) -> None:
        shown = self.facility_table.show_report(power_feeds, cooling) > 0
        self.facility_table.setEnabled(True)
        self.facility_caption.setVisible(shown)
        self.facility_table.setVisible(shown)

    # ------------------------------------------------------------------ per fabric

    def _fill_fabric_box(self, fabrics: list[str]) -> None:
        box = self.fabric_box
        present = [box.itemData(i) for i in range(1, box.count())]
        if present == fabrics:
            return
        chosen = box.currentData()
        box.blockSignals(True)
        while box.count() > 1:
            box.removeItem(1)
        for fabric in fabrics:
            box.addItem(FABRIC_LABELS.get(fabric, fabric), fabric)
        index = box.findData(chosen)
        box.setCurrentIndex(index if index >= 0 else 0)
        box.blockSignals(False)

    def show_fabric(self, fabric: str) -> None:
        """Choose the fabric shown (``ALL_FABRICS`` for the table of every fabric)."""
        index = self.fabric_box.findData(fabric)
        if index >= 0:
            self.fabric_box.setCurrentIndex(index)

    def _show_fabrics(self) -> None:
        r = self.report
        if r is None or not r.fabrics:
            self.fabric_view.setText("")
            return
        chosen = self.fabric_box.currentData()
        if chosen in r.fabrics:
            f = r.fabrics[chosen]
            types = ", ".join(f"{n:,} {t}" for t, n in f.switches_by_type.items()) or "none"
            kinds = " · ".join(f"{KIND_SHORT.get(k, k)} {v:,}" for k, v in f.links_by_kind.items())
            rows = [
                ("Switches", f"{f.switches:,} ({types})"),
                ("Devices cabled in", f"{f.endpoints:,}"),
                ("Links", f"{f.links:,}" + (f" ({kinds})" if kinds else "")),
                ("Transceivers", f"{f.transceivers:,}"),
                (
                    "Power",
                    f"{_watts(f.power_w['typical'])} typical · {_watts(f.power_w['max'])} max",
                ),
                (
                    "Cost",
                    f"{_usd(f.cost_usd['total'])} (switches {_usd(f.cost_usd['switches'])}, "
                    f"optics {_usd(f.cost_usd['transceivers'])}, "
                    f"cables {_usd(f.cost_usd['cables'])})",
                ),
            ]
            body = "".join(f"<tr><td><b>{k}</b></td><td>{v}</td></tr>" for k, v in rows)
        else:
            head = "<tr><th></th><th>Switches</th><th>Links</th><th>Optics</th><th>Power max</th><th>Cost</th></tr>"
            body = head + "".join(
                f"<tr><td><b>{FABRIC_LABELS.get(n, n)}</b></td><td>{f.switches:,}</td>"
                f"<td>{f.links:,}</td><td>{f.transceivers:,}</td>"
                f"<td>{_watts(f.power_w['max'])}</td><td>{_usd(f.cost_usd['total'])}</td></tr>"
                for n, f in r.fabrics.items()
            )
        self.fabric_view.setText(f"<table cellspacing='4'>{body}</table>")


def _gbps(x: float) -> str:
    if not math.isfinite(x):
        return "—"
    return f"{x / 1000:,.2f} Tb/s" if x >= 10_000 else f"{x:,.0f} Gb/s"


def _ratio(x: float) -> str:
    return "no uplinks" if not math.isfinite(x) else f"{x:.2f}:1"


def _watts(w: float) -> str:
    if w >= 1e6:
        return f"{w / 1e6:,.2f} MW"
    if w >= 1e3:
        return f"{w / 1e3:,.1f} kW"
    return f"{w:,.0f} W"


def _usd(x: float) -> str:
    if x >= 1e6:
        return f"${x / 1e6:,.1f} M"
    if x >= 1e3:
        return f"${x / 1e3:,.0f} k"
    return f"${x:,.0f}"
