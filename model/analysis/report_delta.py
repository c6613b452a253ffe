"""What changed between two analysis reports, in the words of the analysis panel's delta line.

A pure function of two reports (model.analysis.report.Report): the editor shows it after each
edit ("+6 AOC, −6 DAC, +42.0 m of cable, longest link 18.0 → 21.5 m, +84 W"), so a rack move,
a tray reshaped or a pin says what it cost in the terms a person checks.
"""

from __future__ import annotations

from model.analysis.report import Report

# How the panel names each link medium kind (model.engine.media_choice's kinds).
KIND_SHORT = {
    "dac": "DAC",
    "acc": "LACC",
    "aec": "AEC",
    "aoc": "AOC",
    "mmf": "MMF optic",
    "smf": "SMF optic",
    "utp": "UTP",
    "backplane": "backplane",
}


def describe_delta(before: Report, after: Report) -> str:
    """What changed between two reports, in the terms a person checks: "+6 AOC, −6 DAC,
    +42.0 m of cable, longest link 18.0 → 21.5 m, +84 W"."""
    parts = []
    kinds = sorted(set(before.links_by_kind) | set(after.links_by_kind))
    for kind in kinds:
        d = after.links_by_kind.get(kind, 0) - before.links_by_kind.get(kind, 0)
        if d:
            parts.append((d, f"{_signed(d)} {KIND_SHORT.get(kind, kind)}"))
    parts.sort(key=lambda p: -p[0])
    words = [text for _, text in parts]
    unrouted = after.links_without_medium - before.links_without_medium
    if unrouted:
        words.append(f"{_signed(unrouted)} without medium")
    # Physical counts: modules and cables (each assembly once), not link ends.
    cables = _plant_count(after, "cables") - _plant_count(before, "cables")
    for label, d in (
        ("links", after.links_total - before.links_total),
        ("GPUs", after.gpus - before.gpus),
        ("modules", after.transceivers - before.transceivers),
        ("cables", cables),
    ):
        if d:
            words.append(f"{_signed(d)} {label}")
    # Metres of cable (ordered lengths) and the longest link: what a move costs in the trays
    metres = after.cable_length_total_m - before.cable_length_total_m
    if abs(metres) >= 0.05:
        words.append(f"{_signed_float(metres)} m of cable")
    if abs(after.cable_length_max_m - before.cable_length_max_m) >= 0.05:
        words.append(
            f"longest link {before.cable_length_max_m:,.1f} → {after.cable_length_max_m:,.1f} m"
        )
    watts = after.power_w.get("total", 0.0) - before.power_w.get("total", 0.0)
    if abs(watts) >= 0.5:
        words.append(_signed_watts(watts))
    cost = after.cost_usd.get("total", 0.0) - before.cost_usd.get("total", 0.0)
    if abs(cost) >= 0.5:
        words.append(f"{'+' if cost > 0 else '−'}${abs(cost):,.0f}")
    warn = len(after.warnings) - len(before.warnings)
    if warn:
        words.append(f"{_signed(warn)} warning{'s' if abs(warn) != 1 else ''}")
    bisection = after.bisection_gbps - before.bisection_gbps
    if abs(bisection) >= 0.5:
        words.append(f"bisection {_signed_float(bisection / 1000)} Tb/s")
    return ", ".join(words) if words else "no change in counts, power or cost"


def _plant_count(report: Report, section: str) -> int:
    return int(report.plant[section]["total"]) if report.plant else 0


def _signed(n: int) -> str:
    return f"+{n:,}" if n > 0 else f"−{-n:,}"


def _signed_float(x: float) -> str:
    return f"+{x:,.1f}" if x > 0 else f"−{-x:,.1f}"


def _signed_watts(w: float) -> str:
    sign = "+" if w > 0 else "−"
    w = abs(w)
    return f"{sign}{w / 1000:,.1f} kW" if w >= 10_000 else f"{sign}{w:,.0f} W"
