"""Document: one open design with its file path, undo stack and cable plant; loading, saving
and the list of recent files (the autosave to a recovery file is gui.document.autosaver)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import NamedTuple

from PySide6.QtCore import QEventLoop, QSettings, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QApplication, QProgressDialog

from gui.runtime.main_thread_gc import collect_on_gui_thread
from model.design.design import Design
from model.design.entities import Hall
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter
from model.files.design_file import design_pieces, load_design, write_atomic
from model.files.underlay_file import rebased
from model.runtime.gc_policy import note_edited, settle_if_pending

MAX_RECENT = 8


def make_plant(design: Design) -> RoutedLinks:
    """The geometry engine's RoutedLinks for ``design`` (routes and media, kept current)."""
    return RoutedLinks(design)


def editing_plant(design: Design) -> RoutedLinks:
    """The plant of a document the user edits, its link id -> row index built now.

    The plant makes that index on first use, which a picture or an export never needs, but the
    first edit does: at 393k links it was ~90 ms inside the first move event of a drag. Built
    here, it costs that time behind the open dialog (on the loading thread) instead."""
    plant = RoutedLinks(design)
    plant.index  # noqa: B018 - built now, not in the first edit
    return plant


class Prepared(NamedTuple):
    """A design with what its editor needs before showing it, built off the GUI thread."""

    design: Design
    plant: RoutedLinks
    snapshots: Snapshotter  # primed: holds the first analysis's snapshot


def prepare(design: Design) -> Prepared:
    """Route ``design``'s plant and take its first analysis snapshot, on the calling thread.

    Run it on the worker that loaded or generated the design, before the GUI thread sees it:
    at 393k links the plant is ~0.7 s of routing and the first snapshot ~0.25 s, which the GUI
    thread would otherwise spend building the document and starting the first analysis."""
    plant = editing_plant(design)
    snapshots = Snapshotter(design, plant)
    snapshots.prime()
    return Prepared(design, plant, snapshots)


def empty_design(
    width_m: float = 24.0, depth_m: float = 18.0, tile_m: float = 0.6, name: str = "Untitled hall"
) -> Design:
    hall = Hall(
        outline=[(0.0, 0.0), (width_m, 0.0), (width_m, depth_m), (0.0, depth_m)], tile_m=tile_m
    )
    return Design(hall, name=name)


def _edited(_index: int) -> None:
    note_edited()


