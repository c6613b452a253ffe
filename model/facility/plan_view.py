"""What the plan's power and cooling layer and the inspector show: every figure computed here.

:func:`facility_view` gathers, from the design and the racks' maximum draw (the analysis'
``rack_power_w``), what the editor draws: each busway or panel along its points and each CDU
or CRAH at its point, with its worst load at maximum draw over the failures the redundancy
must survive (:func:`model.facility.power_checks.power_feed_use`,
:func:`model.facility.cooling.cooling_use`) and the band it falls in; the racks each unit
serves; and the floor load of every tile under a rack against the hall's rating. The GUI maps
bands and loads to colours and draws; it computes none of the figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from model.design.design import Design
from model.design.entities import Cdu, Crah
from model.facility.cooling import cooling_paths, cooling_use, rack_liquid_w
from model.facility.floor_load import footprint_area_m2, rack_weights_kg, tile_loads_kg_m2
from model.facility.power_checks import power_feed_use
from model.facility.power_paths import power_paths

HIGH_PCT = 80.0  # the continuous-load margin electrical and cooling plant is sized to


def load_band(pct: float) -> str:
    """``ok`` below 80 %, ``high`` up to 100 %, ``over`` beyond (the colour bands)."""
    return "over" if pct > 100.0 + 1e-9 else "high" if pct >= HIGH_PCT else "ok"


@dataclass(frozen=True)
class PlanUnit:
    """A busway, panel, CDU or CRAH as the plan draws it."""

    id: str
    kind: str  # "busway", "panel", "cdu", "crah"
    name: str
    points: tuple[tuple[float, float], ...]
    utilisation_pct: float  # worst load at maximum draw over the failures to survive
    band: str
    racks: tuple[str, ...]  # the racks it serves
    side: str = ""  # a busway's or panel's feed side, A or B


@dataclass(frozen=True)
class FacilityView:
    units: list[PlanUnit] = field(default_factory=list)
    tile_m: float = 0.6
    tiles_kg_m2: dict[tuple[int, int], float] = field(default_factory=dict)
    rating_kg_m2: float | None = None

    def tile_band(self, kg_m2: float) -> str:
        """A tile's band against the rating; ``unrated`` when the hall states none (a load
        with nothing to compare it with is neither fine nor over)."""
        return load_band(100 * kg_m2 / self.rating_kg_m2) if self.rating_kg_m2 else "unrated"


def facility_view(design: Design, rack_max_w: dict[str, float]) -> FacilityView:
    """The layer's objects and figures (no units and no tiles: nothing to draw)."""
    units: list[PlanUnit] = []
    paths = power_paths(design)
    use = {u["id"]: u for u in power_feed_use(design, rack_max_w)}
    served: dict[str, list[str]] = {}
    for rack, panel_ids in paths.rack_pdus.items():
        for pid in dict.fromkeys(panel_ids):
            served.setdefault(pid, []).append(rack)
    for panel in design.hall.power.panels:
        pct = use[panel.id]["utilisation_pct"] if panel.id in use else 0.0
        units.append(
            PlanUnit(
                panel.id,
                panel.kind,
                panel.name or panel.id,
                tuple(panel.points),
                pct,
                load_band(pct),
                tuple(sorted(served.get(panel.id, ()))),
                paths.feeds[panel.feed].side if panel.feed in paths.feeds else "",
            )
        )
    cool = cooling_paths(design)
    cool_use = {u["id"]: u for u in cooling_use(design, rack_max_w).get("units", [])}
    cooled: dict[str, list[str]] = {}
    for table in (cool.rack_cdus, cool.rack_crahs):
        for rack, ids in table.items():
            for uid in ids:
                cooled.setdefault(uid, []).append(rack)
    cooling_units: list[tuple[Cdu | Crah, str]] = [
        *((c, "cdu") for c in design.hall.cooling.cdus),
        *((c, "crah") for c in design.hall.cooling.crahs),
    ]
    for unit, kind in cooling_units:
        pct = cool_use[unit.id]["utilisation_pct"] if unit.id in cool_use else 0.0
        units.append(
            PlanUnit(
                unit.id,
                kind,
                unit.name or unit.id,
                (unit.point,),
                pct,
                load_band(pct),
                tuple(sorted(cooled.get(unit.id, ()))),
            )
        )
    return FacilityView(
        units,
        design.hall.tile_m,
        tile_loads_kg_m2(design),
        design.hall.floor_rating_kg_m2,
    )


