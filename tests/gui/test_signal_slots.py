"""Emitting our own signals must not corrupt reference counts.

PySide6 6.12.0 drops a reference to ``True`` on every ``emit()`` of a Python-defined signal; after
enough emits the interpreter aborts ("bool_dealloc: deallocating True or False"), usually in the
garbage collector at exit. pyproject.toml keeps PySide6 below 6.12 for that reason; this test
fails if a version with the bug is installed.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    fired = Signal(object)


def test_emit_keeps_reference_counts():
    emitter = _Emitter()
    emitter.fired.connect(lambda _value: None)
    before = sys.getrefcount(True)
    for _ in range(50):
        emitter.fired.emit(1)
    assert sys.getrefcount(True) > before - 25  # the bug drops one reference per emit
