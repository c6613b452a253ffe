"""Elements that fail besides devices and links: NVLink switch trays' share, and rack power.

* **NVLink switch trays.** A GB200/GB300 NVL72 compute tray reaches its rack's NVLink domain
  over one scale-up link to each of the rack's 9 NVLink switch trays (18 x 3,200 Gb/s per
  tray, domain-facts NV-MC-NVLINK); its GPUs' NVLink bandwidth is the live links' capacity over
  its GPU count: 9 x 3,200 / 4 = 7,200 Gb/s per GPU, 8 of 9 trays left: 6,400. A server whose
  NVLink domain is inside the box (DGX/HGX: ``scale_up_domain`` "device") keeps its catalog
  figure while it runs.
* **Power.** Where the design records a rack's power path (``Rack.pdus`` on the hall's panels
  and feeds, :mod:`model.facility.power_paths`) a feed or panel id fails every PDU it serves,
  ``RACK:pdu-a`` (``pdu-b``) fails the rack's PDUs on side-A (B) feeds, and a rack goes down
  when none of its PDUs is live. A rack with no recorded power path keeps the assumption:
  A/B-fed, two PDUs on independent feeds, each able to carry the rack; ``RACK:pdu-a`` fails one
  side and takes nothing down, both sides take the rack down; the output says so.
"""

from __future__ import annotations

import numpy as np

from model.analysis.topology import LINK_SCALE_UP, Topology
from model.design.design import Design
from model.facility.power_paths import PowerPaths

PDU_SIDES = ("pdu-a", "pdu-b")
POWER_ASSUMPTION = (
    "Racks without a recorded power path (no PDU on a panel of the hall's feeds) are assumed "
    "A/B-fed (two PDUs on independent feeds, either able to carry the rack): one PDU or feed "
    "failing takes none of their devices down, only both sides of such a rack failing do."
)


def pdu_of(design: Design, oid: str) -> tuple[str, str] | None:
    """(rack id, side) of an id ``RACK:pdu-a`` / ``RACK:pdu-b``, or (rack id, ``pdu-N``) of
    the rack's N-th recorded PDU or power shelf (``Rack.pdus``, from 1), or None."""
    rack, sep, side = oid.rpartition(":")
    if not sep or rack not in design.racks:
        return None
    side = side.lower()
    if side in PDU_SIDES:
        return rack, side
    number = side.removeprefix("pdu-")
    if (
        side.startswith("pdu-")
        and number.isdigit()
        and 1 <= int(number) <= len(design.racks[rack].pdus)
    ):
        return rack, side
    return None


def racks_without_power(
    pdus: list[tuple[str, str]], paths: PowerPaths | None = None, power_ids: tuple[str, ...] = ()
) -> list[str]:
    """Racks left without power when the rack PDU sides ``pdus`` and the feeds and panels
    ``power_ids`` fail: by the recorded power paths where a rack has one, else by the A/B
    assumption (both sides of the rack failed)."""
    sides: dict[str, set[str]] = {}
    for rack, side in pdus:
        sides.setdefault(rack, set()).add(side)
    modelled = paths.rack_pdus if paths is not None else {}
    down = {r for r, s in sides.items() if r not in modelled and s >= set(PDU_SIDES)}
    if paths is not None and modelled:
        dead = paths.dead_panels(power_ids)
        for rack, panels in modelled.items():
            failed = sides.get(rack, set())
            gone = {s[-1].upper() for s in failed if s in PDU_SIDES}  # "pdu-a" -> "A"
            if all(
                p in dead or paths.feeds[paths.panels[p].feed].side in gone or f"pdu-{i}" in failed
                for i, p in enumerate(panels, 1)
            ):
                down.add(rack)
    return sorted(down)


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
