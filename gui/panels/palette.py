"""CatalogPalette: rack and device types grouped by category, dragged onto the plan or into a
rack elevation; a click on a rack type starts placing racks of that type."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QSize, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QHeaderView,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gui import style
from gui.canvas.scene_input import MIME_TYPE
from gui.plain_text import tooltip
from model.catalog.components import Catalog

CATEGORY_TITLES = {
    "server": "GPU servers",
    "switch": "Switches",
    "nvlink-switch": "NVLink switches",
    "storage": "Storage",
    "patch-panel": "Patch panels",
    "other": "Other",
}
TYPE_ROLE = Qt.UserRole + 1


def _swatch(colour: QColor) -> QIcon:
    pixmap = QPixmap(12, 12)
    pixmap.fill(colour)
    return QIcon(pixmap)


class _TypeTree(QTreeWidget):
    def mimeData(self, items) -> QMimeData:
        data = QMimeData()
        key = items[0].data(0, TYPE_ROLE) if items else None
        if key:
            data.setData(MIME_TYPE, key.encode())
            data.setText(key)
        return data

    def mimeTypes(self) -> list[str]:
        return [MIME_TYPE]


class CatalogPalette(QWidget):
    """``rack_type_chosen(type_id)`` when a rack type is clicked (start placing)."""

    rack_type_chosen = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter types…")
        self.filter.setClearButtonEnabled(True)
        self.tree = _TypeTree()
        self.tree.setHeaderLabels(["Type", "U", "kW"])
        self.tree.setDragEnabled(True)
        self.tree.setRootIsDecorated(True)
        self.tree.setIndentation(12)  # two levels deep: the default 20 px each ate the names
        # "NVIDIA Quan…9700" says more than "NVIDIA Quantum…"; the full name is in the tooltip.
        self.tree.setTextElideMode(Qt.ElideMiddle)
        header = self.tree.header()  # the name takes what the U and kW figures leave
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree)
        self.filter.textChanged.connect(self._apply_filter)
        self.tree.itemClicked.connect(self._clicked)

    def sizeHint(self) -> QSize:
        return QSize(300, 600)

    def set_catalog(self, catalog: Catalog) -> None:
        self.tree.clear()
        racks = QTreeWidgetItem(["Racks"])
        self.tree.addTopLevelItem(racks)
        for rtype in catalog.rack_types.values():
            item = QTreeWidgetItem([rtype.model, str(rtype.height_u), f"{rtype.power_budget_kw:g}"])
            item.setData(0, TYPE_ROLE, f"rack:{rtype.id}")
            item.setToolTip(
                0,
                tooltip(
                    f"{rtype.vendor} {rtype.model}: {rtype.width_m * 1000:.0f} × "
                    f"{rtype.depth_m * 1000:.0f} mm, {rtype.height_u} U, "
                    f"{rtype.power_budget_kw:g} kW budget. Click to place, or drag onto the plan."
                ),
            )
            item.setIcon(0, _swatch(QColor(style.ROLE_COLORS["empty"]).darker(120)))
            racks.addChild(item)
        groups: dict[str, QTreeWidgetItem] = {}
        for dtype in catalog.device_types.values():
            group = groups.get(dtype.category)
            if group is None:
                group = groups[dtype.category] = QTreeWidgetItem(
                    [CATEGORY_TITLES.get(dtype.category, dtype.category)]
                )
                self.tree.addTopLevelItem(group)
            item = QTreeWidgetItem(
                [
                    f"{dtype.vendor} {dtype.model}",
                    str(dtype.u_height),
                    f"{dtype.power_typical_w / 1000:.1f}",
                ]
            )
            item.setData(0, TYPE_ROLE, f"device:{dtype.id}")
            ports = ", ".join(f"{g.count}×{g.speed_gbps:g}G {g.name}" for g in dtype.port_groups)
            item.setToolTip(
                0,
                tooltip(
                    f"{dtype.vendor} {dtype.model} — {dtype.u_height} U, "
                    f"{dtype.power_typical_w:.0f} W typical; ports: {ports}. "
                    "Drag onto a rack or into its elevation."
                ),
            )
            item.setIcon(0, _swatch(style.role_color(dtype.default_role)))
            group.addChild(item)
        self.tree.expandAll()

    def item_for(self, key: str) -> QTreeWidgetItem | None:
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                if top.child(j).data(0, TYPE_ROLE) == key:
                    return top.child(j)
        return None

    def _clicked(self, item: QTreeWidgetItem) -> None:
        key = item.data(0, TYPE_ROLE) or ""
        if key.startswith("rack:"):
            self.rack_type_chosen.emit(key[5:])

    def _apply_filter(self, text: str) -> None:
        text = text.lower()
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            visible = 0
            for j in range(top.childCount()):
                child = top.child(j)
                hide = bool(text) and text not in child.text(0).lower()
                child.setHidden(hide)
                visible += not hide
            top.setHidden(visible == 0)
