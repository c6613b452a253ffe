"""View > Fabrics, View > Tiers …: one checkable action per layer of each registered layer kind
(:mod:`gui.canvas.layers`: compute, storage, in-band, OOB, scale-up; leaf, spine, core,
scale-up).

Unchecking a layer hides its links, its cables in the tray bundles and dims the racks that are
only in hidden layers; "Show Only" picks one layer of the kind alone. The actions live on the
window and are applied to each document's scene as it opens. Which link or rack is in which
layer comes from the model; this module only switches layers.
"""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from gui.canvas.layers import LAYER_KINDS, LayerKind


class LayerMenu:
    """The submenu of one layer kind and its per-layer actions (``actions[layer]``)."""

    def __init__(self, window, menu: QMenu, kind: LayerKind) -> None:
        self.window = window
        self.kind = kind
        self.menu = menu.addMenu(kind.title)
        self.menu.setToolTipsVisible(True)
        self.actions: dict[str, QAction] = {}
        for layer, label in kind.layers:
            action = QAction(label, window, checkable=True)
            action.setChecked(True)
            action.setToolTip(f"Show the {label} {kind.noun}'s links and the racks of its switches")
            action.toggled.connect(lambda on, name=layer: self._toggled(name, on))
            self.menu.addAction(action)
            self.actions[layer] = action
        self.menu.addSeparator()
        noun = kind.title.replace("&", "")
        self.show_all_action = self.menu.addAction(f"Show &All {noun}", self.show_all)
        self.only_menu = self.menu.addMenu("Show &Only")
        for layer, label in kind.layers:
            self.only_menu.addAction(label, lambda name=layer: self.show_only(name))

    def _toggled(self, layer: str, on: bool) -> None:
        scene = self.window.scene
        if scene is not None and scene.layer_visible(self.kind.key, layer) != on:
            scene.set_layer_visible(self.kind.key, layer, on)

    def show_all(self) -> None:
        for action in self.actions.values():
            action.setChecked(True)

    def show_only(self, layer: str) -> None:
        for name, action in self.actions.items():
            action.setChecked(name == layer)

    def apply(self) -> None:
        """Give a newly opened document's scene the layers the menu shows."""
        for layer, action in self.actions.items():
            self._toggled(layer, action.isChecked())


class LayerMenus:
    """Every registered kind's submenu in the View menu: ``menus[kind key]``."""

    def __init__(self, window, menu: QMenu) -> None:
        self.menus = {key: LayerMenu(window, menu, kind) for key, kind in LAYER_KINDS.items()}

    def apply(self) -> None:
        for layer_menu in self.menus.values():
            layer_menu.apply()

    def __getitem__(self, key: str) -> LayerMenu:
        return self.menus[key]
