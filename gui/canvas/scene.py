"""HallScene: owns the model-id -> item map, follows the design's change events, and forwards
mouse events to the active interaction (one class per mouse mode, see interactions.py; the
event handlers, tooltips and palette drops are in :mod:`gui.canvas.scene_input`).

Links are never one item each: only the links of the selection get a LinkItem; the rest of the
cabling shows as bundles along the trays (BundleItem) when a cable plant is available.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QRectF, QTimer, Signal
from PySide6.QtGui import QColor, QUndoStack
from PySide6.QtWidgets import QGraphicsScene

from gui import style
from gui.canvas.bundle_item import BundleItem, TrayLoad
from gui.canvas.dimension_item import DimensionItem, DimensionLayer
from gui.canvas.facility_layer import FacilityLayer
from gui.canvas.hall_item import HallItem
from gui.canvas.handles_item import HandlesItem
from gui.canvas.layers import LayerState
from gui.canvas.link_item import LinkItem
from gui.canvas.obstacle_item import ObstacleItem
from gui.canvas.overlay_keys import OverlayKeys
from gui.canvas.picture_racks import picture_entries
from gui.canvas.rack_field import RackField
from gui.canvas.rack_item import RackItem
from gui.canvas.row_labels_item import RowLabelsItem, shared_labels
from gui.canvas.scene_input import SceneInput
from gui.canvas.tray_item import TrayItem
from gui.canvas.trunk_layer import TrunkLayer
from gui.canvas.trunk_paths import one_link_points
from gui.canvas.underlay_layer import UnderlayLayer
from gui.document.plant_feed import feed_for
from gui.edit.commands import DesignCommand, push
from model.design.changes import DEVICE_KINDS, LINK_KINDS, RACK_KINDS, TRAY_KINDS, Change
from model.design.changes import ChangeKind as K
from model.design.design import Design
from model.design.entities import plan_size
from model.design.rack_role import rack_role
from model.design.rack_rows import rack_rows
from model.engine.routed_links import RoutedLinks
from model.plant.physical_plant import rack_power

MAX_LINK_ITEMS = 2000
FREE_STEP_M = 0.01  # the positioning step with snapping off


class HallScene(SceneInput, QGraphicsScene):
    """The plan of one design; ``plant`` is the design's RoutedLinks (routes and media)."""

    message = Signal(str)  # a sentence for the status bar (refused edits, measurements)
    selection_ids_changed = Signal()
    rack_activated = Signal(str)  # double-click on a rack: open its elevation
    # What the plan shows changed (an edit, a drag, the bundles, the selection, a layer, the
    # warning marks): the overview redraws its miniature once the scene rests. Not Qt's
    # ``changed``: a slot on that signal puts the scene in Qt's compatibility mode, where an
    # item's partial ``update(rect)`` repaints its whole bounds — for the hall-wide bundle,
    # row-label, rack-field and warning-mark items, the whole main view after every edit.
    drawing_changed = Signal()

    def __init__(
        self,
        design: Design,
        stack: QUndoStack,
        plant: RoutedLinks,
        parent=None,
        picture: bool = False,
    ) -> None:
        """``picture``: the scene of one picture of the design as it is now (a render): its
        racks are painted from entries computed together (gui/canvas/picture_racks.py), with no
        RackItem to select or drag, and it does not follow the design's edits."""
        super().__init__(parent)
        self.design = design
        self.picture = picture
        self.stack = stack
        self.plant = plant
        self.color_mode = "role"  # or "power"
        self.overlay_keys = OverlayKeys(self.views)  # the legend's lines, per overlay item
        self.show_tray_fill = False
        self.racks: dict[str, RackItem] = {}
        self.trays: dict[str, TrayItem] = {}
        self.obstacles: dict[str, ObstacleItem] = {}
        self.link_items: dict[str, LinkItem] = {}
        self.extra_link_ids: set[str] = set()  # links shown for a selection made elsewhere
        self.device_selection: list[str] = []  # devices picked in a rack elevation
        self.channel_focus: set[str] = set()  # channel elements a chosen warning names
        self.drop_target: str | None = None  # rack under a catalog device being dragged
        self.snap = True  # View → Snap to Floor Tiles
        self.show_trays = True  # View → Layers
        self.show_cables = True
        self.hall_item = HallItem()
        self.addItem(self.hall_item)
        # The building's drawing under the plan: placed once the window names the design's
        # folder (set_folder), where a relative path starts.
        self.underlay = UnderlayLayer(self)
        self.dimension_layer = DimensionLayer(self)  # dimension lines drawn on the plan
        self.handles = HandlesItem()  # corners of the one tray, obstacle or outline selected
        self.addItem(self.handles)
        self.rack_field = RackField(self.drawing_changed.emit)  # every rack in one paint call
        self.addItem(self.rack_field)
        self._interaction = None
        self._plant_dirty = False
        self._links_timer = QTimer(self)
        self._links_timer.setSingleShot(True)
        self._links_timer.setInterval(0)
        self._links_timer.timeout.connect(self._refresh_links)
        self.setBackgroundBrush(QColor(style.BACKGROUND))
        self.show_bundles = True
        # Layers (fabrics, tiers, … see gui/canvas/layers.py): links and bundles of hidden
        # layers are not drawn, racks only in hidden layers are dimmed. Nothing hidden at first.
        self.layers = LayerState(design)
        self.bundle_item = BundleItem()
        self.addItem(self.bundle_item)
        self.row_labels = RowLabelsItem()
        self.addItem(self.row_labels)
        self._row_groups: list[tuple[str, list[str]]] | None = None  # rows by name, rack ids
        self._rows_timer = QTimer(self)
        self._rows_timer.setSingleShot(True)
        self._rows_timer.setInterval(150)  # racks placed or moved in a burst: once after
        self._rows_timer.timeout.connect(self._update_row_labels)
        # The one owner of plant refreshes: it tells every consumer which links changed.
        self.feed = feed_for(design, plant) if plant is not None else None
        self.tray_load = TrayLoad(design, plant, self)
        self.tray_load.updated.connect(self._apply_tray_load)
        self.trunk_layer = TrunkLayer(self)  # View > Trunks: structured designs' MPO trunks
        self.facility_layer = FacilityLayer(self)  # View > Power and Cooling (hidden at first)
        self._build()
        if picture:
            self.trunk_layer.refresh()
        else:  # the editor's: drawn from the analysis's layout once the docks follow a runner
            self.trunk_layer.refresh_soon()
        self.tray_load.start()
        self._subscription = None if picture else design.subscribe(self._on_change)
        self.selectionChanged.connect(self._on_selection_changed)
        self.selectionChanged.connect(self._racks_selected)
        self.selectionChanged.connect(self.drawing_changed)
        self.selectionChanged.connect(self.update_handles)
        if self.feed is not None and not picture:
            self.feed.rerouting_changed.connect(self._rerouting_changed)

    # ------------------------------------------------------------------ building and following

    @property
    def rerouting(self) -> bool:
        """True while a tray edit's cables are re-routed on the analysis worker: the plan's
        cable routes are the previous ones, and the views say "updating…"."""
        return self.feed is not None and self.feed.rerouting

    def _rerouting_changed(self, on: bool) -> None:
        if not on and self._plant_dirty:
            self._links_timer.start()  # the drawn links take the re-routed paths
        for view in self.views():
            if hasattr(view, "update_banner"):
                view.update_banner()

    def detach(self) -> None:
        """Stop following the design (the document is being closed or replaced)."""
        if self._subscription is not None:
            self._subscription.close()
        if self.feed is not None and not self.picture:
            try:
                self.feed.rerouting_changed.disconnect(self._rerouting_changed)
            except (RuntimeError, TypeError):
                pass
        self._links_timer.stop()
        self.tray_load.stop()
        self.trunk_layer.stop()

    def _build(self) -> None:
        self._update_hall()
        self.dimension_layer.refresh()
        self._add_trays(self.design.trays)
        if self.picture:
            self._add_picture_racks()
        else:
            self._add_racks(self.design.racks)
        self._update_row_labels()
        self.setSceneRect(self.hall_item.boundingRect().adjusted(-20, -20, 20, 20))

    def _update_row_labels(self) -> None:
        """ "Row A" left of each row's leftmost rack (model.design.rack_rows groups the racks).

        Rows grouped by name are kept until a rack is added, removed or renamed: a move only
        changes which rack of its row is leftmost (regrouping 4,500 racks after every move held
        the GUI thread ~0.1 s at XL). Rows taken from the floor follow positions: regrouped.
        """
        racks_of = self.design.racks
        if self._row_groups is None:
            rows = rack_rows(self.design)
            groups = [(label, [r.id for r in racks]) for label, racks in rows]
            by_name = not any(label.startswith("y = ") for label, _ in rows)
            self._row_groups = groups if by_name else None
        else:
            groups = self._row_groups
        labels = []
        for label, ids in groups:
            racks = [racks_of[r] for r in ids if r in racks_of]
            if not racks:
                continue
            first = min(racks, key=lambda r: r.x - r.width_m / 2)
            w, _d = plan_size(first.width_m, first.depth_m, first.rotation)
            labels.append((f"Row {label}", first.x - w / 2, first.y))
        self.row_labels.set_labels(shared_labels(labels))

    def _update_hall(self) -> None:
        hall = self.design.hall
        self.hall_item.set_floor(hall.outline, hall.tile_m)
        kept = {o.id for o in hall.obstacles}
        self._remove(self.obstacles, [i for i in self.obstacles if i not in kept])
        for obstacle in hall.obstacles:
            item = self.obstacles.get(obstacle.id)
            if item is None:
                item = self.obstacles[obstacle.id] = ObstacleItem(obstacle.id)
                self.addItem(item)
            item.set_polygon(obstacle.polygon, obstacle.kind)
        self.rack_field.cover(self.hall_item.boundingRect())
        self.setSceneRect(self.hall_item.boundingRect().adjusted(-20, -20, 20, 20))

    def _add_trays(self, ids: Iterable[str]) -> None:
        for tray_id in ids:
            item = self.trays.get(tray_id)
            if item is None:
                item = self.trays[tray_id] = TrayItem(tray_id)
                item.setVisible(self.show_trays)
                self.addItem(item)
            tray = self.design.trays[tray_id]
            item.set_path(tray.points, tray.width_m)

    def _add_racks(self, ids: Iterable[str]) -> None:
        new = []
        for rack_id in ids:
            item = self.racks.get(rack_id)
            if item is None:
                item = self.racks[rack_id] = RackItem(rack_id, self.rack_field)
                self.addItem(item)
                new.append(item)
            self._update_rack(rack_id)
        self.rack_field.add_many(new)  # placed: the field paints them from now on

    def _update_rack(self, rack_id: str) -> None:
        self._show_rack(self.racks[rack_id], rack_id)

    def _show_rack(self, item: RackItem, rack_id: str, fill: QColor | None = None) -> None:
        rack = self.design.racks[rack_id]
        item.set_geometry(rack.x, rack.y, rack.width_m, rack.depth_m, rack.rotation)
        item.set_label(rack.name)
        item.set_collision(False)
        item.set_fill(self.rack_fill(rack_id) if fill is None else fill)

    def _add_picture_racks(self) -> None:
        """Every rack of the design into the rack field, for a picture (see ``picture``)."""
        design = self.design
        fills = self._role_fills()
        looks: dict[int, tuple] = {}  # fill rgba -> (far fill, edge pen, body fill)

        def look_of(rack_id: str) -> tuple:
            fill = fills[rack_id]
            look = looks.get(fill.rgba())
            if look is None:  # as an unselected RackItem of this fill shows itself
                item = RackItem(rack_id)
                item.set_fill(fill)
                pen, body = item.look()
                look = looks[fill.rgba()] = (item.far_fill(), pen, body)
            return look

        def make(rack_id: str) -> RackItem:
            item = RackItem(rack_id)  # drawn near by the field, never added to the scene
            self._show_rack(item, rack_id, fills[rack_id])
            return item

        keys, bounds, placed, boxes = picture_entries(
            list(design.racks.values()), look_of, make, self.rack_field.place
        )
        self.rack_field.add_placed(keys, bounds, placed, boxes)

    def _role_fills(self) -> dict[str, QColor]:
        """Rack id -> its fill by role (``rack_fill`` in "role" mode), the devices read in one
        pass and one colour object per role."""
        roles: dict[str, list[str]] = {rack_id: [] for rack_id in self.design.racks}
        for device in self.design.devices.values():
            held = roles.get(device.rack)
            if held is not None:
                held.append(device.role)
        colours: dict[str | None, QColor] = {}
        out = {}
        for rack_id, held in roles.items():
            role = rack_role(held)
            colour = colours.get(role)
            if colour is None:
                colour = colours[role] = (
                    QColor(style.ROLE_COLORS["empty"]) if role is None else style.role_color(role)
                )
            out[rack_id] = colour
        return out

    def rack_fill(self, rack_id: str) -> QColor:
        devices = self.design.devices_in_rack(rack_id)
        if self.color_mode == "power":
            # The model's rack power at max (budgets are checked at max), never a sum here.
            _typical, max_w, budget_w = rack_power(self.design, self.plant, [rack_id])[rack_id]
            return style.power_color(max_w / budget_w)
        role = rack_role(d.role for d in devices)
        return QColor(style.ROLE_COLORS["empty"]) if role is None else style.role_color(role)

    def set_overlay_key(self, owner: object, entries: tuple[tuple[str, str, str], ...]) -> None:
        """``owner``'s legend lines (label, colour, "frame" or "dot"): :class:`OverlayKeys`."""
        self.overlay_keys.set(owner, entries)

    def overlay_key(self) -> list[tuple[str, str, str]]:
        """Every overlay's legend lines, each once, in the order the overlays were shown."""
        return self.overlay_keys.lines()

    def set_color_mode(self, mode: str) -> None:
        self.color_mode = mode
        for rack_id in self.racks:
            self.racks[rack_id].set_fill(self.rack_fill(rack_id))

    def _apply_tray_load(self) -> None:
        load = self.tray_load
        self.bundle_item.set_bundles(
            self.design.trays if self.show_bundles else {}, load.counts, load.used
        )
        for tray_id, item in self.trays.items():
            item.set_fill(load.fill.get(tray_id, 0.0) if self.show_tray_fill else None)
        self.drawing_changed.emit()

    def set_layers(self, *, trays: bool | None = None, cables: bool | None = None) -> None:
        """Show or hide whole layers: the trays, the cables (bundles and drawn links)."""
        if trays is not None:
            for item in self.trays.values():
                item.setVisible(trays)
            self.show_trays = trays
        if cables is not None:
            self.show_cables = cables
            self.bundle_item.setVisible(cables)
            for item in self.link_items.values():
                item.setVisible(cables)
        self.drawing_changed.emit()

    def set_view_options(
        self, *, bundles: bool | None = None, tray_fill: bool | None = None
    ) -> None:
        """Cable bundles along trays and tray fill (shown on demand)."""
        if bundles is not None:
            self.show_bundles = bundles
        if tray_fill is not None:
            self.show_tray_fill = tray_fill
        self._apply_tray_load()

    # ------------------------------------------------------------------ layers

    def set_layer_visible(self, kind: str, layer: str, visible: bool) -> None:
        """Show or hide one layer (a fabric, a tier …): its links, bundles and racks."""
        self.layers.set_visible(kind, layer, visible)
        self.tray_load.link_shown = self.layers.link_filter
        self._apply_rack_layers()
        self._refresh_links()
        self.tray_load.start()

    def layer_visible(self, kind: str, layer: str) -> bool:
        return self.layers.visible(kind, layer)

    def fabric_visible(self, fabric: str) -> bool:
        return self.layer_visible("fabric", fabric)

    def _apply_rack_layers(self) -> None:
        active = self.layers.active
        for rack_id, item in self.racks.items():
            shown = not active or self.layers.rack_shown(rack_id)
            item.setOpacity(1.0 if shown else 0.2)
        self.drawing_changed.emit()

    def _racks_selected(self) -> None:
        self.rack_field.selection_changed(self.selectedItems())

    def _remove(self, table: dict, ids: Iterable[str]) -> None:
        for object_id in ids:
            item = table.pop(object_id, None)
            if item is not None:
                if isinstance(item, RackItem):
                    self.rack_field.remove(item)
                self.removeItem(item)

    def _on_change(self, change: Change) -> None:
        design = self.design
        # Removals first: an id removed and put back in one edit gets a fresh item.
        self._remove(self.racks, change.ids(K.RACKS_REMOVED))
        self._remove(self.trays, change.ids(K.TRAYS_REMOVED))
        self._add_racks(r for r in change.ids(K.RACKS_ADDED) if r in design.racks)
        for rack_id in change.ids(K.RACKS_MOVED, K.RACKS_CHANGED):
            if rack_id in self.racks and rack_id in design.racks:
                self._update_rack(rack_id)
        self._add_trays(t for t in change.ids(K.TRAYS_ADDED, K.TRAYS_CHANGED) if t in design.trays)
        if change.touches(DEVICE_KINDS):
            devices = change.ids(*DEVICE_KINDS)
            racks = {design.devices[d].rack for d in devices if d in design.devices}
            if K.DEVICES_REMOVED in change:
                racks.update(self.racks)  # a removed device's rack is no longer known
            for rack_id in racks & self.racks.keys():
                self.racks[rack_id].set_fill(self.rack_fill(rack_id))
        if K.HALL_CHANGED in change:
            self._update_hall()
        if K.UNDERLAY_CHANGED in change or K.HALL_CHANGED in change:
            self.underlay.refresh()
        if K.ANNOTATIONS_CHANGED in change or K.HALL_CHANGED in change:
            self.dimension_layer.refresh()
        if change.touches(TRAY_KINDS | {K.HALL_CHANGED}):
            self.update_handles()
        if change.touches(RACK_KINDS):
            if change.touches(RACK_KINDS - {K.RACKS_MOVED}):
                self._row_groups = None  # racks added, removed or renamed: regroup
            self._rows_timer.start()  # racks named, placed or moved: the row labels follow
        routed = LINK_KINDS | RACK_KINDS | TRAY_KINDS | {K.HALL_CHANGED, K.SETTINGS_CHANGED}
        if self.layers.active and change.touches(LINK_KINDS | RACK_KINDS | DEVICE_KINDS):
            self._apply_rack_layers()
        if change.touches(routed | DEVICE_KINDS):
            self._plant_dirty = True
            self._links_timer.start()
            if change.touches(routed):
                self.tray_load.schedule()
        self.facility_layer.refresh_soon()
        self.drawing_changed.emit()
        self.selection_ids_changed.emit()

    # ------------------------------------------------------------------ selection

    def selected_ids(self) -> list[str]:
        """Model ids of the selection: items on the plan, else devices picked in an elevation."""
        ids = [item.object_id for item in self.selectedItems() if hasattr(item, "object_id")]
        return ids or [d for d in self.device_selection if d in self.design.devices]

    def select_devices(self, ids: Iterable[str]) -> None:
        """Devices chosen in a rack elevation: the inspector shows them, their links are drawn."""
        self.clearSelection()
        self.device_selection = list(ids)
        self.show_links(
            {lk for d in self.device_selection for lk in self.design.links_of_device(d)}
        )
        self.selection_ids_changed.emit()

    def item_for(self, object_id: str):
        return (
            self.racks.get(object_id)
            or self.trays.get(object_id)
            or self.obstacles.get(object_id)
            or self.dimension_layer.items.get(object_id)
            or self.link_items.get(object_id)
            or self.trunk_layer.item(object_id)  # made now for a drawn trunk
        )

    def select_ids(self, ids: Iterable[str]) -> None:
        ids = set(ids)
        self.blockSignals(True)
        self.clearSelection()
        # Every link asked for stays drawn once the old selection (which showed some) is gone.
        self.blockSignals(False)
        self.extra_link_ids = {i for i in ids if i in self.design.links}
        self._refresh_links()
        self.blockSignals(True)
        for object_id in ids:
            item = self.item_for(object_id)
            if item is not None:
                item.setSelected(True)
        self.blockSignals(False)
        self._on_selection_changed()

    def show_links(self, link_ids: Iterable[str]) -> None:
        """Draw these links too (a device chosen in the elevation, a warning's objects)."""
        self.extra_link_ids = set(link_ids)
        self._refresh_links()

    def _on_selection_changed(self) -> None:
        if self.selectedItems():
            self.device_selection = []
        self.channel_focus = set()  # a warning's marks last until the selection changes
        self._links_timer.start()
        self.selection_ids_changed.emit()

    # ------------------------------------------------------------------ links of the selection

    def displayed_link_ids(self) -> list[str]:
        design = self.design
        selected = [i.object_id for i in self.selectedItems() if hasattr(i, "object_id")]
        ids = set(design.links_of_racks(s for s in selected if s in design.racks))
        for object_id in selected:
            if object_id in design.links:
                ids.add(object_id)
            elif object_id in design.devices:
                ids.update(design.links_of_device(object_id))
        ids.update(i for i in self.extra_link_ids if i in design.links)
        shown = self.layers.link_filter()
        if shown is not None:
            ids = {i for i in ids if shown(i)}
        return sorted(ids, key=lambda s: (len(s), s))[:MAX_LINK_ITEMS]

    def _refresh_links(self) -> None:
        if self._plant_dirty and self.feed is not None:
            # A tray edit is left to the worker: drawn again when its re-route is adopted.
            self.feed.ensure_fresh(defer_trays=True)
        self._plant_dirty = self.rerouting
        wanted = self.displayed_link_ids()
        wanted_set = set(wanted)
        for link_id in [i for i in self.link_items if i not in wanted_set]:
            item = self.link_items.pop(link_id)
            self.removeItem(item)
        for link_id in wanted:
            item = self.link_items.get(link_id)
            if item is None:
                item = self.link_items[link_id] = LinkItem(link_id)
                self.addItem(item)
            points = self.link_points(link_id)
            item.set_route(points)
            item.set_color(style.medium_color(self.medium_kind(link_id)))
            item.setVisible(len(points) >= 2 and self.show_cables)

    def link_points(self, link_id: str) -> list[tuple[float, float]]:
        return one_link_points(self.design, self.plant, link_id)

    def medium_kind(self, link_id: str) -> str | None:
        try:
            medium = self.plant.medium(link_id)
        except KeyError:  # a link added since the plant's last refresh
            return None
        return medium.kind if medium is not None else None

    # ------------------------------------------------------------------ editing helpers

    def push(self, command: DesignCommand) -> bool:
        error = push(self.stack, command)
        if error:
            self.message.emit(f"Not done: {error}")
            return False
        return True

    def rack_at(self, pos) -> str | None:
        for item in self.items(pos):
            if isinstance(item, RackItem):
                return item.object_id
        return None

    def snap_step(self, step_m: float) -> float:
        """The grid a placed, dragged or drawn point snaps to: ``step_m`` (tiles, half tiles)
        with snapping on, else 1 cm — off the grid, but not finer than anyone lays a rack."""
        return step_m if self.snap else FREE_STEP_M

    def hall_rect(self) -> QRectF:
        return self.hall_item.boundingRect()

    # ------------------------------------------------------------------ corner editing

    def geometry_target(self) -> tuple[str, str, list[tuple[float, float]]] | None:
        """(kind, id, corners) of the one shape whose corners can be edited now: the tray,
        obstacle, hall outline or dimension line selected alone; None otherwise. Kind is
        "tray" (an open polyline), "obstacle" or "outline" (closed polygons) or "dimension"
        (its two ends)."""
        selected = self.selectedItems()
        if len(selected) != 1:
            return None
        item = selected[0]
        design = self.design
        if isinstance(item, TrayItem) and item.object_id in design.trays:
            return "tray", item.object_id, list(design.trays[item.object_id].points)
        if isinstance(item, ObstacleItem):
            obstacle = next((o for o in design.hall.obstacles if o.id == item.object_id), None)
            if obstacle is not None:
                return "obstacle", obstacle.id, list(obstacle.polygon)
        if item is self.hall_item:
            return "outline", "", list(design.hall.outline)
        if isinstance(item, DimensionItem):
            dimension = next((d for d in design.hall.dimensions if d.id == item.object_id), None)
            if dimension is not None:
                return "dimension", dimension.id, [dimension.a, dimension.b]
        return None

    def update_handles(self, points=None) -> None:
        """Show the corners of the editable shape (or ``points``, a drag's preview)."""
        if points is None:
            target = self.geometry_target()
            points = target[2] if target is not None else []
        self.handles.set_points(points)
