"""How the cyclic garbage collector treats a design while it is built and once it is loaded."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off for the block, then back as it was.

    For work that allocates hundreds of thousands of objects that make no cycles (a design
    being built, a picture's items, an export's tables): every 25 % growth of the old
    generation would otherwise run a full collection over all of them. Nested pauses keep it
    off until the outermost one ends, and the editor's own setting (automatic collection off,
    see gui.runtime.main_thread_gc) is left as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def building_design() -> Iterator[None]:
    """Build a design without the cyclic collector re-scanning it, then freeze what was built.

    Why: an XL design is ~1.2 M tracked objects (records, dicts, lists) that make no garbage
    cycles. While it is built, each 25 % growth of the old generation triggers a full collection
    that walks everything built so far (measured at XL: 4-9 full collections, 0.5-1.1 s of a
    2.6-4 s load), and the next one tends to land inside the first analysis (~0.3 s at XL).
    Pausing the collector while building and then ``gc.freeze()`` (the objects move to the
    permanent generation, which collections skip) removes both. Reference counting frees frozen
    objects as usual; a design dropped while still in a reference cycle (with subscribers that
    were never closed) is unfrozen and collected when the next design is built here.

    Built on a worker thread (the editor loads and generates off its GUI thread), only the
    pause applies: a collection finalizes whatever garbage it finds, and garbage left by a
    window holds Qt objects that must be destroyed on the GUI thread (destroying them from a
    worker once hung the test suite). The caller settles the design on its main thread with
    :func:`settle_if_pending` once the worker is done.
    """
    with collector_waits(), collector_paused():
        yield
        _settle_at_end()


@contextmanager
def collector_waits() -> Iterator[None]:
    """The editor's collector on the GUI thread (gui.runtime.main_thread_gc) waits while the block
    runs, on any thread: work that makes hundreds of thousands of young objects and no garbage
    cycles (a design being built, an analysis job). A young collection there walked all that
    work had made so far and found nothing: at a zoned XL hall, whose analysis makes ~2.5 M
    channel objects, ~170 ms of the GUI thread each second of the job."""
    global _building
    with _building_lock:
        _building += 1
    try:
        yield
    finally:
        with _building_lock:
            _building -= 1


def _settle_at_end() -> None:
    global _settle_pending
    # Settled while still paused: once the collector is back on, the next allocation runs a
    # young-generation collection over everything just built (~0.1 s at XL), which the freeze
    # spares it if it comes first.
    if threading.current_thread() is threading.main_thread():
        settle_built_design()
    else:
        _settle_pending = True


# A design was built on a worker thread and not settled yet (the collector's state is
# process-wide, and so is this flag).
_settle_pending = False
# A window let go of a document whose cycles are frozen (note_released).
_released_pending = False
# Documents let go of and not yet seen collected (weak), and the retries of settle_released.
_released: list[weakref.ref] = []
_MAX_RETRIES = 5
_retries = 0
_ticks_to_wait = 0
# When the user last edited (note_edited, time.monotonic seconds), and how long a let-go
# document's collection waits after it: an edit's own work follows it on the GUI thread (a tray
# drop's re-route, the debounced analysis job, the report published: ~1 s of CPU at XL), and a
# full collection there (~124 ms at XL) was a block in the middle of it. The let-go document
# costs nothing meanwhile; its collection just comes a few ticks later.
_last_edit_s = float("-inf")
EDIT_QUIET_S = 3.0
# Designs being built now (building_design), on any thread.
_building = 0
_building_lock = threading.Lock()


def design_building() -> bool:
    """Whether a design is being built or other work runs under :func:`collector_waits` (on
    any thread): all its objects are then young, and make no garbage cycles. The editor's
    collector on the GUI thread (gui.runtime.main_thread_gc) waits: a young collection there
    walked what a loading worker had built so far (~50 ms of the GUI thread at XL) and found
    nothing."""
    return _building > 0


def settle_if_pending() -> None:
    """On the main thread, after a worker built a design: settle it (see building_design)."""
    global _settle_pending
    if _settle_pending:
        _settle_pending = False
        settle_built_design()


def settle_built_design() -> None:
    """Collect what an earlier design left in cycles, then freeze everything alive now.

    Call on the main thread (see :func:`building_design`)."""
    global _released_pending
    _released_pending = False  # collected here as well
    if gc.get_freeze_count():
        gc.unfreeze()
        gc.collect()  # an earlier design that is gone now is collected, not frozen again
    gc.freeze()


def note_released(document: object | None = None) -> None:
    """An editor window let go of a document (it opened another file or closed): collect it
    with :func:`settle_released` once nothing but reference cycles holds it.

    Why: a window and its document are one graph of reference cycles (each helper keeps its
    window, the scene and the runner their design and plant), frozen while they lived (the
    editor freezes after opening a document and after each analysis). Frozen objects are
    skipped by every collection, so a closed document, its plant, feed and scene stayed alive
    until the next design was settled: one document behind when opening file after file (two
    designs alive during the next load), and every closed window for good when no design was
    opened after it (a test process kept them all: 7k -> 19k live Qt wrappers over 120 GUI
    tests).

    ``document``, if given, is watched: still alive after the collection (under load a worker's
    job or a queued event may hold it for a moment), the collection is tried again a few ticks
    later (see :func:`settle_released`); once was not enough, as the collection freezes again
    what it could not free, and that document would then stay until the next one was let go."""
    global _released_pending, _retries, _ticks_to_wait
    _released_pending = True
    _retries, _ticks_to_wait = 0, 0
    if document is not None:
        _released.append(weakref.ref(document))


def note_edited(now_s: float | None = None) -> None:
    """The user edited (an undo command done, undone or redone): :func:`settle_released` waits
    until :data:`EDIT_QUIET_S` seconds have passed without another edit. ``now_s``: the
    time.monotonic() of the edit (a test's fake clock), now if None."""
    global _last_edit_s
    _last_edit_s = time.monotonic() if now_s is None else now_s


def released_pending() -> bool:
    """Whether a let-go document waits for :func:`settle_released`."""
    return _released_pending


def settle_released(now_s: float | None = None, *, editing: bool = False) -> bool:
    """If a document was let go (:func:`note_released`): unfreeze, collect every cycle, freeze
    again (main thread only: the cycles hold Qt objects). True if it ran. A watched document
    still alive after it is tried again after 1, 3, 7, 15 and 31 more calls (the collector's
    ticks: seconds), each a full collection, then left (something holds it for good).

    Deferred to a call when the user is idle, these calls not counted: while ``editing`` (the
    caller sees a drag in progress) or within :data:`EDIT_QUIET_S` of the last
    :func:`note_edited` (``now_s``: time.monotonic(), now if None). The work that follows an
    edit on a worker waits for it anyway (:func:`collector_waits`)."""
    global _released_pending, _retries, _ticks_to_wait
    if not _released_pending:
        return False
    now = time.monotonic() if now_s is None else now_s
    if editing or now - _last_edit_s < EDIT_QUIET_S:
        return False
    if _ticks_to_wait:
        _ticks_to_wait -= 1
        return False
    _released_pending = False
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _released[:] = [ref for ref in _released if ref() is not None]
    if _released and _retries < _MAX_RETRIES:
        _retries += 1
        _ticks_to_wait = 2**_retries - 1
        _released_pending = True
    elif _released:
        _released.clear()
    return True
