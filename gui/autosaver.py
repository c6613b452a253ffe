"""Autosaver: every minute while the document is modified, its design goes to a recovery file;
after a crash the next session offers those files."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from gui.document import Document
from model.design import Design
from model.fileio import DesignFileError, design_to_bytes, read_design_bytes, write_atomic

AUTOSAVE_MS = 60_000


class Autosaver(QObject):
    """Every minute while the document is modified, write it to a recovery file.

    A recovery file is ``<dir>/<key>.hall.json`` with ``<key>.origin.json`` beside it naming
    the original file; both go when the document is saved, reverted or discarded. A recovered
    document keeps the recovery file it came from (:meth:`adopt`) until it is saved or
    autosaved again, so a second crash right after recovering loses nothing. A failed autosave
    emits ``failed`` with a sentence (the window shows it) instead of raising from the timer.
    """

    saved = Signal(str)
    failed = Signal(str)

    def __init__(self, directory: Path, interval_ms: int = AUTOSAVE_MS, parent=None) -> None:
        super().__init__(parent)
        self.directory = Path(directory)
        self.document: Document | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.autosave)
        self.timer.start()

    def set_document(self, document: Document) -> None:
        self.document = document

    def adopt(self, document: Document, recovery_file: Path) -> None:
        """Make ``recovery_file`` (just recovered from) the recovery file of ``document``."""
        document.recovery_file = Path(recovery_file)

    def _key(self, document: Document) -> str:
        origin = str(document.path.resolve()) if document.path else f"untitled-{id(document)}"
        return hashlib.sha1(origin.encode()).hexdigest()[:12]

    def recovery_path(self, document: Document) -> Path:
        return document.recovery_file or self.directory / f"{self._key(document)}.hall.json"

    def autosave(self) -> Path | None:
        document = self.document
        if document is None or not document.modified:
            return None
        path = self.recovery_path(document)
        origin = {"origin": str(document.path) if document.path else None, "saved_at": time.time()}
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            write_atomic(path, design_to_bytes(document.design), overwrite_read_only=True)
            write_atomic(
                path.with_suffix("").with_suffix(".origin.json"),
                json.dumps(origin).encode(),
                overwrite_read_only=True,
            )
        except (DesignFileError, OSError) as exc:
            self.failed.emit(f"Autosave failed: {exc}")
            return None
        self.saved.emit(str(path))
        return path

    def discard(self, document: Document | None = None) -> None:
        document = document or self.document
        if document is None:
            return
        path = self.recovery_path(document)
        for p in (path, path.with_suffix("").with_suffix(".origin.json")):
            p.unlink(missing_ok=True)

    def pending(self) -> list[tuple[Path, Path | None, float]]:
        """Recovery files left by a session that did not end cleanly: (file, origin, time)."""
        out = []
        if not self.directory.is_dir():
            return out
        for path in sorted(self.directory.glob("*.hall.json")):
            meta = path.with_suffix("").with_suffix(".origin.json")
            try:
                info = json.loads(meta.read_text())
            except (OSError, ValueError):
                info = {}
            origin = Path(info["origin"]) if info.get("origin") else None
            out.append((path, origin, float(info.get("saved_at", path.stat().st_mtime))))
        return out

    def take(self, path: Path) -> Design:
        """Read a recovery file (raises DesignFileError). The file stays: :meth:`adopt` it for
        the recovered document, and it goes when that document is saved or discarded."""
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise DesignFileError(
                path.name, "", f"cannot be read ({exc.strerror or exc})"
            ) from None
        return read_design_bytes(data, path.name)
