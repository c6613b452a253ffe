"""Retirer: lets go of a large object graph on the GUI thread a few milliseconds at a time.

Dropping the last reference to the previous structured layout of a zoned XL hall (393k
channels, 786k cords, 393k legs ...) frees millions of objects in one go: ~0.35 s of the GUI
thread after every analysis, wherever that reference happened to drop. An object handed to
:meth:`Retirer.retire` is taken apart on idle turns of the event loop instead: its containers
are emptied a slice of elements at a time, so each slice frees a few thousand small objects
and the event loop turns in between.

Still needed while the layout holds Python objects per channel (its channel table's lists and
dicts, the legs, the trunks; the channel elements and cords are untracked msgspec Structs, so
freezing or collecting changes nothing here: freeing is reference counting). Measured on a
zoned L hall (49,152 links, 12,480 trunks), GUI-thread CPU: dropping the previous layout at
once 30-36 ms, through the retirer 3.3-3.6 ms at most per idle turn (XL: 8x the channels). Once
the layout is held as numpy columns the drop is a handful of arrays and this can go.

Only what the retirer alone refers to is taken apart (its reference count says so): a
container still shared (with the next layout, a panel, a worker's cache) is merely let go and
is freed by whoever drops it last. Emptying an object nobody else can reach changes nothing
anyone can see. GUI thread only.
"""

from __future__ import annotations

import dataclasses
import sys
import time

from PySide6.QtCore import QObject, QTimer

SLICE_S = 0.003  # the work of one turn of the event loop
CHUNK = 2000  # elements freed between two looks at the clock


class Retirer(QObject):
    """Takes apart, on idle turns, the objects handed to :meth:`retire` (see the module doc)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stack: list = []
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._slice)

    def retire(self, *objects) -> None:
        """Let go of ``objects``: the caller keeps no reference it still needs to them."""
        self._stack.extend(o for o in objects if o is not None)
        if self._stack and not self._timer.isActive():
            self._timer.start()

    @property
    def busy(self) -> bool:
        """Something is still being taken apart."""
        return bool(self._stack)

    def _slice(self) -> None:
        stack = self._stack
        end = time.perf_counter() + SLICE_S
        while stack and time.perf_counter() < end:
            item = stack.pop()
            # Two references when the retirer holds the only one: ``item`` and the argument.
            if sys.getrefcount(item) == 2:
                _take_apart(item, stack)
        if not stack:
            self._timer.stop()


def _take_apart(item, stack: list) -> None:
    """Free up to CHUNK elements of ``item``, putting what is left of it back on ``stack``; a
    tuple's elements and a dataclass instance's fields go on the stack themselves (a layout's
    containers, each taken apart). Anything else is freed as it is."""
    if isinstance(item, dict):
        for _ in range(min(CHUNK, len(item))):
            item.popitem()
        if item:
            stack.append(item)
    elif isinstance(item, list):
        del item[-CHUNK:]
        if item:
            stack.append(item)
    elif isinstance(item, tuple):  # its elements are the retirer's alone once it goes
        stack.extend(item)
    elif (
        dataclasses.is_dataclass(item) and not isinstance(item, type) and hasattr(item, "__dict__")
    ):
        attributes = vars(item)
        stack.extend(attributes.values())
        attributes.clear()
    elif not isinstance(item, type) and not hasattr(item, "__dict__"):
        # An object with slots (a layout's channel and cord tables: columns of 393k at zoned
        # XL, ~85 ms to free at once): its attributes are let go one by one onto the stack.
        # A frozen one refuses (a channel element, a Struct: small) and is freed as it is.
        for name in _slot_names(type(item)):
            value = getattr(item, name, _MISSING)
            if value is _MISSING:
                continue
            try:
                delattr(item, name)
            except (AttributeError, TypeError, dataclasses.FrozenInstanceError):
                return
            stack.append(value)


_MISSING = object()


def _slot_names(cls: type) -> list[str]:
    names = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
    return [n for n in names if n not in ("__dict__", "__weakref__")]
