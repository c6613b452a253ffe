"""Shared step of the export commands: load a design and route its cables, or say why not."""

from __future__ import annotations

from cli import CliError
from model.cabling import CablePlant
from model.design import Design
from model.fileio import DesignFileError, load_design


def load_and_route(path: str) -> tuple[Design, CablePlant]:
    """The design at ``path`` and its cable plant."""
    try:
        design = load_design(path)
    except DesignFileError as exc:
        raise CliError(str(exc)) from None
    return design, CablePlant(design)
