"""Autosaver: every minute while the document is modified, its design goes to a recovery file
(encoded and written on a worker thread); after a crash the next session offers those files."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from gui.document.document import Document
from gui.runtime.main_thread_gc import collect_on_gui_thread
from model.design.design import Design
from model.files.design_file import (
    DesignFileError,
    design_pieces,
    read_design_bytes,
    write_atomic,
)
from model.files.file_content import FileContent, file_content
from model.runtime.gc_policy import collector_waits

AUTOSAVE_MS = 60_000


class _AutosaveSignals(QObject):
    done = Signal(object)  # the _AutosaveJob, its outcome set


class _AutosaveJob(QRunnable):
    """Encode and write one recovery file on the autosaver's worker thread."""

    def __init__(self, write, signals: _AutosaveSignals) -> None:
        super().__init__()
        self.write, self.signals = write, signals
        self.outcome: tuple[Path | None, str] = (None, "")
        self.error: Exception | None = None
        # The autosaver keeps this object until it has reported: with auto-delete, Qt would free
        # the C++ side on the worker thread under a live Python wrapper (see gui.document.analysis_runner).
        self.setAutoDelete(False)

    def run(self) -> None:
        try:
            # The GUI thread's collector waits: the encode makes a young tuple per record
            # (393k at XL) and no garbage cycles, which its young collections would walk.
            with collector_waits():
                self.outcome = self.write()
        except Exception as exc:  # noqa: BLE001 - a bug: raised again on the GUI thread
            self.error = exc
        self.write = None  # lets go of the design's content before reporting
        self.signals.done.emit(self)


