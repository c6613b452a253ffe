"""The plan's annotations: View > Show Rulers (metres along the plan's top and left edges) and
Design > Draw Dimension (a mouse mode whose dimension lines stay on the plan). Installed on a
MainWindow by one call; also the helper that starts a mouse mode not in the window's list."""

from __future__ import annotations

from PySide6.QtGui import QAction

from gui.canvas.dimension_interaction import DrawDimensionInteraction
from gui.canvas.rulers import Rulers


def add_plan_annotations(window) -> None:
    """Rulers on ``window.view`` and the Draw Dimension mode (after the menus exist)."""
    window.rulers = Rulers(window.view)
    show = QAction("Show &Rulers", window, checkable=True)
    show.setChecked(True)
    show.setStatusTip("Metres along the plan's top and left edges")
    show.toggled.connect(window.rulers.set_visible)
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    view_menu.addAction(show)
    window.rulers_action = show
    draw = QAction("Draw &Dimension", window, checkable=True)
    draw.setShortcut("D")
    draw.setStatusTip("Draw dimension mode (D): click two points; the line keeps its length")
    window.mode_group.addAction(draw)
    draw.triggered.connect(
        lambda: start_mode(
            window,
            DrawDimensionInteraction(window.scene, on_done=lambda: window.set_mode("select")),
            draw,
        )
    )
    design_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Design")
    design_menu.insertAction(design_menu.actions()[len(window.mode_actions)], draw)
    window.dimension_action = draw


def start_mode(window, interaction, action: QAction | None = None) -> None:
    """Make ``interaction`` the plan's mouse mode; ``action`` (in the window's mode group) is
    checked, else no mode action is."""
    if action is None:
        window.mode_group.setExclusive(False)
        for other in window.mode_group.actions():
            other.setChecked(False)
        window.mode_group.setExclusive(True)
    else:
        action.setChecked(True)
    window.scene.set_interaction(interaction)
    window.mode_label.setText(f"  {interaction.name} mode  ")
    window.statusBar().showMessage(interaction.hint)
    window.view.setFocus()
