"""RackElevationDialog: the front elevation of one rack — U slots, devices, free space, power
used against the budget. Device types dropped from the palette go into the slot under the
cursor; devices are dragged to other slots and deleted with the Delete key."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QDialog,
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QLabel,
    QProgressBar,
    QVBoxLayout,
)

from gui import style
from gui.canvas.scene import MIME_TYPE
from gui.commands import AddObjectsCommand, DeleteCommand, MoveDevicesCommand
from gui.plain_text import escape
from model import placement
from model.changes import DEVICE_KINDS, RACK_KINDS, Change
from model.plant import rack_power
from model.structured_layout import panel_usage

U_PX = 18.0
RACK_PX = 300.0
MARGIN_PX = 34.0


class DeviceBlockItem(QGraphicsRectItem):
    def __init__(self, object_id: str, rect: QRectF, label: str, fill: QColor) -> None:
        super().__init__(rect)
        self.object_id = object_id
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setBrush(fill)
        self.setPen(QPen(QColor(style.RACK_EDGE), 1))
        self.setZValue(5)
        text = QGraphicsSimpleTextItem(label, self)
        font = QFont("Sans Serif")
        font.setPixelSize(11)
        text.setFont(font)
        text.setPos(rect.left() + 6, rect.top() + (rect.height() - 14) / 2)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self.isSelected():
            self.setPen(QPen(QColor(style.SELECTION), 3))
        else:
            self.setPen(QPen(QColor(style.RACK_EDGE), 1))
        option.state &= (
            ~option.state.State_Selected
            if hasattr(option.state, "State_Selected")
            else option.state
        )
        super().paint(painter, option, widget)


class ElevationScene(QGraphicsScene):
    def __init__(self, dialog: RackElevationDialog) -> None:
        super().__init__(dialog)
        self.dialog = dialog
        self._drag: tuple[DeviceBlockItem, float, float] | None = None

    def slot_at(self, y: float) -> int:
        rack = self.dialog.rack()
        return max(1, min(rack.height_u, int(rack.height_u - y // U_PX)))

    def mousePressEvent(self, event) -> None:
        super().mousePressEvent(event)
        item = next(
            (i for i in self.items(event.scenePos()) if isinstance(i, DeviceBlockItem)), None
        )
        if item is not None and event.button() == Qt.LeftButton:
            self._drag = (item, event.scenePos().y(), item.pos().y())

    def mouseMoveEvent(self, event) -> None:
        if self._drag is not None:
            item, y0, start = self._drag
            item.setPos(0, round((start + event.scenePos().y() - y0) / U_PX) * U_PX)
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self._drag is not None:
            item, _y0, _start = self._drag
            self._drag = None
            steps = int(round(item.pos().y() / U_PX))
            if steps:
                design = self.dialog.scene.design
                device = design.devices[item.object_id]
                if not self.dialog.scene.push(
                    MoveDevicesCommand(design, {device.id: (device.rack, device.u - steps)})
                ):
                    item.setPos(0, 0)
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key_Delete, Qt.Key_Backspace):
            ids = [i.object_id for i in self.selectedItems() if isinstance(i, DeviceBlockItem)]
            if ids:
                self.dialog.scene.push(DeleteCommand(self.dialog.scene.design, ids))
                return
        super().keyPressEvent(event)

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME_TYPE):
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME_TYPE):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        kind, _, type_id = bytes(event.mimeData().data(MIME_TYPE)).decode().partition(":")
        if kind != "device":
            return
        self.dialog.add_device(type_id, self.slot_at(event.scenePos().y()))
        event.acceptProposedAction()


class RackElevationDialog(QDialog):
    """Non-modal; follows the design's change events while open."""

    def __init__(self, scene, rack_id: str, parent=None) -> None:
        super().__init__(parent)
        self.scene = scene
        self.rack_id = rack_id
        self.setAttribute(Qt.WA_DeleteOnClose, True)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.power = QProgressBar()
        self.power.setTextVisible(True)
        self.graphics = ElevationScene(self)
        self.view = QGraphicsView(self.graphics)
        self.view.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.view.setAcceptDrops(True)
        self.view.setDragMode(QGraphicsView.NoDrag)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.power)
        layout.addWidget(self.view)
        self.resize(400, 900)
        self.blocks: dict[str, DeviceBlockItem] = {}
        self._subscription = scene.design.subscribe(self._on_change)
        self.finished.connect(lambda _r: self._subscription.close())
        self.graphics.selectionChanged.connect(self._on_selection)
        self.rebuild()

    def rack(self):
        return self.scene.design.racks[self.rack_id]

    def _on_change(self, change: Change) -> None:
        if self.rack_id not in self.scene.design.racks:
            self._subscription.close()
            self.close()
        elif change.touches(DEVICE_KINDS | RACK_KINDS):
            self.rebuild()

    def rebuild(self) -> None:
        design = self.scene.design
        if self.rack_id not in design.racks:
            return
        rack = self.rack()
        self.setWindowTitle(f"Rack {rack.name} — elevation")
        selected = {i.object_id for i in self.graphics.selectedItems() if hasattr(i, "object_id")}
        self.graphics.clear()
        self.blocks = {}
        height = rack.height_u * U_PX
        frame = QGraphicsRectItem(QRectF(0, 0, RACK_PX, height))
        frame.setPen(QPen(QColor(style.RACK_EDGE), 2))
        frame.setBrush(QBrush(QColor("#f4f5f7")))
        self.graphics.addItem(frame)
        font = QFont("Sans Serif")
        font.setPixelSize(10)
        for u in range(1, rack.height_u + 1):
            y = (rack.height_u - u) * U_PX
            line = self.graphics.addLine(0, y, RACK_PX, y, QPen(QColor("#dde0e5"), 1))
            line.setZValue(1)
            label = self.graphics.addSimpleText(f"{u}", font)
            label.setBrush(QColor("#6c737f"))
            label.setPos(-MARGIN_PX + 4, y + 3)
        types = design.catalog.device_types
        devices = design.devices_in_rack(rack.id)
        panels = any(d.role == "patch-panel" for d in devices) and self.scene.plant is not None
        usage = panel_usage(self.scene.plant, rack.id) if panels else {}
        for device in devices:
            dtype = types[device.type]
            top = (rack.height_u - (device.u + dtype.u_height - 1)) * U_PX
            rect = QRectF(2, top + 1, RACK_PX - 4, dtype.u_height * U_PX - 2)
            links = len(design.links_of_device(device.id))
            label = f"{device.name} · {dtype.model} · {links} links"
            if device.id in usage:  # a structured panel: the channels' ports it holds
                label = f"{device.name} · {dtype.model} · {usage[device.id][0]}/{usage[device.id][1]} used"
            block = DeviceBlockItem(device.id, rect, label, style.role_color(device.role))
            self.graphics.addItem(block)
            block.setSelected(device.id in selected)
            self.blocks[device.id] = block
        used_u = sum(types[d.type].u_height for d in devices)
        typical_w, max_w, budget_w = rack_power(design, self.scene.plant, [rack.id])[rack.id]
        gpus = sum(types[d.type].gpu_count for d in devices)
        self.summary.setTextFormat(Qt.RichText)  # our bold; the rack name is escaped
        self.summary.setText(
            f"<b>{escape(rack.name)}</b> — {rack.height_u} U, {used_u} U used, "
            f"{rack.height_u - used_u} U free, {gpus} GPUs. Drop device types from the "
            "catalog into a slot; drag devices to move them; Delete removes."
        )
        # The bar shows the maximum draw (what the budget is checked against).
        self.power.setRange(0, max(1, int(budget_w / 100)))
        self.power.setValue(min(int(max_w / 100), self.power.maximum()))
        self.power.setFormat("Power " + style.rack_power_text(typical_w, max_w, budget_w))
        self.graphics.setSceneRect(QRectF(-MARGIN_PX, -10, RACK_PX + MARGIN_PX + 10, height + 20))

    def add_device(self, type_id: str, u: int) -> bool:
        design = self.scene.design
        dtype = design.catalog.device_type(type_id)
        fit = placement.free_u(design, self.rack_id, dtype.u_height, preferred=u)
        if fit is None:
            self.scene.message.emit(f"Rack {self.rack().name} has no {dtype.u_height} U free")
            return False
        device = placement.new_device(design, type_id, self.rack_id, fit)
        return self.scene.push(
            AddObjectsCommand(design, f"Add {device.name} to {self.rack().name}", devices=[device])
        )

    def _on_selection(self) -> None:
        try:
            ids = [i.object_id for i in self.graphics.selectedItems() if hasattr(i, "object_id")]
        except RuntimeError:
            return
        self.scene.select_devices(ids)
