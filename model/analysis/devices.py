"""Power and price of the devices and racks, and per-rack power against the rack budget.

Every power figure exists at typical (``power_typical_w``) and at maximum (``power_max_w``)
draw. Pluggable plugs (modules, cable ends) are not part of the catalog's device figures: the
physical plant (:mod:`model.plant.physical_plant`) gives each device the typical and maximum power of the plugs
in its cages, added to the rack the device sits in. This is the one rack-power figure: the
canvas, inspector and elevation sheets display :func:`rack_power_of` and compute nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.analysis.topology import Topology
from model.design.design import Design

UNCONNECTED = "unconnected"  # switch-count keys beside the tiers (leaf, spine, core ...)
OTHER_FABRIC = "other-fabric"


@dataclass
class DeviceFigures:
    servers_w: float
    switches_w: float
    other_w: float
    servers_w_max: float
    switches_w_max: float
    other_w_max: float
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
    power_max = {"servers": 0.0, "switches": 0.0, "other": 0.0}
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
        power_max[cat] += dtype.power_max_w
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
        power_max["servers"],
        power_max["switches"],
        power_max["other"],
        price["servers"],
        price["switches"],
        price["other"],
        racks_usd,
        typ,
        mx,
        tuple(switch_ids),
    )


def switches_off_the_tiers(
    design: Design, switch_ids: tuple[str, ...], topo: Topology
) -> dict[str, int]:
    """Scale-out switches no GPU server reaches through compute links, so without a tier:
    ``unconnected`` (no link at all, e.g. just placed) and ``other-fabric`` (linked, but only on
    storage, management or another network). They are bought and powered, so the switch count
    keeps them, apart from the tiers, instead of leaving them out."""
    index, level = topo.device_index, topo.level
    # Whether a device has any link, from the topology's link ends (every link of the design):
    # asking the design per switch built its whole device -> links table (~0.35 s at XL with
    # ~1,400 storage, in-band and out-of-band switches).
    linked = np.zeros(len(topo.device_ids), dtype=bool)
    linked[topo.a], linked[topo.b] = True, True
    out = {UNCONNECTED: 0, OTHER_FABRIC: 0}
    for device_id in switch_ids:
        i = index.get(device_id)
        if i is not None and level[i] >= 1:
            continue
        has_links = linked[i] if i is not None else bool(design.links_of_device(device_id))
        out[OTHER_FABRIC if has_links else UNCONNECTED] += 1
    return {k: v for k, v in out.items() if v}


class RackPowerSums:
    """Typical and maximum W per rack: devices plus the plugs in their cages (by device id),
    for one analyzer, each plug device's rack found once: kept while the
    device figures (made again after any device or rack edit) and the plug dicts' device ids
    stand, as after a tray edit, which re-chooses some media and so gives new dicts of the
    same devices. Summed column-wise (np.add.at adds in the dicts' order, one IEEE addition
    at a time, from each rack's device watts), so the same floats as the loop; at XL ~10 ms
    of Python per report -> a few ms."""

    def __init__(self) -> None:
        self._racks: tuple = (None, [], [])  # (device figures, rack ids, (ids, rack rows) per dict)
        self._sums: tuple | None = None  # (device figures, plug dicts, (typical, max) per rack)

    def of(
        self,
        design: Design,
        dev: DeviceFigures,
        plug_w: dict[str, float] | None,
        plug_w_max: dict[str, float] | None,
    ) -> tuple[dict[str, float], dict[str, float]]:
        """Per rack, (typical, max) W; the previous sums when the figures and
        dicts are the same objects (the plant cache hands back the same dicts when no plug
        changed: a rack move that keeps every medium)."""
        sums = self._sums
        if (
            sums is not None
            and sums[0] is dev
            and sums[1][0] is plug_w
            and sums[1][1] is plug_w_max
        ):
            return sums[2]
        kept, racks, rows = self._racks
        if kept is not dev:  # the racks of its two dicts, in the same order
            racks = list(dev.rack_typical_w)
            kept, rows = dev, [([], np.zeros(0, np.int64)), ([], np.zeros(0, np.int64))]
        out = []
        for side, (base, plugs) in enumerate(
            ((dev.rack_typical_w, plug_w or {}), (dev.rack_max_w, plug_w_max or {}))
        ):
            ids = list(plugs)
            if ids != rows[side][0]:
                rows[side] = (ids, _rack_rows(design, racks, ids))
            at = rows[side][1]
            total = np.fromiter(base.values(), dtype=np.float64, count=len(base))
            watts = np.fromiter(plugs.values(), dtype=np.float64, count=len(ids))
            np.add.at(total, at[at >= 0], watts[at >= 0])
            out.append(dict(zip(racks, total.tolist(), strict=True)))
        self._racks = (kept, racks, rows)
        self._sums = (dev, (plug_w, plug_w_max), (out[0], out[1]))
        return self._sums[2]


def _rack_rows(design: Design, racks: list[str], ids: list[str]) -> np.ndarray:
    """The row in ``racks`` of each device of ``ids`` (-1: no such device, or in no rack
    there)."""
    number = {r: i for i, r in enumerate(racks)}
    devices = design.devices
    return np.fromiter(
        (number.get(d.rack, -1) if (d := devices.get(i)) is not None else -1 for i in ids),
        dtype=np.int64,
        count=len(ids),
    )


def rack_power_of(report, rack_id: str) -> tuple[float, float, float]:
    """(typical W, max W, budget W) of one rack from an analysis report: what views display."""
    return report.rack_power_w.get(rack_id, (0.0, 0.0, 0.0))
