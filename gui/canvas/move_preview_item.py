"""MovePreviewItem: the optimiser's proposed rack moves drawn over the plan as arrows.

Each moved rack gets an arrow from its centre now to its proposed centre and a dashed outline
of its footprint there; the positions come from the model's optimiser report (the item draws,
it computes nothing). One item for the whole scene, removed when the proposal is applied,
discarded or goes stale.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from model.design.entities import plan_size

ARROW_COLOR = "#0b7285"  # teal: used by no other overlay (see the plan legend's colours)
HEAD_M = 0.35  # arrow head length, metres


class MovePreviewItem(QGraphicsItem):
    def __init__(self, scene) -> None:
        super().__init__()
        self.hall_scene = scene
        self.setZValue(46)
        self.setAcceptedMouseButtons(Qt.NoButton)
        # rack id -> (from centre, to centre, plan width, plan depth), metres
        self.moves: dict[str, tuple[tuple[float, float], tuple[float, float], float, float]] = {}
        self._rect = QRectF()

    def set_moves(self, moves: list[dict]) -> None:
        """``moves``: the optimiser report's ``moved`` rows (rack, from, to)."""
        self.prepareGeometryChange()
        design = self.hall_scene.design
        self.moves = {}
        for m in moves:
            rack = design.racks.get(m["rack"])
            if rack is None:
                continue
            w, d = plan_size(rack.width_m, rack.depth_m, rack.rotation)
            self.moves[m["rack"]] = (tuple(m["from"]), tuple(m["to"]), w, d)
        rect = QRectF()
        for (x0, y0), (x1, y1), w, d in self.moves.values():
            rect = rect.united(
                QRectF(min(x0, x1) - w, min(y0, y1) - d, abs(x1 - x0) + 2 * w, abs(y1 - y0) + 2 * d)
            )
        self._rect = rect
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        color = QColor(ARROW_COLOR)
        pen = QPen(color, 2.5)
        pen.setCosmetic(True)
        dashed = QPen(color, 1.8, Qt.DashLine)
        dashed.setCosmetic(True)
        fill = QColor(color)
        fill.setAlpha(60)
        for (x0, y0), (x1, y1), w, d in self.moves.values():
            painter.setPen(dashed)
            painter.setBrush(fill)
            painter.drawRect(QRectF(x1 - w / 2, y1 - d / 2, w, d))
            painter.setPen(pen)
            painter.drawLine(QPointF(x0, y0), QPointF(x1, y1))
            angle = math.atan2(y1 - y0, x1 - x0)
            head = QPolygonF(
                [
                    QPointF(x1, y1),
                    QPointF(
                        x1 - HEAD_M * math.cos(angle - 0.45), y1 - HEAD_M * math.sin(angle - 0.45)
                    ),
                    QPointF(
                        x1 - HEAD_M * math.cos(angle + 0.45), y1 - HEAD_M * math.sin(angle + 0.45)
                    ),
                ]
            )
            painter.setBrush(color)
            painter.drawPolygon(head)
