"""RackElevationPanel: the elevation of one rack in a dock that follows the plan's selection —
U slots, devices, free space, power used against the budget — seen from the front or the rear.

Device types dropped from the catalog go into the slot under the cursor; devices are dragged to
other slots; the window's own actions (Delete, Ctrl+Z, Ctrl+S, Ctrl+F …) work while the panel
has focus because it is part of the main window, not a separate dialog.

Choices, written down:

* Following: a selected rack is shown; a selected device shows its rack; a selected link shows
  the rack of its A end, unless the rack shown already holds one of its ends. Trays and an empty
  selection leave the rack shown as it is. "Follow selection" unticked pins the rack.
* The rear view is the rack seen from behind: left and right swap, so the U rail is drawn on the
  right and labels sit at the right, and the devices whose ports are on the rear get their port
  marks (the front view marks the front-ported ones; see :mod:`gui.panels.elevation_blocks`).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from gui import style
from gui.canvas.scene_input import MIME_TYPE
from gui.edit.commands import AddObjectsCommand, MoveDevicesCommand
from gui.panels.elevation_blocks import DeviceBlockItem
from gui.plain_text import escape, tooltip
from model.common.wording import count
from model.design import placement
from model.design.changes import DEVICE_KINDS, LINK_KINDS, RACK_KINDS, Change
from model.design.port_map import port_rows
from model.plant.physical_plant import rack_power
from model.structured.layout import panel_usage

U_PX = 18.0
RACK_PX = 300.0
MARGIN_PX = 34.0
# A U slot is never drawn smaller than this on screen (a 1 U device's name stays legible);
# the U numbers and device names keep their size in pixels whatever the scale.
MIN_U_SCREEN_PX = 11.0
U_LABEL_PX = 9
FACES = ("front", "rear")


class ElevationScene(QGraphicsScene):
    def __init__(self, panel: RackElevationPanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self._drag: tuple[DeviceBlockItem, float, float] | None = None

    def slot_at(self, y: float) -> int:
        rack = self.panel.rack()
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
                scene = self.panel.scene
                device = scene.design.devices[item.object_id]
                if not scene.push(
                    MoveDevicesCommand(scene.design, {device.id: (device.rack, device.u - steps)})
                ):
                    item.setPos(0, 0)
        super().mouseReleaseEvent(event)

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME_TYPE) and self.panel.rack_id is not None:
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME_TYPE) and self.panel.rack_id is not None:
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        kind, _, type_id = bytes(event.mimeData().data(MIME_TYPE)).decode().partition(":")
        if kind != "device" or self.panel.rack_id is None:
            return
        self.panel.add_device(type_id, self.slot_at(event.scenePos().y()))
        event.acceptProposedAction()


class ElevationView(QGraphicsView):
    """Scaled so the whole rack fits the dock (a 48 U rack in the docked column at 1080 p);
    below a readable U pitch it keeps MIN_U_SCREEN_PX and scrolls vertically."""

    resized = Signal()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit_width()
        self.resized.emit()

    def fit_width(self) -> None:
        rect = self.sceneRect()
        if rect.width() <= 0:
            return
        across = (self.viewport().width() - 4) / rect.width()
        down = (self.viewport().height() - 4) / max(rect.height(), 1.0)
        scale = max(MIN_U_SCREEN_PX / U_PX, min(2.0, across, down))
        centre_y = self.mapToScene(self.viewport().rect().center()).y()  # keep the slots shown
        if abs(scale - self.transform().m11()) > 1e-6:
            self.resetTransform()
            self.scale(scale, scale)
        self.centerOn(rect.center().x(), centre_y)  # the whole width: the rack and its U rail


class RackElevationPanel(QWidget):
    """The elevation dock's widget. ``set_scene`` binds it to each document's plan scene."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.scene = None
        self.rack_id: str | None = None
        self.face = "front"
        self._subscription = None
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        # Room for three lines whatever the rack: the view below keeps its height (and the
        # slots in view) when the text changes.
        self.summary.setMinimumHeight(self.summary.fontMetrics().lineSpacing() * 3 + 4)
        self.summary.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.power = QProgressBar()
        self.power.setTextVisible(True)
        self.face_buttons = QButtonGroup(self)
        faces = QHBoxLayout()
        for face in FACES:
            button = QRadioButton(face.capitalize())
            button.setToolTip(
                f"The rack seen from the {face}" + (" (mirrored)" if face == "rear" else "")
            )
            self.face_buttons.addButton(button)
            button.toggled.connect(lambda on, f=face: on and self.set_face(f))
            faces.addWidget(button)
            setattr(self, f"{face}_button", button)
        self.front_button.setChecked(True)
        faces.addStretch(1)
        self.follow = QCheckBox("Follow selection")
        self.follow.setChecked(True)
        self.follow.setToolTip("Show the rack of whatever is selected on the plan; untick to pin")
        faces.addWidget(self.follow)
        self.graphics = ElevationScene(self)
        self.view = ElevationView(self.graphics)
        self.view.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.view.setAcceptDrops(True)
        self.view.setDragMode(QGraphicsView.NoDrag)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        # Always on: a scroll bar that came and went would change the width the scale fits.
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOn)
        self.view.setResizeAnchor(QGraphicsView.AnchorViewCenter)
        # Until the user scrolls, the view keeps the rack's devices in sight as the dock is
        # shown, resized or rescaled.
        self._keep_devices_in_view = False
        self.view.resized.connect(self._resized)
        self.view.verticalScrollBar().actionTriggered.connect(self._user_scrolled)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addLayout(faces)
        layout.addWidget(self.power)
        layout.addWidget(self.view, 1)
        self.blocks: dict[str, DeviceBlockItem] = {}
        self.graphics.selectionChanged.connect(self._on_selection)
        self._stale = False
        self._scroll_pending = False
        self._drawing = False
        self._choosing = False  # our own device selection reaching the plan: do not follow it
        self.rebuild()

    # ------------------------------------------------------------------ binding

    def set_scene(self, scene) -> None:
        """Follow ``scene`` (a new document): no rack is shown until one is selected."""
        self.release()
        self.scene = scene
        self.rack_id = None
        self._subscription = scene.design.subscribe(self._on_change)
        self.rebuild()

    def release(self) -> None:
        if self._subscription is not None:
            self._subscription.close()
            self._subscription = None

    def rack(self):
        return self.scene.design.racks[self.rack_id]

    def set_rack(self, rack_id: str | None) -> None:
        if rack_id != self.rack_id:
            self.rack_id = rack_id
            self._scroll_pending = True  # a new rack: show its devices, not its empty top
            self._keep_devices_in_view = True
            self.rebuild()

    def set_face(self, face: str) -> None:
        if face != self.face:
            self.face = face
            getattr(self, f"{face}_button").setChecked(True)
            self.rebuild()

    def follow_selection(self, ids: list[str]) -> None:
        """The plan's selection changed: show the rack it points at (see the module's rules)."""
        if self._choosing or self.scene is None or not self.follow.isChecked():
            return
        design = self.scene.design
        for object_id in ids:
            if object_id in design.racks:
                return self.set_rack(object_id)
            if object_id in design.devices:
                return self.set_rack(design.devices[object_id].rack)
            link = design.links.get(object_id)
            if link is not None:
                ends = [design.devices[p.device].rack for p in (link.a, link.b)]
                if self.rack_id not in ends:
                    self.set_rack(ends[0])
                return None
        return None

    def _on_change(self, change: Change) -> None:
        if self.rack_id is not None and self.rack_id not in self.scene.design.racks:
            self.rack_id = None
            self.rebuild()
        elif self.rack_id is not None and change.touches(DEVICE_KINDS | RACK_KINDS | LINK_KINDS):
            self.rebuild()

    # ------------------------------------------------------------------ drawing

    def rebuild(self) -> None:
        if not self.isVisible() and self.scene is not None:
            self._stale = True  # a hidden dock draws when it is shown
            return
        self._stale = False
        # Clearing the old blocks is no choice of the user's: the plan must not hear it (a flag,
        # not blockSignals, which would also keep the view from hearing the new scene rect).
        self._drawing = True
        try:
            self._draw()
        finally:
            self._drawing = False

    def _draw(self) -> None:
        self.graphics.clear()
        self.blocks = {}
        if (
            self.scene is None
            or self.rack_id is None
            or self.rack_id not in self.scene.design.racks
        ):
            self.summary.setTextFormat(Qt.PlainText)
            self.summary.setText("Select a rack, a device or a link on the plan to see its rack.")
            self.power.setRange(0, 1)
            self.power.setValue(0)
            self.power.setFormat("Power —")
            self.graphics.setSceneRect(QRectF(0, 0, RACK_PX, 10))
            return
        design = self.scene.design
        rack = self.rack()
        rear = self.face == "rear"
        selected = set(self.scene.device_selection)
        height = rack.height_u * U_PX
        frame = QGraphicsRectItem(QRectF(0, 0, RACK_PX, height))
        frame.setPen(QPen(QColor(style.RACK_EDGE), 2))
        frame.setBrush(QBrush(QColor("#f4f5f7")))
        self.graphics.addItem(frame)
        font = QFont("Sans Serif")
        font.setPixelSize(U_LABEL_PX)
        rail_x = RACK_PX + 4 if rear else -MARGIN_PX + 4  # the left rail, seen from behind
        for u in range(1, rack.height_u + 1):
            y = (rack.height_u - u) * U_PX
            line = self.graphics.addLine(0, y, RACK_PX, y, QPen(QColor("#dde0e5"), 1))
            line.setZValue(1)
            label = self.graphics.addSimpleText(f"{u}", font)
            label.setBrush(QColor("#6c737f"))
            # In screen pixels: a rack scaled to fit its dock keeps its U numbers legible
            label.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
            label.setPos(rail_x, y + 1)
        types = design.catalog.device_types
        devices = design.devices_in_rack(rack.id)
        panels = any(d.role == "patch-panel" for d in devices) and self.scene.plant is not None
        usage = panel_usage(self.scene.plant, rack.id) if panels else {}
        here = 0
        for device in devices:
            dtype = types[device.type]
            top = (rack.height_u - (device.u + dtype.u_height - 1)) * U_PX
            rect = QRectF(2, top + 1, RACK_PX - 4, dtype.u_height * U_PX - 2)
            rows = port_rows(design, device.id)
            used = sum(1 for r in rows if r.link_id is not None)
            ports_here = dtype.ports_face == self.face
            here += ports_here and bool(rows)
            label = f"{device.name} · {dtype.model} · {used}/{count(len(rows), 'port')} cabled"
            if rows and not ports_here:
                label = f"{device.name} · {dtype.model} · ports at the {dtype.ports_face}"
            if device.id in usage:  # a structured panel: the channels' ports it holds
                used_here, total = usage[device.id]
                label = f"{device.name} · {dtype.model} · {used_here}/{total} used"
            block = DeviceBlockItem(
                device.id,
                rect,
                label,
                style.role_color(device.role),
                ports_used=[r.link_id is not None for r in rows],
                ports_here=ports_here,
                align=Qt.AlignRight if rear else Qt.AlignLeft,
                port_words=[_port_words(r) for r in rows],
            )
            block.setToolTip(
                tooltip(
                    f"{device.name} ({dtype.vendor} {dtype.model}), U{device.u}; "
                    f"{used} of {count(len(rows), 'port')} cabled, on the {dtype.ports_face}"
                )
            )
            self.graphics.addItem(block)
            block.setSelected(device.id in selected)
            self.blocks[device.id] = block
        used_u = sum(types[d.type].u_height for d in devices)
        typical_w, max_w, budget_w = rack_power(design, self.scene.plant, [rack.id])[rack.id]
        gpus = sum(types[d.type].gpu_count for d in devices)
        self.summary.setTextFormat(Qt.RichText)  # our bold; the rack name is escaped
        self.summary.setText(
            f"<b>{escape(rack.name)}</b> — {self.face} view, {rack.height_u} U, {used_u} U used, "
            f"{rack.height_u - used_u} U free, {gpus} GPUs; ports on this face: "
            f"{count(here, 'device')}. Drop catalog devices into a slot; drag to move."
        )
        # The bar shows the maximum draw (what the budget is checked against).
        self.power.setRange(0, max(1, int(budget_w / 100)))
        self.power.setValue(min(int(max_w / 100), self.power.maximum()))
        self.power.setFormat("Power " + style.rack_power_text(typical_w, max_w, budget_w))
        left = 0 if rear else -MARGIN_PX
        self.graphics.setSceneRect(QRectF(left, -10, RACK_PX + MARGIN_PX, height + 20))
        self.view.fit_width()
        if self._scroll_pending:  # once the dock has its size (it may be shown just now)
            self._scroll_pending = False
            QTimer.singleShot(0, self._scroll_to_devices)

    def _resized(self) -> None:
        if self._keep_devices_in_view:
            self._scroll_to_devices()

    def _user_scrolled(self, _action: int) -> None:
        self._keep_devices_in_view = False

    def _scroll_to_devices(self) -> None:
        """Show the rack's devices (the top one and down when they do not all fit; U1 when
        the rack is empty)."""
        if (
            self.rack_id is None
            or self.scene is None
            or self.rack_id not in self.scene.design.racks
        ):
            return
        occupied = QRectF()
        for block in self.blocks.values():
            occupied = occupied.united(block.sceneBoundingRect())
        bottom = self.rack().height_u * U_PX
        target = occupied if not occupied.isNull() else QRectF(0, bottom - 1, 1, 1)
        visible_px = self.view.viewport().height() / max(self.view.transform().m22(), 1e-6)
        if target.height() + 2 * U_PX <= visible_px:
            self.view.centerOn(target.center())
            self.view.ensureVisible(target, 0, 0)
        else:
            self.view.centerOn(target.center().x(), target.top() - U_PX + visible_px / 2)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self.rebuild()

    # ------------------------------------------------------------------ editing

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
        if self._drawing:
            return
        try:
            ids = [i.object_id for i in self.graphics.selectedItems() if hasattr(i, "object_id")]
        except RuntimeError:
            return
        if self.scene is None:
            return
        self._choosing = True
        try:
            self.scene.select_devices(ids)
        finally:
            self._choosing = False


def _port_words(row) -> str:
    """A port mark's tooltip: the port and where its cable goes, or that it is free."""
    if row.link_id is None:
        return escape(f"{row.port}: free ({row.speed_gbps:g}G {row.form_factor})")
    return escape(f"{row.port} → {row.far_device}:{row.far_port} in {row.far_rack}")
