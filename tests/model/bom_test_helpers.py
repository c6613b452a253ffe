"""Helpers shared by the export tests."""

from __future__ import annotations

import math

from model.design.design import Design
from model.engine.routed_links import RoutedLinks


def plant_of(design: Design) -> RoutedLinks:
    """The geometry engine's cable plant of ``design``."""
    return RoutedLinks(design)


def assert_close(a: float, b: float) -> None:
    assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6), (a, b)
