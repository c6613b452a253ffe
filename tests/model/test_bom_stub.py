"""A stand-in for model.cabling.CablePlant (same attributes) and the ``plant_of`` helper.

``plant_of`` returns the real engine's plant once model/cabling.py exists, so the export tests
run against the real routing as soon as it lands; the stub keeps them runnable before that.
"""

from __future__ import annotations

import math

import numpy as np

from model.design import Design
from model.entities import port_height_m
from model.findings import Finding

SAME_RACK, NO_TRAY_PATH, NO_MEDIUM, PINNED_OUT_OF_REACH = 1, 2, 4, 8


class StubRoute:
    def __init__(self, tray_ids, total_m):
        self.tray_ids = tray_ids
        self.total_m = total_m
        self.pieces = ()


class StubPlant:
    """Manhattan distance between rack centres + rises to the tray + slack; cheapest medium."""

    def __init__(self, design: Design) -> None:
        self.design = design
        self.refresh()

    def refresh(self) -> set[str]:
        d = self.design
        self.link_ids = list(d.links)
        self.index = {lid: i for i, lid in enumerate(self.link_ids)}
        self.media = list(d.catalog.media_types.values())
        media_pos = {m.id: i for i, m in enumerate(self.media)}
        n = len(self.link_ids)
        self.routed_m = np.zeros(n)
        self.length_m = np.zeros(n)
        self.ordered_m = np.full(n, np.nan)
        self.medium_index = np.full(n, -1, dtype=np.int32)
        self.speed_gbps = np.zeros(n)
        self.status = np.zeros(n, dtype=np.uint8)
        self._routes = {}
        tray = d.hall.tray_elevation_m
        for i, lid in enumerate(self.link_ids):
            link = d.links[lid]
            ends = []
            for end in (link.a, link.b):
                dev = d.devices[end.device]
                rack = d.racks[dev.rack]
                info = d.ports(dev)[end.port]
                h = port_height_m(rack, dev.u, d.device_type(dev).u_height)
                ends.append((rack, h, info))
            (ra, ha, pa), (rb, hb, pb) = ends
            if ra.id == rb.id:
                routed = abs(ha - hb)
                self.status[i] |= SAME_RACK
                self._routes[lid] = StubRoute((), routed)
            else:
                routed = abs(ra.x - rb.x) + abs(ra.y - rb.y) + (tray - ha) + (tray - hb)
                self._routes[lid] = StubRoute(tuple(sorted(d.trays))[:1], routed)
            length = routed * (1 + d.settings.slack_pct / 100) + 2 * d.settings.slack_per_end_m
            length = link.as_built_m or link.length_override_m or length
            self.routed_m[i] = routed
            self.length_m[i] = length
            speed = min(pa.speed_gbps, pb.speed_gbps)
            self.speed_gbps[i] = speed
            if link.medium != "auto":
                medium = d.catalog.media_types[link.medium]
                ordered = medium.ordered_length(length)
                self.medium_index[i] = media_pos[medium.id]
                if ordered is None or length > medium.reach_m:
                    self.status[i] |= PINNED_OUT_OF_REACH
                else:
                    self.ordered_m[i] = ordered
                continue
            best = None
            for m in self.media:
                if speed not in m.speeds_gbps or pa.form_factor not in m.form_factors \
                        or pb.form_factor not in m.form_factors:
                    continue
                ordered = m.ordered_length(max(length, m.min_length_m))
                if ordered is None or ordered > m.reach_m + 1e-9:
                    continue
                cost = 2 * m.price_per_end_usd + m.cable_price_usd + m.cable_price_per_m_usd * ordered
                if best is None or cost < best[0]:
                    best = (cost, m, ordered)
            if best is None:
                self.status[i] |= NO_MEDIUM
            else:
                self.medium_index[i] = media_pos[best[1].id]
                self.ordered_m[i] = best[2]
        return set(self.link_ids)

    def medium(self, link_id):
        m = int(self.medium_index[self.index[link_id]])
        return self.media[m] if m >= 0 else None

    def route(self, link_id):
        return self._routes[link_id]

    def findings(self):
        out = []
        for i, lid in enumerate(self.link_ids):
            if self.status[i] & NO_MEDIUM:
                out.append(Finding(code="NO_MEDIUM", severity="error",
                                   message=f"link {lid}: no medium reaches", objects=(lid,)))
            if self.status[i] & PINNED_OUT_OF_REACH:
                out.append(Finding(code="PINNED_OUT_OF_REACH", severity="warning",
                                   message=f"link {lid}: pinned medium cannot reach",
                                   objects=(lid,)))
        return out


def plant_of(design: Design):
    """The real CablePlant when model/cabling.py exists, else the stub."""
    try:
        from model.cabling import CablePlant
    except ImportError:
        return StubPlant(design)
    return CablePlant(design)


def assert_close(a: float, b: float) -> None:
    assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6), (a, b)
