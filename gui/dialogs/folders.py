"""Where the editor's file and folder dialogs start (beside the design file, not the home
folder) and a folder chooser that takes a typed new name (the export creates the folder)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget


def design_folder(window) -> str:
    """The open design file's folder; the home folder for a design not saved yet."""
    document = getattr(window, "document", None)
    path = getattr(document, "path", None)
    return str(path.parent if path else Path.home())


def choose_folder(parent: QWidget, title: str, start: str) -> Path | None:
    """A folder to write into, existing or new: the user may browse to one or type a new name
    (Qt's own directory chooser refuses a folder that does not exist yet). Refuses a file."""
    dialog = FolderDialog(parent, title, start)
    try:
        if dialog.exec() != QFileDialog.Accepted:
            return None
        return dialog.chosen()
    finally:
        dialog.deleteLater()


class FolderDialog(QFileDialog):
    """Qt's file dialog (not the platform's, which has no "new name" for folders) in save mode
    showing folders only; what is typed in the name field is the folder."""

    def __init__(self, parent: QWidget, title: str, start: str) -> None:
        super().__init__(parent, title, start)
        self.setOption(QFileDialog.DontUseNativeDialog, True)
        self.setOption(QFileDialog.ShowDirsOnly, True)
        self.setAcceptMode(QFileDialog.AcceptSave)
        self.setFileMode(QFileDialog.AnyFile)
        self.setOption(QFileDialog.DontConfirmOverwrite, True)  # files in it are replaced anyway
        self.setNameFilter("Folders (*)")
        self.setLabelText(QFileDialog.FileName, "Folder")
        self.setLabelText(QFileDialog.Accept, "Choose")

    def chosen(self) -> Path | None:
        files = self.selectedFiles()
        if not files:
            return None
        path = Path(files[0])
        return None if path.is_file() else path
