"""Room for the plan: tools that used to open as windows over the plan (Find, Compare, Sweep)
open in docks beside it, and every dock can collapse to its title bar and open again.

``dock_beside_plan(window, title, widget)`` puts a tool's widget in the right-hand dock of that
title (made once, tabbed with the What-if dock when it is there); ``make_collapsible(dock)``
gives a dock a title bar with a collapse button (and float and close), so a dock the user wants
at hand but not open costs the plan one line.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QStyle,
    QToolButton,
    QWidget,
)

from gui.window_layout import SIDE_DOCK_PX

COLLAPSED, EXPANDED = "▸", "▾"
QT_MAX_PX = 16777215  # QWIDGETSIZE_MAX: no maximum


class CollapsibleTitle(QWidget):
    """A dock's title bar: collapse / expand, the title, float and close."""

    def __init__(self, dock: QDockWidget) -> None:
        super().__init__(dock)
        self.dock = dock
        self.collapsed = False
        self.toggle = QToolButton()
        self.toggle.setAutoRaise(True)
        self.toggle.setText(EXPANDED)
        self.toggle.setToolTip("Collapse this panel to its title (click again to open it)")
        self.toggle.clicked.connect(self.set_collapsed_toggled)
        self.label = QLabel(dock.windowTitle())
        dock.windowTitleChanged.connect(self.label.setText)
        style = self.style()
        float_button = QToolButton()
        float_button.setAutoRaise(True)
        float_button.setIcon(style.standardIcon(QStyle.SP_TitleBarNormalButton))
        float_button.setToolTip("Float this panel in a window of its own")
        float_button.clicked.connect(lambda: dock.setFloating(not dock.isFloating()))
        close_button = QToolButton()
        close_button.setAutoRaise(True)
        close_button.setIcon(style.standardIcon(QStyle.SP_TitleBarCloseButton))
        close_button.setToolTip("Close this panel (the View menu shows it again)")
        close_button.clicked.connect(dock.close)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 1, 2, 1)
        layout.setSpacing(2)
        layout.addWidget(self.toggle)
        layout.addWidget(self.label, 1)
        layout.addWidget(float_button)
        layout.addWidget(close_button)

    def set_collapsed_toggled(self) -> None:
        self.set_collapsed(not self.collapsed)

    def set_collapsed(self, collapsed: bool) -> None:
        """Hide the dock's contents and hold it at its title's height, or give them back."""
        self.collapsed = collapsed
        self.toggle.setText(COLLAPSED if collapsed else EXPANDED)
        content = self.dock.widget()
        # The column keeps its width: with the contents hidden, the dock's size hint (and the
        # right column with it) fell to ~137 px and squeezed the panels left open in it
        self.dock.setMinimumWidth(self.dock.width() if collapsed else 0)
        if content is not None:
            content.setVisible(not collapsed)
        self.dock.setMaximumHeight(self.sizeHint().height() + 2 if collapsed else QT_MAX_PX)

    def mouseDoubleClickEvent(self, event) -> None:
        self.set_collapsed(not self.collapsed)  # as on a collapsible panel's header
        event.accept()


def make_collapsible(dock: QDockWidget) -> CollapsibleTitle:
    title = dock.titleBarWidget()
    if isinstance(title, CollapsibleTitle):
        return title
    title = CollapsibleTitle(dock)
    dock.setTitleBarWidget(title)
    return title


def make_all_collapsible(window) -> None:
    for dock in window.findChildren(QDockWidget):
        make_collapsible(dock)


TOOL_DOCK_MIN_H_PX = 360  # a tool dock's height under the inspector, at least


def dock_beside_plan(window, title: str, widget: QWidget) -> QDockWidget:
    """Show ``widget`` in the right-hand dock ``title`` (made the first time; its previous
    widget is replaced and deleted), raised. Closing the widget (a dialog's Close) closes the
    dock."""
    docks = window.__dict__.setdefault("tool_docks", {})
    dock = docks.get(title)
    new_widget = dock is None or dock.widget() is not widget
    if dock is None:
        dock = docks[title] = window.add_panel(title, widget, Qt.RightDockWidgetArea)
        make_collapsible(dock)
        beside = getattr(getattr(window, "whatif", None), "dock", None)
        if beside is not None and beside.isVisible() and not beside.isFloating():
            window.tabifyDockWidget(beside, dock)
    else:
        old = dock.widget()
        dock.setWidget(widget)
        if old is not None and old is not widget:
            old.deleteLater()
    finished = getattr(widget, "finished", None)
    if finished is not None and new_widget:  # a dialog's Close button closes its dock
        finished.connect(lambda _result=0, d=dock, w=widget: d.widget() is w and d.close())
    widget.show()
    dock.show()
    dock.raise_()
    if new_widget and not dock.isFloating():
        # A dock added to the right column narrowed it to ~130 px (the find results unreadable):
        # the column keeps the inspector's working width
        window.resizeDocks([dock], [SIDE_DOCK_PX[1]], Qt.Horizontal)
        if not window.tabifiedDockWidgets(dock):
            # Stacked under the inspector it got the column's leftover (~5 of Compare's 12
            # rows at 1080 p): half the column, the inspector keeping the rest.
            window.resizeDocks([dock], [max(TOOL_DOCK_MIN_H_PX, window.height() // 2)], Qt.Vertical)
    return dock
