"""Colours, pens and fonts shared by the canvas, the panels and the headless render."""

from __future__ import annotations

from PySide6.QtGui import QColor

# Cable jacket conventions: copper orange, multimode aqua, single-mode yellow, AOC violet.
MEDIUM_KIND_COLORS = {
    "dac": "#f08c00",
    "acc": "#f08c00",
    "aec": "#d9480f",
    "utp": "#c77d2e",
    "backplane": "#a0522d",
    "mmf": "#00b5b8",
    "smf": "#e6c700",
    "aoc": "#8e6cf0",
}
MEDIUM_KIND_LABELS = {
    "copper": ("Copper (DAC/ACC/AEC)", "#f08c00"),
    "mmf": ("Multimode fibre", "#00b5b8"),
    "smf": ("Single-mode fibre", "#e6c700"),
    "aoc": ("Active optical cable", "#8e6cf0"),
    "none": ("Not routed / no medium", "#8a8f98"),
}
NO_MEDIUM_COLOR = "#8a8f98"
TRUNK_COLOR = "#d6336c"  # MPO trunks (dashed): apart from every medium colour and the selection
TRUNK_LABEL = "MPO trunk (structured)"
DROP_TARGET = "#2f9e44"  # the rack a dragged device would go into
ROW_LABEL = "#364fc7"  # "Row A" beside the rows when zoomed out

ROLE_COLORS = {
    "gpu-server": "#7fb3e6",
    "leaf": "#8fd19e",
    "spine": "#5fb878",
    "core": "#3c8f55",
    "nvlink-switch": "#b9a3e3",
    "storage": "#e8c47a",
    "management": "#c8c8c8",
    "patch-panel": "#d8d8d8",
    "switch": "#8fd19e",
    "empty": "#eceff3",
}

HALL_FILL = "#fbfbf8"
HALL_EDGE = "#3d4350"
OBSTACLE_FILL = "#c9ccd3"
TILE_LINE = "#e3e5ea"
TRAY_FILL = "#d5d9e0"
TRAY_EDGE = "#98a0ad"
RACK_EDGE = "#2b303a"
FRONT_MARK = "#1d3557"
SELECTION = "#1c7ed6"
COLLISION = "#e03131"
BACKGROUND = "#e9ebef"


def color(name: str) -> QColor:
    return QColor(name)


def medium_color(kind: str | None) -> QColor:
    return QColor(MEDIUM_KIND_COLORS.get(kind or "", NO_MEDIUM_COLOR))


def role_color(role: str) -> QColor:
    return QColor(ROLE_COLORS.get(role, "#d0d4da"))


POWER_KEY = (  # the legend of "Colour racks by power" (fraction of the budget, at max power)
    ("No devices", ROLE_COLORS["empty"]),
    ("Under 70 % of budget", "#8fd19e"),
    ("70–100 % of budget", "#ffd43b"),
    ("Over budget", "#ff6b6b"),
)


def power_color(fraction: float) -> QColor:
    """Green below 70 % of the budget, amber to 100 %, red above."""
    if fraction <= 0:
        return QColor(ROLE_COLORS["empty"])
    if fraction < 0.7:
        return QColor("#8fd19e")
    if fraction <= 1.0:
        return QColor("#ffd43b")
    return QColor("#ff6b6b")


def rack_power_text(typical_w: float, max_w: float, budget_w: float) -> str:
    """The model's rack power (typical, max) against the budget: "31.9 typical / 40.9 max of 45 kW".

    Budgets are checked at maximum draw (RACK_OVER_POWER), so "over budget" follows the max.
    """
    text = f"{typical_w / 1000:.1f} typical / {max_w / 1000:.1f} max of {budget_w / 1000:g} kW"
    return text + (" — over budget" if max_w > budget_w else "")
