"""Cable bundles along the trays: how many cables of each medium run in each tray.

``TrayLoad`` keeps, per tray, the cables routed through it by medium group (for the bundles)
and each tray's fill, both from one model tray count (``model.analysis.tray_fill.TrayFill``:
the analysis's peak along the tray, so the plan and the analysis panel show one figure). It
follows the document's :class:`~gui.document.plant_feed.PlantFeed`: after each plant refresh it recounts
only the links the refresh reported changed (the count is kept per route and medium, so an
incremental update equals a full recount); a change of the link set, the trays, the hall or the
settings recounts everything. In the editor it ``follow``s the analysis runner instead: the
worker counts fill and bundles with the analysis, on the same snapshot, and the GUI thread only
draws them. Cables with no medium carry no cable to draw and are left out
of the bundles (the NO_MEDIUM warning names them). ``BundleItem`` draws one line per tray whose
width grows with the cable count and whose colour is the tray's main medium.
"""

from __future__ import annotations

import math
import time

import numpy as np
from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style
from gui.document.plant_feed import PlantUpdate, feed_for
from model.analysis.tray_fill import PlanTrayFigures, TrayFill, medium_bundle_group
from model.design.changes import Change, ChangeKind
from model.engine.geometry import polyline_between

GROUP_COLOR = {
    "copper": style.MEDIUM_KIND_COLORS["dac"],
    "mmf": style.MEDIUM_KIND_COLORS["mmf"],
    "smf": style.MEDIUM_KIND_COLORS["smf"],
    "aoc": style.MEDIUM_KIND_COLORS["aoc"],
    "none": style.NO_MEDIUM_COLOR,
}
_RECOUNT_ALL = {ChangeKind.LINKS_ADDED, ChangeKind.LINKS_REMOVED}  # plant rows renumbered


