"""ChartsPanel (pyqtgraph): cable lengths by medium kind with reach limits, power by category,
the per-GPU bandwidth ladder and the collectives' time vs job size. Each chart is redrawn from a
report and the length histogram the analysis worker computed with it
(:mod:`model.engine.length_histogram`); nothing here computes analysis figures.

While the panel is hidden (another analysis tab shows) a new result is only remembered and drawn
when the panel is next shown: building the plot items of four charts after every edit held the
GUI thread for a panel nobody looks at. The four plots themselves are made when the panel is
first shown (or a plot is first asked for): made with every window they were half the window's
construction (~74 of ~142 ms CPU), in an editor whose Charts tab may never be opened."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from gui.plain_text import plain_labels
from gui.style import MEDIUM_KIND_COLORS, NO_MEDIUM_COLOR
from model.catalog.components import MEDIUM_GROUP_LABELS, MEDIUM_GROUPS, NO_MEDIUM_GROUP
from model.engine.length_histogram import LengthHistogram
from model.engine.media import KIND_LABEL

GROUP_STYLE = {  # medium group -> label, colour (of the group's first kind)
    **{
        g: (MEDIUM_GROUP_LABELS[g], MEDIUM_KIND_COLORS[kinds[0]])
        for g, kinds in MEDIUM_GROUPS.items()
    },
    NO_MEDIUM_GROUP: ("no medium", NO_MEDIUM_COLOR),
}
COLLECTIVE_COLOURS = {
    "all-reduce": "#1c7ed6",
    "all-gather": "#2b8a3e",
    "reduce-scatter": "#94d82d",
    "broadcast": "#7048e8",
    "all-to-all": "#e8590c",
}
POWER_PARTS = (
    ("servers", "Servers"),
    ("switches", "Switches"),
    ("transceivers", "Modules"),
    ("cables", "Cable ends"),
    ("other_devices", "Other"),
)


def _plot(title: str, x_label: str, y_label: str) -> pg.PlotWidget:
    # No context menu (the charts are read-only): pyqtgraph's ViewBox menu is a parentless
    # top-level QMenu that would outlive the window.
    w = pg.PlotWidget(background="w", enableMenu=False)
    w.setAntialiasing(True)
    for side in ("left", "bottom"):
        axis = w.getAxis(side)
        axis.setPen(pg.mkPen("#555"))
        axis.setTextPen(pg.mkPen("#222"))
    w.setTitle(title, size="10pt", color="#222")
    w.setLabel("bottom", x_label)
    w.setLabel("left", y_label)
    w.showGrid(x=True, y=True, alpha=0.25)
    w.setMinimumSize(260, 180)
    w.setMouseEnabled(x=False, y=False)
    w.hideButtons()
    return w


class ChartsPanel(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._plots: tuple[pg.PlotWidget, ...] | None = None  # made on first use (_made_plots)
        self._released = False
        self._pending = None  # (report, histogram) not drawn yet: the panel was hidden
        self._drawn: dict[str, object] = {}  # chart -> the figures it shows (see _draw)
        self.status = QLabel("")
        plain_labels(self.status)
        self.status.setStyleSheet("color: #666; font-size: 11px;")
        self._grid = grid = QGridLayout(self)
        grid.setContentsMargins(2, 2, 2, 2)
        grid.setSpacing(4)
        grid.addWidget(self.status, 0, 0, 1, 2)
        grid.setRowStretch(1, 1)
        grid.setRowStretch(2, 1)

    def _made_plots(self) -> tuple[pg.PlotWidget, ...]:
        """The four plots (lengths, power, ladder, all-reduce), made and laid out on first use."""
        if self._plots is None:
            allreduce = _plot(
                "Collectives vs job size", "GPUs in the job (log)", "time per collective (ms, log)"
            )
            allreduce.setLogMode(x=True, y=True)
            self._plots = (
                _plot("Cable lengths by medium", "routed length (m)", "links"),
                _plot("Power by category", "", "power (kW)"),
                _plot("Per-GPU bandwidth by layer", "", "Gb/s per GPU (per direction)"),
                allreduce,
            )
            for plot, (row, column) in zip(
                self._plots, ((1, 0), (1, 1), (2, 0), (2, 1)), strict=True
            ):
                self._grid.addWidget(plot, row, column)
                if self.isVisible():  # made while showing: shown now, not on a later event
                    plot.show()
        return self._plots

    @property
    def lengths(self) -> pg.PlotWidget:
        return self._made_plots()[0]

    @property
    def power(self) -> pg.PlotWidget:
        return self._made_plots()[1]

    @property
    def ladder(self) -> pg.PlotWidget:
        return self._made_plots()[2]

    @property
    def allreduce(self) -> pg.PlotWidget:
        return self._made_plots()[3]

    def release(self) -> None:
        """Tear the plots down the way pyqtgraph expects, before the window is deleted.

        Why: a PlotWidget deleted with its parent window while its scene still holds plot items
        crashes in ``QGraphicsScene::clear()`` (PySide6 6.11, pyqtgraph 0.13); its own
        ``close()`` clears the scene first.
        """
        if self._released:
            return
        self._released = True
        for plot in self._plots or ():  # none made: nothing to tear down
            legend = plot.plotItem.legend
            if legend is not None:  # legend <-> view box is a cycle the collector cannot see
                legend.clear()
                plot.plotItem.legend = None
                legend.scene().removeItem(legend)
                legend.deleteLater()
            plot.close()
            plot.deleteLater()

    def set_stale(self) -> None:
        """An edit is being analysed: say so rather than pass the old charts off as current."""
        self.status.setText("⟳ recomputing… (charts below are of the previous revision)")
        self.status.setStyleSheet("color: #b35c00; font-size: 11px; font-weight: 600;")

    def show_failure(self, error: str) -> None:
        """The analysis failed: the charts below stay the last good revision's, and say so."""
        reason = error.strip().splitlines()[-1] if error.strip() else "unknown error"
        self.status.setText(f"analysis failed: {reason} (charts below are of an earlier revision)")
        self.status.setStyleSheet("color: #c92a2a; font-size: 11px; font-weight: 600;")

    def update_charts(
        self, report, histogram: LengthHistogram | None, revision: int | None = None
    ) -> None:
        if self._released:
            return  # the window is closing
        self.status.setText(
            "up to date" + (f" · revision {revision}" if revision is not None else "")
        )
        self.status.setStyleSheet("color: #2b8a3e; font-size: 11px;")
        self._pending = (report, histogram)
        # Drawn now only on the current tab (whether or not the window is on screen): the panel
        # sits in a scroll area, the tab's page, so its own isHidden() was never true and the
        # four plots (~30 ms at XL) were redrawn after every edit behind any other tab.
        if self.isVisibleTo(self.window()):
            self._draw()

    def setVisible(self, visible: bool) -> None:  # noqa: N802 - Qt override
        super().setVisible(visible)
        if visible:
            self._draw()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        # Its tab (the scroll area holding it) became the current one: draw what came meanwhile.
        super().showEvent(event)
        if not self._released:
            self._made_plots()  # shown empty before the first report, as before
        self._draw()

    def _draw(self) -> None:
        if self._pending is None or self._released:
            return
        (report, histogram), self._pending = self._pending, None
        # A chart whose figures are the ones it shows is left as drawn: a rack move seldom
        # changes power, bandwidth or all-reduce, and re-making those three plots' items was
        # ~15 ms of the GUI thread at every publish with this tab showing.
        for name, figures, draw in (
            ("lengths", _histogram_figures(histogram), lambda: self._lengths(histogram)),
            ("power", _power_parts(report), lambda: self._power(report)),
            ("ladder", tuple(report.bandwidth_layers), lambda: self._ladder(report)),
            ("allreduce", _collective_figures(report), lambda: self._allreduce(report)),
        ):
            if name not in self._drawn or self._drawn[name] != figures:
                draw()
                self._drawn[name] = figures

    # ------------------------------------------------------------------ charts

    def _lengths(self, histogram: LengthHistogram | None) -> None:
        w = self.lengths
        w.clear()
        if histogram is None:
            return
        edges = histogram.edges_m
        bottom = np.zeros(len(edges) - 1)
        width = edges[1] - edges[0]
        shown: list[tuple[str, str]] = []
        for group, counts in histogram.counts.items():
            label, colour = GROUP_STYLE[group]
            shown.append((label, colour))
            bars = pg.BarGraphItem(
                x0=edges[:-1],
                width=width * 0.95,
                y0=bottom,
                height=counts,
                brush=colour,
                pen=pg.mkPen(colour),
                name=label,
            )
            w.addItem(bars)
            bottom = bottom + counts
        # The key goes in the title, outside the plot: a legend inside sat over the tallest bars.
        w.setTitle(
            "Cable lengths by medium &nbsp; "
            + " &nbsp; ".join(
                f"<span style='color:{colour}'>■</span> {label}" for label, colour in shown
            ),
            size="10pt",
            color="#222",
        )
        for reach in histogram.reach:
            kind, r = reach.kind, reach.reach_m
            line = pg.InfiniteLine(
                pos=r,
                angle=90,
                pen=pg.mkPen(
                    MEDIUM_KIND_COLORS.get(kind, "#555"), width=1.5, style=pg.QtCore.Qt.DashLine
                ),
                label=f"{KIND_LABEL.get(kind, kind)} ≤ {r:g} m",
                labelOpts={
                    "position": 0.95,
                    "color": "#333",
                    "anchors": [(0, 0), (0, 0)],
                    "fill": (255, 255, 255, 200),
                },
            )
            w.addItem(line)

    def _power(self, report) -> None:
        w = self.power
        w.clear()
        parts = _power_parts(report)
        colours = ["#7fb3e6", "#5fb878", "#8e6cf0", "#e0a458", "#c8c8c8"]
        x = np.arange(len(parts))
        w.addItem(
            pg.BarGraphItem(
                x=x, height=[v for _, v in parts], width=0.6, brushes=colours[: len(parts)]
            )
        )
        for i, (_, v) in enumerate(parts):
            text = pg.TextItem(
                f"{v:,.0f} kW" if v >= 10 else f"{v:,.1f} kW", anchor=(0.5, 1), color="#222"
            )
            text.setPos(i, v)
            w.addItem(text)
        w.getAxis("bottom").setTicks([[(i, label) for i, (label, _) in enumerate(parts)]])
        w.setYRange(0, max([v for _, v in parts] + [1]) * 1.15)

    def _ladder(self, report) -> None:
        w = self.ladder
        w.clear()
        layers = report.bandwidth_layers
        if not layers:
            return
        values = [v for _, v in layers]
        low = min(values)
        brushes = ["#e03131" if v == low else "#7fb3e6" for v in values]
        w.addItem(
            pg.BarGraphItem(x=np.arange(len(layers)), height=values, width=0.6, brushes=brushes)
        )
        for i, v in enumerate(values):
            text = pg.TextItem(f"{v:,.0f}", anchor=(0.5, 1), color="#222")
            text.setPos(i, v)
            w.addItem(text)
        w.getAxis("bottom").setTicks([[(i, name) for i, (name, _) in enumerate(layers)]])
        w.setYRange(0, max(values) * 1.15)

    def _allreduce(self, report) -> None:
        """Time vs job size of every collective (log-log); the job sizes where NCCL's latency
        terms exceed the transfer time are shaded, so the latency- and bandwidth-bound regions
        show; hollow symbols mark latency-bound points."""
        w = self.allreduce
        w.clear()
        fig = report.collectives
        if fig is None:
            return
        all_x, shown = [], []
        for name, colour in COLLECTIVE_COLOURS.items():
            points = [p for p in fig.curves.get(name, []) if p.gpus > 1 and p.time_s > 0]
            if not points:
                continue
            x = np.array([p.gpus for p in points], dtype=float)
            t = np.array([p.time_s * 1000 for p in points])
            brushes = [None if p.latency_bound else colour for p in points]
            w.plot(
                x, t, pen=pg.mkPen(colour, width=2), symbol="o", symbolSize=6,
                symbolPen=colour, symbolBrush=brushes, name=name,
            )  # fmt: skip
            shown.append(name)
            all_x.extend(x.tolist())
        ar = [p for p in fig.curves.get("all-reduce", []) if p.gpus > 1 and p.latency_s > 0]
        if ar:
            x = np.array([p.gpus for p in ar], dtype=float)
            lat = np.array([p.latency_s * 1000 for p in ar])
            w.plot(x, lat, pen=pg.mkPen("#868e96", width=1, style=Qt.DashLine),
                   name="all-reduce latency")  # fmt: skip
            for lo, hi in _latency_spans(ar):
                region = pg.LinearRegionItem(
                    (math.log10(lo), math.log10(hi)), movable=False,
                    brush=pg.mkBrush(255, 224, 102, 70), pen=pg.mkPen(None),
                )  # fmt: skip
                region.setZValue(-10)
                w.addItem(region)
        ticks = [
            (math.log10(g), _count(g))
            for g in sorted(set(all_x))
            if g >= 1 and math.log2(g).is_integer()
        ]
        if len(ticks) > 8:
            ticks = ticks[:: math.ceil(len(ticks) / 8)]
        w.getAxis("bottom").setTicks([ticks, []])
        a = fig.default["all-reduce"]
        # The key is in the title, not an in-plot legend: any corner of a log-log plot of five
        # curves hides some of them at some message size.
        key = " ".join(
            f"<span style='color:{COLLECTIVE_COLOURS[n]}'>&#9632; {n}</span>" for n in shown
        )
        w.setTitle(
            f"{fig.size_bytes / 1e6:g} MB: all-reduce {a.time_s * 1000:,.2f} ms at "
            f"{_count(a.gpus)} GPUs ({a.algorithm}{'; ' + a.routing if a.routing else ''})"
            f"<br><span style='font-size:7pt'>{key} "
            "<span style='color:#868e96'>- - latency; shaded: latency-bound</span></span>",
            size="9pt",
            color="#222",
        )
        w.setToolTip(
            "Time of each collective on the first G GPUs in topology order (NCCL's algorithm and "
            "protocol, the busiest link plus NCCL's latency). Shaded: job sizes where the "
            "all-reduce is latency-bound; hollow points: latency-bound. " + fig.knee
            + (f" All-to-all: PXN {fig.default['all-to-all'].pxn}." if "all-to-all" in
               fig.default else "")
            + (f" Routing over equal-cost uplinks: {fig.routing}." if fig.routing else "")
        )  # fmt: skip


