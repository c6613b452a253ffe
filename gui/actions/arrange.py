"""Design → Arrange (align, distribute on the tile grid and pack the selected racks, renumber
every rack by row: model.design.arrange, model.design.rows) and the View menu's snap toggle and
layers (trays, cables), re-applied to every new document's plan."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog

from gui.edit.commands import MoveRacksCommand, UpdateCommand
from model.design.arrange import align_racks, distribute_racks
from model.design.rows import pack_racks, renumber_by_row

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
                distribute_racks(
                    window.document.design,
                    window.selected("racks"),
                    a,
                    window.document.design.hall.tile_m,  # on the tile grid, not between tiles
                ),
                t.replace("&", ""),
            )
        )
        window.arrange_actions[f"distribute-{axis}"] = action
    add_row_actions(window, menu)

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


PACK_SPACING_KEY = "arrange/pack_spacing_m"


def add_row_actions(window, menu) -> None:
    """Arrange > Pack Horizontally / Vertically (with a spacing) and Renumber Racks by Row."""
    menu.addSeparator()
    for text, axis in (("&Pack Horizontally…", "x"), ("Pack Verticall&y…", "y")):
        action = menu.addAction(text)
        action.setStatusTip("Close the gaps between the selected racks to a spacing you give")
        action.triggered.connect(lambda _=False, a=axis: pack_selection(window, a))
        window.arrange_actions[f"pack-{axis}"] = action
    menu.addSeparator()
    renumber = menu.addAction("Re&number Racks by Row")
    renumber.setStatusTip("Name every rack by its floor row and position: A01, A02, … B01")
    renumber.triggered.connect(lambda: renumber_racks(window))
    window.arrange_actions["renumber"] = renumber


def pack_selection(window, axis: str, spacing_m: float | None = None) -> None:
    """Pack the selected racks along ``axis``; the spacing is asked for when None."""
    racks = window.selected("racks")
    if len(racks) < 2:
        _arrange(window, {}, "")
        return
    if spacing_m is None:
        last = float(window.settings.value(PACK_SPACING_KEY, 0.0))
        spacing_m, ok = QInputDialog.getDouble(
            window, "Pack racks", "Spacing between racks (m):", last, 0.0, 10.0, 2
        )
        if not ok:
            return
        window.settings.setValue(PACK_SPACING_KEY, spacing_m)
    moves = pack_racks(window.document.design, racks, axis, spacing_m)
    if not moves:
        window.statusBar().showMessage("The selected racks are packed already", 5000)
        return
    _arrange(window, moves, f"Pack {len(racks)} racks at {spacing_m:g} m")


def renumber_racks(window) -> None:
    """Name every rack by floor row and position, as one undo step."""
    renamed = renumber_by_row(window.document.design)
    if not renamed:
        window.statusBar().showMessage("Every rack is named by its row and position already", 5000)
        return
    window.scene.push(
        UpdateCommand(
            window.document.design, "racks", renamed, f"Renumber {len(renamed)} racks by row"
        )
    )