def rack_facility_rows(design: Design, rack_id: str, rack_max_w: float) -> list[tuple[str, str]]:
    """The inspector's (label, text) rows for one rack: its feeds, its coolant and its floor
    load; none when the hall has no facility (no feed, no cooling unit, no floor rating)."""
    hall = design.hall
    if not (hall.power.feeds or hall.cooling.cdus or hall.cooling.crahs or hall.floor_rating_kg_m2):
        return []
    rack = design.racks[rack_id]
    panels = {p.id: p for p in hall.power.panels}
    feeds = {f.id: f for f in hall.power.feeds}
    cords = []
    for n, pid in enumerate(rack.pdus, 1):
        panel = panels.get(pid)
        feed = feeds.get(panel.feed) if panel else None
        name = (panel.name or pid) if panel else pid
        cords.append(
            f"PDU{n}: {name}"
            + (f" (feed {feed.name or feed.id}, side {feed.side})" if feed else "")
        )
    rows = [("Feeds", "; ".join(cords) if cords else "no recorded power path (assumed A/B-fed)")]
    liquid_w = rack_liquid_w(design, [rack_id])[rack_id]
    air_w = max(rack_max_w - liquid_w, 0.0)
    units = ", ".join(rack.cooling) or "none recorded"
    rows.append(
        (
            "Coolant",
            f"{liquid_w / 1000:.1f} kW to liquid, {air_w / 1000:.1f} kW to air at max draw; "
            f"served by {units}",
        )
    )
    weight = rack_weights_kg(design, [rack_id])[rack_id]
    load = weight / footprint_area_m2(rack)
    rating = hall.floor_rating_kg_m2
    rows.append(
        (
            "Floor",
            f"{weight:,.0f} kg, {load:,.0f} kg/m2"
            + (f" of the floor's {rating:,.0f} kg/m2" if rating else " (no floor rating stated)")
            + (" - over the rating" if rating and load > rating + 1e-9 else ""),
        )
    )
    return rows


def facility_summary_lines(power_feeds: list[dict], cooling: dict, floor: dict) -> list[str]:
    """The terminal report's lines on the facility, from ``analyze --json``'s blocks (none
    when the design has no facility)."""
    lines = []
    if power_feeds:
        worst = max(power_feeds, key=lambda u: u["utilisation_pct"])
        feeds = sum(1 for u in power_feeds if u["kind"] == "feed")
        lines.append(
            f"Power paths: {feeds:,} feeds, {len(power_feeds) - feeds:,} panels/busways; worst "
            f"{worst['id']} {worst['utilisation_pct']:.1f} % at max draw over the failures to "
            "survive"
        )
    if cooling:
        units = cooling["units"]
        hottest = max(units, key=lambda u: u["utilisation_pct"]) if units else None
        lines.append(
            f"Cooling ({cooling['redundancy']}): {cooling['liquid_kw']:,.1f} kW to liquid, "
            f"{cooling['air_kw']:,.1f} kW to air at max draw; {len(units):,} units"
            + (f", worst {hottest['id']} {hottest['utilisation_pct']:.1f} %" if hottest else "")
        )
    if floor:
        lines.append(
            f"Floor: heaviest rack {floor['max_rack_kg']:,.0f} kg = "
            f"{floor['max_rack_load_kg_m2']:,.0f} kg/m2 of {floor['rating_kg_m2']:,.0f}; "
            f"{len(floor['racks_over_rating']):,} racks over the rating"
        )
    return lines
