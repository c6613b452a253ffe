"""Structured cabling in the editor's menus: View > Trunks and Design > Cabling Style.

The cabling style is a design setting (``settings.cabling``: the styles the model offers,
:data:`model.structured.layout.CABLING_STYLES`); choosing one pushes a
:class:`CablingStyleCommand`, which calls the model's edit API (``Design.set_settings``), so it
undoes and redoes like every edit. The trunk layer itself is the scene's
(:mod:`gui.canvas.trunk_layer`); this module only switches it.
"""

from __future__ import annotations

import msgspec
from PySide6.QtGui import QAction, QActionGroup

from gui.edit.commands import SetSettingsCommand
from model.structured.layout import CABLING_STYLES

STYLE_WORDS = {
    "direct": "Direct (one fibre per link)",
    "cross-connect": "Cross-connect (panels at each rack top, MPO trunks)",
    "zones": "MDA/HDA zones",
}


class CablingStyleCommand(SetSettingsCommand):
    """Set the design's cabling style (one undo step)."""

    def __init__(self, design, style: str) -> None:
        settings = msgspec.structs.replace(design.settings, cabling=style)
        super().__init__(design, settings, f"Cabling style: {style}")


def style_words(style: str) -> str:
    return STYLE_WORDS.get(style, style)


class StructuredActions:
    """The window's trunk-layer toggle and cabling-style choice, following each document."""

    def __init__(self, window) -> None:
        self.window = window
        self.trunks_action = QAction("&Trunks", window, checkable=True)
        self.trunks_action.setChecked(True)
        self.trunks_action.setToolTip("Show the MPO trunks of a structured design along the trays")
        self.trunks_action.setStatusTip(self.trunks_action.toolTip())
        self.trunks_action.toggled.connect(self.apply)
        window.view_menu.addAction(self.trunks_action)
        self.style_menu = window.design_menu.addMenu("Cabling &Style")
        self.style_group = QActionGroup(window)
        self.style_actions: dict[str, QAction] = {}
        for style in CABLING_STYLES:
            action = QAction(style_words(style), window, checkable=True)
            action.triggered.connect(lambda _on=False, s=style: self.set_style(s))
            self.style_group.addAction(action)
            self.style_menu.addAction(action)
            self.style_actions[style] = action
        self.style_menu.aboutToShow.connect(self._show_current)
        window.document_set.connect(self.apply)

    def _show_current(self) -> None:
        action = self.style_actions.get(self.window.document.design.settings.cabling)
        if action is not None:
            action.setChecked(True)

    def set_style(self, style: str) -> bool:
        """Push the style change (nothing when it is the design's style already)."""
        design = self.window.document.design
        if design.settings.cabling == style:
            return False
        return self.window.scene.push(CablingStyleCommand(design, style))

    def apply(self, *_args) -> None:
        scene = self.window.scene
        if scene is not None:
            scene.trunk_layer.set_visible(self.trunks_action.isChecked())


def add_structured_actions(window) -> StructuredActions:
    """Add View > Trunks and Design > Cabling Style to ``window`` (after its menus exist)."""
    window.structured_actions = StructuredActions(window)
    return window.structured_actions
