"""WarningMarksItem: badges on racks with findings and red marks along links with findings.

One overlay item for the whole scene (not one per rack) so that thousands of findings cost one
paint call. It reads positions through the scene's public API (``scene.racks``,
``scene.link_points``) and knows nothing of the analysis beyond the findings it is given.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from model.common.findings import SEVERITY_ORDER, Finding

BADGE_COLORS = {"error": "#e03131", "warning": "#f59f00", "info": "#1c7ed6"}
BADGE_LABELS = {"error": "Error finding", "warning": "Warning finding", "info": "Info finding"}
MAX_LINK_MARKS = 2000
BADGE_PX = 9.0


class WarningMarksItem(QGraphicsItem):
    def __init__(self, scene) -> None:
        super().__init__()
        self.hall_scene = scene
        self.setZValue(40)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.rack_severity: dict[str, str] = {}
        self.link_paths: list[QPainterPath] = []
        self._badges: dict[str, tuple[str, QPointF]] = {}  # rack -> severity, badge centre
        self._path_keys: dict[str, tuple[tuple, QRectF]] = {}  # marked link -> points, bounds
        self._rect = QRectF()

    def set_findings(self, findings: list[Finding]) -> None:
        racks, links = _marked_objects(self.hall_scene.design, findings)
        before_badges, before_paths = self._badges, self._path_keys
        self.rack_severity = racks
        self.link_paths = []
        path_keys: dict[str, tuple[tuple, QRectF]] = {}
        for link_id in dict.fromkeys(links):
            points = self.hall_scene.link_points(link_id)
            if len(points) >= 2:
                path = QPainterPath(QPointF(*points[0]))
                for x, y in points[1:]:
                    path.lineTo(x, y)
                self.link_paths.append(path)
                path_keys[link_id] = (tuple(map(tuple, points)), path.boundingRect())
        self._badges = {
            rack_id: (severity, corner)
            for rack_id, severity in racks.items()
            if (corner := self._corner(rack_id)) is not None
        }
        self._path_keys = path_keys
        severities = sorted(set(racks.values()), key=SEVERITY_ORDER.__getitem__)
        key = [(BADGE_LABELS[s], BADGE_COLORS[s], "dot") for s in severities]
        if self.link_paths:
            key.append(("Link named by a finding", BADGE_COLORS["error"], "dash"))
        self.hall_scene.set_overlay_key(self, tuple(key))
        rect = self.hall_scene.sceneRect()
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
            self.update()
            return
        # Repaint only the badges and link marks that came, went or moved: the item spans the
        # hall, and a whole-item update after every analysis repainted every rack under it.
        dirty = QRectF()
        margin = self._badge_margin_m()
        for rack_id in before_badges.keys() | self._badges.keys():
            old, new = before_badges.get(rack_id), self._badges.get(rack_id)
            if old == new:
                continue
            for badge in (old, new):
                if badge is not None:
                    corner = badge[1]
                    dirty = dirty.united(
                        QRectF(corner.x() - margin, corner.y() - margin, 2 * margin, 2 * margin)
                    )
        if before_paths != path_keys:
            for _, bounds in (*before_paths.values(), *path_keys.values()):
                dirty = dirty.united(bounds.adjusted(-margin, -margin, margin, margin))
        if not dirty.isNull():
            self.update(dirty)

    def _corner(self, rack_id: str) -> QPointF | None:
        item = self.hall_scene.racks.get(rack_id)
        return item.mapToScene(item.footprint().topRight()) if item is not None else None

    def _badge_margin_m(self) -> float:
        """A badge's radius in metres in the view that shows the hall smallest (it is drawn at
        a fixed size in pixels), and a little more for the dashed link marks' width."""
        scales = [abs(v.transform().m11()) for v in self.hall_scene.views()]
        px_per_m = min((s for s in scales if s > 0), default=1.0)
        return (BADGE_PX / 2 + 2) / px_per_m

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform()) or 1.0
        if self.link_paths:
            pen = QPen(QColor(BADGE_COLORS["error"]), 1.6, Qt.DashLine)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(Qt.NoBrush)
            for path in self.link_paths:
                painter.drawPath(path)
        radius = BADGE_PX / 2 / lod
        racks = self.hall_scene.racks
        painter.setPen(QPen(QColor("#ffffff"), 0))
        for rack_id, severity in self.rack_severity.items():
            item = racks.get(rack_id)
            if item is None:
                continue
            corner = item.mapToScene(item.footprint().topRight())
            painter.setBrush(QColor(BADGE_COLORS[severity]))
            painter.drawEllipse(corner, radius, radius)


def _marked_objects(design, findings: list[Finding]) -> tuple[dict[str, str], list[str]]:
    """The worst severity per rack named by a finding (itself or through a device in it), and
    the links named (at most MAX_LINK_MARKS)."""
    racks: dict[str, str] = {}
    links: list[str] = []
    for f in findings:
        for object_id in f.objects:
            rack_id = (
                object_id
                if object_id in design.racks
                else design.devices[object_id].rack
                if object_id in design.devices
                else None
            )
            if rack_id is not None:
                old = racks.get(rack_id)
                if old is None or SEVERITY_ORDER[f.severity] < SEVERITY_ORDER[old]:
                    racks[rack_id] = f.severity
            elif object_id in design.links and len(links) < MAX_LINK_MARKS:
                links.append(object_id)
    return racks, links
