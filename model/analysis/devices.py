"""Power and price of the devices and racks, and per-rack power against the rack budget.

Device power is the catalog's typical figure (``power_typical_w``) for totals; the per-rack check
also adds up ``power_max_w``. Pluggable optics are not part of the catalog's device figures: the
power of each link end is added to the rack of the device it is plugged into.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.analysis.topology import Topology
from model.design import Design

UNCONNECTED = "unconnected"  # switch-count keys beside the tiers (leaf, spine, core ...)
OTHER_FABRIC = "other-fabric"


@dataclass
class DeviceFigures:
    servers_w: float
    switches_w: float
    other_w: float
    servers_usd: float
    switches_usd: float
    other_usd: float
    racks_usd: float
    rack_typical_w: dict[str, float]  # devices only
    rack_max_w: dict[str, float]
    switch_ids: tuple[str, ...] = ()  # every scale-out switch (catalog category "switch")


def category(dtype) -> str:
    if dtype.gpus is not None and dtype.gpu_count > 0:
        return "servers"
    if dtype.category in ("switch", "nvlink-switch"):
        return "switches"
    return "other"


def device_figures(design: Design) -> DeviceFigures:
    types = design.catalog.device_types
    power = {"servers": 0.0, "switches": 0.0, "other": 0.0}
    price = {"servers": 0.0, "switches": 0.0, "other": 0.0}
    typ: dict[str, float] = {r: 0.0 for r in design.racks}
    mx: dict[str, float] = {r: 0.0 for r in design.racks}
    switch_ids: list[str] = []
    for device in design.devices.values():
        dtype = types[device.type]
        cat = category(dtype)
        if dtype.category == "switch":  # scale-out only: NVLink switch trays have no tier
            switch_ids.append(device.id)
        power[cat] += dtype.power_typical_w
        price[cat] += dtype.price_usd
        typ[device.rack] += dtype.power_typical_w
        mx[device.rack] += dtype.power_max_w
    rack_types = design.catalog.rack_types
    racks_usd = sum(
        rack_types[r.type].price_usd for r in design.racks.values() if r.type in rack_types
    )
    return DeviceFigures(
        power["servers"],
        power["switches"],
        power["other"],
        price["servers"],
        price["switches"],
        price["other"],
        racks_usd,
        typ,
        mx,
        tuple(switch_ids),
    )


def rack_device_power_w(design: Design, rack_id: str) -> tuple[float, float]:
    """(typical, maximum) W of the devices in one rack, without the optics plugged into them
    (the analysis adds those per rack); what the plan's tooltip and the inspector show."""
    types = design.catalog.device_types
    devices = design.devices_in_rack(rack_id)
    return (
        sum(types[d.type].power_typical_w for d in devices),
        sum(types[d.type].power_max_w for d in devices),
    )


def switches_off_the_tiers(
    design: Design, switch_ids: tuple[str, ...], topo: Topology
) -> dict[str, int]:
    """Scale-out switches no GPU server reaches through compute links, so without a tier:
    ``unconnected`` (no link at all, e.g. just placed) and ``other-fabric`` (linked, but only on
    storage, management or another network). They are bought and powered, so the switch count
    keeps them, apart from the tiers, instead of leaving them out."""
    index, level = topo.device_index, topo.level
    out = {UNCONNECTED: 0, OTHER_FABRIC: 0}
    for device_id in switch_ids:
        if device_id in index and level[index[device_id]] >= 1:
            continue
        out[OTHER_FABRIC if design.links_of_device(device_id) else UNCONNECTED] += 1
    return {k: v for k, v in out.items() if v}


def rack_power(
    design: Design, topo: Topology, dev: DeviceFigures, end_power: np.ndarray | None
) -> tuple[dict[str, float], dict[str, float]]:
    """Typical and maximum W per rack: devices plus the link ends plugged into them."""
    typ = dict(dev.rack_typical_w)
    mx = dict(dev.rack_max_w)
    if end_power is not None and len(end_power):
        rack_ids = list(design.racks)
        # Rack number of each device: valid while the topology and the rack list stay the same.
        cached_racks, rack_of = getattr(topo, "_rack_index", (None, None))
        if cached_racks != rack_ids:
            number = {r: i for i, r in enumerate(rack_ids)}
            rack_of = np.array(
                [number[design.devices[d].rack] for d in topo.device_ids], dtype=np.int64
            )
            topo._rack_index = (rack_ids, rack_of)
        per_rack = np.bincount(rack_of, weights=end_power, minlength=len(rack_ids))
        for i in np.flatnonzero(per_rack).tolist():
            typ[rack_ids[i]] += float(per_rack[i])
            mx[rack_ids[i]] += float(per_rack[i])
    return typ, mx
