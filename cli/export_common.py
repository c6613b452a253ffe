"""Shared step of the export commands: load a design and route its cables, or say why not."""

from __future__ import annotations

from cli import load_or_refuse
from model.cabling import CablePlant
from model.design import Design


def load_and_route(path: str) -> tuple[Design, CablePlant]:
    """The design at ``path`` and its cable plant."""
    design = load_or_refuse(path)
    return design, CablePlant(design)
