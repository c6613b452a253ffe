"""The trunk layer of the plan: every MPO trunk of a structured design along its tray route.

The trunks, their racks and the links they carry come from the model's structured layout
(:func:`model.structured.layout.structured_layout`); a trunk is drawn along the routed plan path
of the link the layout names for it (``Trunk.route_link``: one between the same two racks, so
along the same trays); a trunk no link runs alongside (to a zone's distribution rack) is drawn
along the trays between its panels' faces (``RoutedLinks.rack_points``, the way its tray fill
is counted), rack centre to rack centre only when the trays do not join the two racks.

Whose layout. In the editor the layer ``follow``s the analysis runner: the worker lays the hall
out from its snapshot with the analysis (:attr:`gui.document.analysis_runner.AnalysisResult.structured`)
and the layer, the inspector's channel view and the warnings adopt that one, so the GUI thread
never lays the hall out (a zoned XL hall's layout is ~10 s; the layer computed it again after
every edit). While the next analysis runs, the layer shows the previous revision's trunks, as
the panel shows the previous figures; a new layout emits ``changed``. Without a runner (a
scene on its own) the layer computes the layout of the current revision itself. A picture
draws routes, not trunks: :func:`gui.canvas.trunk_paths.picture_trunk_routes`, found from the
trunks-only layout without a scene (the rules live there, the editor's drawing uses them too).
View > Trunks shows or hides the layer; a direct design has no trunk.

What an adopted layout costs the GUI thread. The field paints routes, not trunks (see
gui/canvas/trunk_items.py), so an adopt groups the trunks by what they are drawn along (one
pass) and finds each group's route, asking the plant only for the paths that changed; an item
is made for a trunk only when it is selected or hit (``item``, ``item_at``), and one that is
no longer selected is let go at the next adopt. A zoned XL hall has 100k trunks on ~7k routes:
an adopt that made or updated an item and a tooltip per trunk held the GUI thread ~0.8 s. The
layout shown before (millions of objects at XL) goes to a :class:`gui.runtime.retirer.Retirer`, which
frees it a slice per idle turn rather than in one ~0.35 s drop.

The routes' paths are asked of the plant ASKS_PER_TURN route keys per event-loop turn: the first
adopt of a zoned XL hall asks ~7k (~1.2 s of GUI thread in one turn, measured with the machine
loaded), and a rack move that renumbers the plant's routes asks them all again (~0.12 s); the
trunks of an adopted layout are grouped GROUPS_PER_TURN a turn before that. A
route not asked yet keeps the points drawn before (a revision behind, as the panel's figures
while the analysis runs) or is not drawn until its turn; ``drawing`` is True until every route
is grouped and asked. The routes of the selected trunks are asked first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import shiboken6
from PySide6.QtCore import QObject, QPointF, QTimer, Signal

from gui.canvas.trunk_items import TrunkField, TrunkItem, TrunkRoute
from gui.canvas.trunk_paths import (
    Points,
    RouteKey,
    group_trunks,
    link_points,
    picture_trunk_routes,
    rack_pair_points,
    route_key,
)
from gui.runtime.retirer import Retirer
from model.structured.layout import StructuredLayout, Trunk, structured_layout, uses_structured
from model.structured.paths import panel_face

if TYPE_CHECKING:
    from model.structured.channel_view import PlanObject


_UNREAD = object()  # a route key's read_at before its path was ever asked


class TrunkLayer(QObject):
    """The structured layout the plan shows, its trunks drawn by one field, and the items of
    the trunks selected or hit (``items[trunk id]``)."""

    # Route keys whose path is asked of the plant in one event-loop turn (see the module
    # docstring): ~0.1-0.2 ms each at zoned XL, so one turn stays well under 50 ms.
    ASKS_PER_TURN = 200
    # Trunks grouped by route key in one turn (see the module docstring): a zoned XL hall's
    # 100k took 60-170 ms in one turn with the machine loaded.
    GROUPS_PER_TURN = 20_000

    changed = Signal()  # a layout from the analysis adopted (the channel views follow it)

    def __init__(self, scene) -> None:
        super().__init__(scene)
        self.scene = scene
        # A picture's routes (see _draw_picture), and the design revision they are of
        self._picture: tuple[int, list[tuple[RouteKey, Points]]] | None = None
        self.items: dict[str, TrunkItem] = {}  # the trunks selected or hit, see ``item``
        self.field = TrunkField()  # paints every trunk (see gui.canvas.trunk_items)
        scene.addItem(self.field)
        self.visible = True
        # The layout drawn (its trunks grouped by route key), the route of each key drawn, and
        # the plant's (route generation, route id) each link's route was read at.
        self._grouped: StructuredLayout | None = None
        self._groups: dict[RouteKey, list[Trunk]] = {}
        self._drawn: dict[RouteKey, TrunkRoute] = {}
        self._read_at: dict[RouteKey, tuple | None] = {}
        self._by_id: dict[str, Trunk] | None = None  # the drawn trunks by id, when first asked
        self._first_key: dict[TrunkRoute, RouteKey] | None = None  # for hits, when first asked
        self._retirer = Retirer(
            self
        )  # lets go of the layouts shown before (gui/runtime/retirer.py)
        self._layout: tuple[int, StructuredLayout] | None = None
        self._objects: tuple[int, dict[str, PlanObject]] | None = None
        self._runner = None  # the analysis runner followed (see the module docstring)
        self.drawing = False  # some route still to be asked of the plant (see the module doc)
        # The refresh due continues the asks of the one before (the timer's next turn), not a
        # new one (an adopt, a plant refresh); and that one's keys, routes so far, keys still
        # to ask and what each is read at.
        self._continuing = False
        self._partial: tuple | None = None
        # The layout being grouped over several turns, its groups so far, trunks grouped
        self._grouping: tuple | None = None
        # After each plant refresh, once per burst: the layout of a 4-SU pod takes ~0.2 s.
        self._timer = QTimer(scene)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)
        # The feed is the plant's and may outlive this scene (a test's, a closed document's):
        # the connection is dropped on stop(), and a deleted timer is never touched.
        self._feed = scene.feed
        if self._feed is not None:
            self._feed.refreshed.connect(self._plant_refreshed)

    def _plant_refreshed(self, _update) -> None:
        self._continuing = False  # a new refresh: every path may have changed
        if shiboken6.isValid(self._timer):
            self._timer.start()

    def _stop_listening(self) -> None:
        if self._feed is not None:
            try:
                self._feed.refreshed.disconnect(self._plant_refreshed)
            except (RuntimeError, TypeError):  # already gone with the feed
                pass
            self._feed = None
        if shiboken6.isValid(self._timer):
            self._timer.stop()

    def stop(self) -> None:
        """The scene stops following its design: no refresh after this."""
        self._stop_listening()
        if self._runner is not None:
            try:
                self._runner.finished.disconnect(self._adopt)
            except (RuntimeError, TypeError):
                pass
            self._runner = None
        self.visible = False

    def follow(self, runner) -> None:
        """Show the layouts of ``runner``'s results (an AnalysisRunner) from now on, and lay
        nothing out on the GUI thread for the items (see the module docstring)."""
        self._stop_listening()
        self._runner = runner
        self._layout = None  # until the runner's first result: laid out here when asked
        runner.finished.connect(self._adopt)
        if runner.result is not None:
            self._adopt(runner.result)

    def _adopt(self, result) -> None:
        layout = result.structured
        if layout is None and self._layout is None and not self._drawn:
            return  # direct cabling, as before: nothing drawn, nothing to tell
        # None (direct cabling now): a channel view lays out the current revision when asked.
        before = self._layout
        self._layout = (result.revision, layout) if layout is not None else None
        self._retirer.retire(before[1] if before else None, self._objects)  # see the module doc
        self._objects = None
        self._continuing = False
        self.refresh()
        self.changed.emit()

    def layout(self) -> StructuredLayout | None:
        """The structured layout of the design (None without a cable plant): following a
        runner, that of its latest result (a revision behind while the next one runs), else
        that of the current revision."""
        scene = self.scene
        if scene.plant is None:
            return None
        if self._runner is not None and self._layout is not None:
            return self._layout[1]
        if scene.feed is not None:
            scene.feed.ensure_fresh()
        revision = scene.design.revision
        if self._layout is None or self._layout[0] != revision:
            # A picture draws by _draw_picture; were it asked here, its trunks would do.
            layout = structured_layout(scene.plant, trunks_only=scene.picture)
            self._layout = (revision, layout)
            self._objects = None
        return self._layout[1]

    def plan_objects(self) -> dict[str, PlanObject]:
        """Channel element id -> where it is on the plan (model.structured.channel_view.channel_objects)."""
        # Imported here: the inspector's channel view needs it, a picture never (~16 ms).
        from model.structured.channel_view import channel_objects

        layout = self.layout()
        if layout is None:
            return {}
        if self._objects is None or self._objects[0] != self._layout[0]:
            self._objects = (self._layout[0], channel_objects(layout, self.scene.design))
        return self._objects[1]

    def refresh_soon(self) -> None:
        """Refresh on the next idle turn (an editor's scene: by then it may follow a runner,
        and then draws the analysis's layout instead of laying the hall out here)."""
        if shiboken6.isValid(self._timer):
            self._timer.start()

    def set_visible(self, visible: bool) -> None:
        if visible == self.visible:
            return
        self.visible = visible
        self.refresh()

    def refresh(self) -> None:
        """Draw the layout's trunks (none while the layer is hidden); the items made follow."""
        scene = self.scene
        if not self._drawn and not self.items and not uses_structured(scene.design):
            return  # no trunk to draw or remove: nothing computed on a direct design's edits
        if scene.picture:
            self._draw_picture()
            return
        if not self.visible:
            layout = None
        elif self._runner is not None:  # the analysis's layout only: none laid out here
            layout = self._layout[1] if self._layout is not None else None
        else:
            layout = self.layout()
        if layout is not self._grouped and not self._group_more(layout):
            return  # grouped on the next turns: the field shows what it showed meanwhile
        drawn = self._routes_of(self._groups)
        if self.drawing:
            return  # the field shows what it showed until every path is asked (module doc)
        self._drawn = drawn
        self._by_id = self._first_key = None
        changed = self.field.set_routes(self._drawn.values())
        for trunk_id, item in list(self.items.items()):
            # Kept while selected (made again when next hit or chosen); a trunk gone, or with
            # nothing to draw it along, loses its item and its place in the selection.
            trunk = self.trunk(trunk_id) if item.isSelected() else None
            if trunk is None:
                self._remove(trunk_id)
            else:
                item.set_route(self._drawn[route_key(trunk)])
        if changed:
            scene.drawing_changed.emit()  # the overview's miniature shows the trunks too

    def _draw_picture(self) -> None:
        """A picture's trunks: the routes of :func:`picture_trunk_routes` of the current
        revision, found without keeping a trunk (a picture selects and hits none, so
        ``trunks`` is empty) or naming a route of the plant (its first naming of every route
        was ~0.1 s of a zoned XL render)."""
        scene = self.scene
        revision = scene.design.revision
        if self._picture is None or self._picture[0] != revision:
            if scene.feed is not None:
                scene.feed.ensure_fresh()
            # A scene made without a plant draws no trunk (none is laid out without routes).
            plant = scene.plant
            found = picture_trunk_routes(scene.design, plant) if plant is not None else []
            self._picture = (revision, found)
        routes = self._picture[1] if self.visible else []
        self._drawn = {key: self.field.route_for(points) for key, points in routes}
        self._by_id = self._first_key = None
        if self.field.set_routes(self._drawn.values()):
            scene.drawing_changed.emit()

    def _group_more(self, layout: StructuredLayout | None) -> bool:
        """Group GROUPS_PER_TURN more trunks of ``layout`` by route key; True once all are
        (and they are the groups drawn from now on), else the rest on the next turn."""
        trunks = layout.trunks if layout is not None else []
        layout_then, groups, done = self._grouping or (None, {}, 0)
        if layout_then is not layout:
            groups, done = {}, 0
        end = done + self.GROUPS_PER_TURN
        group_trunks(trunks[done:end], groups)
        if end < len(trunks):
            self._grouping = (layout, groups, end)
            self.drawing = True
            if shiboken6.isValid(self._timer):
                self._timer.start()
            return False
        self._grouping = None
        self._retirer.retire(self._grouped, self._groups)  # see the module docstring
        self._grouped, self._groups = layout, groups
        return True

    def _routes_of(self, keys) -> dict[RouteKey, TrunkRoute]:
        """The route each of ``keys`` is drawn along, for those with something to draw along.

        A link's plan path is asked of the plant again only when the plant's route id of the
        link changed (the same id in the same route generation: the same drop points and trays,
        so the same points): asking 7k paths after every analysis held the GUI thread ~60 ms
        at zoned XL. A rack pair's way is asked again only when one of its racks moved or the
        routes were renumbered.
        """
        scene = self.scene
        if getattr(scene, "rerouting", False):
            # A tray edit is being re-routed on the worker: asking the plant now would apply it
            # here (the GUI-thread stall the worker takes away) without announcing it, and
            # the worker's copy would be refused. What is drawn stays; the analysis that
            # follows the re-route draws the trunks again (their read_at no longer matches).
            return {key: self._drawn[key] for key in keys if key in self._drawn}
        design = scene.design
        partial = self._partial
        self._partial = None
        if partial is not None and self._continuing and partial[0] is keys:
            _, out, stale, now = partial  # the turn before's work, the next keys to ask
        else:
            # A new refresh: what each key is read at now, and the keys to ask again. What a
            # refresh left half asked is what was drawn (its asked routes and read_at agree).
            was = self._drawn
            if partial is not None:
                was = {key: route for key, route in partial[1].items() if route is not None}
            now, stale = self._stale(keys, was)
            out = {key: was[key] for key in now if key in was}
            self._read_at = {key: self._read_at[key] for key in now if key in self._read_at}
        asked, later = stale[: self.ASKS_PER_TURN], stale[self.ASKS_PER_TURN :]
        fresh = link_points(design, scene.plant, [k for k in asked if k.__class__ is str])
        for key in asked:
            if key.__class__ is not str:
                # Along the trays between its panels' faces, where the analysis counts its
                # tray fill (the model's way, RoutedLinks.rack_points).
                fresh[key] = rack_pair_points(design, scene.plant, key)
            points = fresh[key]
            out[key] = self.field.route_for(points) if len(points) >= 2 else None
            self._read_at[key] = now[key]
        self.drawing = self._continuing = bool(later)
        if later:
            self._partial = (keys, out, later, now)
            if shiboken6.isValid(self._timer):
                self._timer.start()  # the next keys on the next turn
            return out
        # In the layout's order, as the field paints them
        return {key: route for key in now if (route := out.get(key)) is not None}

    def _stale(self, keys, was) -> tuple[dict[RouteKey, tuple | None], list[RouteKey]]:
        """What each of ``keys`` still in the design is read at now (a link's route id, a rack
        pair's racks and faces), and those whose path is asked again (see ``_routes_of``)."""
        scene = self.scene
        design = scene.design
        links, racks = design.links, design.racks
        plan_ids = self._plan_ids(k for k in keys if k.__class__ is str and k in links)
        plant_generation = getattr(scene.plant, "route_generation", None)
        now: dict[RouteKey, tuple | None] = {}
        for key in self._selected_first(list(keys)):
            if key.__class__ is str:
                if key in links:  # else deleted since the analysis's revision: the next says
                    now[key] = plan_ids.get(key)
                continue
            a, b = racks.get(key[0]), racks.get(key[1])
            # The layout may be a revision behind: a rack deleted since is not drawn to.
            if a is not None and b is not None:
                faces = (panel_face(design, key[2]), panel_face(design, key[3]))
                now[key] = (plant_generation, a.x, a.y, a.rotation, b.x, b.y, b.rotation, faces)
        # A link whose route the plant does not name (plan id None), or a key with nothing
        # drawn, is asked on every refresh, as before the asks were spread over turns.
        read_at = self._read_at
        stale = [
            key
            for key, at in now.items()
            if at is None or key not in was or read_at.get(key, _UNREAD) != at
        ]
        return now, stale

    def _selected_first(self, keys: list[RouteKey]) -> list[RouteKey]:
        """``keys`` with those of the selected trunks first: their items follow their routes."""
        if not self.items:
            return keys
        ids = {i for i, item in self.items.items() if item.isSelected()}
        first = {k for k, trunks in self._groups.items() if any(t.id in ids for t in trunks)}
        return [k for k in keys if k in first] + [k for k in keys if k not in first]

    def _plan_ids(self, link_ids) -> dict[str, tuple[int, int]]:
        """(route generation, route id) of each link the plant routes along trays now (see
        RoutedLinks.route_keys); links it does not route so (or does not know yet) are left out."""
        plant = self.scene.plant
        link_ids = list(link_ids)
        if plant is None or not link_ids:
            return {}
        index = plant.index
        rows = np.array([index.get(i, -1) for i in link_ids], dtype=np.int64)
        ids = np.where(rows >= 0, plant.route_keys()[np.maximum(rows, 0)], -1).tolist()
        generation = plant.route_generation
        return {i: (generation, r) for i, r in zip(link_ids, ids, strict=True) if r >= 0}

    # ------------------------------------------------------------------ trunks and their items

    def shows_trunks(self) -> bool:
        """Some trunk is drawn (the legend names the trunks then)."""
        return bool(self._drawn)

    def trunks(self) -> dict[str, Trunk]:
        """The drawn trunks by id, as the layout shown has them (made when first asked after
        an adopt: ~10 ms at zoned XL). Not to be changed."""
        if self._by_id is None:
            groups = self._groups
            # .get: a picture's layer draws routes without keeping their trunks
            self._by_id = {t.id: t for key in self._drawn for t in groups.get(key, ())}
        return self._by_id

    def trunk(self, trunk_id: str) -> Trunk | None:
        """The drawn trunk of that id, else None."""
        return self.trunks().get(trunk_id)

    def item(self, trunk_id: str) -> TrunkItem | None:
        """The item of a drawn trunk (made now if it has none), else None."""
        item = self.items.get(trunk_id)
        if item is None:
            trunk = self.trunk(trunk_id)
            if trunk is None:
                return None
            item = self.items[trunk_id] = TrunkItem(trunk_id, self.field)
            item.set_route(self._drawn[route_key(trunk)])
            self.scene.addItem(item)
        return item

    def item_at(self, pos: QPointF) -> TrunkItem | None:
        """The item of the trunk drawn at ``pos`` (scene metres): on the topmost route there,
        a selected trunk along it, else the first trunk along it in the layout."""
        route = self.field.route_at(pos)
        if route is None:
            return None
        chosen = next((i for i in self.items.values() if i.route is route and i.isSelected()), None)
        if chosen is not None:
            return chosen
        if self._first_key is None:
            self._first_key = {}
            for key, drawn in self._drawn.items():
                self._first_key.setdefault(drawn, key)
        group = self._groups.get(self._first_key[route])
        return self.item(group[0].id) if group else None  # a picture's routes: no trunk

    def _remove(self, trunk_id: str) -> None:
        item = self.items.pop(trunk_id, None)
        if item is not None:
            self.field.forget(item)
            self.scene.removeItem(item)
