"""A closed editor window leaves nothing alive (issues #36, #38): open the bundled example, edit
it, close the window (or open the next file in it), several times; the live objects of the window's kinds (the window, its
scene and items, the design, the undo stack, the analysis jobs, Qt's value objects the items
paint with) must not grow per window after a full collection.

Before the fix each window stayed alive whole (~1,260 objects, 72 QRectF and 44 QColor among
them): the plant feed's timer held a lambda capturing the feed (and so the design and every
subscriber's window), the plan-focus single shot held its window once that window closed, the
undo view took the undo stack to C++ and nobody deleted it, and the thread pool kept every job.
"""

from __future__ import annotations

import gc
from collections import Counter
from pathlib import Path

import pytest
import shiboken6

from tests.gui.conftest import (
    close_quietly,
    make_window,
    move_first_rack_and_wait,
    wait_until_idle,
)
from tests.leak_check import settle_qt

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "small-pod.hall.json"
WATCHED = {  # what one window makes, by type name
    "MainWindow",
    "HallScene",
    "Document",
    "Design",
    "RoutedLinks",
    "QUndoStack",
    "AnalysisRunner",
    "_Job",
    "PlantFeed",
    "RackItem",
    "TrayItem",
    "QRectF",
    "QColor",
    "QPainterPath",
    "QPen",
    "LinksTableModel",
}
WINDOWS = 3  # after one to warm up (first-use caches, imports)


def _live() -> Counter[str]:
    """Live objects of the watched types after every cycle that can go has gone."""
    settle_qt(full=True)
    for _ in range(5):  # a deleted window can free the next cycle: collect until none is left
        if not gc.collect():
            break
        settle_qt(full=True)
    # gc.get_objects() lists no frozen object, and the events settle_qt processed may have
    # published an analysis result, which freezes everything alive (gui.document.analysis_runner):
    # a count taken then missed the window's whole document (Document, its 3 Designs and 2
    # RoutedLinks), so "before" came out short and the test failed about one run in six.
    # Unfrozen here, with no event processed before the scan.
    gc.unfreeze()
    # Qt's value objects are not all tracked by the collector: shiboken's table has them.
    live = {id(o): o for o in gc.get_objects()}
    live.update((id(o), o) for o in shiboken6.getAllValidWrappers())
    found = Counter(type(o).__name__ for o in live.values())
    return Counter({name: found[name] for name in WATCHED})


def _one_window(qtbot, tmp_path) -> None:
    window = make_window(qtbot, tmp_path, EXAMPLE)
    wait_until_idle(qtbot)
    move_first_rack_and_wait(window, qtbot)
    close_quietly(window)


# slow: four windows opened, edited and closed and the heap scanned after full collections (the
# suite's costliest GUI test, ~4.3 s of CPU, and the next one ~2.6 s): run first in tests/gui
# (tests/conftest.py). Last in the GUI stage of make test, one worker ran it for 11.8 s of
# wall (nice 19, load ~9) while the other had finished.
@pytest.mark.slow
def test_a_closed_window_leaves_nothing_alive(qtbot, tmp_path):
    _one_window(qtbot, tmp_path)
    before = _live()
    for _ in range(WINDOWS):
        _one_window(qtbot, tmp_path)
    after = _live()
    grown = {name: after[name] - before[name] for name in WATCHED if after[name] > before[name]}
    # A window left alive leaves at least one of each of its kinds: fewer than one per window
    # is noise (a cache that filled late), not a window.
    assert all(n < WINDOWS for n in grown.values()), f"alive after {WINDOWS} windows: {grown}"
    # Not one more window or scene than before these (a window another test of the same worker
    # process keeps, in a fixture or a failed test's traceback, is not this test's)
    assert after["MainWindow"] <= before["MainWindow"] and after["HallScene"] <= before["HallScene"]


@pytest.mark.slow
def test_opening_another_file_leaves_the_previous_one_nothing_alive(qtbot, tmp_path):
    """File > Open in the same window, again and again: the previous document (its design,
    plant, undo stack, links table model) goes (each one stayed: +189 objects per open)."""
    window = make_window(qtbot, tmp_path, EXAMPLE)
    wait_until_idle(qtbot)
    move_first_rack_and_wait(window, qtbot)
    window.document.stack.setClean()  # no unsaved-changes prompt
    before = _live()
    for _ in range(WINDOWS):
        assert window.open_path(EXAMPLE)
        wait_until_idle(qtbot)
        move_first_rack_and_wait(window, qtbot)
        window.document.stack.setClean()
    after = _live()
    close_quietly(window)
    grown = {name: after[name] - before[name] for name in WATCHED if after[name] > before[name]}
    assert all(n < WINDOWS for n in grown.values()), f"alive after {WINDOWS} opens: {grown}"


def test_opening_another_file_leaves_one_undo_and_one_redo_on_the_window(qtbot, tmp_path):
    """Each document's Undo/Redo replace the last one's (two more disabled ones per file
    opened stayed on the window, each holding the Ctrl+Z / Ctrl+Shift+Z shortcuts)."""
    window = make_window(qtbot, tmp_path, EXAMPLE)
    for _ in range(3):
        assert window.open_path(EXAMPLE)
        wait_until_idle(qtbot)
    settle_qt()
    texts = [a.text() for a in window.actions()]
    assert texts.count("&Undo") == 1 and texts.count("&Redo") == 1
    assert window.undo_action in window.actions() and window.redo_action in window.actions()
    close_quietly(window)
