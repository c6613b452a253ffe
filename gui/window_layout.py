"""WindowLayout: the window's size, position and dock arrangement kept in QSettings between
runs; on a first launch the plan gets most of the window.

Choice: a saved layout from another version of the dock set (a dock added or renamed) is
restored as far as Qt can and the rest takes the default; a state Qt refuses is ignored.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QTabBar

GEOMETRY_KEY = "window/geometry"
STATE_KEY = "window/state"
STATE_VERSION = 1  # bump when the docks change so much that an old state would confuse
# Catalog, inspector: wide enough for their fields; the catalog shows a ~28-character type name
# ("NVIDIA Quantum-X800 Q3400-RA") whole beside its U and kW, longer ones elided in the middle.
SIDE_DOCK_PX = (300, 310)
# On a wide first-launch window (the screen filled) the catalog grows with it, so the longer
# names ("NVIDIA Quantum-X800 Q3400-RA", "OEM HGX H100 ... (8 x 400G)") show whole too.
CATALOG_SHARE = 0.2
CATALOG_MAX_PX = 380
ELEVATION_DOCK_PX = 280  # a 42–48 U rack column with its U rail and readable labels
BOTTOM_SHARE = 0.26  # analysis docks' share of the window height at first launch
# First launch: the window takes this share of the screen's free area (never less than the
# size it was built with), so the plan gets the room the screen has: at 1920 x 1080 a
# 1400 x 900 window left the plan a third of the window and a fifth of the screen.
SCREEN_SHARE = 0.94


class WindowLayout(QObject):
    """Saves ``window``'s geometry and dock state when it closes; restores them on request."""

    def __init__(self, window, settings: QSettings) -> None:
        super().__init__(window)
        self.window = window
        self.settings = settings
        self.restored = False
        window.installEventFilter(self)

    def restore(self) -> bool:
        """Put back the last run's window and docks. False (nothing done) on a first launch."""
        geometry = self.settings.value(GEOMETRY_KEY)
        state = self.settings.value(STATE_KEY)
        if geometry is None or state is None:
            return False
        ok = self.window.restoreGeometry(geometry)
        ok = self.window.restoreState(state, STATE_VERSION) and ok
        self.restored = ok
        QTimer.singleShot(0, self.hide_stale_tab_bars)
        return ok

    def hide_stale_tab_bars(self) -> None:
        """Hide dock tab bars the restore left behind.

        Why: restoring, after the window is shown, a state whose tabbed docks sit elsewhere than
        in the default layout (History and Overview under the inspector and the elevation side
        by side) makes Qt 6 build a new tab bar and leave the old one visible where the tabs
        used to be, a second "History | Overview" painted over the Warnings panel. A tab bar
        in use spans the docks it switches between; one that spans none of them is stale.
        """
        docks = {d.windowTitle(): d for d in self.window.findChildren(QDockWidget)}
        for bar in self.window.findChildren(QTabBar, options=Qt.FindDirectChildrenOnly):
            if not bar.isVisible() or bar.count() == 0:
                continue
            tabbed = [docks[t] for t in map(bar.tabText, range(bar.count())) if t in docks]
            spans = [
                d
                for d in tabbed
                if d.isVisible()
                and abs(d.geometry().left() - bar.geometry().left()) <= 2
                and abs(d.geometry().width() - bar.geometry().width()) <= 2
            ]
            if tabbed and not spans:
                bar.hide()

    def has_saved(self) -> bool:
        return self.settings.value(GEOMETRY_KEY) is not None

    def fill_screen(self) -> None:
        """First launch: grow the window to most of its screen's free area, centred on it."""
        screen = self.window.screen()
        if screen is None:
            return
        free = screen.availableGeometry()
        width = max(self.window.width(), int(free.width() * SCREEN_SHARE))
        height = max(self.window.height(), int(free.height() * SCREEN_SHARE))
        width, height = min(width, free.width()), min(height, free.height())
        self.window.resize(width, height)
        self.window.move(free.center().x() - width // 2, free.center().y() - height // 2)

    def apply_default(self) -> None:
        """First launch: side docks at working widths, the analysis docks under a third of the
        height, the plan gets the rest."""
        w = self.window
        catalog_px = max(SIDE_DOCK_PX[0], min(CATALOG_MAX_PX, int(w.width() * CATALOG_SHARE)))
        w.resizeDocks(
            [w.palette_dock, w.inspector_dock], [catalog_px, SIDE_DOCK_PX[1]], Qt.Horizontal
        )
        docks = getattr(w, "analysis_docks", None)
        if docks is not None:
            w.resizeDocks([docks.panel_dock], [int(w.height() * BOTTOM_SHARE)], Qt.Vertical)

    def save(self) -> None:
        self.settings.setValue(GEOMETRY_KEY, self.window.saveGeometry())
        self.settings.setValue(STATE_KEY, self.window.saveState(STATE_VERSION))
        self.settings.sync()

    def eventFilter(self, obj, event) -> bool:
        if obj is self.window and event.type() == QEvent.Close:
            self.save()  # harmless if the close is then cancelled by the unsaved-changes prompt
        return False
