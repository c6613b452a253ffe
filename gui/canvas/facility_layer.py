"""The power and cooling layer of the plan: busways, CDUs and CRAHs coloured by load at maximum
draw, a thin line from each unit to every rack it serves, and the floor load as a heat map.

Every figure is the model's (:func:`model.facility.plan_view.facility_view`): the layer maps
the bands it names (``ok`` below 80 %, ``high`` to 100 %, ``over``) to colours and draws. The
racks' maximum draw it reads is the model's too (:func:`model.plant.power.rack_power` over the
scene's plant, the figure the analysis reports). View > Power and Cooling shows it; hidden, it
computes nothing. It follows the design's edits, refreshed once per burst of them.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from model.facility.plan_view import FacilityView, facility_view
from model.plant.power import rack_power

BAND_COLORS = {"ok": "#2f9e44", "high": "#f08c00", "over": "#e03131", "unrated": "#868e96"}
TILE_ALPHA = 70  # the heat map lets the racks' colours and names show through
SERVE_COLOR = "#5c7cfa"
UNIT_SIZE_M = 0.5
BUSWAY_WIDTH_M = 0.06
LABEL_PX = 11
FLOOR_KEY = "Floor load: tile colour = kg/m2 against the hall's rating"


class FacilityItem(QGraphicsItem):
    """Paints a :class:`FacilityView` (dumb: the layer hands it the view and the racks'
    centres)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(30)  # over the racks (the heat map is the floor under them)
        self._view = FacilityView()
        self._centres: dict[str, tuple[float, float]] = {}
        self._rect = QRectF()
        self._font = QFont("Sans Serif")
        self._font.setPixelSize(LABEL_PX)

    def set_view(self, view: FacilityView, centres: dict[str, tuple[float, float]]) -> None:
        self.prepareGeometryChange()
        self._view, self._centres = view, centres
        rect = QRectF()
        for unit in view.units:
            for x, y in unit.points:
                rect = rect.united(QRectF(x - 1, y - 1, 2, 2))
        for x, y in centres.values():
            rect = rect.united(QRectF(x - 1, y - 1, 2, 2))
        tile = view.tile_m
        for col, row in view.tiles_kg_m2:
            rect = rect.united(QRectF(col * tile, row * tile, tile, tile))
        self._rect = rect
        self.update()

    def view(self) -> FacilityView:
        return self._view

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, _option, _widget=None) -> None:
        view = self._view
        tile = view.tile_m
        painter.setPen(Qt.NoPen)
        for (col, row), kg_m2 in view.tiles_kg_m2.items():
            color = QColor(BAND_COLORS[view.tile_band(kg_m2)])
            color.setAlpha(TILE_ALPHA)
            painter.setBrush(QBrush(color))
            painter.drawRect(QRectF(col * tile, row * tile, tile, tile))
        serve = QPen(QColor(SERVE_COLOR), 0)  # cosmetic: one pixel at any zoom
        serve.setStyle(Qt.DotLine)
        for unit in view.units:
            if unit.kind in ("cdu", "crah"):
                painter.setPen(serve)
                x, y = unit.points[0]
                for rack in unit.racks:
                    if rack in self._centres:
                        painter.drawLine(QPointF(x, y), QPointF(*self._centres[rack]))
        for unit in view.units:
            color = QColor(BAND_COLORS[unit.band])
            if unit.kind in ("busway", "panel"):
                pen = QPen(color, BUSWAY_WIDTH_M)
                if unit.side == "B":
                    pen.setStyle(Qt.DashLine)
                painter.setPen(pen)
                painter.setBrush(Qt.NoBrush)
                painter.drawPolyline(QPolygonF([QPointF(x, y) for x, y in unit.points]))
            else:
                painter.setPen(QPen(QColor("#1d3557"), 0))
                painter.setBrush(QBrush(color))
                x, y = unit.points[0]
                box = QRectF(x - UNIT_SIZE_M / 2, y - UNIT_SIZE_M / 2, UNIT_SIZE_M, UNIT_SIZE_M)
                if unit.kind == "cdu":
                    painter.drawRect(box)
                else:
                    painter.drawEllipse(box)
        self._paint_labels(painter)

    def _paint_labels(self, painter: QPainter) -> None:
        """Each unit's name and worst load, drawn at screen size beside it."""
        scale = painter.worldTransform().m11() or 1.0
        painter.save()
        painter.setFont(self._font)
        painter.setPen(QColor("#1d3557"))
        for unit in self._view.units:
            # A busway's label beyond its far end (its start is where the row's units stand).
            x, y = unit.points[-1]
            at = painter.worldTransform().map(QPointF(x, y))
            painter.save()
            painter.resetTransform()
            if unit.kind in ("busway", "panel"):
                where = QPointF(at.x() + 4, at.y() + LABEL_PX / 2 - 1)
            else:
                offset = UNIT_SIZE_M * scale / 2 + 3
                where = QPointF(at.x() + offset, at.y() - offset)
            painter.drawText(where, f"{unit.name} {unit.utilisation_pct:.0f}%")
            painter.restore()
        painter.restore()


class FacilityLayer(QObject):
    """The scene's power and cooling layer: hidden at first; shown, it draws the model's view
    of the design and refreshes it after each burst of edits."""

    def __init__(self, scene) -> None:
        super().__init__(scene)
        self.scene = scene
        self.item = FacilityItem()
        self.item.setVisible(False)
        scene.addItem(self.item)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.refresh)

    @property
    def visible(self) -> bool:
        return self.item.isVisible()

    def set_visible(self, visible: bool) -> None:
        self.item.setVisible(visible)
        if visible:
            self.refresh()

    def refresh_soon(self) -> None:
        """After an edit: once the burst is over, and only when shown."""
        if self.visible:
            self._timer.start()

    def refresh(self) -> None:
        design = self.scene.design
        max_w = {r: v[1] for r, v in rack_power(design, self.scene.plant).items()}
        centres = {r.id: (r.x, r.y) for r in design.racks.values()}
        self.item.set_view(facility_view(design, max_w), centres)