class Document:
    """A design being edited. ``path`` is None until it is first saved."""

    def __init__(
        self,
        design: Design,
        path: Path | None = None,
        plant: RoutedLinks | None = None,
        *,
        unsaved: bool = False,
        snapshots: Snapshotter | None = None,
    ) -> None:
        """``unsaved``: the design is work not yet in any file (generated, recovered), so it
        counts as modified from the start and New, Open and Quit ask before dropping it.
        ``plant`` and ``snapshots``: built with the design off the GUI thread (:func:`prepare`);
        otherwise the plant is built here and the analysis takes its own first snapshot."""
        self.design = design
        self.path = path
        self.stack = QUndoStack()
        # Each edit (done, undone, redone) defers a let-go document's full collection until the
        # user pauses (gc_policy.note_edited): it blocked the GUI thread in the edit's own work.
        self.stack.indexChanged.connect(_edited)
        self.plant = plant or editing_plant(design)  # one per document, given when loaded with it
        self._snapshots = snapshots
        self.recovery_file: Path | None = None  # set when recovered after a crash
        if unsaved:
            self.stack.resetClean()  # no clean state until the first save

    @classmethod
    def prepared(cls, prepared: Prepared, path: Path | None = None, **kwargs) -> Document:
        """The document of a design :func:`prepare` made ready on a worker thread."""
        return cls(prepared.design, path, prepared.plant, snapshots=prepared.snapshots, **kwargs)

    def take_snapshots(self) -> Snapshotter | None:
        """The primed Snapshotter, for the document's analysis (once: it follows the design and
        holds a whole snapshot, which nothing else should keep alive)."""
        snapshots, self._snapshots = self._snapshots, None
        return snapshots

    def drop_history(self) -> None:
        """The window let go of this document: its undo commands die now, in order, not when the
        collector gets to them, and its stack is deleted (QUndoView.setStack hands it to C++,
        which never deletes it). Not an edit: the stack's index changes as it is cleared, and
        as an edit it deferred the collection of this very document by EDIT_QUIET_S."""
        self.stack.indexChanged.disconnect(_edited)
        self.stack.clear()
        self.stack.deleteLater()

    @property
    def modified(self) -> bool:
        return not self.stack.isClean()

    @property
    def display_name(self) -> str:
        return self.path.name if self.path else f"{self.design.name} (unsaved)"

    def save(self, path: Path | None = None, *, overwrite_read_only: bool = False) -> None:
        """Write atomically to ``path`` (or the current one); raises DesignFileError
        (ReadOnlyFileError for a read-only target, unless ``overwrite_read_only``)."""
        target = path or self.path
        if target is None:
            raise ValueError("no file name to save to")
        # The underlay's path is recorded relative to the design's folder: saved elsewhere,
        # it is recorded again from there (path and record put back if the save fails).
        old_path, before = self.path, self.design.hall.underlay
        self.path = Path(target)
        if before is not None:
            old_folder = old_path.parent if old_path else None
            self.design.set_underlay(rebased(before, old_folder, self.path.parent))
        try:
            # Written as it is encoded: the whole file never sits in memory (twice at the
            # join: ~70 MB at zoned XL); a failed encode leaves the file as it was.
            write_atomic(
                Path(target), design_pieces(self.design), overwrite_read_only=overwrite_read_only
            )
        except BaseException:
            self.path = old_path
            self.design.set_underlay(before)
            raise
        self.stack.setClean()


def open_with_progress(path: Path, parent=None) -> Document:
    """Load a design and route its cables in a worker thread (the window keeps painting)."""

    prepared = run_with_progress(
        lambda: prepare(load_design(path)), f"Opening {path.name}…", parent
    )
    return Document.prepared(prepared, Path(path))


def run_with_progress(work, label: str, parent=None):
    """Run ``work()`` in a worker thread; the window stays responsive and, past 0.4 s, shows a
    busy progress dialog. Returns the result or raises the worker's exception."""
    collect_on_gui_thread()  # no garbage collection on the worker (see gui.runtime.main_thread_gc)
    try:
        return _run_in_worker(work, label, parent)
    finally:
        settle_if_pending()  # a design the worker built is frozen here, on the GUI thread


def _run_in_worker(work, label: str, parent):
    with ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(work)
        dialog = None
        started = time.monotonic()
        while not future.done():
            if dialog is None and time.monotonic() - started > 0.4:
                dialog = QProgressDialog(label, "", 0, 0, parent)
                dialog.setCancelButton(None)
                dialog.setWindowModality(Qt.WindowModal)
                dialog.setMinimumDuration(0)
                dialog.show()
            QApplication.processEvents(QEventLoop.AllEvents, 30)
            wait([future], timeout=0.02)
        if dialog is not None:
            dialog.close()
        return future.result()


class RecentFiles:
    """Most recently opened files, newest first, kept in the given QSettings."""

    KEY = "recent_files"

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def paths(self) -> list[str]:
        value = self.settings.value(self.KEY, [])
        if isinstance(value, str):
            value = [value]
        return [p for p in (value or []) if p]

    def add(self, path: Path) -> None:
        text = str(Path(path).resolve())
        paths = [text] + [p for p in self.paths() if p != text]
        self.settings.setValue(self.KEY, paths[:MAX_RECENT])
        self.settings.sync()

    def clear(self) -> None:
        self.settings.setValue(self.KEY, [])
