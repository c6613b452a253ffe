"""The editor's collector tick empties the source lines PySide6's import hook leaves in
linecache (~31 MB at zoned XL), except while a worker runs code under collector_waits (it may be
reading linecache then: an import on the worker, a traceback)."""

from __future__ import annotations

import json
import linecache

from PySide6.QtCore import QCoreApplication

from gui.runtime.main_thread_gc import COLLECTOR_NAME, MainThreadCollector, collect_on_gui_thread
from model.runtime.gc_policy import collector_waits


def _collector(qapp) -> MainThreadCollector:
    collect_on_gui_thread()
    found = QCoreApplication.instance().findChild(MainThreadCollector, COLLECTOR_NAME)
    assert found is not None
    return found


def test_a_collector_tick_empties_linecache(qapp):
    collector = _collector(qapp)
    assert linecache.getlines(json.__file__)  # read and kept, as inspect.getsource keeps it
    assert json.__file__ in linecache.cache
    collector.collect_due()
    assert not linecache.cache
    assert linecache.getlines(json.__file__)  # read again from the file when asked


def test_the_tick_leaves_linecache_while_a_worker_runs_under_collector_waits(qapp):
    collector = _collector(qapp)
    linecache.getlines(json.__file__)
    with collector_waits():
        collector.collect_due()
        assert json.__file__ in linecache.cache
    collector.collect_due()
    assert json.__file__ not in linecache.cache
