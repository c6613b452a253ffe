"""Analysis of a design: counts, bandwidth, oversubscription, bisection, power, cost, warnings.

``analyze(design, plant) -> Report`` is the pure entry point; ``Analyzer`` keeps a report up to
date incrementally from the design's change events. See the modules for the definitions.
"""

from model.analysis.analyzer import Analyzer, analyze
from model.analysis.report import Report

__all__ = ["Analyzer", "Report", "analyze"]
