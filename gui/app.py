"""Start the Qt application and open the editor window on a design file."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtWidgets import QApplication

from gui.main_window import MainWindow


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
    window = MainWindow(QSettings(), recovery_directory())
    window.show()
    if not window.offer_recovery() and path is not None:
        window.open_path(Path(path))
    return app.exec()
