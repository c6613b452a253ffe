"""Power checks at maximum draw: feed and panel capacity under the redundancy the design states.

For every failure the design's redundancy must survive (:meth:`PowerPaths.scenarios`: none for
N, each feed for N+1, each whole side for 2N) the live feeds and panels carry the racks'
maximum draw (:func:`model.plant.power.rack_power`, devices plus plugs) shared over their live
PDUs; a feed or panel over its rating is an error naming it, the failure and the figures. A
rack that loses all its power in one of those failures (single-corded, or both PDUs on one
side) is a warning: the design asked for redundancy the rack does not have.
"""

from __future__ import annotations

from model.common.findings import Finding
from model.design.design import Design
from model.design.entities import PowerFeed, PowerPanel
from model.facility.power_paths import PowerPaths, capacity_w, power_paths


def power_findings(design: Design, rack_max_w: dict[str, float]) -> list[Finding]:
    """Errors and warnings of the design's power distribution at maximum draw (none when the
    design has no feeds: then there is nothing to check)."""
    paths = power_paths(design)
    if not paths.modelled:
        return []
    out = _unknown_panel_findings(design, paths) + _feed_kind_findings(design, paths)
    over: dict[str, tuple[str, float]] = {}  # element -> worst (failure, load W)
    unpowered: dict[str, str] = {}  # rack -> first failure that leaves it without power
    for label, failed in paths.scenarios():
        loads = paths.loads_w(rack_max_w, failed)
        dead = paths.dead_panels(failed) | set(failed)
        for oid, load in loads.items():
            if oid in dead:
                continue
            rating = capacity_w(paths.feeds.get(oid) or paths.panels[oid])
            if load > rating + 1e-6 and load > over.get(oid, ("", 0.0))[1]:
                over[oid] = (label, load)
        if failed:
            for rack in paths.unpowered_racks(failed):
                unpowered.setdefault(rack, label)
    for oid, (label, load) in sorted(over.items()):
        record: PowerFeed | PowerPanel = paths.feeds.get(oid) or paths.panels[oid]
        what = f"Power {record.kind}" if isinstance(record, PowerPanel) else "Feed"
        out.append(
            Finding(
                code="POWER_OVER_CAPACITY",
                severity="error",
                message=f"{what} {record.name or oid} carries {load / 1000:.1f} kW at maximum "
                f"draw {label}, over its {capacity_w(record) / 1000:.1f} kW rating "
                f"({paths.redundancy} design).",
                objects=(oid,),
            )
        )
    for rack, label in sorted(unpowered.items()):
        out.append(
            Finding(
                code="RACK_NOT_REDUNDANT",
                severity="warning",
                message=f"Rack {design.racks[rack].name} loses all power {label}: the design "
                f"asks for {paths.redundancy}.",
                objects=(rack,),
            )
        )
    return out


def _unknown_panel_findings(design: Design, paths: PowerPaths) -> list[Finding]:
    return [
        Finding(
            code="RACK_PDU_NO_PANEL",
            severity="error",
            message=f"Rack {design.racks[rack].name} has a PDU on power panel "
            f"{', '.join(ids)}, which the hall does not have.",
            objects=(rack,),
        )
        for rack, ids in sorted(paths.unknown_pdus.items())
    ]


def _feed_kind_findings(design: Design, paths: PowerPaths) -> list[Finding]:
    """Racks whose type takes one kind of power (a Kyber rack: 800 V DC, no shelves of its own
    to convert) hung on a panel of another current or voltage: nothing there can feed them."""
    out = []
    for rack_id, panel_ids in sorted(paths.rack_pdus.items()):
        rack = design.racks[rack_id]
        rtype = design.catalog.rack_types.get(rack.type)
        if rtype is None or not rtype.feed_current:
            continue
        wanted = _power_words(rtype.feed_current, rtype.feed_voltage_v)
        for panel_id in dict.fromkeys(panel_ids):
            panel = paths.panels[panel_id]
            voltage_ok = not rtype.feed_voltage_v or abs(panel.voltage_v - rtype.feed_voltage_v) < 1
            if panel.current == rtype.feed_current and voltage_ok:
                continue
            out.append(
                Finding(
                    code="RACK_FEED_MISMATCH",
                    severity="error",
                    message=f"Rack {rack.name} ({rtype.model}) takes {wanted}, but its PDU "
                    f"hangs on {panel.name or panel_id}, which carries "
                    f"{_power_words(panel.current, panel.voltage_v)}.",
                    objects=(rack_id, panel_id),
                )
            )
    return out


def _power_words(current: str, voltage_v: float) -> str:
    return f"{voltage_v:g} V {current.upper()}" if voltage_v else current.upper()


def power_feed_use(design: Design, rack_max_w: dict[str, float]) -> list[dict]:
    """Per feed and panel: rating, load at maximum draw in normal operation and its share of
    the rating, the worst load over the failures the redundancy must survive, and the load with
    one whole side (A or B) failed (what ``analyze --json`` reports and the analysis panel's
    facility table shows).

    ``one_side_failed_kw`` is asked of every hall, whatever redundancy it states: the most the
    element carries when either side fails and it survives (``None`` when no side failure
    leaves it live, e.g. every feed on side A: it goes down with its side)."""
    paths = power_paths(design)
    if not paths.modelled:
        return []
    normal = paths.loads_w(rack_max_w)
    worst = dict(normal)
    for _label, failed in paths.scenarios()[1:]:
        for oid, load in _live_loads(paths, rack_max_w, failed).items():
            worst[oid] = max(worst[oid], load)
    side_failed: dict[str, float] = {}
    for side in ("A", "B"):
        failed = tuple(f for f, feed in paths.feeds.items() if feed.side == side)
        if failed:
            for oid, load in _live_loads(paths, rack_max_w, failed).items():
                side_failed[oid] = max(side_failed.get(oid, 0.0), load)
    out = []
    records: list[PowerFeed | PowerPanel] = [*paths.feeds.values(), *paths.panels.values()]
    for record in records:
        oid, rating = record.id, capacity_w(record)
        one_side = side_failed.get(oid)
        out.append(
            {
                "id": oid,
                "kind": record.kind if isinstance(record, PowerPanel) else "feed",
                "side": _side(paths, record),
                "rating_kw": round(rating / 1000, 3),
                "max_draw_kw": round(normal[oid] / 1000, 3),
                "max_draw_pct": round(100 * normal[oid] / rating, 1),
                "worst_failure_kw": round(worst[oid] / 1000, 3),
                "utilisation_pct": round(100 * worst[oid] / rating, 1),
                "one_side_failed_kw": None if one_side is None else round(one_side / 1000, 3),
                "one_side_failed_pct": None
                if one_side is None
                else round(100 * one_side / rating, 1),
            }
        )
    return out


def _live_loads(
    paths: PowerPaths, rack_max_w: dict[str, float], failed: tuple[str, ...]
) -> dict[str, float]:
    """W on each feed and panel still live when ``failed`` fail (the dead ones left out)."""
    dead = paths.dead_panels(failed) | set(failed)
    return {o: w for o, w in paths.loads_w(rack_max_w, failed).items() if o not in dead}


def _side(paths: PowerPaths, record: PowerFeed | PowerPanel) -> str:
    """The side (A / B) a feed is on, or a panel's feed is on."""
    if isinstance(record, PowerPanel):
        feed = paths.feeds.get(record.feed)
        return feed.side if feed else ""
    return record.side
