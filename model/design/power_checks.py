"""What the edit API and the loader refuse in a hall's power and cooling records (entities.Power, Cooling).

The ranges of every figure are the records' own (msgspec ``Meta``); this adds the references:
feed, panel, CDU and CRAH ids are unique among themselves and the hall's obstacles, and every
panel names a feed the hall has. A rack's PDU naming a panel the hall lacks is not refused here (a panel
removed before its racks are re-fed is a normal step of an edit): the power checks of
:mod:`model.facility` report it as an error naming the rack.
"""

from __future__ import annotations

from model.design.entities import Hall


def power_problem(hall: Hall) -> str | None:
    """Why ``hall.power`` / ``hall.cooling`` cannot be the design's, or None."""
    power, cooling = hall.power, hall.cooling
    seen = {o.id for o in hall.obstacles}
    ids = [*(f.id for f in power.feeds), *(p.id for p in power.panels)]
    for oid in [*ids, *(c.id for c in cooling.cdus), *(c.id for c in cooling.crahs)]:
        if oid in seen:
            return f"power or cooling id {oid!r} is used twice in the hall"
        seen.add(oid)
    feeds = {f.id for f in power.feeds}
    for panel in power.panels:
        if panel.feed not in feeds:
            return f"power panel {panel.name or panel.id!r} is fed from {panel.feed!r}, which is no feed of the hall"
    return None
