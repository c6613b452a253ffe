"""Design → Arrange (align and distribute the selected racks, model.design.arrange) and the View
menu's snap toggle and layers (trays, cables), re-applied to every new document's plan."""

from __future__ import annotations

from PySide6.QtGui import QAction

from gui.edit.commands import MoveRacksCommand
from model.design.arrange import align_racks, distribute_racks

ALIGN = (  # menu text, model edge
    ("Align &Left Edges", "left"),
    ("Align &Right Edges", "right"),
    ("Align &Top Edges", "top"),
    ("Align &Bottom Edges", "bottom"),
    ("Align Centres &Horizontally", "centre-y"),
    ("Align Centres &Vertically", "centre-x"),
)


def _arrange(window, moves: dict, text: str) -> None:
    if not moves:
        window.statusBar().showMessage(
            "Select the racks to arrange (two to align, three to distribute)", 5000
        )
        return
    window.scene.push(MoveRacksCommand(window.document.design, moves, text))


def add_arrange_actions(window, design_menu, view_menu) -> None:
    menu = design_menu.addMenu("&Arrange Racks")
    window.arrange_actions = {}
    for text, edge in ALIGN:
        action = menu.addAction(text)
        action.triggered.connect(
            lambda _=False, e=edge, t=text: _arrange(
                window,
                align_racks(window.document.design, window.selected("racks"), e),
                t.replace("&", ""),
            )
        )
        window.arrange_actions[edge] = action
    menu.addSeparator()
    for text, axis in (("Distribute &Horizontally", "x"), ("Distribute Verticall&y", "y")):
        action = menu.addAction(text)
        action.triggered.connect(
            lambda _=False, a=axis, t=text: _arrange(
                window,
                distribute_racks(window.document.design, window.selected("racks"), a),
                t.replace("&", ""),
            )
        )
        window.arrange_actions[f"distribute-{axis}"] = action

    def apply() -> None:
        scene = window.scene
        scene.snap = window.snap_action.isChecked()
        scene.set_layers(
            trays=window.show_trays_action.isChecked(),
            cables=window.show_cables_action.isChecked(),
        )

    def toggle(text: str, tip: str) -> QAction:
        action = window._action(text, apply, None, tip, checkable=True)
        action.setChecked(True)
        return action

    window.snap_action = toggle(
        "&Snap to Floor Tiles", "Racks snap to the floor tiles, tray corners to half tiles"
    )
    window.show_trays_action = toggle("Show &Trays", "Show the cable trays")
    window.show_cables_action = toggle("Show &Cables", "Show the cable bundles and drawn links")
    view_menu.addSeparator()
    view_menu.addActions([window.snap_action, window.show_trays_action, window.show_cables_action])
    window.document_set.connect(apply)
