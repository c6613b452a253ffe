"""Right-click menus on the plan: racks, links, trunks, trays and the empty floor.

Extensible: a feature adds its own entries with ``window.context_menu.add_provider(fn)``, where
``fn(target) -> list[MenuEntry | QMenu | None]`` (None is a separator; a QMenu's actions are
shown, its submenus included) is asked each time a menu opens;
``target.kind`` is "rack", "link", "trunk", "tray" or "plan" and ``target.ids`` the objects concerned
(the whole selection when the click is on a selected object). A provider returns ``[]`` for
targets it has nothing to say about.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QPointF
from PySide6.QtWidgets import QMenu

from gui.canvas.interaction import item_at
from gui.canvas.link_item import LinkItem
from gui.canvas.rack_item import RackItem
from gui.canvas.tray_item import TrayItem
from gui.canvas.trunk_items import TrunkItem


@dataclass(frozen=True)
class MenuEntry:
    text: str
    run: Callable[[], object]
    enabled: bool = True
    tip: str = ""


@dataclass
class ContextTarget:
    kind: str  # "rack", "link", "trunk", "tray" or "plan"
    ids: list[str] = field(default_factory=list)
    scene_pos: QPointF = field(default_factory=QPointF)


Provider = Callable[[ContextTarget], list]
MAX_DEVICE_ENTRIES = 8  # "Ports of …" entries for the top devices of a rack


class CanvasContextMenu(QObject):
    """Builds and shows the plan's right-click menu from its providers (see module doc)."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.providers: list[Provider] = []
        window.view.context_menu_requested.connect(self.open_at)
        self.last_menu: QMenu | None = None
        self._borrowed: list[QMenu] = []  # providers' menus whose actions the open menu shows

    def add_provider(self, provider: Provider) -> None:
        self.providers.append(provider)

    def target_at(self, scene_pos: QPointF) -> ContextTarget:
        """What a right-click at ``scene_pos`` is about; selects it as a left click would."""
        scene = self.window.scene
        item = item_at(scene, scene_pos)
        if item is None:
            return ContextTarget("plan", [], scene_pos)
        tables = {"rack": RackItem, "link": LinkItem, "trunk": TrunkItem, "tray": TrayItem}
        kind = next((k for k, table in tables.items() if isinstance(item, table)), None)
        if kind is None:  # an obstacle or the outline's edge: the plan's menu
            return ContextTarget("plan", [], scene_pos)
        if not item.isSelected():
            scene.select_ids([item.object_id])
        table = tables[kind]
        ids = [i.object_id for i in scene.selectedItems() if isinstance(i, table)]
        return ContextTarget(kind, ids or [item.object_id], scene_pos)

    def build(self, target: ContextTarget) -> QMenu:
        menu = QMenu(self.window)
        for provider in self.providers:
            entries = provider(target)
            if entries and menu.actions():
                menu.addSeparator()
            for entry in entries:
                if entry is None:
                    menu.addSeparator()
                    continue
                if isinstance(entry, QMenu):  # a provider's own menu: its actions, submenus too
                    self._borrowed.append(entry)
                    menu.addActions(entry.actions())
                    continue
                action = menu.addAction(entry.text)
                action.setEnabled(entry.enabled)
                if entry.tip:
                    action.setToolTip(entry.tip)
                action.triggered.connect(lambda _=False, run=entry.run: run())
        menu.setToolTipsVisible(True)
        return menu

    def open_at(self, scene_pos: QPointF, global_pos) -> None:
        menu = self.build(self.target_at(scene_pos))
        self.last_menu = menu
        if menu.actions():
            menu.exec(global_pos)
        menu.deleteLater()
        for borrowed in self._borrowed:
            borrowed.deleteLater()
        self._borrowed = []


def editor_entries(window) -> Provider:
    """The editor's own entries for each kind of target."""

    def provide(target: ContextTarget) -> list:
        w = window
        if target.kind == "rack":
            from gui.dialogs.port_table import open_port_table

            one = len(target.ids) == 1
            devices = w.document.design.devices_in_rack(target.ids[0]) if one else []
            ports = [
                MenuEntry(f"Ports of {d.name}…", lambda d=d.id: open_port_table(w, d))
                for d in reversed(devices[-MAX_DEVICE_ENTRIES:])
            ]
            return [
                MenuEntry("Open Elevation", lambda: w.open_elevation(target.ids[0]), one),
                MenuEntry("Connect All Free Ports…", w.bulk_connect_action.trigger),
                *ports,
                None,
                MenuEntry("Rotate 90°", w.rotate_selection),
                MenuEntry("Duplicate", w.duplicate),
                MenuEntry("Copy", w.copy),
                MenuEntry("Zoom to Selection", w.zoom_selection_action.trigger),
                None,
                MenuEntry("Delete", w.delete_selection),
            ]
        if target.kind == "link":
            design = w.document.design

            def select_racks() -> None:
                links = [design.links[i] for i in target.ids if i in design.links]
                w.scene.select_ids(
                    {design.devices[e.device].rack for lk in links for e in (lk.a, lk.b)}
                )

            return [
                MenuEntry("Zoom to Link", w.zoom_selection_action.trigger),
                MenuEntry("Select the Racks at Both Ends", select_racks),
                None,
                MenuEntry("Delete Link", w.delete_selection),
            ]
        if target.kind == "trunk":  # what a trunk is and carries: the inspector shows it
            return [MenuEntry("Zoom to Trunk", w.zoom_selection_action.trigger)]
        if target.kind == "tray":
            from gui.canvas.shape_edit import join_entry, split_entry

            return [
                MenuEntry("Zoom to Tray", w.zoom_selection_action.trigger),
                *split_entry(w.scene, target.ids, target.scene_pos),
                *join_entry(w.scene, target.ids),
                None,
                MenuEntry("Delete Tray", w.delete_selection),
            ]
        return [
            MenuEntry("Paste", w.paste),
            MenuEntry("Draw Tray", lambda: w.set_mode("tray")),
            MenuEntry("Select All Racks", w.select_all),
            MenuEntry("Fit Hall", w.view.fit),
        ]

    return provide
