"""The trunk layer of the plan: every MPO trunk of a structured design along its tray route.

The trunks, their racks and the links they carry come from the model's structured layout
(:func:`model.structured_layout.structured_layout`); a trunk is drawn along the routed plan path
of the link the layout names for it (``Trunk.route_link``: one between the same two racks, so
along the same trays); a trunk no link runs alongside (to a zone's distribution rack) is drawn
rack centre to rack centre.

Whose layout. In the editor the layer ``follow``s the analysis runner: the worker lays the hall
out from its snapshot with the analysis (:attr:`gui.analysis_runner.AnalysisResult.structured`)
and the layer, the inspector's channel view and the warnings adopt that one, so the GUI thread
never lays the hall out (a zoned XL hall's layout is ~10 s; the layer computed it again after
every edit). While the next analysis runs, the layer shows the previous revision's trunks, as
the panel shows the previous figures; a new layout emits ``changed``. Without a runner (a
picture, a scene on its own) the layer computes the layout of the current revision itself.
View > Trunks shows or hides the layer; a direct design has no trunk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject, QTimer, Signal

from gui.canvas.trunk_items import TrunkField, TrunkItem
from model.structured_layout import StructuredLayout, structured_layout, uses_structured

if TYPE_CHECKING:
    from model.channel_view import PlanObject


class TrunkLayer(QObject):
    """The scene's trunk items (``items[trunk id]``) and the structured layout they show."""

    changed = Signal()  # a layout from the analysis adopted (the channel views follow it)

    def __init__(self, scene) -> None:
        super().__init__(scene)
        self.scene = scene
        self.items: dict[str, TrunkItem] = {}
        self.field = TrunkField()  # paints every trunk (see gui.canvas.trunk_items)
        scene.addItem(self.field)
        self.visible = True
        self._layout: tuple[int, StructuredLayout] | None = None
        self._objects: tuple[int, dict[str, PlanObject]] | None = None
        self._runner = None  # the analysis runner followed (see the module docstring)
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
        if layout is None and self._layout is None and not self.items:
            return  # direct cabling, as before: nothing drawn, nothing to tell
        # None (direct cabling now): a channel view lays out the current revision when asked.
        self._layout = (result.revision, layout) if layout is not None else None
        self._objects = None
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
            self._layout = (revision, structured_layout(scene.plant))
            self._objects = None
        return self._layout[1]

    def plan_objects(self) -> dict[str, PlanObject]:
        """Channel element id -> where it is on the plan (model.channel_view.channel_objects)."""
        # Imported here: the inspector's channel view needs it, a picture never (~16 ms).
        from model.channel_view import channel_objects

        layout = self.layout()
        if layout is None:
            return {}
        if self._objects is None or self._objects[0] != self._layout[0]:
            self._objects = (self._layout[0], channel_objects(layout, self.scene.design))
        return self._objects[1]

    def _remove(self, trunk_id: str) -> None:
        item = self.items.pop(trunk_id, None)
        if item is not None:
            self.field.forget(item)
            self.scene.removeItem(item)

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
        """Make the items match the layout's trunks (none while the layer is hidden)."""
        scene = self.scene
        if not self.items and not uses_structured(scene.design):
            return  # no trunk to draw or remove: nothing computed on a direct design's edits
        if not self.visible:
            layout = None
        elif self._runner is not None:  # the analysis's layout only: none laid out here
            layout = self._layout[1] if self._layout is not None else None
        else:
            layout = self.layout()
        trunks = {t.id: t for t in layout.trunks} if layout is not None else {}
        selected = {i for i, item in self.items.items() if item.isSelected()}
        for trunk_id in [i for i in self.items if i not in trunks]:
            self._remove(trunk_id)
        # Trunks between the same two racks follow the same link: ~7k routes for a zoned XL
        # hall's 100k trunks, each asked of the plant once.
        points_of: dict[str, list] = {}
        racks, links = scene.design.racks, scene.design.links
        for trunk_id, trunk in trunks.items():
            route_link = trunk.route_link or (trunk.links[0] if len(trunk.links) == 1 else "")
            if route_link in links:
                points = points_of.get(route_link)
                if points is None:
                    points = points_of[route_link] = scene.link_points(route_link)
            elif route_link:  # deleted since the analysis's revision: the next layout says
                points = []
            else:  # a trunk to a zone's distribution rack: no link runs it, rack to rack
                a, b = racks.get(trunk.rack_a), racks.get(trunk.rack_b)
                # The analysis's layout may be a revision behind: a rack deleted since is not
                # drawn to (the next layout has no trunk to it).
                points = [(a.x, a.y), (b.x, b.y)] if a is not None and b is not None else []
            if len(points) < 2:  # nothing to draw it along (yet): no item
                self._remove(trunk_id)
                continue
            item = self.items.get(trunk_id)
            if item is None:
                item = self.items[trunk_id] = TrunkItem(trunk_id, self.field)
                scene.addItem(item)
                item.setSelected(trunk_id in selected)
            item.set_route(self.field.route_for(points))
            tip = (
                f"{trunk_id}: {trunk.part or 'no orderable trunk'}, "
                f"{trunk.ordered_m:g} m ordered ({trunk.length_m:.1f} m needed), "
                f"{trunk.legs} MPO leg(s), {len(set(trunk.links))} channel(s)"
            )
            item.set_tip(tip)
        scene.drawing_changed.emit()  # the overview's miniature shows the trunks too
