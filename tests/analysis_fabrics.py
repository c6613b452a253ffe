"""Clos fabrics built through the edit API, and a fake cable plant, for the analysis tests.

The fake plant follows the geometry engine's ``RoutedLinks`` contract (arrays per link, ``route``,
``route_keys``/``tray_spans``, ``findings``, ``refresh``) with explicitly given media and lengths; it lives in tests only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

from model.design.design import Design
from model.design.entities import Device, Hall, Link, PortRef, Rack

SERVER = "hgx-h100-8x400"  # 8 x 400G compute NICs, 1 port per cage
SWITCH = "qm9700"  # 64 x 400G


def clos(
    *,
    pods: int = 1,
    leaves_per_pod: int = 2,
    servers_per_leaf: int = 2,
    nics: int = 4,
    spines_per_pod: int = 2,
    leaf_spine_links: int = 2,
    cores: int = 0,
    spine_core_links: int = 1,
    rail: bool = False,
    hall_m: float = 200.0,
) -> Design:
    """A leaf-spine (``cores`` = 0) or 3-tier Clos fabric of HGX H100 servers and QM9700s.

    Non-rail: each server sends ``nics`` NICs to its one leaf. Rail (``rail=True``): a pod is a
    scalable unit; server s of the pod sends NIC r to leaf r of the pod (``nics`` must equal
    ``leaves_per_pod``). Each leaf has ``leaf_spine_links`` links to every spine of its pod;
    spine j of every pod has ``spine_core_links`` links to every core of plane j (cores are split
    evenly into ``spines_per_pod`` planes). Servers stand 4 per rack in a row along x, in order.
    """
    design = Design(Hall(outline=[(0.0, 0.0), (hall_m, 0.0), (hall_m, hall_m), (0.0, hall_m)]))
    parts = _ClosParts()
    servers_per_pod = servers_per_leaf * (1 if rail else leaves_per_pod)
    parts.open_network_rack()
    spines_all = []
    for p in range(pods):
        leaves = [parts.switch(f"leaf{p}-{i}", "leaf") for i in range(leaves_per_pod)]
        spines = [parts.switch(f"spine{p}-{j}", "spine") for j in range(spines_per_pod)]
        spines_all.append(spines)
        for s in range(servers_per_pod):
            sid = parts.server(f"srv{p}-{s}")
            targets = (
                [leaves[r] for r in range(nics)] if rail else [leaves[s // servers_per_leaf]] * nics
            )
            for leaf in targets:
                parts.connect(sid, leaf)
        for leaf in leaves:
            for spine in spines:
                for _ in range(leaf_spine_links):
                    parts.connect(leaf, spine)
    if cores:
        per_plane = cores // spines_per_pod
        core_ids = [parts.switch(f"core{c}", "core") for c in range(cores)]
        for spines in spines_all:
            for j, spine in enumerate(spines):
                for core in core_ids[j * per_plane : (j + 1) * per_plane]:
                    for _ in range(spine_core_links):
                        parts.connect(spine, core)
    design.add_racks(parts.racks)
    design.add_devices(parts.devices)
    design.add_links(parts.links)
    return design


class _ClosParts:
    """The racks, devices and links of one :func:`clos` fabric, numbered as they are added."""

    def __init__(self) -> None:
        self.racks: list[Rack] = []
        self.devices: list[Device] = []
        self.links: list[Link] = []
        self.ports: dict[str, int] = {}
        self.col = 0  # server racks so far
        self.net, self.net_u = "", 1  # the network rack being filled and its next U
        self.server_rack, self.slot = None, 4

    def rack(self, x: float, y: float) -> str:
        """A new 48U rack at (x, y)."""
        rid = f"r{len(self.racks) + 1}"
        self.racks.append(
            Rack(
                id=rid,
                name=rid.upper(),
                type="rack-48u-600x1200",
                x=x,
                y=y,
                width_m=0.6,
                depth_m=1.2,
                height_u=48,
                power_budget_kw=45.0,
            )
        )
        return rid

    def device(self, did: str, rid: str, u: int, type_id: str, role: str) -> str:
        """A device of ``type_id`` at U ``u`` of rack ``rid``."""
        self.devices.append(Device(id=did, name=did, type=type_id, rack=rid, u=u, role=role))
        return did

    def open_network_rack(self) -> None:
        """A new network rack, filled from U1, beside the racks so far."""
        self.net = self.rack(0.3 + 0.6 * len(self.racks), 10.0)
        self.net_u = 1

    def switch(self, did: str, role: str) -> str:
        """A QM9700 in the network rack (a new one once 40U are used)."""
        if self.net_u > 40:
            self.open_network_rack()
        self.device(did, self.net, self.net_u, SWITCH, role)
        self.net_u += 2
        return did

    def server(self, did: str) -> str:
        """An HGX H100 server, 4 per rack in a row along x."""
        if self.slot == 4:
            self.server_rack, self.slot = self.rack(0.3 + 0.6 * self.col, 3.0), 0
            self.col += 1
        self.device(did, self.server_rack, 1 + 9 * self.slot, SERVER, "gpu-server")
        self.slot += 1
        return did

    def port(self, did: str, prefix: str) -> str:
        """The next port of a device (``nic1``, ``nic2``... on a server, ``p1``... on a switch)."""
        self.ports[did] = self.ports.get(did, 0) + 1
        return f"{prefix}{self.ports[did]}"

    def connect(self, x: str, y: str) -> None:
        """A link from the next port of ``x`` to the next port of ``y``."""
        self.links.append(
            Link(
                id=f"l{len(self.links) + 1}",
                a=PortRef(x, self.port(x, "nic" if x.startswith("srv") else "p")),
                b=PortRef(y, self.port(y, "p")),
            )
        )


@dataclass
class FakeRoute:
    tray_ids: tuple[str, ...] = ()


@dataclass
class FakePlant:
    """Explicit media and lengths per link, in the shape of ``model.engine.routed_links.RoutedLinks``."""

    design: Design
    media_of: dict[str, str] | None = None  # link id -> media type id ("" = none)
    lengths: dict[str, float] = field(default_factory=dict)
    ordered: dict[str, float] = field(default_factory=dict)
    trays: dict[str, tuple[str, ...]] = field(default_factory=dict)
    extra_findings: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self._auto_mode = self.media_of is None
        self.refresh()

    def refresh(self) -> set[str]:
        """Recompute the arrays; in auto mode (``media_of`` None) lengths follow the racks.

        Auto mode: length = Manhattan distance between the racks + 1 m (0.5 m in one rack), a 400G DAC up to 2 m,
        else 400G SR4 (module + fibre); every link runs in tray "t1" when it exists. Returns the links whose
        medium, length or existence changed.
        """
        before = getattr(self, "_snapshot", {})
        if self.auto:
            self._auto()
        self._fill()
        now = {
            lid: (self.media_of.get(lid, ""), self.lengths.get(lid)) for lid in self.design.links
        }
        self._snapshot = now
        return {lid for lid in set(before) | set(now) if before.get(lid) != now.get(lid)}

    @property
    def auto(self) -> bool:
        return self._auto_mode

    def _auto(self) -> None:
        d = self.design
        self.media_of, self.lengths, self.ordered = {}, {}, {}
        for link in d.links.values():
            ra = d.racks[d.devices[link.a.device].rack]
            rb = d.racks[d.devices[link.b.device].rack]
            length = abs(ra.x - rb.x) + abs(ra.y - rb.y) + (0.5 if ra.id == rb.id else 1.0)
            self.lengths[link.id] = length
            self.media_of[link.id] = "dac-400g" if length <= 2.0 else "sr4-400g"
            self.ordered[link.id] = float(np.ceil(length))
        if "t1" in d.trays:
            self.trays = {lid: ("t1",) for lid in d.links}

    def _fill(self) -> None:
        catalog = self.design.catalog.media_types
        self.media = [catalog[m] for m in sorted({m for m in self.media_of.values() if m})]
        mindex = {m.id: i for i, m in enumerate(self.media)}
        self.link_ids = list(self.design.links)
        self.index = {lid: i for i, lid in enumerate(self.link_ids)}
        self.medium_index = np.array(
            [mindex.get(self.media_of.get(lid, ""), -1) for lid in self.link_ids], dtype=np.int32
        )
        self.length_m = np.array([self.lengths.get(lid, 1.0) for lid in self.link_ids])
        self.routed_m = self.length_m.copy()
        self.ordered_m = np.array(
            [
                self.ordered.get(lid, self.lengths.get(lid, 1.0))
                if self.media_of.get(lid)
                else np.nan
                for lid in self.link_ids
            ]
        )
        self.speed_gbps = np.zeros(len(self.link_ids))
        self.status = np.zeros(len(self.link_ids), dtype=np.uint8)

    def route(self, link_id: str) -> FakeRoute:
        return FakeRoute(self.trays.get(link_id, ()))

    route_generation = 0

    def route_keys(self) -> np.ndarray:
        """One route per distinct tuple of trays (each run along its whole length); -1 none."""
        routes = self.__dict__.setdefault("_routes", {})
        keys = [
            routes.setdefault(self.trays[lid], len(routes)) if self.trays.get(lid) else -1
            for lid in self.link_ids
        ]
        return np.array(keys, dtype=np.int64)

    def tray_spans(self, route_id: int) -> tuple[tuple[str, float, float], ...]:
        trays = next(t for t, k in self.__dict__["_routes"].items() if k == route_id)
        return tuple(
            (t, 0.0, _length(self.design.trays[t].points))
            for t in dict.fromkeys(trays)
            if t in self.design.trays
        )

    def findings(self) -> list:
        return list(self.extra_findings)


def _length(points) -> float:
    return float(sum(np.hypot(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(points)))
