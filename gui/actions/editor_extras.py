"""The editor's working tools beyond the core window: bulk connect, find, context menus, help,
and the layout kept between runs. Installed on a MainWindow by one call, so the window module
stays the assembly of docks and actions it is."""

from __future__ import annotations

import weakref

from gui.actions.arrange import add_arrange_actions
from gui.actions.facility_actions import add_facility_actions
from gui.actions.plan_annotations import add_plan_annotations
from gui.actions.print_plan import add_print_action
from gui.actions.structured import add_structured_actions
from gui.actions.underlay import add_underlay_actions
from gui.canvas.context_menu import CanvasContextMenu, editor_entries
from gui.canvas.overview import OverviewView
from gui.dialogs.bulk_connect import add_bulk_connect_action
from gui.dialogs.find import add_find_actions
from gui.dialogs.help import add_help_actions
from gui.dialogs.optimise_placement import add_optimise_action
from gui.edit.panel_commands import add_panel_actions
from gui.plan_focus import PlanFocus
from gui.window_layout import WindowLayout


def install_editor_extras(window) -> None:
    """Add the extras' actions to ``window``'s menus (called once, after its menus exist)."""
    window.window_layout = WindowLayout(window, window.settings)
    window.design_menu.addSeparator()
    add_bulk_connect_action(window, window.design_menu)
    add_find_actions(window, window.edit_menu, window.view_menu)
    add_arrange_actions(window, window.design_menu, window.view_menu)
    add_structured_actions(window)  # View > Trunks, Design > Cabling Style
    add_facility_actions(window)  # View > Power and Cooling
    add_panel_actions(window)  # Design > Place Patch Panel, Route Via Panels
    add_optimise_action(window)  # Design > Optimise Placement…
    add_overview(window)
    add_underlay_actions(window)  # File > Import Underlay, View > Show Underlay, calibrate
    add_plan_annotations(window)  # View > Show Rulers, Design > Draw Dimension
    window.plan_focus = PlanFocus(window)  # keys back to the plan when their holder vanishes


def _whatif_entries(whatif_ref):
    """The what-if tool's menu as a provider; a weak reference, so the provider list does not
    keep the tool (and the dialogs it holds) alive after its window is gone."""

    def provide(target) -> list:
        whatif = whatif_ref()
        if whatif is None or whatif.document is None:
            return []
        return [whatif.menu_at(target.scene_pos, target)]

    return provide


def add_overview(window) -> None:
    """An Overview dock (minimap) beside the History, following each new document's scene."""
    from PySide6.QtCore import Qt

    window.overview = OverviewView(window.view)
    window.overview_dock = window.add_panel("Overview", window.overview, Qt.RightDockWidgetArea)
    window.tabifyDockWidget(window.history_dock, window.overview_dock)
    window.overview_dock.raise_()
    window.document_set.connect(lambda: window.overview.set_scene(window.scene))
    window.context_menu = CanvasContextMenu(window)  # others add entries: add_provider(fn)
    window.context_menu.add_provider(editor_entries(window))
    whatif = getattr(window, "whatif", None)
    if whatif is not None:  # its "What if … fails?" entries join the one plan menu
        from PySide6.QtCore import Qt

        window.view.customContextMenuRequested.disconnect(whatif._context_menu)
        window.view.setContextMenuPolicy(Qt.DefaultContextMenu)
        window.context_menu.add_provider(_whatif_entries(weakref.ref(whatif)))
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    add_help_actions(window, help_menu)
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    add_print_action(window, file_menu)
