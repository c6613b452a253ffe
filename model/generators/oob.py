"""The out-of-band network: OOB switches in every run of racks, each port to the nearest BMCs.

After the DGX SuperPOD reference architectures, an OOB switch serves the rack group it stands
in, not the hall: each run of racks (a scalable unit, a block of spines, the storage row, the
management row) gets its own SN2201 switches, placed among that run's network racks, and its
BMCs, switch management ports and PDUs are cabled to them. A 1 GbE UTP link reaches 100 m, so
handing ports out in sequence over one hall-wide pool (as before) sent su1-node01's BMC 141 m to
oob001 across the XL hall; within a run every link is a few racks long.

Within a run the management ports go in rack order to its switches in contiguous chunks, and
each switch stands right after the last switch it serves (runs of switches only: a spine block
spread over rows keeps its OOB switches beside their spines). Each OOB switch's own management
port goes to its neighbour in the list (the runs are laid out in list order); each PDU, cabled
once the racks exist, goes to the nearest OOB switch with a free port.

PDUs: one managed PDU per rack is the general rule. Where the servers' reference architecture
names its racks' PDUs (``rack_pdus``: the DGX H100 SuperPOD RA, Table 7 "96 + 12 rack PDUs"),
every PDU of every rack is a device on the OOB network, as that RA's Table 8 cables them
("OOB Ethernet: ... 108 PDUs", NV-SP-H100-T7): ``every_pdu``.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from model.catalog.components import Catalog
from model.catalog.ports import port_table
from model.generators.leaf_spine import FreePorts, PortLink
from model.generators.placement import Segment, segment_rack_count, segment_rack_pdus
from model.generators.plans import GenerateError

SwitchSpec = tuple[str, str, str, dict[str, int]]  # (id, type, role, breakout)

OOB_SWITCH = "sn2201"
PDU_TYPE = "pdu-1u-metered"


def management_endpoints(ports: FreePorts, devices: list[str]) -> list[tuple[str, str]]:
    """The management ports (BMC, switch mgmt) of ``devices`` the OOB network serves, in order."""
    return [
        (d, p)
        for d in devices
        for p in ports.free.get((d, "management"), [])
        if p.startswith(("bmc", "mgmt"))
    ]


def management_port_count(catalog: Catalog, type_id: str) -> int:
    """Management ports of one ``type_id`` device the OOB network serves."""
    table = port_table(catalog.device_types[type_id])
    return sum(
        1 for n, i in table.items() if i.role == "management" and n.startswith(("bmc", "mgmt"))
    )


def oob_switch_count(catalog: Catalog, endpoints: int, racks: int) -> int:
    """OOB switches for ``endpoints`` management ports and one PDU per rack of a run: each
    switch keeps one port for its neighbour's management port."""
    per_switch = sum(g.count for g in catalog.device_types[OOB_SWITCH].port_groups if g.name == "p")
    return max(1, math.ceil((endpoints + racks) / (per_switch - 1)))


def segment_devices(segment: Segment) -> list[str]:
    """Every device of a run in rack order: its units' members, then its switches."""
    return [m[0] for u in segment.units for m in u.members] + [s[0] for s in segment.switches]


def run_pdu_count(catalog: Catalog, segment: Segment, every_pdu: bool) -> int:
    """PDUs a run's OOB switches serve: one per rack, or (``every_pdu``) all of them."""
    if every_pdu:
        return sum(segment_rack_pdus(catalog, segment))
    return segment_rack_count(catalog, segment)


