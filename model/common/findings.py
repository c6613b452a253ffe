"""Findings: the warnings and errors the engine and the analysis report about a design.

Each finding has a stable ``code`` (e.g. ``NO_TRAY_PATH``), a severity, one sentence for the user
and the ids of the objects concerned, so that the editor can select them when it is clicked.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


class Finding(Struct, frozen=True, kw_only=True):
    code: str
    severity: Severity
    message: str
    objects: tuple[str, ...] = ()


def sort_findings(findings: list[Finding]) -> list[Finding]:
    """Errors first, then by code, then by message: a stable order for lists and reports."""
    return sorted(findings, key=lambda f: (SEVERITY_ORDER[f.severity], f.code, f.message))
