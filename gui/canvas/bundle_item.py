"""Cable bundles along the trays: how many cables of each medium run in each tray.

``TrayLoad`` counts, per tray, the cables routed through it by medium group (for the bundles)
and takes each tray's fill from the model (``model.analysis.tray_fill``, the analysis's peak
along the tray, so the plan and the analysis panel show one figure), working in small slices on idle time so that a 400k-link hall
never blocks the window: links are grouped by rack pair (one route per pair) and the counts are
published when a pass ends. ``BundleItem`` draws one line per tray whose width grows with the
cable count and whose colour is the tray's main medium.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict

from PySide6.QtCore import QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from gui import style
from model.analysis.tray_fill import TrayFill
from model.catalog import medium_group
from model.geometry import merge_intervals, polyline_between

SLICE_S = 0.012  # work per idle tick: the window never waits longer than this for the count
GROUP_COLOR = {
    "copper": style.MEDIUM_KIND_COLORS["dac"],
    "mmf": style.MEDIUM_KIND_COLORS["mmf"],
    "smf": style.MEDIUM_KIND_COLORS["smf"],
    "aoc": style.MEDIUM_KIND_COLORS["aoc"],
    "none": style.NO_MEDIUM_COLOR,
}


class TrayLoad(QObject):
    """Per-tray cable counts by medium group (``counts[tray][group]``) and fill fraction."""

    updated = Signal()

    def __init__(self, design, plant, parent=None) -> None:
        super().__init__(parent)
        self.design = design
        self.plant = plant
        self.counts: dict[str, dict[str, int]] = {}
        self.fill: dict[str, float] = {}
        # Fabric layers the scene hides: their cables are left out of the bundles (the fill is
        # the analysis figure of the whole design); ``fabric_map()`` gives link id -> fabric.
        self.hidden_fabrics: set[str] = set()
        self.fabric_map = None
        self._tray_fill = TrayFill()  # keeps the routes' tray intervals between passes
        # Per tray, the stretches (arc-length intervals, m) some cable runs along: a bundle is
        # drawn there only, not along a leg of the tray no cable uses.
        self.used: dict[str, list[tuple[float, float]]] = {}
        self._work = None
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._tick)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(400)
        self._debounce.timeout.connect(self.start)

    def schedule(self) -> None:
        """The design changed: count again once edits pause."""
        self._debounce.start()

    def start(self) -> None:
        self._work = self._passes()
        self._timer.start()

    def pause(self) -> None:
        """Hold idle work while the user drags (resumed by ``resume``)."""
        self._timer.stop()
        self._debounce.stop()

    def resume(self) -> None:
        if self._work is not None:
            self._timer.start()

    @property
    def busy(self) -> bool:
        return self._work is not None or self._debounce.isActive()

    def stop(self) -> None:
        self._timer.stop()
        self._debounce.stop()
        self._work = None

    def run_to_end(self) -> None:
        """Count synchronously (headless render, tests)."""
        self.start()
        while self._work is not None:
            self._tick()

    def _tick(self) -> None:
        try:
            next(self._work)
        except StopIteration:
            self._timer.stop()
            self._work = None
            self.updated.emit()
        except Exception:  # noqa: BLE001 - the design changed under us: start over later
            self._timer.stop()
            self._work = None
            self.schedule()

    def _passes(self):
        design, plant = self.design, self.plant
        plant.refresh()
        devices = design.devices
        pairs: dict[tuple[str, str], list[str]] = defaultdict(list)
        links = list(design.links.values())
        if self.hidden_fabrics and self.fabric_map is not None:
            fabric_of, hidden = self.fabric_map(), self.hidden_fabrics
            links = [link for link in links if fabric_of.get(link.id) not in hidden]
        deadline = time.perf_counter() + SLICE_S
        for n, link in enumerate(links):
            a, b = devices[link.a.device].rack, devices[link.b.device].rack
            if a != b:
                pairs[(a, b) if a < b else (b, a)].append(link.id)
            if n % 2000 == 0 and time.perf_counter() > deadline:
                yield
                deadline = time.perf_counter() + SLICE_S
        counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        used: dict[str, list[tuple[float, float]]] = defaultdict(list)
        index, media, medium_index = plant.index, plant.media, plant.medium_index
        for ids in pairs.values():
            trays = plant.route(ids[0]).tray_ids
            for tray_id, s0, s1 in plant.link_tray_spans(ids[0]):
                used[tray_id].append((s0, s1))
            if trays:
                for link_id in ids:
                    k = int(medium_index[index[link_id]])
                    medium = media[k] if k >= 0 else None
                    group = medium_group(medium.kind if medium else None)
                    for tray_id in trays:
                        counts[tray_id][group] += 1
            if time.perf_counter() > deadline:
                yield
                deadline = time.perf_counter() + SLICE_S
        yield
        self.counts = {t: dict(g) for t, g in counts.items()}
        self.used = {t: merge_intervals(spans) for t, spans in used.items()}
        # Fill is the analysis's figure (the peak along the tray), not a sum of every cable
        # touching the tray: the same model function on the same design and plant.
        self.fill = self._tray_fill.update(design, plant, None)


class BundleItem(QGraphicsItem):
    """One item for all bundles: per tray, a line as wide as its cable count, in the colour of
    its main medium."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(-5)
        self._lines: list[tuple[QPainterPath, QPen]] = []
        self._rect = QRectF()

    def set_bundles(
        self,
        trays: dict,
        counts: dict[str, dict[str, int]],
        used: dict[str, list[tuple[float, float]]] | None = None,
    ) -> None:
        """``used``: per tray, the intervals cables run along (the whole tray when absent)."""
        self.prepareGeometryChange()
        self._lines = []
        rect = QRectF()
        top = max((sum(c.values()) for c in counts.values()), default=1)
        for tray_id, groups in counts.items():
            tray = trays.get(tray_id)
            if tray is None or not groups:
                continue
            total = sum(groups.values())
            main = max(groups, key=groups.get)
            stretches = [tray.points]
            if used and used.get(tray_id):
                stretches = [polyline_between(tray.points, s0, s1) for s0, s1 in used[tray_id]]
            path = QPainterPath()
            for points in stretches:
                if len(points) >= 2:
                    path.moveTo(*points[0])
                    for x, y in points[1:]:
                        path.lineTo(x, y)
            width = 2.0 + 8.0 * math.sqrt(total / top)
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
            self._lines.append((path, pen))
            rect = rect.united(path.boundingRect())
        self._rect = rect.adjusted(-1, -1, 1, 1)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        painter.setBrush(Qt.NoBrush)
        for path, pen in self._lines:
            painter.setPen(pen)
            painter.drawPath(path)


def _qcolor(name: str):
    from PySide6.QtGui import QColor

    return QColor(name)