def run_switch_count(
    catalog: Catalog,
    ports: FreePorts,
    segment: Segment,
    extra_endpoints: int = 0,
    every_pdu: bool = False,
) -> int:
    """OOB switches one run needs: its management ports (plus ``extra_endpoints`` not yet
    built) and its racks' PDUs (:func:`run_pdu_count`), the OOB switches' own rack included."""
    endpoints = len(management_endpoints(ports, segment_devices(segment))) + extra_endpoints
    racks = segment_rack_count(catalog, segment)
    pdus = run_pdu_count(catalog, segment, every_pdu)
    # A rack of the OOB switches' own, should they need one: 2 PDUs, or the general rule's 1.
    own_rack_pdus = 2 if every_pdu else 1
    n = oob_switch_count(catalog, endpoints, pdus + own_rack_pdus)
    oob_only: list[SwitchSpec] = [(f"oob-{i}", OOB_SWITCH, "management", {}) for i in range(n)]
    with_oob = replace(segment, switches=segment.switches + oob_only)
    if segment_rack_count(catalog, with_oob) > racks + 1:
        n = oob_switch_count(catalog, endpoints, run_pdu_count(catalog, with_oob, every_pdu))
    return n


def hall_switch_count(
    catalog: Catalog,
    ports: FreePorts,
    segments: list[Segment],
    hosts: int,
    every_pdu: bool,
    extra_endpoints: int = 0,
) -> int:
    """OOB switches for a hall whose OOB switches all stand in its first ``hosts`` runs (the
    SU network racks, as the DGX H100 SuperPOD RA places its 8: :mod:`model.generators.ra_layout`):
    every run's management ports (plus ``extra_endpoints`` not yet built, plus the last OOB
    switch's own port on its neighbour) and PDUs, the same count in each host run."""
    endpoints = sum(len(management_endpoints(ports, segment_devices(s))) for s in segments)
    pdus = sum(run_pdu_count(catalog, s, every_pdu) for s in segments)
    n = oob_switch_count(catalog, endpoints + extra_endpoints + 1, pdus)
    return hosts * math.ceil(n / hosts)


def place_oob(
    catalog: Catalog,
    ports: FreePorts,
    segments: list[Segment],
    every_pdu: bool = False,
    hosts: int | None = None,
) -> tuple[list[list[SwitchSpec]], list[PortLink], list[str]]:
    """OOB switches for every run of ``segments``: (each run's switch list with its OOB switches
    in place, the management links, the OOB switch ids in list order). ``hosts``: only the
    first ``hosts`` runs get OOB switches (:func:`hall_switch_count`); the later runs' ports go
    to the host switch with the most ports free."""
    if hosts is not None:
        per = hall_switch_count(catalog, ports, segments, hosts, every_pdu) // hosts
        counts = [per if i < hosts else 0 for i in range(len(segments))]
    else:
        counts = [run_switch_count(catalog, ports, seg, every_pdu=every_pdu) for seg in segments]
    # The last switch's own management port lands on the one before it: one port more there.
    if hosts is None and counts and counts[-1] >= 1 and sum(counts) > 1:
        counts[-1] = run_switch_count(
            catalog, ports, segments[-1], extra_endpoints=1, every_pdu=every_pdu
        )
    width = max(2, len(str(sum(counts))))
    numbered = 0
    switch_lists: list[list[SwitchSpec]] = []
    links: list[PortLink] = []
    oob: list[str] = []
    for seg, n in zip(segments, counts, strict=True):
        if not n:  # a run served by the host runs' switches
            for d, p in management_endpoints(ports, segment_devices(seg)):
                switch = max(oob, key=lambda s: ports.count(s, "management"))
                ports.use(d, p)
                links.append((d, p, switch, ports.take(switch, "management")[0]))
            switch_lists.append(list(seg.switches))
            continue
        names = [f"oob{numbered + i + 1:0{width}d}" for i in range(n)]
        numbered += n
        for s in names:
            ports.add(s, OOB_SWITCH)
        endpoints = management_endpoints(ports, segment_devices(seg))
        switch_lists.append(_interleave(seg, names, endpoints, links, ports))
        oob += names
    for i, s in enumerate(oob if len(oob) > 1 else []):
        # Each OOB switch's own management port on its neighbour in the list (the runs are
        # laid out in list order; wrapping round to the first would cross the hall).
        nxt = oob[i + 1] if i + 1 < len(oob) else oob[i - 1]
        ports.use(s, "mgmt1")
        links.append((s, "mgmt1", nxt, ports.take(nxt, "management")[0]))
    return switch_lists, links, oob


