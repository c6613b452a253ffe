"""ChangedRows (model/engine/changed_rows.py): a refresh's changed links held as plant rows read
as the set of their ids, and names none of them until one is read."""

from __future__ import annotations

import random

import numpy as np

from model.engine.changed_rows import ChangedRows
from model.engine.retray_copy import retray
from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter
from tests.benchmarks.synthetic import synthetic_hall
from tests.model.tray_drags import corner_moved


class _CountedIds(list):
    """A plant's id list that counts the ids read from it."""

    reads = 0

    def __getitem__(self, i):
        type(self).reads += 1
        return super().__getitem__(i)


def test_rows_read_as_the_set_of_their_ids():
    changed = ChangedRows(np.array([2, 0], dtype=np.int64), ["a", "b", "c"])
    assert len(changed) == 2
    assert "a" in changed and "c" in changed and "b" not in changed
    assert changed == {"a", "c"} and {"c", "a"} == changed
    assert sorted(changed) == ["a", "c"]
    union = {"x"}
    union |= changed  # what the feed's listeners and refresh_in_steps do
    assert union == {"a", "c", "x"} and isinstance(union, set)
    assert frozenset({"y"}) | changed == {"a", "c", "y"}
    assert changed - {"a"} == {"c"}
    assert not ChangedRows(np.zeros(0, dtype=np.int64), ["a"])


def test_no_id_is_named_until_one_is_read():
    _CountedIds.reads = 0
    changed = ChangedRows(np.array([1, 3, 0], dtype=np.int64), _CountedIds(["a", "b", "c", "d"]))
    assert len(changed) == 3 and changed  # the links table asks only how many
    assert _CountedIds.reads == 0
    assert "d" in changed
    assert _CountedIds.reads == 3
    assert changed == {"a", "b", "d"}
    assert _CountedIds.reads == 3  # named once


def test_a_worker_reroute_reports_its_links_as_rows_equal_to_a_refresh_here():
    design = synthetic_hall(512)
    live, reference = RoutedLinks(design), RoutedLinks(design)
    corner_moved(design, live, random.Random(3))
    _, snap = Snapshotter(design, live).take(pending_trays=True)
    _, changed = retray(snap)
    assert isinstance(changed, ChangedRows)
    expected = reference.refresh()  # the same edit applied on this thread: a set of ids
    assert isinstance(expected, set) and expected  # a tray in use moved
    assert len(changed) == len(expected)
    assert changed == expected
    np.testing.assert_array_equal(
        np.sort(changed.rows), np.sort([reference.index[i] for i in expected])
    )