class Autosaver(QObject):
    """Every minute while the document is modified, write it to a recovery file.

    A recovery file is ``<dir>/<key>.hall.json`` with ``<key>.origin.json`` beside it naming
    the original file; both go when the document is saved, reverted or discarded. A recovered
    document keeps the recovery file it came from (:meth:`adopt`) until it is saved or
    autosaved again, so a second crash right after recovering loses nothing. A failed autosave
    emits ``failed`` with a sentence (the window shows it) instead of raising from the timer.

    Threading. The timer's autosave (:meth:`autosave_in_background`) copies what the file holds
    on the GUI thread (:func:`~model.files.file_content.file_content`, ~15 ms at 393k links) and encodes
    and writes it on a worker thread (0.4-1.1 s at 393k links, which held the GUI thread when
    the timer wrote there). One job at a time: a tick while one is in flight does nothing, and
    :meth:`autosave` (the synchronous write, for callers that need the file now) waits for it
    first, so no two autosaves ever write the same file together. :meth:`close` waits for the
    job too: none outlives the window.

    Discard wins. :meth:`remove` (discard, save, revert) counts a new generation and deletes the
    files under the lock a job writes under; the job checks the generation under that lock
    before it writes, and writes nothing if it changed. So either the job wrote first and the
    discard deletes what it wrote, or the job finds the discard and skips: no recovery file
    is left for a saved document. The price: a discard during the job's write (30-540 ms
    measured at XL, mostly the disk's sync) waits for it; a discard during the encode does
    not wait. Cancelling the job instead could not stop a write that has begun.

    The worker still shares the GIL with the GUI thread: the encode lets go of it at least
    every ~20 ms (see model.files.design_file.design_pieces), and GUI-thread work running meanwhile takes
    turns with it. At XL on a busy 2-core machine the event loop's longest gap during a job
    was 0-120 ms, median ~45 (0.4-1.7 s when the timer wrote on the GUI thread).
    """

    saved = Signal(str)
    failed = Signal(str)

    def __init__(self, directory: Path, interval_ms: int = AUTOSAVE_MS, parent=None) -> None:
        super().__init__(parent)
        collect_on_gui_thread()  # the worker never runs a collection (see gui.runtime.main_thread_gc)
        self.directory = Path(directory)
        self.document: Document | None = None
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = _AutosaveSignals(self)
        self._signals.done.connect(self._job_done)
        self._job: _AutosaveJob | None = None
        self._closed = False
        self._lock = threading.Lock()  # held by a write, and by remove()
        self._generation = 0  # counted by remove(): a job of an older one does not write
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.autosave_in_background)
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

    @property
    def busy(self) -> bool:
        """Whether an autosave job is in flight (started and not reported yet)."""
        return self._job is not None

    def autosave(self) -> Path | None:
        """Write the recovery file now, on this thread, once the job in flight (if any) is done.

        Returns the file written, or None when the document is not modified or the write failed
        (``failed`` says why). For callers that need the file before they go on; the timer
        writes in the background (:meth:`autosave_in_background`)."""
        self.wait()
        write = self._prepare()
        if write is None:
            return None
        path, error = write()
        self._report(path, error)
        return path

    def autosave_in_background(self) -> bool:
        """The timer's autosave: the content copied now, encoded and written on the worker,
        ``saved`` or ``failed`` emitted when it is done. False when no job was started (nothing
        to save, the window closed, or a job still in flight: the next tick writes)."""
        if self._closed or self._job is not None:
            return False
        write = self._prepare()
        if write is None:
            return False
        self._job = _AutosaveJob(write, self._signals)
        self._pool.start(self._job)
        return True

    def wait(self) -> None:
        """Block until the job in flight (if any) has written, and report it now."""
        job = self._join()
        if job is not None:
            self._finish(job)

    def close(self) -> None:
        """Stop autosaving and wait for the job in flight, whose report is dropped (the window
        is going; a document that is closed has been saved or discarded, so the job wrote
        nothing or what it wrote is gone)."""
        self._closed = True
        self.timer.stop()
        self._join()

    def _prepare(self):
        """The write of the current document's recovery file, as a function of no arguments
        that may run on any thread; None when there is nothing to save."""
        document = self.document
        if document is None or not document.modified:
            return None
        path = self.recovery_path(document)
        origin = {"origin": str(document.path) if document.path else None, "saved_at": time.time()}
        return partial(self._write, file_content(document.design), path, origin, self._generation)

    def _write(
        self, content: FileContent, path: Path, origin: dict, generation: int
    ) -> tuple[Path | None, str]:
        """Encode ``content`` and write it to ``path``, unless a removal came since
        ``generation``: (the file written or None, a failure sentence or "")."""
        try:
            # Encoded before the lock (a discard need not wait for the encode), kept as its
            # pieces and written piece by piece: joined, the file sat in memory twice at the
            # join (~70 MB at zoned XL while the analysis may be at its own peak).
            data = list(design_pieces(content))
            with self._lock:
                if generation != self._generation:
                    return None, ""  # discarded, saved or reverted meanwhile: the discard wins
                self.directory.mkdir(parents=True, exist_ok=True)
                # The origin first: whoever sees the recovery file (another session's
                # pending()) finds the origin that goes with it already there.
                write_atomic(
                    _origin_file(path), json.dumps(origin).encode(), overwrite_read_only=True
                )
                write_atomic(path, data, overwrite_read_only=True)
        except (DesignFileError, OSError) as exc:
            return None, f"Autosave failed: {exc}"
        return path, ""

    def _join(self) -> _AutosaveJob | None:
        """Wait for the job in flight and take it (its queued report is then ignored)."""
        # Poll with the GIL released instead of a blocking waitForDone(): the job in flight is
        # Python code and needs the GIL to finish.
        while self._pool.activeThreadCount():
            time.sleep(0.005)
        self._pool.waitForDone()
        job, self._job = self._job, None
        return job

    def _job_done(self, job: _AutosaveJob) -> None:
        if job is not self._job:
            return  # reported already by wait(), or dropped by close()
        self._job = None
        self._finish(job)

    def _finish(self, job: _AutosaveJob) -> None:
        if job.error is not None:
            raise job.error  # a bug: the traceback goes where a timer slot's would
        self._report(*job.outcome)

    def _report(self, path: Path | None, error: str) -> None:
        if error:
            self.failed.emit(error)
        elif path is not None and path.exists():  # not removed since it was written
            self.saved.emit(str(path))

    def discard(self, document: Document | None = None) -> None:
        """Delete ``document``'s (by default the current one's) recovery files."""
        document = document or self.document
        if document is None:
            return
        self.remove(self.recovery_path(document))

    def remove(self, path: Path) -> None:
        """Delete the recovery file ``path`` and its origin file; an autosave in flight writes
        nothing (or, writing now, is waited for and its files deleted): see the class."""
        with self._lock:
            self._generation += 1
            for p in (path, _origin_file(path)):
                p.unlink(missing_ok=True)

    def pending(self) -> list[tuple[Path, Path | None, float]]:
        """Recovery files left by a session that did not end cleanly: (file, origin, time)."""
        out = []
        if not self.directory.is_dir():
            return out
        for path in sorted(self.directory.glob("*.hall.json")):
            meta = _origin_file(path)
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


def _origin_file(path: Path) -> Path:
    """The ``<key>.origin.json`` beside the recovery file ``<key>.hall.json``."""
    return path.with_suffix("").with_suffix(".origin.json")
