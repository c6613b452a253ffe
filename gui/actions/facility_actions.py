"""View > Power and Cooling: the plan's facility layer (busways, CDUs, CRAHs, floor load).

The layer is the scene's (:mod:`gui.canvas.facility_layer`); this module only switches it, on
every document the window shows.
"""

from __future__ import annotations

from PySide6.QtGui import QAction


class FacilityActions:
    """The window's toggle of the power and cooling layer, following each document."""

    def __init__(self, window) -> None:
        self.window = window
        self.action = QAction("&Power and Cooling", window, checkable=True)
        self.action.setToolTip(
            "Show busways, CDUs and CRAHs coloured by load at maximum draw (green < 80 %, "
            "amber to 100 %, red over), the racks each serves, and the floor load per tile"
        )
        self.action.setStatusTip(self.action.toolTip())
        self.action.toggled.connect(self.apply)
        window.view_menu.addAction(self.action)
        window.document_set.connect(self.apply)

    def apply(self, *_args) -> None:
        scene = self.window.scene
        if scene is not None:
            scene.facility_layer.set_visible(self.action.isChecked())


def add_facility_actions(window) -> FacilityActions:
    """Add View > Power and Cooling to ``window`` (after its menus exist)."""
    window.facility_actions = FacilityActions(window)
    return window.facility_actions