class TrayLoad(QObject):
    """Per-tray cable counts by medium group (``counts[tray][group]``) and fill fraction."""

    updated = Signal()

    def __init__(self, design, plant, parent=None) -> None:
        super().__init__(parent)
        self.design = design
        self.plant = plant
        self.counts: dict[str, dict[str, int]] = {}
        self.fill: dict[str, float] = {}
        self.last_count_s = 0.0  # GUI time of the last count (benchmarks)
        self._tray_fill = TrayFill()  # per (route, medium) counts kept between updates
        # Count every link again (True), or only those whose route or medium differ from the
        # counted ones, which the tray fill finds by comparing the plant's arrays: the refreshes'
        # link ids are never read (190k of them after a corner drag at XL).
        self._recount_all = True
        self._paused = False
        self._runner = None  # an AnalysisRunner whose results carry fill and bundles
        self._result = None  # a result held back while the user drags
        # Layers the scene hides (fabrics, tiers): their cables are left out of the bundles
        # (the fill is the analysis figure of the whole design). ``link_shown()`` gives a test
        # link id -> drawn, or None when every layer is shown.
        self.link_shown = lambda: None
        # False: the own count leaves ``fill`` empty (a headless picture that shows no tray fill
        # never reads it; the editor keeps it True, as it may show the fill at any time).
        self.fill_wanted = True
        self._last = None  # the last result taken, to filter again when layers change
        # Per tray, the stretches (arc-length intervals, m) some cable runs along (the model's
        # TrayFill.used_stretches): a bundle is drawn there only, not along an unused leg.
        self.used: dict[str, list[tuple[float, float]]] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._count)
        self.feed = feed_for(design, plant) if plant is not None else None
        self._subscription = None
        if self.feed is not None:
            self.feed.refreshed.connect(self._on_refreshed)
            self._subscription = design.subscribe(self._on_change)
        self._listening = self.feed is not None

    def schedule(self) -> None:
        """The design changed: count again (the changed links) on the next idle turn."""
        if not self._paused and self._runner is None:
            self._timer.start()

    def start(self) -> None:
        """Count every link again, on the next idle turn (following a runner: filter its last
        result again for the hidden fabric layers)."""
        if self._runner is not None:
            if self._last is not None:
                self._take(self._last)
            return
        self._recount_all = True
        self.schedule()

    def pause(self) -> None:
        """Hold the count while the user drags (resumed by ``resume``)."""
        self._paused = True
        self._timer.stop()

    def resume(self) -> None:
        self._paused = False
        if self._runner is not None:
            self._publish()
        else:
            self._timer.start()

    @property
    def busy(self) -> bool:
        if self._runner is not None:
            # The bundles change when the runner's job completes; not while it is at rest, even
            # when its last job failed after publishing the report (nothing more is coming).
            return self._runner.analysing or self._timer.isActive() or self._paused
        return self._timer.isActive() or self._paused or (self.feed is not None and self.feed.dirty)

    @property
    def awaiting_analysis(self) -> bool:
        """True while the followed runner analyses an edit: the plan's bundles change when its
        result comes."""
        return self._runner is not None and self._runner.analysing

    def follow(self, runner) -> None:
        """Take fill and bundles from ``runner``'s results (an AnalysisRunner): the worker counts
        them with the analysis, from the same snapshot, so the GUI thread does no counting."""
        self._runner = runner
        self._timer.stop()  # no count of its own on the GUI thread
        self._stop_listening()
        runner.completed.connect(self._take)  # the bundles follow the report
        if runner.result is not None:
            self._take(runner.result)

    def _take(self, result) -> None:
        if result.bundles is None:
            return
        self._result = self._last = result
        if not self._paused:
            self._publish()

    def _publish(self) -> None:
        result, self._result = self._result, None
        if result is None:
            return
        self.fill = dict(result.report.tray_fill)
        if self.link_shown():  # layers hidden: their cables are left out, from the live plant
            self.counts, self.used = self._visible_counts(), self._used_stretches()
        else:  # every cable: as the worker counted them from the result's snapshot
            self.counts = result.bundles
            used = getattr(result, "used", None)
            self.used = used if used is not None else self._used_stretches()
        self.updated.emit()

    def _visible_rows(self):
        """Plant rows of the links in the layers shown (None: every layer is shown)."""
        shown = self.link_shown()
        if shown is None:
            return None
        return np.fromiter(
            (r for r, lk in enumerate(self.plant.link_ids) if shown(lk)), dtype=np.int64
        )

    def _used_stretches(self) -> dict[str, list[tuple[float, float]]]:
        if self.plant is None:
            return {}
        if self.feed is not None:
            self.feed.ensure_fresh()
        return self._tray_fill.used_stretches(self.plant, self._visible_rows())

    def _visible_counts(self) -> dict[str, dict[str, int]]:
        """Bundles of the links of the fabric layers shown (from the live, refreshed plant)."""
        if self.feed is not None:
            self.feed.ensure_fresh()
        return self._tray_fill.cables_by_tray(
            self.plant, medium_bundle_group, rows=self._visible_rows()
        )

    def stop(self) -> None:
        self._timer.stop()
        if self._runner is not None:
            try:
                self._runner.completed.disconnect(self._take)
            except (RuntimeError, TypeError):
                pass
            self._runner = None
        if self._subscription is not None:
            self._subscription.close()
            self._subscription = None
        self._stop_listening()

    def run_to_end(self) -> None:
        """Count synchronously (headless render, tests)."""
        self._count()

    def take_figures(self, figures: PlanTrayFigures) -> None:
        """Show figures counted elsewhere (a headless render's, counted in a forked child while
        the scene was built) instead of counting: every layer shown, no count pending."""
        self._timer.stop()
        self.fill, self.counts, self.used = figures.fill, figures.counts, figures.used
        self.updated.emit()

    def _stop_listening(self) -> None:
        if self.feed is not None and self._listening:
            self._listening = False
            self.feed.refreshed.disconnect(self._on_refreshed)

    def _on_change(self, change: Change) -> None:
        if change.touches(_RECOUNT_ALL):
            self._recount_all = True

    def _on_refreshed(self, _update: PlantUpdate) -> None:
        self.schedule()

    def _count(self) -> None:
        self._timer.stop()
        if self.plant is None:
            return
        started = time.perf_counter()
        self.feed.ensure_fresh()
        changed: set[str] | None = None if self._recount_all else set()
        self._recount_all = False
        # Fill is the analysis's figure (the peak along the tray), not a sum of every cable
        # touching the tray: the same model count on the same design and plant.
        self.fill = self._tray_fill.update(self.design, self.plant, changed, peaks=self.fill_wanted)
        self.counts = (
            self._visible_counts()
            if self.link_shown()
            else self._tray_fill.cables_by_tray(self.plant, medium_bundle_group)
        )
        self.used = self._used_stretches()
        self.last_count_s = time.perf_counter() - started
        self.updated.emit()


