"""Helpers shared by the export tests."""

from __future__ import annotations

import math

from model.cabling import CablePlant
from model.design import Design


def plant_of(design: Design) -> CablePlant:
    """The geometry engine's cable plant of ``design``."""
    return CablePlant(design)


def assert_close(a: float, b: float) -> None:
    assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6), (a, b)
