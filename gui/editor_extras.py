"""The editor's working tools beyond the core window: bulk connect, find, context menus, help,
and the layout kept between runs. Installed on a MainWindow by one call, so the window module
stays the assembly of docks and actions it is."""

from __future__ import annotations

from gui.bulk_connect_dialog import add_bulk_connect_action


def install_editor_extras(window) -> None:
    """Add the extras' actions to ``window``'s menus (called once, after its menus exist)."""
    window.design_menu.addSeparator()
    add_bulk_connect_action(window, window.design_menu)
