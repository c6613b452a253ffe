"""Elements that fail besides devices and links: NVLink switch trays' share, and rack power.

* **NVLink switch trays.** A GB200/GB300 NVL72 compute tray reaches its rack's NVLink domain
  over one scale-up link to each of the rack's 9 NVLink switch trays (18 x 3,200 Gb/s per
  tray, domain-facts NV-MC-NVLINK); its GPUs' NVLink bandwidth is the live links' capacity over
  its GPU count: 9 x 3,200 / 4 = 7,200 Gb/s per GPU, 8 of 9 trays left: 6,400. A server whose
  NVLink domain is inside the box (DGX/HGX: ``scale_up_domain`` "device") keeps its catalog
  figure while it runs.
* **Power.** The design has no facility model yet (feeds, PDUs): every rack's power is assumed
  A/B-fed, two PDUs on independent feeds, each able to carry the rack. ``RACK:pdu-a`` (or
  ``pdu-b``) fails one side: nothing goes down, and the output says it is an assumption;
  failing both sides of a rack takes every device in it down.
"""

from __future__ import annotations

import numpy as np

from model.analysis.topology import LINK_SCALE_UP, Topology
from model.design.design import Design

PDU_SIDES = ("pdu-a", "pdu-b")
POWER_ASSUMPTION = (
    "Rack power is assumed A/B-fed (two PDUs on independent feeds, either able to carry the "
    "rack): the design has no facility model yet, so one PDU or feed failing takes no device "
    "down, and only both sides of a rack failing take the rack down."
)


def pdu_of(design: Design, oid: str) -> tuple[str, str] | None:
    """(rack id, side) of an id ``RACK:pdu-a`` / ``RACK:pdu-b``, or None."""
    rack, sep, side = oid.rpartition(":")
    if sep and side.lower() in PDU_SIDES and rack in design.racks:
        return rack, side.lower()
    return None


def racks_without_power(pdus: list[tuple[str, str]]) -> list[str]:
    """Racks that lose both sides of their A/B feed (the others keep running on one side)."""
    sides: dict[str, set[str]] = {}
    for rack, side in pdus:
        sides.setdefault(rack, set()).add(side)
    return sorted(rack for rack, s in sides.items() if s >= set(PDU_SIDES))


class ScaleUp:
    """Each server's NVLink figure from the catalog, read once per design: what-if asks for
    the live figure of many failure cases."""

    def __init__(self, design: Design, topo: Topology) -> None:
        n = len(topo.device_ids)
        types = design.catalog.device_types
        self.catalog = np.zeros(n)
        self.linked = np.zeros(n, dtype=bool)  # NVLink domain built of scale-up links
        spec_of: dict[str, tuple[float, bool]] = {}
        for i in np.flatnonzero(topo.is_gpu_server).tolist():
            type_id = design.devices[topo.device_ids[i]].type
            if type_id not in spec_of:
                spec = types[type_id].gpus
                assert spec is not None  # a GPU server's type has GPUs
                spec_of[type_id] = (spec.scale_up_gbps_per_gpu, spec.scale_up_domain == "links")
            self.catalog[i], self.linked[i] = spec_of[type_id]

    def per_gpu(self, topo: Topology) -> np.ndarray:
        """Live NVLink Gb/s per GPU of every device of ``topo`` (this design's topology or what
        survives a failure; 0 for non-servers and failed servers).

        Servers whose NVLink domain is built of scale-up links get the live links' capacity
        over their GPUs, capped by the catalog's figure; the others the catalog's figure."""
        n = len(topo.device_ids)
        up = topo.kind == LINK_SCALE_UP
        a, b = topo.a[up], topo.b[up]
        srv = np.where(topo.is_gpu_server[a], a, b)  # the server end of each scale-up link
        live = np.bincount(srv, weights=topo.capacity[up], minlength=n)
        per_gpu = np.divide(live, topo.gpus, out=np.zeros(n), where=topo.gpus > 0)
        figure = np.where(self.linked, np.minimum(per_gpu, self.catalog), self.catalog)
        return np.where(topo.is_gpu_server, figure, 0.0)
