"""WindowLayout: the window's size, position and dock arrangement kept in QSettings between
runs; on a first launch the plan gets most of the window.

Choice: a saved layout from another version of the dock set (a dock added or renamed) is
restored as far as Qt can and the rest takes the default; a state Qt refuses is ignored.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSettings, Qt

GEOMETRY_KEY = "window/geometry"
STATE_KEY = "window/state"
STATE_VERSION = 1  # bump when the docks change so much that an old state would confuse
# Catalog, inspector: wide enough for their fields; the catalog shows a ~28-character type name
# ("NVIDIA Quantum-X800 Q3400-RA") whole beside its U and kW, longer ones elided in the middle.
SIDE_DOCK_PX = (300, 310)
ELEVATION_DOCK_PX = 280  # a 42–48 U rack column with its U rail and readable labels
BOTTOM_SHARE = 0.26  # analysis docks' share of the window height at first launch


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
        return ok

    def apply_default(self) -> None:
        """First launch: side docks at working widths, the analysis docks under a third of the
        height, the plan gets the rest."""
        w = self.window
        w.resizeDocks([w.palette_dock, w.inspector_dock], list(SIDE_DOCK_PX), Qt.Horizontal)
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
