"""DocumentFiles: the editor's File menu work — new, open, save, save as, revert, the recent
files and the recovery of autosaved changes — with the questions and messages it shows.

It acts on one MainWindow (``window.document`` is the open document; ``window.set_document``
shows another) and owns the window's RecentFiles and Autosaver.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from gui.dialogs.design_dialogs import NewHallDialog
from gui.dialogs.salvage import offer_salvage
from gui.document.autosaver import Autosaver
from gui.document.document import (
    Document,
    RecentFiles,
    open_with_progress,
    prepare,
    run_with_progress,
)
from gui.plain_text import message, tooltip
from model.common.wording import count
from model.files.design_file import EXTENSION, DesignFileError, ReadOnlyFileError

FILE_FILTER = f"Hallwright designs (*{EXTENSION});;All files (*)"


class DocumentFiles:
    """Opening, saving and recovering the documents of ``window``."""

    def __init__(self, window, settings: QSettings, recovery_dir: Path) -> None:
        self.window = window
        self.recent = RecentFiles(settings)
        self.autosaver = Autosaver(recovery_dir, parent=window)
        self.autosaver.failed.connect(self.autosave_failed)
        self._autosave_warned = False

    @property
    def document(self) -> Document | None:
        return self.window.document

    def maybe_save(self) -> bool:
        """Ask before changes are lost; True when it is fine to go on."""
        if self.document is None or not self.document.modified:
            return True
        answer = QMessageBox.warning(
            self.window,
            "Unsaved changes",
            message(
                "There are unsaved changes. Save them before closing?",
                self.document.display_name,
            ),
            QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel,
            QMessageBox.Save,
        )
        if answer == QMessageBox.Save:
            return self.save()
        if answer == QMessageBox.Discard:
            self.autosaver.discard()
            return True
        return False

    def new_document(self) -> None:
        if not self.maybe_save():
            return
        dialog = NewHallDialog(self.window)
        if dialog.exec() != NewHallDialog.Accepted:
            return
        try:
            build = dialog.builder()
            prepared = run_with_progress(
                lambda: prepare(build()), "Generating the design…", self.window
            )
        except Exception as exc:  # noqa: BLE001 - GenerateError and friends: one sentence to the user
            QMessageBox.critical(
                self.window, "Cannot create the design", message("The design was not created.", exc)
            )
            return
        self.autosaver.discard()
        # A generated fabric is work worth a prompt; an empty hall is not.
        unsaved = bool(prepared.design.racks)
        self.window.set_document(Document.prepared(prepared, unsaved=unsaved))

    def open_dialog(self) -> None:
        start = str(self.document.path.parent) if self.document and self.document.path else ""
        path, _ = QFileDialog.getOpenFileName(self.window, "Open design", start, FILE_FILTER)
        if path:
            self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        """Open a design file; errors are shown in a dialog and the file is left untouched."""
        if not self.maybe_save():
            return False
        try:
            document = open_with_progress(Path(path), self.window)
        except DesignFileError as exc:
            document = offer_salvage(self.window, Path(path), exc)  # or says why not
            if document is None:
                return False
        design = document.design
        self.autosaver.discard()
        self.window.set_document(document)
        self.recent.add(Path(path))
        self.window.statusBar().showMessage(
            f"Opened {path.name}: {count(len(design.racks), 'rack')}, "
            f"{count(len(design.links), 'link')}",
            8000,
        )
        return True

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        start = str(self.document.path or Path.home() / f"{self.document.design.name}{EXTENSION}")
        path, _ = QFileDialog.getSaveFileName(self.window, "Save design as", start, FILE_FILTER)
        if not path:
            return False
        if not path.endswith(EXTENSION):
            path += EXTENSION
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        old_recovery = self.autosaver.recovery_path(self.document)
        try:
            try:
                self.document.save(path)
            except ReadOnlyFileError as exc:
                answer = QMessageBox.question(
                    self.window,
                    "Read-only file",
                    message("Replace the read-only file anyway?", exc),
                )
                if answer != QMessageBox.Yes:
                    return False
                self.document.save(path, overwrite_read_only=True)
        except DesignFileError as exc:
            QMessageBox.critical(
                self.window, "Cannot save design", message("The design was not saved.", exc)
            )
            return False
        self.autosaver.remove(old_recovery)  # an autosave still writing it writes nothing
        self.recent.add(path)
        self.window._update_title()
        self.window.statusBar().showMessage(f"Saved {path.name}", 5000)
        return True

    def revert(self) -> None:
        doc = self.document
        if doc.path is None:
            return
        answer = QMessageBox.question(
            self.window, "Revert", message("Drop all changes and reload the file?", doc.path.name)
        )
        if answer != QMessageBox.Yes:
            return
        try:
            document = open_with_progress(doc.path, self.window)
        except DesignFileError as exc:
            QMessageBox.critical(
                self.window, "Cannot revert", message("The file was not reloaded.", exc)
            )
            return
        self.autosaver.discard()
        self.window.set_document(document)

    def offer_recovery(self) -> bool:
        """After a crash: offer to recover autosaved changes. True when a document was recovered."""
        for path, origin, saved_at in self.autosaver.pending():
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(saved_at))
            name = origin.name if origin else "an unsaved design"
            answer = QMessageBox.question(
                self.window,
                "Recover unsaved changes",
                message(
                    "Hallwright did not close normally. Recover the autosaved changes?",
                    f"Changes to {name} were autosaved at {when}.",
                ),
                QMessageBox.Yes | QMessageBox.No,
                QMessageBox.Yes,
            )
            if answer != QMessageBox.Yes:
                self.autosaver.remove(path)
                continue
            try:
                prepared = run_with_progress(
                    lambda path=path: prepare(self.autosaver.take(path)),
                    f"Recovering {name}…",
                    self.window,
                )
            except DesignFileError as exc:
                QMessageBox.critical(
                    self.window, "Cannot recover", message("The changes were not recovered.", exc)
                )
                continue
            document = Document.prepared(prepared, origin)
            self.autosaver.adopt(document, path)  # kept until the next save or autosave
            self.window.set_document(document)
            document.stack.resetClean()
            self.window._update_title()
            return True
        return False

    def autosave_failed(self, text: str) -> None:
        """Status bar every time; a (non-blocking) dialog the first time in a session."""
        self.window.statusBar().showMessage(text)
        if self._autosave_warned:
            return
        self._autosave_warned = True
        box = QMessageBox(QMessageBox.Warning, "Autosave failed", text, parent=self.window)
        box.setTextFormat(Qt.PlainText)
        box.setInformativeText("Your changes are safe only once you save them.")
        box.setAttribute(Qt.WA_DeleteOnClose)
        box.show()

    def fill_recent(self, menu) -> None:
        """The Open Recent menu, filled as it opens."""
        menu.clear()
        paths = self.recent.paths()
        for p in paths:
            menu.addAction(Path(p).name, lambda p=p: self.open_path(Path(p))).setToolTip(tooltip(p))
        if not paths:
            menu.addAction("(none)").setEnabled(False)
        else:
            menu.addSeparator()
            menu.addAction("Clear Menu", self.recent.clear)
