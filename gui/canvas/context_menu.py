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

from PySide6.QtCore import QEvent, QObject, QPointF, QTimer
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


@dataclass(frozen=True)
class LazyMenu:
    """A submenu whose entries are made only when it opens (``entries()`` then): a core rack's
    hundreds of devices cost nothing until the user points at the submenu."""

    text: str
    entries: Callable[[], list[MenuEntry]]


@dataclass
class ContextTarget:
    kind: str  # "rack", "link", "trunk", "tray" or "plan"
    ids: list[str] = field(default_factory=list)
    scene_pos: QPointF = field(default_factory=QPointF)


Provider = Callable[[ContextTarget], list]


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

    def target_at(self, scene_pos: QPointF, select: bool = True) -> ContextTarget:
        """What a right-click at ``scene_pos`` is about; with ``select``, selects it as a left
        click would (``open_at`` does that once the menu is on screen)."""
        scene = self.window.scene
        item = item_at(scene, scene_pos)
        if item is None:
            return ContextTarget("plan", [], scene_pos)
        tables = {"rack": RackItem, "link": LinkItem, "trunk": TrunkItem, "tray": TrayItem}
        kind = next((k for k, table in tables.items() if isinstance(item, table)), None)
        if kind is None:  # an obstacle or the outline's edge: the plan's menu
            return ContextTarget("plan", [], scene_pos)
        if not item.isSelected():
            if select:
                scene.select_ids([item.object_id])
            else:
                return ContextTarget(kind, [item.object_id], scene_pos)
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
                if isinstance(entry, LazyMenu):
                    sub = menu.addMenu(entry.text)
                    sub.setToolTipsVisible(True)
                    sub.aboutToShow.connect(lambda sub=sub, e=entry: _fill_once(sub, e))
                    continue
                _add_entry(menu, entry)
        menu.setToolTipsVisible(True)
        return menu

    def open_at(self, scene_pos: QPointF, global_pos) -> None:
        """Show the menu first, then select what was clicked.

        Why: selecting a core rack at XL draws its 2,000 links, rebuilds the inspector and
        repaints the plan (~1 s); done before the menu, that work ran in the menu's event loop
        ahead of its first paint and the menu appeared after it (2.8 s measured on the busiest
        rack of the XL hall). The entries are built from the target, not from the selection."""
        target = self.target_at(scene_pos, select=False)
        scene = self.window.scene
        pending = target.kind != "plan" and not any(
            (item := scene.item_for(i)) is not None and item.isSelected() for i in target.ids
        )
        menu = self.build(target)
        self.last_menu = menu
        if pending:
            select = _SelectOnce(scene, target.ids)
            _after_first_paint(menu, select)
            # Hidden before any entry runs: the entry acts on the clicked object selected
            menu.aboutToHide.connect(select)
        if menu.actions():
            menu.exec(global_pos)
        if pending:
            select()  # the menu had no entries, or closed before it painted
        menu.deleteLater()
        for borrowed in self._borrowed:
            borrowed.deleteLater()
        self._borrowed = []


class _SelectOnce:
    """Selects ``ids`` the first time it is called (the menu painted, or hid to run an entry);
    later calls do nothing, so a selection an entry made is never undone."""

    def __init__(self, scene, ids) -> None:
        self.scene, self.ids, self.done = scene, list(ids), False

    def __call__(self) -> None:
        if not self.done:
            self.done = True
            self.scene.select_ids(self.ids)


class _FirstPaint(QObject):
    """Runs ``then`` on the next turn of the event loop after ``widget`` first paints."""

    def __init__(self, widget: QMenu, then: Callable[[], object]) -> None:
        super().__init__(widget)
        self.then = then
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Paint and self.then is not None:
            then, self.then = self.then, None
            obj.removeEventFilter(self)
            QTimer.singleShot(0, then)
        return False


def _after_first_paint(widget: QMenu, then: Callable[[], object]) -> None:
    _FirstPaint(widget, then)


def _add_entry(menu: QMenu, entry: MenuEntry) -> None:
    action = menu.addAction(entry.text)
    action.setEnabled(entry.enabled)
    if entry.tip:
        action.setToolTip(entry.tip)
    action.triggered.connect(lambda _=False, run=entry.run: run())


def _fill_once(menu: QMenu, lazy: LazyMenu) -> None:
    if menu.actions():
        return
    entries = lazy.entries()
    for entry in entries:
        _add_entry(menu, entry)
    if not entries:
        menu.addAction("(none)").setEnabled(False)


def editor_entries(window) -> Provider:
    """The editor's own entries for each kind of target."""

    def provide(target: ContextTarget) -> list:
        w = window
        if target.kind == "rack":
            from gui.dialogs.port_table import open_port_table

            one = len(target.ids) == 1
            rack_id = target.ids[0]

            def ports() -> list[MenuEntry]:
                """Every device of the rack, top U first (a core rack's too: no cut at 8)."""
                devices = w.document.design.devices_in_rack(rack_id)
                return [
                    MenuEntry(f"{d.name} (U{d.u})…", lambda d=d.id: open_port_table(w, d))
                    for d in sorted(devices, key=lambda d: -d.u)
                ]

            return [
                MenuEntry("Open Elevation", lambda: w.open_elevation(rack_id), one),
                MenuEntry("Connect All Free Ports…", w.bulk_connect_action.trigger),
                *([LazyMenu("Ports of", ports)] if one else []),
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