def _latency_spans(points) -> list[tuple[float, float]]:
    """Runs of consecutive latency-bound points as (first G, last G), widened by half a step."""
    spans, start = [], None
    for i, p in enumerate(points):
        if p.latency_bound and start is None:
            start = i
        if start is not None and (not p.latency_bound or i == len(points) - 1):
            end = i if p.latency_bound else i - 1
            spans.append((points[start].gpus / math.sqrt(2), points[end].gpus * math.sqrt(2)))
            start = None
    return spans


def _power_parts(report) -> tuple[tuple[str, float], ...]:
    """(label, kW) of each bar of the power chart."""
    return tuple(
        (label, report.power_w.get(key, 0.0) / 1000)
        for key, label in POWER_PARTS
        if report.power_w.get(key, 0.0) > 0 or key not in ("other_devices", "cables")
    )


def _collective_figures(report) -> tuple:
    """What the collectives chart shows of ``report``, comparable with ``==``."""
    fig = getattr(report, "collectives", None)
    if fig is None:
        return ()
    return tuple(
        (name, tuple((p.gpus, p.time_s, p.latency_s, p.bandwidth_s) for p in points))
        for name, points in fig.curves.items()
    )


def _histogram_figures(histogram: LengthHistogram | None) -> tuple | None:
    """What the length chart shows of ``histogram``, comparable with ``==``."""
    if histogram is None:
        return None
    counts = tuple((group, c.tobytes()) for group, c in histogram.counts.items())
    return histogram.edges_m.tobytes(), counts, histogram.reach


def _count(n: float) -> str:
    n = int(n)
    if n >= 1_000_000 and n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024}k"
    return str(n)
