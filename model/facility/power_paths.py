"""Power paths of a hall: which feeds and panels each rack hangs on, and what survives a failure.

Records: ``Hall.power`` (feeds, panels/busways, the redundancy asked for) and ``Rack.pdus``
(the panel each of the rack's PDUs or power shelves plugs into), both in
:mod:`model.design.entities`; schema 4 (optional and omitted when empty: v3 files load as they are).

Rules (choices, written down):

* A rack's load is shared equally by its live PDUs (a dual-corded rack draws half on each side;
  with one side gone, the other carries all of it).
* A PDU is live when its panel and the panel's feed are live. A rack loses power when none of
  its PDUs is live.
* A rack with no PDU recorded, or every PDU on a panel the hall lacks, is outside the model:
  failures of feeds never take it down (what-if then states the A/B assumption for it).
* Capacity: 3-phase AC sqrt(3) x V(line-line) x I per phase; 1-phase AC and DC V x I. Watts
  are taken equal to volt-amperes (unity power factor: an assumption; server PSUs run at
  ~0.95-0.99) and no continuous-load derating is applied: enter the rating you may load to.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from model.design.design import Design
from model.design.entities import PowerFeed, PowerPanel


def capacity_w(record: PowerFeed | PowerPanel) -> float:
    """Rated power (W) of a feed or panel from its current, phases, voltage and current."""
    if record.current == "ac" and record.phases == 3:
        return math.sqrt(3) * record.voltage_v * record.current_a
    return record.voltage_v * record.current_a


@dataclass(frozen=True)
class PowerPaths:
    """The design's power records indexed: panel -> feed, rack -> its PDUs' panels."""

    redundancy: str
    feeds: dict[str, PowerFeed]
    panels: dict[str, PowerPanel]
    rack_pdus: dict[str, tuple[str, ...]]  # rack id -> known panel ids, one per PDU
    unknown_pdus: dict[str, tuple[str, ...]]  # rack id -> panel ids the hall lacks

    @property
    def modelled(self) -> bool:
        """The design has a facility model (at least one feed)."""
        return bool(self.feeds)

    def dead_panels(self, failed: Iterable[str]) -> set[str]:
        """Panels without power when the feeds and panels ``failed`` (ids) fail."""
        failed = set(failed)
        return {p for p, panel in self.panels.items() if p in failed or panel.feed in failed}

    def unpowered_racks(self, failed: Iterable[str]) -> list[str]:
        """Racks of the model every PDU of which loses power when ``failed`` (ids) fail."""
        dead = self.dead_panels(failed)
        return sorted(r for r, pdus in self.rack_pdus.items() if all(p in dead for p in pdus))

    def loads_w(self, rack_max_w: dict[str, float], failed: Iterable[str] = ()) -> dict[str, float]:
        """W on every live panel and feed when ``failed`` fail: each rack's draw shared
        equally by its live PDUs (racks left without power draw nothing)."""
        dead = self.dead_panels(failed)
        load = dict.fromkeys([*self.feeds, *self.panels], 0.0)
        for rack, pdus in self.rack_pdus.items():
            live = [p for p in pdus if p not in dead]
            for panel in live:
                share = rack_max_w.get(rack, 0.0) / len(live)
                load[panel] += share
                load[self.panels[panel].feed] += share
        return load

    def scenarios(self) -> list[tuple[str, tuple[str, ...]]]:
        """(label, failed feed ids) the redundancy asks the hall to survive, normal first."""
        out: list[tuple[str, tuple[str, ...]]] = [("in normal operation", ())]
        if self.redundancy == "N+1":
            out += [(f"with feed {f} failed", (f,)) for f in self.feeds]
        elif self.redundancy == "2N":
            for side in ("A", "B"):
                ids = tuple(f for f, feed in self.feeds.items() if feed.side == side)
                if ids:
                    out.append((f"with side {side} failed", ids))
        return out


def power_paths(design: Design) -> PowerPaths:
    """The power records of ``design`` indexed (cheap: a pass over the racks)."""
    power = design.hall.power
    panels = {p.id: p for p in power.panels}
    rack_pdus, unknown = {}, {}
    for rack in design.racks.values() if power.feeds else ():  # no feeds: no model to index
        if not rack.pdus:
            continue
        known = tuple(p for p in rack.pdus if p in panels)
        if known:
            rack_pdus[rack.id] = known
        if len(known) < len(rack.pdus):
            unknown[rack.id] = tuple(p for p in rack.pdus if p not in panels)
    return PowerPaths(power.redundancy, {f.id: f for f in power.feeds}, panels, rack_pdus, unknown)
