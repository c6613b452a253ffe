"""Figures as a person reads them: a unit scaled to the value and thousands separators, as the
analysis panel writes them ("12.80 Tb/s", "1.2 kW", "$41 k", "5.08 ms", "2.9 %").

Only formatting: every figure comes computed from the model (the Compare table from
``model.studies.compare``). Differences carry their sign ("+1.25 ms", "−$3 k").
"""

from __future__ import annotations

import math
from collections.abc import Callable

MINUS = "−"  # a real minus sign: a hyphen reads as a dash in a column of figures


def gbps_text(gbps: float) -> str:
    return f"{gbps / 1000:,.2f} Tb/s" if abs(gbps) >= 10_000 else f"{gbps:,.0f} Gb/s"


def watts_text(w: float) -> str:
    if abs(w) >= 1e6:
        return f"{w / 1e6:,.2f} MW"
    if abs(w) >= 1e3:
        return f"{w / 1e3:,.1f} kW"
    return f"{w:,.1f} W" if abs(w) < 100 else f"{w:,.0f} W"


def usd_text(usd: float) -> str:
    if abs(usd) >= 1e6:
        return f"${usd / 1e6:,.2f} M"
    if abs(usd) >= 1e4:
        return f"${usd / 1e3:,.1f} k"
    return f"${usd:,.0f}"


def seconds_text(s: float) -> str:
    """Collective times span µs to seconds: the unit that keeps 1-3 digits before the point."""
    if abs(s) >= 1:
        return f"{s:,.2f} s"
    if abs(s) >= 1e-3:
        return f"{s * 1e3:,.2f} ms"
    return f"{s * 1e6:,.1f} µs"


def share_text(fraction: float) -> str:
    return f"{fraction * 100:,.1f} %"


def count_text(n: float) -> str:
    return f"{n:,.0f}" if float(n).is_integer() else f"{n:,.2f}"


def per_day_text(n: float) -> str:
    return f"{n:,.2f} / day"


def signed(value: float, text: Callable[[float], str]) -> str:
    """``value`` as ``text`` writes it, with "+" or "−" in front (a difference)."""
    if value == 0:
        return "0"
    body = text(abs(value))
    return ("+" if value > 0 else MINUS) + body


def figure_text(value, text: Callable[[float], str]) -> str:
    """A figure, a word (a method's name) or "—" (not computed, or not finite)."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if not math.isfinite(value):
        return "—"
    return text(value)
