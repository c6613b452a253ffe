"""Shared steps of the export commands: load a design and route its cables, or say why not."""

from __future__ import annotations

from cli import CliError
from model.design import Design
from model.fileio import DesignFileError, load_design


def load_and_route(path: str) -> tuple[Design, object]:
    """The design at ``path`` and its cable plant (model.cabling.CablePlant)."""
    try:
        design = load_design(path)
    except DesignFileError as exc:
        raise CliError(str(exc)) from None
    try:
        from model.cabling import CablePlant
    except ImportError:  # the geometry engine is a separate issue; say so instead of a traceback
        raise CliError("this build has no cable routing engine (model/cabling.py), "
                       "so cable lengths cannot be computed") from None
    return design, CablePlant(design)