def _interleave(
    seg: Segment,
    names: list[str],
    endpoints: list[tuple[str, str]],
    links: list[PortLink],
    ports: FreePorts,
) -> list[SwitchSpec]:
    """Cables a run's management ports to its OOB switches in contiguous chunks and returns the
    run's switch list with each OOB switch right after the last switch its chunk serves."""
    per = math.ceil(len(endpoints) / len(names)) if endpoints else 1
    after: dict[str, list[str]] = {}  # switch id -> OOB switches placed right after it
    before: list[str] = []  # OOB switches whose chunk has no switch (servers only)
    switch_ids = {s[0] for s in seg.switches}
    for j, name in enumerate(names):
        chunk = endpoints[j * per : (j + 1) * per]
        for d, p in chunk:
            ports.use(d, p)
            links.append((d, p, name, ports.take(name, "management")[0]))
        served = [d for d, _ in chunk if d in switch_ids]
        if served:
            after.setdefault(served[-1], []).append(name)
        else:
            before.append(name)
    out: list[SwitchSpec] = [(s, OOB_SWITCH, "management", {}) for s in before]
    for sw in seg.switches:
        out.append(sw)
        out += [(s, OOB_SWITCH, "management", {}) for s in after.get(sw[0], [])]
    return out


def cable_pdus(
    design, oob_switches: list[str], every_pdu: bool = False
) -> tuple[list, list[PortLink], list[str]]:
    """One metered PDU per rack (``every_pdu``: each of the rack's PDUs, as many as the facility
    plan gives it) at its highest free U, each management port on the nearest OOB switch with a
    free port (floor distance between the racks' centres).

    Returns (PDU devices, links, names of full racks): a rack without a free U gets no PDU.
    """
    from model.design.entities import Device
    from model.generators.facility_plan import rack_pdu_count

    free: dict[str, list[str]] = {
        s: [p for p in design.free_ports(s, "management") if p[0] == "p"] for s in oob_switches
    }
    where = [design.racks[design.devices[s].rack] for s in oob_switches]
    # The switches' floor positions and which still have a port, as arrays: the nearest open
    # switch for each of an XL hall's ~13.6k PDUs was a Python min over ~160 switches (~0.8 s
    # of its ~9.5 s build). argmin takes the first of equal distances, as min did.
    switch_x = np.array([r.x for r in where], dtype=float)
    switch_y = np.array([r.y for r in where], dtype=float)
    is_open = np.array([bool(free[s]) for s in oob_switches], dtype=bool)
    devices, links, full = [], [], []
    for rack in design.racks.values():
        taken: set[int] = set()
        for device in design.devices_in_rack(rack.id):
            height = design.device_type(device).u_height
            taken.update(range(device.u, device.u + height))
        n = rack_pdu_count(design, rack) if every_pdu else 1
        free_u = [u for u in range(rack.height_u, 0, -1) if u not in taken][:n]
        if len(free_u) < n:
            full.append(rack.name)
            if not free_u:
                continue
        distance_m = np.abs(switch_x - rack.x) + np.abs(switch_y - rack.y)
        for k, u in enumerate(free_u):
            if not is_open.any():
                raise GenerateError("the OOB switches have no port left for the racks' PDUs")
            i = int(np.argmin(np.where(is_open, distance_m, np.inf)))
            switch = oob_switches[i]
            pdu = f"pdu-{rack.id}" + (f"-{k + 1}" if n > 1 else "")
            devices.append(
                Device(id=pdu, name=pdu, type=PDU_TYPE, rack=rack.id, u=u, role="management")
            )
            links.append((pdu, "mgmt1", switch, free[switch].pop(0)))
            is_open[i] = bool(free[switch])
    return devices, links, full
