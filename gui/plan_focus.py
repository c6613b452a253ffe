"""PlanFocus: the keyboard goes back to the plan when whatever held it disappears.

In a long session Return (open the elevation, finish a polygon) and Esc (leave a mode, cancel a
drag) stopped working on the plan: closing a dock that held the focus (Find, Compare, Findings,
the catalog's filter) hands it to Qt's next widget in the tab chain (a tab bar, a scroll area,
a combo box of another dock), and a modal dialog closing can leave no widget with focus at all.
Neither is a place the user chose, so the plan takes the keys instead. A widget the user clicks
or tabs to keeps them: only focus that falls because its holder vanished is given back.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget


class PlanFocus(QObject):
    """Watches the application's focus for ``window`` and gives it to ``window.view`` when the
    widget that held it in the window vanished (its dock closed, its form rebuilt) or when no
    widget holds it after a dialog closed."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self._fallen_to: QWidget | None = None  # where Qt put the focus it took back
        self._pending = False
        # A timer of its own, not QTimer.singleShot(0, self, callable): PySide keeps the
        # callable of a single shot whose context is deleted before it fires (focus falls when
        # the window closes), and with it this object and the whole closed window, forever.
        self._give_back_timer = QTimer(self)
        self._give_back_timer.setSingleShot(True)
        self._give_back_timer.setInterval(0)
        self._give_back_timer.timeout.connect(self._give_back)
        QApplication.instance().focusChanged.connect(self._focus_changed)

    def _focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if not self._lost(old, new):
            return
        self._fallen_to = new
        if not self._pending:
            # Decided on the next turn: a dialog's own focus hand-back and a dock's re-layout
            # come first, and a widget the user picks meanwhile keeps the keys.
            self._pending = True
            self._give_back_timer.start()

    def _lost(self, old: QWidget | None, new: QWidget | None) -> bool:
        if new is None:
            return True
        if old is None or not shiboken6.isValid(old):
            return False
        # Popups (a combo box's list, a completer) and dialogs have windows of their own:
        # their focus returns to whoever opened them, which is where the user was.
        return old.window() is self.window and not old.isVisible()

    def _give_back(self) -> None:
        self._pending = False
        window, fallen_to = self.window, self._fallen_to
        self._fallen_to = None
        if not shiboken6.isValid(window) or not window.isVisible():
            return
        if QApplication.activeModalWidget() is not None or QApplication.activePopupWidget():
            return
        active = QApplication.activeWindow()
        if active is None or (active is not window and active.isVisible()):
            # Another window is in use (another program, a floating dock): the window keeps
            # its own focus widget, given back by Qt when it is activated again. (A closed
            # popup can stay the active window for a moment: it is not in use.)
            return
        focus = QApplication.focusWidget()
        if focus is None or focus is fallen_to:
            window.view.setFocus()
