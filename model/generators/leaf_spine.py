"""Leaf and spine switches for the networks beside the compute fabric: free ports, leaves, spines.

:mod:`model.generators.networks` builds storage, in-band and out-of-band networks from these
pieces: the free ports of every device built so far, handed out in order; leaves for a list of
endpoints, each with the uplinks a rule gives it; the fewest spines that hold every leaf
uplink, the uplinks round-robin over them.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from model.catalog.components import Catalog
from model.catalog.ports import port_table
from model.generators.plans import GenerateError

PortLink = tuple[str, str, str, str]


class FreePorts:
    """Free ports of the devices built so far, by (device, role), handed out in order."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.free: dict[tuple[str, str], list[str]] = {}
        self.tables: dict[str, dict] = {}
        # (type id, breakout) -> its ports' names by role, in table order: an XL hall adds ~21k
        # devices of a handful of kinds, and walking each one's table port by port was ~0.3 s.
        self._by_role: dict[tuple, list[tuple[str, list[str]]]] = {}

    def add(self, device_id: str, type_id: str, breakout: dict[str, int] | None = None) -> None:
        """Adds a device's ports, as run with ``breakout``, all free."""
        kind = (type_id, tuple(sorted((breakout or {}).items())))
        table = port_table(self.catalog.device_types[type_id], breakout or {})
        self.tables[device_id] = table
        groups = self._by_role.get(kind)
        if groups is None:
            names: dict[str, list[str]] = {}
            for name, info in table.items():
                names.setdefault(info.role, []).append(name)
            groups = self._by_role[kind] = list(names.items())
        free = self.free
        for role, role_names in groups:
            ports = free.get((device_id, role))
            if ports is None:
                free[(device_id, role)] = list(role_names)
            else:
                ports.extend(role_names)

    def take(self, device_id: str, role: str, n: int = 1) -> list[str]:
        """Takes the next ``n`` free ports of ``role`` on a device (a clear error when too few)."""
        ports = self.free.get((device_id, role), [])
        if len(ports) < n:
            raise GenerateError(f"{device_id} has no free {role} port left")
        out, self.free[(device_id, role)] = ports[:n], ports[n:]
        return out

    def count(self, device_id: str, role: str) -> int:
        """Free ports of ``role`` on a device."""
        return len(self.free.get((device_id, role), []))

    def use(self, device_id: str, port: str) -> None:
        """Mark ``port`` taken. Found through the device's port table (its role), not by
        scanning every device's free list: that scan made a 128-rack all-fabrics build
        quadratic (~2 min, 97 % of it here)."""
        info = self.tables.get(device_id, {}).get(port)
        ports = self.free.get((device_id, info.role), []) if info else []
        if port in ports:
            ports.remove(port)


def data_role(catalog: Catalog, type_id: str) -> str:
    """The role of ``type_id``'s data ports (its first port group that is not management)."""
    return next(g.role for g in catalog.device_types[type_id].port_groups if g.role != "management")


def port_radix(catalog: Catalog, type_id: str, breakout: dict[str, int] | None = None) -> int:
    """Data ports of one ``type_id`` switch as run with ``breakout``."""
    role = data_role(catalog, type_id)
    table = port_table(catalog.device_types[type_id], breakout or {})
    return sum(1 for info in table.values() if info.role == role)


def add_spines(
    catalog: Catalog,
    ports: FreePorts,
    prefix: str,
    switch: str,
    leaves: list[tuple[str, int]],
    breakout: dict[str, int] | None = None,
) -> tuple[list[str], list[PortLink]]:
    """Spines for ``leaves`` [(leaf id, uplinks)], uplinks round-robin; returns (spines, links).
    The spines run the leaves' ``breakout`` (their uplinks are of the leaves' port speed)."""
    role = data_role(catalog, switch)
    radix = port_radix(catalog, switch, breakout)
    total = sum(up for _, up in leaves)
    n_spines = max(1, math.ceil(total / radix))
    if total == 0:
        return [], []
    width = max(2, len(str(n_spines)))
    spines = [f"{prefix}-spine{i + 1:0{width}d}" for i in range(n_spines)]
    for s in spines:
        ports.add(s, switch, breakout)
    links: list[PortLink] = []
    k = 0
    for leaf, up in leaves:
        for port in ports.take(leaf, role, up):
            spine = spines[k % n_spines]
            links.append((leaf, port, spine, ports.take(spine, role)[0]))
            k += 1
    return spines, links


def add_leaves(
    catalog: Catalog,
    ports: FreePorts,
    prefix: str,
    switch: str,
    endpoints: list[tuple[str, str]],
    up_for: Callable[[int], int],
    breakout: dict[str, int] | None = None,
    min_leaves: int = 1,
) -> tuple[list[tuple[str, int]], list[PortLink]]:
    """Leaves of ``switch`` for ``endpoints`` [(device, port)], each with ``up_for(d)`` uplinks;
    at least ``min_leaves`` of them where there are as many endpoints."""
    role = data_role(catalog, switch)
    radix = port_radix(catalog, switch, breakout)
    # The most downlinks d with d + up_for(d) <= radix.
    per_leaf = max(d for d in range(1, radix) if d + up_for(d) <= radix)
    n = max(1, min(min_leaves, len(endpoints)), math.ceil(len(endpoints) / per_leaf))
    per_leaf = math.ceil(len(endpoints) / n)  # spread evenly
    width = max(2, len(str(n)))
    out: list[tuple[str, int]] = []
    links: list[PortLink] = []
    for i in range(n):
        leaf = f"{prefix}-leaf{i + 1:0{width}d}"
        ports.add(leaf, switch, breakout)
        mine = endpoints[i * per_leaf : (i + 1) * per_leaf]
        for device, port in mine:
            links.append((device, port, leaf, ports.take(leaf, role)[0]))
        out.append((leaf, up_for(len(mine))))
    return out, links
