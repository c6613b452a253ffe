"""Opening a file with bad records: say what is wrong and, when every problem is one record
that can be left out, offer to open the design without them — an explicit choice that lists
what is dropped. The file on disk is only read."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from gui.document.document import Document, Prepared, prepare, run_with_progress
from gui.plain_text import message
from model.files.design_file import DesignFileError, Salvage, salvage_design_bytes

SHOWN_PROBLEMS = 20


def refuse(parent: QWidget, title: str, error: object) -> None:
    """A critical message; our sentence first keeps Qt from reading the error as markup."""
    QMessageBox.critical(parent, title, message("The design could not be opened.", error))


def offer_salvage(parent: QWidget, path: Path, error: DesignFileError) -> Document | None:
    """After ``error`` opening ``path``: a Document without the bad records if the user chooses
    so, else None (the error has been shown)."""
    if not error.salvageable:
        refuse(parent, "Cannot open design", error)
        return None

    def work() -> tuple[Salvage, Prepared]:
        salvage = salvage_design_bytes(Path(path).read_bytes(), Path(path).name)
        return salvage, prepare(salvage.design)

    try:
        salvage, prepared = run_with_progress(work, f"Reading {path.name}…", parent)
    except (DesignFileError, OSError) as exc:
        refuse(parent, "Cannot open design", exc)
        return None
    box = salvage_box(parent, path, salvage)
    box.exec()
    if box.clickedButton() is not box.open_button:
        return None
    document = Document.prepared(prepared, Path(path))
    document.stack.resetClean()  # shown as modified: saving would write the reduced design
    return document


def salvage_box(parent: QWidget, path: Path, salvage: Salvage) -> QMessageBox:
    """The question, with every dropped record (first SHOWN_PROBLEMS in the text, all in the
    details) and its JSON path."""
    dropped = salvage.dropped
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Warning)
    box.setWindowTitle("Open without bad records?")
    box.setTextFormat(Qt.PlainText)
    records = f"{len(dropped)} record{'s' if len(dropped) != 1 else ''}"
    lines = [f"  {p.json_path}: {p.message}" for p in dropped[:SHOWN_PROBLEMS]]
    if len(dropped) > SHOWN_PROBLEMS:
        lines.append(f"  … and {len(dropped) - SHOWN_PROBLEMS} more (see the details)")
    box.setText(
        f"{path.name} has {records} that cannot be used. Hallwright can open the design "
        "without them; the file on disk is not changed unless you save.\n\n" + "\n".join(lines)
    )
    box.setDetailedText("\n".join(f"{p.json_path}: {p.message}" for p in dropped))
    box.open_button = box.addButton(f"Open without {records}", QMessageBox.AcceptRole)
    box.addButton(QMessageBox.Cancel)
    box.setDefaultButton(QMessageBox.Cancel)
    return box
