"""The retirer takes apart, on idle turns, what only it refers to (gui/runtime/retirer.py)."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import pytest
from PySide6.QtWidgets import QApplication

from gui.runtime import retirer as retirer_module
from gui.runtime.retirer import SLICE_S, Retirer


class Thing:
    """A small object that can be watched being freed."""


@dataclass
class Holder:
    by_id: dict = field(default_factory=dict)
    items: list = field(default_factory=list)


def held(count: int) -> tuple[Holder, list]:
    holder = Holder({i: Thing() for i in range(count)}, [Thing() for _ in range(count)])
    watch = [weakref.ref(t) for t in [*holder.by_id.values(), *holder.items]]
    return holder, watch


def alive(watch) -> int:
    return sum(ref() is not None for ref in watch)


class StepClock:
    """The retirer's clock for these tests: each look moves it a tenth of a slice, so every
    idle turn does the same ~9 looks' work (up to 2,000 elements each) whatever the machine's
    load. Why: with the real clock a turn descheduled for its 3 ms freed nothing on a loaded
    machine (200,000 of 200,000 alive after the first turn: the test failed, the code was
    right). A retirer that ignores its clock or never takes a slot apart still fails."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += SLICE_S / 10
        return self.now


@pytest.fixture(autouse=True)
def step_clock(monkeypatch):
    monkeypatch.setattr(retirer_module, "time", StepClock())


@pytest.mark.parametrize("container", [dict, list])
def test_what_only_the_retirer_holds_is_freed_a_slice_per_idle_turn(qtbot, container):
    """A dataclass in a tuple (a layer's (revision, layout)), its big dict or list emptied a
    slice at a time."""
    retirer = Retirer()
    things = [Thing() for _ in range(200_000)]
    watch = [weakref.ref(t) for t in things]
    holder = Holder(by_id=dict(enumerate(things))) if container is dict else Holder(items=things)
    del things
    retirer.retire((holder, None))
    del holder
    assert alive(watch) == len(watch)  # nothing freed while the caller goes on
    QApplication.processEvents()  # one idle turn: one slice
    assert 0 < alive(watch) < len(watch)
    qtbot.waitUntil(lambda: not retirer.busy)
    assert alive(watch) == 0


def test_what_someone_else_still_holds_is_left_whole(qtbot):
    retirer = Retirer()
    holder, watch = held(10)
    shared = holder.by_id  # the caller still uses the dict: the rest of the holder is let go
    retirer.retire(holder)
    del holder
    qtbot.waitUntil(lambda: not retirer.busy)
    assert len(shared) == 10 and all(isinstance(t, Thing) for t in shared.values())
    assert alive(watch) == 10  # the dict's ten, the list's ten freed


class Columns:
    """An object with slots holding big columns (as a layout's channel table does)."""

    __slots__ = ("rows", "names")

    def __init__(self, rows: list, names: dict) -> None:
        self.rows, self.names = rows, names


def test_an_object_with_slots_is_taken_apart_too(qtbot):
    retirer = Retirer()
    things = [Thing() for _ in range(200_000)]
    watch = [weakref.ref(t) for t in things]
    columns = Columns(things, {})
    del things
    retirer.retire(columns)
    del columns
    QApplication.processEvents()  # one idle turn: its list emptied a slice at a time
    assert 0 < alive(watch) < len(watch)
    qtbot.waitUntil(lambda: not retirer.busy)
    assert alive(watch) == 0
