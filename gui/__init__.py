"""The Qt editor. Importing this package applies the PySide6 workaround below once."""

from __future__ import annotations

import ctypes
import sys

# PySide6 6.12 returns None from every void C++ call without taking a reference (correct only on
# Python >= 3.12, where None is immortal). On 3.11 each call drops one reference to None, and
# after a few thousand calls (one repaint of a big hall) the interpreter aborts with
# "deallocating None". Giving None a practically endless reference count makes it immortal as on
# 3.12. Remove when the project requires Python >= 3.12 or the binding is fixed.
if sys.version_info < (3, 12):
    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 40
