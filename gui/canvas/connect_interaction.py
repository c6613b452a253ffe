"""Connect mode: pick a device's free port group, then the far device; the link is routed at once."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsPathItem,
    QMenu,
)

from gui import style
from gui.canvas.interaction import Interaction
from gui.edit.commands import AddObjectsCommand
from model.common.wording import count
from model.design import placement
from model.design.bulk_connect import groups_with_free_ports, plan_bulk_connect


def choose(options: list[tuple[str, object]], screen_pos) -> object | None:
    """Let the user pick one option from a popup menu (one option is taken without asking)."""
    if not options:
        return None
    if len(options) == 1:
        return options[0][1]
    menu = QMenu()
    for text, value in options:
        action = menu.addAction(text)
        action.setData(value)
    chosen = menu.exec(screen_pos)
    return chosen.data() if chosen is not None else None


class ConnectInteraction(Interaction):
    """Click a rack and pick a device's free port group, then click the far rack and device."""

    name = "Connect"
    hint = "Click the rack of the first device, pick its port group, then click the far rack"

    def __init__(self, scene, on_done=None) -> None:
        super().__init__(scene, on_done)
        self.first: tuple[str, str] | None = None  # (device id, port group)
        self._line = QGraphicsPathItem()
        pen = QPen(QColor(style.SELECTION), 2.0, Qt.DashLine)
        pen.setCosmetic(True)
        self._line.setPen(pen)
        self._line.setZValue(60)
        scene.addItem(self._line)
        self._start = QPointF()

    def press(self, event) -> bool:
        if event.button() != Qt.LeftButton:
            return False
        design = self.scene.design
        rack_id = self.scene.rack_at(event.scenePos())
        if rack_id is None:
            return True
        if self.first is None:
            options = []
            for dev in reversed(design.devices_in_rack(rack_id)):
                for group, role, free, speed in placement.port_groups_with_free_ports(
                    design, dev.id
                ):
                    options.append(
                        (
                            f"{dev.name} · {group} ({role}, {speed:g}G) — {free} free",
                            (dev.id, group),
                        )
                    )
            if not options:
                self.scene.message.emit(f"Rack {design.racks[rack_id].name} has no free ports")
                return True
            picked = choose(options, event.screenPos())
            if picked is None:
                return True
            self.first = tuple(picked)
            rack = design.racks[rack_id]
            self._start = QPointF(rack.x, rack.y)
            self.hint = (
                f"Now click the rack of the far device for {design.devices[self.first[0]].name}"
            )
            self.scene.message.emit(self.hint)
            return True
        a_device, a_group = self.first
        options = _far_options(design, a_device, a_group, rack_id)
        if not options:
            self.scene.message.emit(
                f"No device in rack {design.racks[rack_id].name} has a free "
                f"port for {design.devices[a_device].name} {a_group}"
            )
            return True
        b_device = choose(options, event.screenPos())
        if b_device is None:
            return True
        if isinstance(b_device, tuple):
            self._connect_all(a_device, a_group, b_device[1])
            return True
        link = placement.new_link(design, a_device, a_group, b_device)
        self.first = None
        self._line.setPath(QPainterPath())
        self.hint = ConnectInteraction.hint
        a_name, b_name = design.devices[a_device].name, design.devices[b_device].name
        if self.scene.push(
            AddObjectsCommand(design, f"Connect {a_name} to {b_name}", links=[link])
        ):
            self.scene.select_ids([link.id])
            self.scene.message.emit(
                f"Connected {a_name}:{link.a.port} to {b_name}:{link.b.port}"
                + link_summary(self.scene, link.id)
            )
        return True

    def _connect_all(self, a_device: str, a_group: str, b_device: str) -> None:
        design = self.scene.design
        self.first = None
        self._line.setPath(QPainterPath())
        self.hint = ConnectInteraction.hint
        plan = plan_bulk_connect(design, [a_device], a_group, [b_device])
        links = plan.records(design)
        a_name, b_name = design.devices[a_device].name, design.devices[b_device].name
        label = f"Connect {count(len(links), 'port')} of {a_name} to {b_name}"
        if self.scene.push(AddObjectsCommand(design, label, links=links)):
            self.scene.select_ids([lk.id for lk in links])
            left = f"; {len(plan.unmatched)} left free" if plan.unmatched else ""
            self.scene.message.emit(
                f"Connected {a_name} {a_group} to {b_name}: {count(len(links), 'link')}{left}"
            )

    def move(self, event) -> bool:
        if self.first is not None:
            path = QPainterPath(self._start)
            path.lineTo(event.scenePos())
            self._line.setPath(path)
        return True

    def release(self, event) -> bool:
        return True

    def key_press(self, event) -> bool:
        if event.key() == Qt.Key_Escape and self.first is not None:
            self.first = None
            self._line.setPath(QPainterPath())
            return True
        return super().key_press(event)

    def cancel(self) -> None:
        self.first = None
        if self._line.scene() is not None:
            self.scene.removeItem(self._line)


def link_summary(scene, link_id: str) -> str:
    """' — 4.3 m, DAC 400G' from the cable plant, or '' if it cannot route the link."""
    plant = scene.plant
    try:
        scene.feed.ensure_fresh()
        route = plant.route(link_id)
        medium = plant.medium(link_id)
    except Exception:  # noqa: BLE001
        return ""
    return f" — {route.total_m:.1f} m, {medium.name if medium else 'no medium reaches'}"


def _far_options(design, a_device: str, a_group: str, rack_id: str) -> list[tuple[str, object]]:
    """The menu of far ends in ``rack_id`` for a link from ``a_device``'s ``a_group``: one
    entry per device with a free port, and one for all of a device's free ports at once."""
    options = []
    free = groups_with_free_ports(design, [a_device]).get(a_group, 0)
    for dev in reversed(design.devices_in_rack(rack_id)):
        if dev.id == a_device:
            continue
        link = placement.new_link(design, a_device, a_group, dev.id)
        if link is not None:
            info = design.ports(dev.id)[link.b.port]
            options.append(
                (f"{dev.name} · {link.b.port} ({info.role}, {info.speed_gbps:g}G)", dev.id)
            )
            plan = plan_bulk_connect(design, [a_device], a_group, [dev.id])
            if free > 1 and len(plan.links) > 1:
                # Every free port of the group at once: a DGX's eight rails in one pick.
                ports = f"{plan.links[0].b_port}–{plan.links[-1].b_port}"
                options.append(
                    (
                        f"{dev.name} · all {len(plan.links)} free {a_group} ports ({ports})",
                        ("all", dev.id),
                    )
                )
    return options
