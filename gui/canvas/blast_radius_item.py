"""BlastRadiusItem: what a what-if failure takes out, drawn over the plan.

Failed racks (or racks of failed devices) get a red frame, racks whose servers lose every
scale-out port an orange one, racks whose servers lose some bandwidth a yellow one, racks of
servers outside the largest island (they cannot join the largest job) a blue one; failed links
are drawn as red lines along their routes. One overlay item for the whole scene; it reads rack
footprints and link routes through the scene's public API and is given the ids by the model's
``WhatIf.blast_radius`` (it computes nothing itself). Racks drawn highlighted for a compare use
the same item with the ``changed`` colour; the analysis's bisection cut the ``cut`` colour.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

COLORS = {
    "failed": "#e03131",
    "cut_off": "#f76707",
    "degraded": "#fab005",
    "island": "#1c7ed6",  # outside the largest island: cannot join the largest job
    # Lime: no medium, trunk or selection colour (violet was the AOC's)
    "changed": "#66a80f",
    "cut": "#0ca678",  # the links of the bisection's minimum cut and the racks they end in
}
LABELS = {  # the legend's line for each state
    "failed": "Failed (what-if)",
    "cut_off": "Servers cut off",
    "degraded": "Servers lose bandwidth",
    "island": "Outside the largest island",
    "changed": "Changed (compare)",
    "cut": "Bisection cut",
}
MAX_LINKS = 4000


class BlastRadiusItem(QGraphicsItem):
    def __init__(self, scene) -> None:
        super().__init__()
        self.hall_scene = scene
        self.setZValue(45)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.rack_state: dict[str, str] = {}  # rack id -> key of COLORS
        self.link_paths: list[tuple[QPainterPath, str]] = []
        self._rect = QRectF()

    def set_state(self, racks: dict[str, str], links: dict[str, str]) -> None:
        """Racks and links to mark, each with its state (a key of ``COLORS``)."""
        self.prepareGeometryChange()
        self.rack_state = dict(racks)
        self.link_paths = []
        for link_id, state in list(links.items())[:MAX_LINKS]:
            points = self.hall_scene.link_points(link_id)
            if len(points) >= 2:
                path = QPainterPath(QPointF(*points[0]))
                for x, y in points[1:]:
                    path.lineTo(x, y)
                self.link_paths.append((path, state))
        self._rect = self.hall_scene.sceneRect()
        shown = dict.fromkeys(
            [*self.rack_state.values(), *(state for _p, state in self.link_paths)]
        )
        self.hall_scene.set_overlay_key(
            self, tuple((LABELS[state], COLORS[state], "frame") for state in shown)
        )
        self.update()

    def clear(self) -> None:
        self.set_state({}, {})

    def is_empty(self) -> bool:
        return not self.rack_state and not self.link_paths

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        for path, state in self.link_paths:
            pen = QPen(QColor(COLORS[state]), 2.2)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(Qt.NoBrush)
            painter.drawPath(path)
        racks = self.hall_scene.racks
        for rack_id, state in self.rack_state.items():
            item = racks.get(rack_id)
            if item is None:
                continue
            color = QColor(COLORS[state])
            pen = QPen(color, 3.0)
            pen.setCosmetic(True)
            fill = QColor(color)
            fill.setAlpha(70)
            painter.setPen(pen)
            painter.setBrush(fill)
            painter.drawPolygon(item.mapToScene(item.footprint()))
