"""PortTableDialog: one device's port map (model.design.port_map) — which port goes where, which are
free — with the routed length and medium of each cable; a row's link can be shown on the plan."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDialog, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout

from model.common.wording import count
from model.design.port_map import port_rows

COLUMNS = ("Port", "Group", "Role", "Speed", "Face", "Goes to", "Rack", "Length", "Medium")


class PortTableDialog(QDialog):
    def __init__(self, window, device_id: str) -> None:
        super().__init__(window)
        self.window = window
        design = window.document.design
        device = design.devices[device_id]
        self.setWindowTitle(f"Ports of {device.name}")
        rows = port_rows(design, device_id)
        free = sum(r.link_id is None for r in rows)
        self.summary = QLabel(
            f"{device.name} ({design.device_type(device).model}) in "
            f"{design.racks[device.rack].name} U{device.u}: {count(len(rows), 'port')}, "
            f"{free} free. Double-click a cabled port to show its link on the plan."
        )
        self.summary.setWordWrap(True)
        self.table = QTableWidget(len(rows), len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectRows)
        plant = window.document.plant
        if window.scene is not None and window.scene.feed is not None:
            window.scene.feed.ensure_fresh()  # a tray re-route under way: its lengths, now
        for r, row in enumerate(rows):
            length = medium = ""
            if row.link_id is not None and plant is not None:
                try:
                    length = f"{plant.route(row.link_id).total_m:.1f} m"
                    chosen = plant.medium(row.link_id)
                    medium = chosen.name if chosen is not None else "none reaches"
                except Exception:  # noqa: BLE001 - a link the engine cannot route shows blank
                    pass
            goes_to = f"{row.far_device}:{row.far_port}" if row.link_id else "free"
            values = (
                row.port,
                row.group,
                row.role,
                f"{row.speed_gbps:g}G {row.form_factor}",
                row.face,
                goes_to,
                row.far_rack,
                length,
                medium,
            )
            for c, text in enumerate(values):
                item = QTableWidgetItem(text)
                item.setData(Qt.UserRole, row.link_id)
                if row.link_id is None:
                    item.setForeground(QColor("#2b8a3e"))
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.table.cellDoubleClicked.connect(self._show_link)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table)
        self.resize(760, 480)

    def _show_link(self, row: int, _col: int) -> None:
        link_id = self.table.item(row, 0).data(Qt.UserRole)
        if link_id is not None:
            self.window.scene.select_ids([link_id])


def open_port_table(window, device_id: str) -> PortTableDialog:
    dialog = PortTableDialog(window, device_id)
    window.port_table = dialog
    dialog.show()
    return dialog
