"""Placing patch panels and routing links via panels: undo commands and their Design menu entries.

Panels are design records (patch-panel devices, :mod:`model.design.structured_edit`); every command
calls that module's edit API and keeps what its undo needs. The menu entries act on the
selection: *Place Patch Panel* puts one panel of the chosen type at the top free U of each
selected rack; *Route Via Panels* sends each selected link through the top panel of its A rack
and of its B rack (the choice is :mod:`model.structured.panel_routes`'), or back to the cabling style's automatic panels.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gui.edit.commands import DesignCommand, UpdateCommand
from model.common.wording import count
from model.design.design import Design, DesignError
from model.design.entities import Device, Link
from model.design.panel_names import old_names_replaced
from model.design.structured_edit import PANEL_TYPES, new_panel, route_via
from model.structured.link_polarity import set_polarity, set_polarity_record
from model.structured.panel_routes import PANEL_WORDS, end_panels


class PlacePanelsCommand(DesignCommand):
    """One panel of ``type_id`` at the top free U of each rack (one undo step)."""

    def __init__(self, design: Design, rack_ids: Iterable[str], type_id: str) -> None:
        self.rack_ids = list(dict.fromkeys(rack_ids))
        super().__init__(design, f"Place {count(len(self.rack_ids), 'patch panel')}")
        self.type_id = type_id
        self.devices: list[Device] = []

    def apply(self) -> None:
        if not self.devices:  # first run: the model picks ids and U; redo puts the same back
            taken: list[Device] = []
            try:
                for rack_id in self.rack_ids:
                    device = new_panel(self.design, rack_id, self.type_id)
                    self.design.add_devices([device])
                    taken.append(device)
            except DesignError:  # all or nothing: the panels placed so far go again
                self.design.remove_devices([d.id for d in taken])
                raise
            self.devices = taken
        else:
            self.design.add_devices(self.devices)

    def revert(self) -> None:
        self.design.remove_devices([d.id for d in self.devices])


class RouteViaCommand(DesignCommand):
    """Route links through panels (``via`` per link, A end to B end; () = automatic)."""

    def __init__(self, design: Design, routes: dict[str, Sequence[str]], text: str = "") -> None:
        super().__init__(design, text or f"Route {count(len(routes), 'link')} via panels")
        self.routes = {k: tuple(v) for k, v in routes.items()}
        self.old: list[Link] = []

    def apply(self) -> None:
        old = []
        for link_id, via in self.routes.items():
            old.append(route_via(self.design, link_id, via))
        self.old = old

    def revert(self) -> None:
        self.design.update_links(self.old)


class SetPolarityCommand(DesignCommand):
    """Record one element's polarity on a link's channel (``value`` None: the style's own);
    the inspector's "Fix polarity" pushes the change the polarity check names."""

    def __init__(
        self, design: Design, link_id: str, key: str, value: str | None, text: str = ""
    ) -> None:
        super().__init__(design, text or f"Set {key} polarity of {link_id}")
        self.link_id, self.key, self.value = link_id, key, value
        self.old: Link | None = None

    def apply(self) -> None:
        self.old = set_polarity(self.design, self.link_id, self.key, self.value)

    def revert(self) -> None:
        if self.old is not None:
            self.design.update_links([self.old])


class PolarityRecordCommand(DesignCommand):
    """Replace a link's record of as-installed element polarity (the inspector's field)."""

    def __init__(self, design: Design, link_id: str, record: dict[str, str]) -> None:
        super().__init__(design, f"Set installed polarity of {link_id}")
        self.link_id, self.record = link_id, dict(record)
        self.old: Link | None = None

    def apply(self) -> None:
        self.old = set_polarity_record(self.design, self.link_id, self.record)

    def revert(self) -> None:
        if self.old is not None:
            self.design.update_links([self.old])


def add_panel_actions(window) -> None:
    """Design > Place Patch Panel (one entry per panel type) and Route Via Panels."""
    from PySide6.QtGui import QAction

    menu = window.design_menu.addMenu("Place &Patch Panel")
    window.place_panel_actions = {}
    for type_id in PANEL_TYPES:
        action = QAction(PANEL_WORDS[type_id][0].upper() + PANEL_WORDS[type_id][1:], window)
        action.setStatusTip("Put one in each selected rack, at its top free U")
        action.triggered.connect(lambda _on=False, t=type_id: place_panels(window, t))
        menu.addAction(action)
        window.place_panel_actions[type_id] = action
    window.route_via_action = QAction("&Route Via Panels", window)
    window.route_via_action.setStatusTip(
        "Send the selected links through the top panel of each end's rack"
    )
    window.route_via_action.triggered.connect(lambda: route_selected(window))
    window.design_menu.addAction(window.route_via_action)
    window.route_auto_action = QAction("Route Via &Automatic Panels", window)
    window.route_auto_action.setStatusTip("Let the cabling style choose the selected links' panels")
    window.route_auto_action.triggered.connect(lambda: route_selected(window, automatic=True))
    window.design_menu.addAction(window.route_auto_action)
    window.name_panels_action = QAction("&Name Panels by Rack and U", window)
    window.name_panels_action.setStatusTip(
        "Rename the panels still named the old way (pp27) by their rack and U (C01-U42)"
    )
    window.name_panels_action.triggered.connect(lambda: name_panels_by_place(window))
    window.design_menu.addAction(window.name_panels_action)


def name_panels_by_place(window) -> bool:
    """Design > Name Panels by Rack and U: one undo step renaming every ``pp27``."""
    design = window.document.design
    rack_names = {r.id: r.name for r in design.racks.values()}
    renamed = old_names_replaced(design.devices.values(), rack_names)
    if not renamed:
        window.statusBar().showMessage("Every panel is named by its rack and U already", 6000)
        return False
    text = f"Name {count(len(renamed), 'panel')} by rack and U"
    return window.scene.push(UpdateCommand(design, "devices", renamed, text))


def place_panels(window, type_id: str) -> bool:
    racks = window.selected("racks")
    if not racks:
        window.statusBar().showMessage("Select the racks to place patch panels in", 6000)
        return False
    return window.scene.push(PlacePanelsCommand(window.document.design, racks, type_id))


def route_selected(window, automatic: bool = False) -> bool:
    design, scene = window.document.design, window.scene
    links = window.selected("links")
    if not links:
        window.statusBar().showMessage("Select the links to route via panels", 6000)
        return False
    try:
        if scene.feed is not None:
            scene.feed.ensure_fresh()  # the chosen media decide the panel type
        routes = {i: () if automatic else end_panels(design, scene.plant, i) for i in links}
    except DesignError as exc:
        window.statusBar().showMessage(f"Not done: {exc}", 10000)
        return False
    text = "Route via automatic panels" if automatic else ""
    return scene.push(RouteViaCommand(design, routes, text))
