"""View > Fabrics: one checkable layer per network (compute, storage, in-band, OOB, scale-up).

Unchecking a fabric hides its links, its cables in the tray bundles and dims the racks that take
part in no visible fabric; "Show Only" picks one fabric alone. The actions live on the window and
are applied to each document's scene as it opens. Which link or rack is in which fabric comes
from the model (:mod:`model.fabrics`); this module only switches layers.
"""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from model.entities import FABRICS
from model.fabrics import FABRIC_LABELS


class FabricLayers:
    """The Fabrics submenu of a window and its per-fabric actions (``actions[fabric]``)."""

    def __init__(self, window, menu: QMenu) -> None:
        self.window = window
        self.menu = menu.addMenu("&Fabrics")
        self.menu.setToolTipsVisible(True)
        self.actions: dict[str, QAction] = {}
        for fabric in FABRICS:
            action = QAction(FABRIC_LABELS[fabric], window, checkable=True)
            action.setChecked(True)
            action.setToolTip(f"Show the {FABRIC_LABELS[fabric].lower()} network's links and racks")
            action.toggled.connect(lambda on, f=fabric: self._toggled(f, on))
            self.menu.addAction(action)
            self.actions[fabric] = action
        self.menu.addSeparator()
        self.show_all_action = self.menu.addAction("Show &All Fabrics", self.show_all)
        self.only_menu = self.menu.addMenu("Show &Only")
        for fabric in FABRICS:
            self.only_menu.addAction(FABRIC_LABELS[fabric], lambda f=fabric: self.show_only(f))

    def _toggled(self, fabric: str, on: bool) -> None:
        scene = self.window.scene
        if scene is not None and scene.fabric_visible(fabric) != on:
            scene.set_fabric_visible(fabric, on)

    def show_all(self) -> None:
        for action in self.actions.values():
            action.setChecked(True)

    def show_only(self, fabric: str) -> None:
        for name, action in self.actions.items():
            action.setChecked(name == fabric)

    def apply(self) -> None:
        """Give a newly opened document's scene the layers the menu shows."""
        for fabric, action in self.actions.items():
            self._toggled(fabric, action.isChecked())
