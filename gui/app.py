"""Start the Qt application and open the editor window on a design file."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QEvent, QSettings, QStandardPaths
from PySide6.QtWidgets import QApplication

from gui.main_window import MainWindow
from gui.runtime.main_thread_gc import collect_on_gui_thread
from model.design.clipboard import MIME_RACKS


def recovery_directory() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.AppDataLocation) or str(
        Path.home() / ".hallwright"
    )
    return Path(base) / "recovery"


def run_editor(path: Path | None) -> int:
    """Open the editor on ``path`` (after offering to recover autosaved work) and run it."""
    app = QApplication.instance() or QApplication(sys.argv)
    app.setOrganizationName("Hallwright")
    app.setApplicationName("Hallwright")
    collect_on_gui_thread()
    window = MainWindow(QSettings(), recovery_directory())
    if not window.window_layout.has_saved():
        window.window_layout.fill_screen()  # first launch; later runs restore their geometry
    window.show()
    if not window.offer_recovery() and path is not None:
        window.open_path(Path(path))
    status = app.exec()
    shut_down_qt()
    return status


def shut_down_qt() -> None:
    """Delete what Qt would otherwise delete after the interpreter has finalized.

    Why: an object created from Python (the closed window, the QMimeData handed to the
    clipboard) calls back into Python when Qt deletes it; from Qt's own exit handlers, after
    Python is gone, that crashes the process (PySide6 6.11). So the window (deleted on close)
    is deleted now, and Hallwright's racks leave the clipboard when the editor quits (the text
    summary goes with them: the clipboard does not outlive its owner on most desktops anyway).
    """
    QApplication.sendPostedEvents(None, QEvent.DeferredDelete)
    clipboard = QApplication.clipboard()
    data = clipboard.mimeData()
    if data is not None and data.hasFormat(MIME_RACKS):
        clipboard.clear()
    QApplication.sendPostedEvents(None, QEvent.DeferredDelete)