class BundleItem(QGraphicsItem):
    """One item for all bundles: per tray, a line as wide as its cable count, in the colour of
    its main medium.

    An update repaints only the trays whose line changed (count, main medium, stretches, tray
    geometry or width): the item spans the whole hall, and a whole-item update after each edit
    repainted every rack of the hall under it."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(-5)
        self._lines: list[tuple[QPainterPath, QPen]] = []
        # tray id -> (what the line is drawn from, path, pen, its bounds, its segments' bounds)
        self._by_tray: dict[str, tuple[tuple, QPainterPath, QPen, QRectF, list[QRectF]]] = {}
        self._rect = QRectF()

    def set_bundles(
        self,
        trays: dict,
        counts: dict[str, dict[str, int]],
        used: dict[str, list[tuple[float, float]]] | None = None,
    ) -> None:
        """``used``: per tray, the intervals cables run along (the whole tray when absent)."""
        before = self._by_tray
        after: dict[str, tuple[tuple, QPainterPath, QPen, QRectF, list[QRectF]]] = {}
        dirty: list[QRectF] = []  # one rectangle per changed line, not their union (below)
        rect = QRectF()
        kept = 0  # lines drawn as before
        top = max((sum(c.values()) for c in counts.values()), default=1)
        for tray_id, groups in counts.items():
            tray = trays.get(tray_id)
            if tray is None or not groups:
                continue
            total = sum(groups.values())
            main = max(groups, key=groups.get)
            width = 2.0 + 8.0 * math.sqrt(total / top)
            spans = tuple(used.get(tray_id) or ()) if used else ()
            key = (main, width, spans, tuple(map(tuple, tray.points)))
            old = before.get(tray_id)
            if old is not None and old[0] == key:
                kept += 1
                after[tray_id] = old
                rect = rect.united(old[3])
                continue
            if old is not None and old[0][2:] == key[2:]:
                # Same stretches of the same tray, another width or colour (a new busiest tray
                # rescales every width): the path stands, with a new pen.
                path, pen, bounds, pieces = old[1], _pen(main, width), old[3], old[4]
            else:
                path, pen = _line(tray.points, spans, main, width)
                bounds = path.boundingRect()
                pieces = _segments(path)
            after[tray_id] = (key, path, pen, bounds, pieces)
            rect = rect.united(bounds)
            dirty.extend(pieces)
            if old is not None and old[4] != pieces:
                dirty.extend(old[4])
        for tray_id in before.keys() - after.keys():
            dirty.extend(before[tray_id][4])
        self._by_tray = after
        self._lines = [(path, pen) for _, path, pen, _, _ in after.values()]
        rect = rect.adjusted(-1, -1, 1, 1)
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
            self.update()  # the bounds moved: the whole item, as before
            return
        # The changed trays of one rack's links lie along its rows and the spine, far apart: their
        # union was most of the hall. A view keeps separate rectangles as a region, so only the
        # lines that changed repaint; a line
        # is updated segment by segment, as an L-shaped tray's bounding rectangle is most of the
        # hall too (and every rack under it was repainted).
        # Every line changed (a new busiest tray rescales them all): one update of the item.
        if dirty and kept == 0:
            self.update(self._rect)
            return
        # Through the scene, not ``self.update(rect)``: an item's repaint requests are merged
        # into one rectangle (their union) before any view sees them; the scene hands each to
        # the views as it is (the views paint every item under it, as for the item's update).
        scene = self.scene()
        for bounds in dirty:
            if scene is not None:
                scene.update(self.mapRectToScene(bounds.adjusted(-1, -1, 1, 1)))
            else:
                self.update(bounds.adjusted(-1, -1, 1, 1))

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        painter.setBrush(Qt.NoBrush)
        for path, pen in self._lines:
            painter.setPen(pen)
            painter.drawPath(path)


def _segments(path: QPainterPath) -> list[QRectF]:
    """The bounds of each straight segment of ``path`` (moves and lines only): together they
    hold the line, which its bounding rectangle holds with much floor besides."""
    out = []
    previous = None
    for i in range(path.elementCount()):
        e = path.elementAt(i)
        if e.isLineTo() and previous is not None:
            out.append(QRectF(previous, QPointF(e.x, e.y)).normalized())
        previous = QPointF(e.x, e.y)
    return out


def _line(points, spans, main: str, width: float) -> tuple[QPainterPath, QPen]:
    """The path of a tray's bundle (along ``spans``, or the whole tray) and its pen."""
    stretches = [polyline_between(points, s0, s1) for s0, s1 in spans] if spans else [points]
    path = QPainterPath()
    for stretch in stretches:
        if len(stretch) >= 2:
            path.moveTo(*stretch[0])
            for x, y in stretch[1:]:
                path.lineTo(x, y)
    return path, _pen(main, width)


def _pen(main: str, width: float) -> QPen:
    """The pen of a bundle line: its main medium group's colour, ``width`` pixels wide."""
    pen = QPen(
        style.medium_color(None) if main == "none" else _qcolor(GROUP_COLOR[main]),
        width,
        Qt.SolidLine,
        Qt.FlatCap,
        Qt.RoundJoin,
    )
    pen.setCosmetic(True)
    color = pen.color()
    color.setAlpha(170)
    pen.setColor(color)
    return pen


def _qcolor(name: str):
    from PySide6.QtGui import QColor

    return QColor(name)
