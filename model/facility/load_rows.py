"""The analysis panel's facility table: one row per feed, panel, CDU and CRAH, from the report.

Each row is built from ``analyze --json``'s "power_feeds" and "cooling" blocks (the report's
:attr:`~model.analysis.report.Report.power_feeds` and ``cooling``), so the table and the JSON
can never disagree: load and capacity at maximum draw, the share of the rating in normal
operation, and the load and share with one side failed (a feed or panel: either whole side A
or B) or one other unit failed (a CDU or CRAH). The GUI sorts and formats; it computes none of
these figures.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.facility.plan_view import load_band

KIND_WORDS = {
    "feed": "feed",
    "busway": "busway",
    "panel": "panel",
    "cdu-in-row": "CDU (in-row)",
    "cdu-facility": "CDU (facility)",
    "crah": "CRAH",
}


@dataclass(frozen=True)
class LoadRow:
    """One feed, panel or cooling unit at maximum draw (kW; % of its rating or capacity)."""

    id: str
    kind: str  # words, e.g. "feed", "CDU (in-row)"
    side: str  # "A" / "B" for power, "" for cooling
    capacity_kw: float
    max_draw_kw: float
    max_draw_pct: float
    failure: str  # what the failure columns assume: "one side failed" / "one unit failed"
    failed_kw: float | None  # None: the element goes down with its side
    failed_pct: float | None
    band: str  # load_band of the worse of the two shares

    @property
    def worst_pct(self) -> float:
        return max(self.max_draw_pct, self.failed_pct or 0.0)


def load_rows(power_feeds: list[dict], cooling: dict) -> list[LoadRow]:
    """The rows, feeds and panels first then cooling units, in the report's order."""
    rows = []
    for u in power_feeds:
        pct = u["one_side_failed_pct"]
        rows.append(
            LoadRow(
                id=u["id"],
                kind=KIND_WORDS.get(u["kind"], u["kind"]),
                side=u.get("side", ""),
                capacity_kw=u["rating_kw"],
                max_draw_kw=u["max_draw_kw"],
                max_draw_pct=u["max_draw_pct"],
                failure="one side failed",
                failed_kw=u["one_side_failed_kw"],
                failed_pct=pct,
                band=load_band(max(u["max_draw_pct"], pct or 0.0)),
            )
        )
    for u in cooling.get("units", []) if cooling else []:
        rows.append(
            LoadRow(
                id=u["id"],
                kind=KIND_WORDS.get(u["kind"], u["kind"]),
                side="",
                capacity_kw=u["capacity_kw"],
                max_draw_kw=u["max_draw_kw"],
                max_draw_pct=u["max_draw_pct"],
                failure="one unit failed",
                failed_kw=u["one_failed_kw"],
                failed_pct=u["one_failed_pct"],
                band=load_band(max(u["max_draw_pct"], u["one_failed_pct"])),
            )
        )
    return rows
