"""The natural sort key of names (``A2`` before ``A10``), shared by the BOM and the schedule.

In a module of its own so the schedule command need not import the BOM (and the analysis it
brings) just to sort rack and port names.
"""

from __future__ import annotations

import re
from functools import lru_cache

_DIGITS = re.compile(r"(\d+)")


@lru_cache(maxsize=1 << 16)
def natural_key(text: str) -> tuple:
    """Sort key that orders ``A2`` before ``A10`` and ``p9`` before ``p10``."""
    return tuple(int(part) if part.isdigit() else part.lower() for part in _DIGITS.split(text))
