"""Analysis of a design: counts, bandwidth, oversubscription, bisection, power, cost, warnings.

``analyze(design, plant) -> Report`` is the pure entry point; ``Analyzer`` keeps a report up to
date incrementally from the design's change events. See the modules for the definitions.

The names are imported on first use (PEP 562): a caller of one stage (the canvas's tray fill
in ``render``) then loads that module, not the whole analysis (~40 modules).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from model.analysis.analyzer import Analyzer, analysis_findings, analyze
    from model.analysis.report import Report

__all__ = ["Analyzer", "Report", "analysis_findings", "analyze"]


def __getattr__(name: str):
    if name in ("Analyzer", "analysis_findings", "analyze"):
        from model.analysis import analyzer

        return getattr(analyzer, name)
    if name == "Report":
        from model.analysis.report import Report

        return Report
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
