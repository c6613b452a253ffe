"""Per-fabric figures: switches, links, transceivers, power and cost of each network of the hall.

Every switch and link is in one fabric (:mod:`model.design.fabrics`); this module splits the
analysis' own counts by it. Modules, cables and fibres, their power and cost come from the
physical plant split by fabric (:func:`model.plant.physical_plant.build_plant` with
``fabric_rows``), the one per-cage count the totals and the BOM read too, so the fabrics add up
to them by construction; links per medium kind from :class:`model.analysis.link_media.LinkMedia`.
Power is given at typical and at maximum: switches' ``power_typical_w`` / ``power_max_w`` plus
the plant's plugs at typical and at maximum. ``endpoints`` counts the
non-switch devices (servers, storage appliances, UFM and head nodes) cabled into the fabric.
``planes`` counts the fabric's independent switch networks (connected components of its switches
over its switch-to-switch links): 1 for one Clos, 2 for a multi-plane Spectrum-X fabric whose
NICs are split across two planes, one per rail for a rail-only fabric of single switches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from model.analysis.link_media import LinkMedia
from model.analysis.topology import Topology, components
from model.common.arrays import unique_sorted
from model.design.design import Design
from model.design.entities import FABRICS


@dataclass
class FabricFigures:
    switches: int = 0
    switches_by_type: dict[str, int] = field(default_factory=dict)
    endpoints: int = 0
    planes: int = 0
    links: int = 0
    links_by_kind: dict[str, int] = field(default_factory=dict)
    transceivers: int = 0
    power_w: dict[str, float] = field(default_factory=dict)  # typical, max
    cost_usd: dict[str, float] = field(
        default_factory=dict
    )  # switches, transceivers, cables, total

    def to_json(self) -> dict:
        return {
            "switches": {"total": self.switches, "by_type": self.switches_by_type},
            "endpoints": self.endpoints,
            "planes": self.planes,
            "links": {"total": self.links, "by_kind": self.links_by_kind},
            "transceivers": self.transceivers,
            "power_w": self.power_w,
            "cost_usd": self.cost_usd,
        }


@dataclass(frozen=True)
class FabricShape:
    """What a fabric's figures take from the topology alone (no media): its links, switches,
    endpoints and planes. Kept by the incremental analyzer while the topology stands, so a rack
    move recomputes only the media part."""

    code: int
    mask: np.ndarray  # per topology link: in this fabric
    links: int
    switches_by_type: dict[str, int]
    power_typical_w: float  # of its switches
    power_max_w: float
    price_usd: float
    endpoints: int
    planes: int


def fabric_shapes(design: Design, topo: Topology) -> list[FabricShape]:
    """The topology part of every fabric that has a switch or a link, in :data:`FABRICS` order."""
    types = design.catalog.device_types
    codes = topo.fabric if topo.fabric is not None else np.zeros(len(topo.link_ids), np.int8)
    dev_codes = topo.device_fabric
    out: list[FabricShape] = []
    for code, _name in enumerate(FABRICS):
        mask = codes == code
        switches: np.ndarray | list[int] = (
            np.flatnonzero(dev_codes == code) if dev_codes is not None else []
        )
        if not mask.any() and not len(switches):
            continue
        by_type: dict[str, int] = {}
        typ = mx = usd = 0.0
        for i in np.asarray(switches).tolist():
            dtype = types[design.devices[topo.device_ids[i]].type]
            by_type[dtype.id] = by_type.get(dtype.id, 0) + 1
            typ += dtype.power_typical_w
            mx += dtype.power_max_w
            usd += dtype.price_usd
        ends = np.concatenate([topo.a[mask], topo.b[mask]])
        is_switch = dev_codes[ends] >= 0 if dev_codes is not None else np.zeros(len(ends), bool)
        out.append(
            FabricShape(
                code,
                mask,
                int(mask.sum()),
                dict(sorted(by_type.items())),
                typ,
                mx,
                usd,
                int(len(unique_sorted(ends[~is_switch]))),  # device numbers: dense
                _planes(topo, dev_codes, code, mask),
            )
        )
    return out


def fabric_figures(
    design: Design,
    topo: Topology,
    media: LinkMedia,
    phys=None,
    shapes: list[FabricShape] | None = None,
) -> dict[str, FabricFigures]:
    """Figures of every fabric that has a switch or a link, in :data:`FABRICS` order.

    ``media``: the design's links per medium (:func:`model.analysis.link_media.link_media`);
    ``phys`` the physical plant split by fabric (:func:`model.plant.physical_plant.build_plant`
    with ``fabric_rows`` or ``fabric_of``; None without routed links: no modules, no cables).
    ``shapes`` are :func:`fabric_shapes` of this topology (computed when not given).
    """
    if shapes is None:
        shapes = fabric_shapes(design, topo)
    out: dict[str, FabricFigures] = {}
    for shape in shapes:
        name = FABRICS[shape.code]
        fig = FabricFigures(links=shape.links)
        typ, mx, usd = shape.power_typical_w, shape.power_max_w, shape.price_usd
        fig.switches = int(sum(shape.switches_by_type.values()))
        fig.switches_by_type = dict(shape.switches_by_type)
        fig.endpoints = shape.endpoints
        fig.planes = shape.planes
        fig.links_by_kind = media.kinds_of(shape.mask)
        media_typ = media_max = trx_usd = cable_usd = 0.0
        if phys is not None:
            mine = [i for i in phys.items if i.fabric == name]
            fig.transceivers = sum(i.quantity for i in mine if i.category == "module")
            media_typ = sum(i.quantity * i.unit_power_w for i in mine)
            media_max = sum(i.quantity * i.unit_power_w_max for i in mine)
            trx_usd = sum(i.quantity * i.unit_price_usd for i in mine if i.category == "module")
            cable_usd = sum(i.quantity * i.unit_price_usd for i in mine if i.category != "module")
        fig.power_w = {"typical": typ + media_typ, "max": mx + media_max}
        fig.cost_usd = {
            "switches": usd,
            "transceivers": trx_usd,
            "cables": cable_usd,
            "total": usd + trx_usd + cable_usd,
        }
        out[name] = fig
    return out


def _planes(topo: Topology, dev_codes, code: int, mask: np.ndarray) -> int:
    """Connected components of the fabric's switches over its links between two of them."""
    if dev_codes is None:
        return 0
    members = dev_codes == code
    if not members.any():
        return 0
    a, b = topo.a[mask], topo.b[mask]
    label = components(len(dev_codes), a, b, members)
    return int(len(np.unique(label[members])))
