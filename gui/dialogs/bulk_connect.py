"""BulkConnectDialog: connect every free port of a group on the selected servers to the chosen
switches in one step, with a preview of the port map (rails kept, see model.design.bulk_connect).

Sources are the selected devices that are not switches (or those in the selected racks);
targets are the selected switches, ticked, in the order rails are dealt to them. With no
switch in the selection every switch of the design is listed, unticked, to pick from.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from gui.edit.commands import AddObjectsCommand
from model.analysis.devices import category
from model.common.wording import count
from model.design.bulk_connect import BulkPlan, groups_with_free_ports, plan_bulk_connect
from model.design.design import Design

COLUMNS = ("Server", "Port", "Rail", "Switch", "Switch port", "Speed")


def split_selection(design: Design, ids: list[str]) -> tuple[list[str], list[str]]:
    """(sources, switches) among the selected devices and the devices of selected racks."""
    devices: list[str] = []
    for object_id in ids:
        if object_id in design.devices:
            devices.append(object_id)
        elif object_id in design.racks:
            devices.extend(d.id for d in design.devices_in_rack(object_id))
    types = design.catalog.device_types
    switches = [d for d in devices if category(types[design.devices[d].type]) == "switches"]
    sources = [d for d in devices if d not in switches]
    return sources, switches


class BulkConnectDialog(QDialog):
    def __init__(self, design: Design, ids: list[str], parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Connect all free ports")
        self.design = design
        self.sources, chosen = split_selection(design, ids)
        self.group = QComboBox()
        for group, free in sorted(groups_with_free_ports(design, self.sources).items()):
            self.group.addItem(f"{group} — {count(free, 'free port')}", group)
        nic = self.group.findData("nic")
        self.group.setCurrentIndex(max(nic, 0))
        self.targets = QListWidget()
        types = design.catalog.device_types
        every = [d.id for d in design.devices.values() if category(types[d.type]) == "switches"]
        for device_id in chosen or every:
            device = design.devices[device_id]
            rack = design.racks[device.rack].name
            item = QListWidgetItem(f"{device.name} ({types[device.type].model}, rack {rack})")
            item.setData(Qt.UserRole, device_id)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Checked if chosen else Qt.Unchecked)
            self.targets.addItem(item)
        self.targets.setMaximumHeight(140)
        self.preview = QTableWidget(0, len(COLUMNS))
        self.preview.setHorizontalHeaderLabels(COLUMNS)
        self.preview.verticalHeader().hide()
        self.preview.setEditTriggers(QTableWidget.NoEditTriggers)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        names = ", ".join(design.devices[d].name for d in self.sources[:6])
        more = f" and {len(self.sources) - 6} more" if len(self.sources) > 6 else ""
        form = QFormLayout()
        form.addRow("From", QLabel(names + more if names else "no server selected"))
        form.addRow("Port group", self.group)
        form.addRow("To switches", self.targets)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("Port map (rail k of every server to the same switch):"))
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.buttons)
        self.resize(640, 520)
        self.group.currentIndexChanged.connect(self._update)
        self.targets.itemChanged.connect(self._update)
        self.plan = BulkPlan()
        self._update()

    def chosen_targets(self) -> list[str]:
        return [
            self.targets.item(i).data(Qt.UserRole)
            for i in range(self.targets.count())
            if self.targets.item(i).checkState() == Qt.Checked
        ]

    def _update(self) -> None:
        group = self.group.currentData()
        design = self.design
        self.plan = (
            plan_bulk_connect(design, self.sources, group, self.chosen_targets())
            if group
            else BulkPlan()
        )
        rows = self.plan.links
        self.preview.setRowCount(len(rows))
        for r, p in enumerate(rows):
            values = (
                design.devices[p.a_device].name,
                p.a_port,
                str(p.rail + 1),
                design.devices[p.b_device].name,
                p.b_port,
                f"{p.speed_gbps:g}G",
            )
            for c, text in enumerate(values):
                self.preview.setItem(r, c, QTableWidgetItem(text))
        self.preview.resizeColumnsToContents()
        text = count(len(rows), "new link")
        if self.plan.unmatched:
            reasons = sorted({why for _d, _p, why in self.plan.unmatched})
            text += f"; {count(len(self.plan.unmatched), 'port')} left free: " + "; ".join(reasons)
        self.summary.setText(text)
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(bool(rows))

    def command(self) -> AddObjectsCommand | None:
        if not self.plan.links:
            return None
        links = self.plan.records(self.design)
        return AddObjectsCommand(
            self.design, f"Connect {count(len(links), 'port')} to switches", links=links
        )


def add_bulk_connect_action(window, menu) -> None:
    """Design → Connect All Free Ports… (Ctrl+Shift+K) on the window's selection."""

    def run() -> None:
        ids = window.scene.selected_ids()
        dialog = BulkConnectDialog(window.document.design, ids, window)
        if not dialog.sources:
            window.statusBar().showMessage(
                "Select the servers (or their racks) and the switches to connect", 6000
            )
            return
        if dialog.exec() == QDialog.Accepted:
            command = dialog.command()
            if command is not None and window.scene.push(command):
                window.scene.select_ids(lk.id for lk in command.added.links)

    action = window._action(
        "Connect All &Free Ports…",
        run,
        QKeySequence("Ctrl+Shift+K"),
        "Connect every free port of a group on the selected servers to the selected switches",
    )
    menu.addAction(action)
    window.bulk_connect_action = action
