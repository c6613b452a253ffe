"""The networks beside the compute fabric: storage, in-band and out-of-band management, UFM, head nodes.

After the NVIDIA DGX SuperPOD reference architecture (NV-SP-H100; domain-facts §8c):

* **Storage**: its own fabric of the compute switch type when that is InfiniBand (QM9700 class),
  else of the same Ethernet switch. Storage appliances are attached 1:1 — a storage-appliance
  leaf has as many uplinks as appliance ports in use. Node storage leaves take the GPU servers'
  storage ports and carry uplinks near 4:3 (``ceil(3 d / 4)`` uplinks for ``d`` ports in use).
  Appliances are sized so their port capacity gives at least 40 GB/s (320 Gb/s) per GPU server.
  Each server cables ``STORAGE_PORTS`` storage ports (one per storage/in-band card); a server
  whose catalog entry has no front-end ports (DGX B200/B300, GB200/GB300 trays: BlueField-3
  cards carry storage and in-band) gives the first half of its storage-role ports to storage
  and the rest to in-band.
* **In-band**: Ethernet, two ports per GPU server (domain-facts §8c), two per head node and one
  per UFM appliance, on leaves of the port speed: SN4600C for 100GbE, an SN5600 run as
  128 x 400G for BlueField-3's 400G. Leaf uplinks ``ceil(d / 4)`` (at least 2) go to a spine
  pair (or pairs) of each speed, enough for every leaf uplink and, at 100G, the OOB switches'
  uplinks; the spines are where the site core would be joined.
* **Out-of-band**: 1 GbE (SN2201) to every BMC, every switch management port and every rack's
  PDU (one 1U metered PDU per rack at its highest free U, cabled once the racks exist); each OOB
  switch sends two uplinks to the in-band spines (pinned to the OOB fabric).
* **Management**: two UFM appliances (an HA pair) cabled into the compute fabric when it is
  InfiniBand, two more into the storage fabric, and two BCM head nodes; all on in-band and OOB.
  The compute UFM pair takes free compute ports (leaves first, then spines, cores); when the
  compute fabric has none — every SU full — it is left out and ``notes`` says so and how to
  make room (the reference architecture's SU is 31 DGX for this reason).

Switches are spread evenly: spines are the smallest count whose ports hold every leaf uplink,
and leaf uplinks go round-robin over them. Everything comes back as placement segments (a storage
row, a management row) and link lists, plus the fabric of every switch built here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from model.catalog.components import Catalog
from model.catalog.ports import port_table
from model.generators.placement import Segment, Unit
from model.generators.plans import GenerateError

PortLink = tuple[str, str, str, str]

ALL_FABRICS = ("compute", "storage", "inband", "oob")
INFINIBAND_SWITCHES = frozenset({"qm9700", "q3400"})  # Quantum-2 / Quantum-X800 (UFM-managed)
STORAGE_SWITCH = "qm9700"
INBAND_SWITCH = "sn4600c"
# In-band switch per server port speed: 100GbE on SN4600C; BlueField-3 400G in-band ports (DGX
# B200/B300, GB200/GB300 trays) on an SN5600 run as 128 x 400G.
INBAND_SWITCHES = {100.0: (INBAND_SWITCH, None), 400.0: ("sn5600", {"p": 2})}
OOB_SWITCH = "sn2201"
STORAGE_APPLIANCE = "storage-appliance-4x400"
UFM_APPLIANCE = "ufm-appliance"
UFM_BY_SPEED_GBPS = {400.0: "ufm-appliance", 800.0: "ufm-appliance-xdr"}  # NDR / XDR fabrics
HEAD_NODE = "mgmt-node"
STORAGE_PORTS = 2  # per GPU server
INBAND_PORTS = 2  # per GPU server (domain-facts 8c)
STORAGE_GBPS_PER_NODE = 320.0  # >= 40 GB/s per node (domain-facts 8c)
UFM_PER_FABRIC = 2
UFM_IB_PORTS = 2  # the ufm-appliance catalog entry's InfiniBand ports
HEAD_NODES = 2


def parse_fabrics(value: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """``compute`` | ``all`` | a comma list of compute, storage, inband, oob -> ordered tuple."""
    items = value.split(",") if isinstance(value, str) else list(value)
    items = [i.strip() for i in items if i.strip()]
    if items == ["all"]:
        return ALL_FABRICS
    unknown = [i for i in items if i not in ALL_FABRICS]
    if unknown or not items:
        raise GenerateError(
            f"--fabrics {','.join(items) or '(empty)'!s}: choose compute, all, or a comma list of "
            + ", ".join(ALL_FABRICS)
        )
    if "compute" not in items:
        raise GenerateError("--fabrics must include compute (the other networks serve it)")
    return tuple(f for f in ALL_FABRICS if f in items)


@dataclass
class Networks:
    segments: list[Segment] = field(default_factory=list)
    links: list[list[PortLink]] = field(default_factory=list)
    fabric_of: dict[str, str] = field(default_factory=dict)  # switch id -> fabric
    pinned: dict[tuple[str, str], str] = field(default_factory=dict)  # (device, port) -> fabric
    notes: list[str] = field(default_factory=list)  # what was left out, and how to get it


class _Ports:
    """Free ports of the devices built so far, by (device, role), handed out in order."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.free: dict[tuple[str, str], list[str]] = {}
        self.tables: dict[str, dict] = {}

    def add(self, device_id: str, type_id: str, breakout: dict[str, int] | None = None) -> None:
        table = port_table(self.catalog.device_types[type_id], breakout or {})
        self.tables[device_id] = table
        for name, info in table.items():
            self.free.setdefault((device_id, info.role), []).append(name)

    def take(self, device_id: str, role: str, n: int = 1) -> list[str]:
        ports = self.free.get((device_id, role), [])
        if len(ports) < n:
            raise GenerateError(f"{device_id} has no free {role} port left")
        out, self.free[(device_id, role)] = ports[:n], ports[n:]
        return out

    def count(self, device_id: str, role: str) -> int:
        return len(self.free.get((device_id, role), []))

    def use(self, device_id: str, port: str) -> None:
        """Mark ``port`` taken. Found through the device's port table (its role), not by
        scanning every device's free list: that scan made a 128-rack all-fabrics build
        quadratic (~2 min, 97 % of it here)."""
        info = self.tables.get(device_id, {}).get(port)
        ports = self.free.get((device_id, info.role), []) if info else []
        if port in ports:
            ports.remove(port)


def _data_role(catalog: Catalog, type_id: str) -> str:
    return next(g.role for g in catalog.device_types[type_id].port_groups if g.role != "management")


def _radix(catalog: Catalog, type_id: str, breakout: dict[str, int] | None = None) -> int:
    role = _data_role(catalog, type_id)
    table = port_table(catalog.device_types[type_id], breakout or {})
    return sum(1 for info in table.values() if info.role == role)


def _leaf_spine(
    catalog: Catalog,
    ports: _Ports,
    prefix: str,
    switch: str,
    leaves: list[tuple[str, int]],
    breakout: dict[str, int] | None = None,
) -> tuple[list[str], list[PortLink]]:
    """Spines for ``leaves`` [(leaf id, uplinks)], uplinks round-robin; returns (spines, links).
    The spines run the leaves' ``breakout`` (their uplinks are of the leaves' port speed)."""
    role = _data_role(catalog, switch)
    radix = _radix(catalog, switch, breakout)
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


def _leaves(
    catalog: Catalog,
    ports: _Ports,
    prefix: str,
    switch: str,
    endpoints: list[tuple[str, str]],
    up_for: callable,
    breakout: dict[str, int] | None = None,
) -> tuple[list[tuple[str, int]], list[PortLink]]:
    """Leaves of ``switch`` for ``endpoints`` [(device, port)], each with ``up_for(d)`` uplinks."""
    role = _data_role(catalog, switch)
    radix = _radix(catalog, switch, breakout)
    # The most downlinks d with d + up_for(d) <= radix.
    per_leaf = max(d for d in range(1, radix) if d + up_for(d) <= radix)
    n = max(1, math.ceil(len(endpoints) / per_leaf))
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


def build_networks(
    catalog: Catalog,
    segments: list[Segment],
    tiers: list[list[PortLink]],
    fabrics: tuple[str, ...],
    compute_switch: str,
    pdus: int = 0,
) -> Networks:
    """The storage, in-band, OOB and management networks for an already built compute fabric.

    ``pdus`` OOB ports are left free for the racks' PDUs, cabled once the racks exist
    (:func:`cable_pdus`)."""
    net = Networks()
    if fabrics == ("compute",):
        return net
    ports = _Ports(catalog)
    servers: list[tuple[str, str]] = []
    switches: list[tuple[str, str, str]] = []  # (id, type, role)
    for seg in segments:
        for unit in seg.units:
            for dev_id, type_id, role, _, breakout in unit.members:
                ports.add(dev_id, type_id, breakout)
                if role == "gpu-server":
                    servers.append((dev_id, type_id))
                else:
                    switches.append((dev_id, type_id, role))
        for dev_id, type_id, role, breakout in seg.switches:
            ports.add(dev_id, type_id, breakout)
            switches.append((dev_id, type_id, role))
    for tier in tiers:
        for a_dev, a_port, b_dev, b_port in tier:
            ports.use(a_dev, a_port)
            ports.use(b_dev, b_port)
    infiniband = compute_switch in INFINIBAND_SWITCHES
    mgmt_units: list[Unit] = []
    mgmt_switches: list[tuple[str, str, str, dict[str, int]]] = []
    storage_units: list[Unit] = []
    storage_switches: list[tuple[str, str, str, dict[str, int]]] = []

    def unit(dev_id: str, type_id: str, role: str, into: list[Unit]) -> None:
        dtype = catalog.device_types[type_id]
        into.append(Unit([(dev_id, type_id, role, 0, {})], dtype.u_height, dtype.power_max_w))
        ports.add(dev_id, type_id)

    # Management nodes: UFM pairs (InfiniBand fabrics only) and the head nodes.
    free_compute = sum(ports.count(s, "compute") for s, _, r in switches if r != "nvlink-switch")
    compute_gbps = _compute_port_speed(catalog, switches)
    ufm_type = UFM_BY_SPEED_GBPS.get(compute_gbps)
    ufm_compute = []
    if infiniband and ufm_type is None:
        net.notes.append(
            f"no UFM appliances for the compute fabric: the catalog has none for "
            f"{compute_gbps:g}G InfiniBand ports"
        )
    elif infiniband and free_compute >= UFM_PER_FABRIC * UFM_IB_PORTS:
        ufm_compute = [f"ufm-compute{i + 1}" for i in range(UFM_PER_FABRIC)]
    elif infiniband:
        net.notes.append(
            "no UFM appliances for the compute fabric: every compute switch port is used; leave "
            "a leaf port free (--reserve-ports 1, or 31 nodes per SU as the reference "
            "architecture does) to cable them"
        )
    with_storage = infiniband and "storage" in fabrics
    ufm_storage = [f"ufm-storage{i + 1}" for i in range(UFM_PER_FABRIC)] if with_storage else []
    heads = [f"head{i + 1}" for i in range(HEAD_NODES)]
    for dev in ufm_compute:
        unit(dev, ufm_type, "management", mgmt_units)
    for dev in ufm_storage:
        unit(dev, UFM_APPLIANCE, "management", mgmt_units)

    for dev in heads:
        unit(dev, HEAD_NODE, "management", mgmt_units)
    if ufm_compute:
        tiers_in_order = [
            [s for s, _, r in switches if r == role] for role in ("leaf", "spine", "core")
        ]
        net.links.append(_ufm_links(ports, ufm_compute, tiers_in_order))

    # Storage fabric.
    storage_ports: dict[str, list[str]] = {}
    inband_ports: dict[str, list[str]] = {}
    for dev, _type_id in servers:
        stor = list(ports.free.get((dev, "storage"), []))
        fe = list(ports.free.get((dev, "frontend"), []))
        if fe:
            storage_ports[dev] = stor[:STORAGE_PORTS]
            inband_ports[dev] = fe[:INBAND_PORTS]
        else:  # in-band on the storage/in-band cards' other ports (BlueField-3)
            half = min(STORAGE_PORTS, (len(stor) + 1) // 2)
            storage_ports[dev] = stor[:half]
            inband_ports[dev] = stor[half : half + INBAND_PORTS]
    if "storage" in fabrics and any(storage_ports.values()):
        endpoints = [(d, p) for d in storage_ports for p in storage_ports[d]]
        endpoints += [(u, p) for u in ufm_storage for p in _ufm_ports(ports, u)]
        s_switch, s_breakout = STORAGE_SWITCH, None
        if not infiniband:
            s_switch, s_breakout = _ethernet_storage_switch(
                catalog, compute_switch, _port_speed(catalog, ports, *endpoints[0])
            )
        for d, p in endpoints:
            ports.use(d, p)
        node_leaves, node_links = _leaves(
            catalog,
            ports,
            "stor-node",
            s_switch,
            endpoints,
            lambda d: math.ceil(3 * d / 4),
            s_breakout,
        )
        appliance = catalog.device_types[STORAGE_APPLIANCE]
        a_ports = [n for n, i in port_table(appliance).items() if i.role == "storage"]
        a_gbps = sum(port_table(appliance)[n].speed_gbps for n in a_ports)
        n_app = max(1, math.ceil(len(servers) * STORAGE_GBPS_PER_NODE / a_gbps))
        width = max(2, len(str(n_app)))
        apps = [f"storage{i + 1:0{width}d}" for i in range(n_app)]
        for dev in apps:
            unit(dev, STORAGE_APPLIANCE, "storage", storage_units)
        a_endpoints = [(d, p) for d in apps for p in a_ports]
        for d, p in a_endpoints:
            ports.use(d, p)
        app_leaves, app_links = _leaves(
            catalog, ports, "stor-app", s_switch, a_endpoints, lambda d: d, s_breakout
        )
        spines, spine_links = _leaf_spine(
            catalog, ports, "stor", s_switch, node_leaves + app_leaves, s_breakout
        )
        net.links += [node_links, app_links, spine_links]
        for leaf, _ in node_leaves + app_leaves:
            net.fabric_of[leaf] = "storage"
            storage_switches.append((leaf, s_switch, "leaf", dict(s_breakout or {})))
        for spine in spines:
            net.fabric_of[spine] = "storage"
            storage_switches.append((spine, s_switch, "spine", dict(s_breakout or {})))

    # In-band Ethernet: servers, head nodes, UFM appliances.
    inband_spines: list[str] = []  # the 100GbE spines, where the OOB switches uplink
    inband_next = 0  # the spine the next uplink goes to (round-robin over leaves, then OOB)
    if "inband" in fabrics:
        endpoints = [(d, p) for d in inband_ports for p in inband_ports[d]]
        for dev in heads + ufm_compute + ufm_storage:
            endpoints += [(dev, p) for p in ports.free.get((dev, "frontend"), [])]
        for d, p in endpoints:
            ports.use(d, p)
        by_speed: dict[float, list[tuple[str, str]]] = {}
        for d, p in endpoints:
            by_speed.setdefault(_port_speed(catalog, ports, d, p), []).append((d, p))
        # The 100GbE group last: its spines take the OOB uplinks, so they are sized once every
        # other in-band switch (each with a management port on the OOB network) exists.
        for speed, group in sorted(by_speed.items(), key=lambda item: (item[0] == 100, item[0])):
            if speed not in INBAND_SWITCHES:
                raise GenerateError(f"no in-band switch in the catalog for {speed:g}G ports")
            switch, breakout = INBAND_SWITCHES[speed]
            prefix = "inband" if speed == 100 else f"inband{speed:g}g"
            leaves, leaf_links = _leaves(
                catalog,
                ports,
                prefix,
                switch,
                group,
                lambda d: max(2, math.ceil(d / 4)),
                breakout,
            )
            role = _data_role(catalog, switch)
            radix = _radix(catalog, switch, breakout)
            leaf_uplinks = sum(up for _, up in leaves)
            n_spines = max(2, 2 * math.ceil(leaf_uplinks / (2 * radix)))  # pairs
            if speed == 100 and "oob" in fabrics:
                # The OOB switches' two uplinks each land here too. Their count follows from
                # every management port the OOB network will serve, these spines' own included:
                # grow the spine pairs until they hold both (a few rounds at most).
                managed = len(
                    _oob_endpoints(
                        ports,
                        [d for d, _ in servers],
                        mgmt_units + storage_units,
                        [s for s, _, _ in switches]
                        + [s for s, *_ in storage_switches + mgmt_switches]
                        + [leaf for leaf, _ in leaves],
                    )
                )
                per_spine = _management_port_count(catalog, switch)
                while True:
                    oob_switches = _oob_switch_count(catalog, managed + n_spines * per_spine, pdus)
                    need = max(2, 2 * math.ceil((leaf_uplinks + 2 * oob_switches) / (2 * radix)))
                    if need <= n_spines:
                        break
                    n_spines = need
            spines = [f"{prefix}-spine{i + 1}" for i in range(n_spines)]
            for spine in spines:
                ports.add(spine, switch, breakout)
            spine_links = []
            k = 0
            for leaf, up in leaves:
                for port in ports.take(leaf, role, up):
                    spine = spines[k % n_spines]
                    k += 1
                    spine_links.append((leaf, port, spine, ports.take(spine, role)[0]))
            net.links += [leaf_links, spine_links]
            for leaf, _ in leaves:
                net.fabric_of[leaf] = "inband"
                mgmt_switches.append((leaf, switch, "leaf", breakout or {}))
            for spine in spines:
                net.fabric_of[spine] = "inband"
                mgmt_switches.append((spine, switch, "spine", breakout or {}))
            if speed == 100:
                inband_spines = spines
                inband_next = k  # the OOB uplinks go on round the spines from here
        inband_switch = INBAND_SWITCH

    # Out-of-band 1 GbE: every BMC and every switch management port (this module's too).
    if "oob" in fabrics:
        all_switches = [s for s, _, _ in switches] + [
            s for s, *_ in storage_switches + mgmt_switches
        ]
        endpoints = _oob_endpoints(
            ports, [d for d, _ in servers], mgmt_units + storage_units, all_switches
        )
        n = _oob_switch_count(catalog, len(endpoints), pdus)
        oob = [f"oob{i + 1:0{max(2, len(str(n)))}d}" for i in range(n)]
        for s in oob:
            ports.add(s, OOB_SWITCH)
        for d, p in endpoints:
            ports.use(d, p)
        per = math.ceil(len(endpoints) / n)
        links: list[PortLink] = []
        for i, (d, p) in enumerate(endpoints):
            sw = oob[i // per]
            links.append((d, p, sw, ports.take(sw, "management")[0]))
        if n > 1:  # each OOB switch's own management port on its neighbour
            for i, s in enumerate(oob):
                ports.use(s, "mgmt1")
                nxt = oob[(i + 1) % n]
                links.append((s, "mgmt1", nxt, ports.take(nxt, "management")[0]))
        up_links: list[PortLink] = []
        if inband_spines and _data_role(catalog, inband_switch) == "frontend":
            role = _data_role(catalog, inband_switch)
            for i, s in enumerate(oob):
                for j, port in enumerate(ports.take(s, "frontend", 2)):
                    # Continuing the leaves' round-robin keeps every spine within its ports:
                    # starting again at spine 1 overfilled the first ones (XL, all fabrics).
                    spine = inband_spines[(inband_next + 2 * i + j) % len(inband_spines)]
                    sp = ports.take(spine, role)[0]
                    up_links.append((s, port, spine, sp))
                    net.pinned[(s, port)] = "oob"
        net.links += [links, up_links]
        for s in oob:
            net.fabric_of[s] = "oob"
            mgmt_switches.append((s, OOB_SWITCH, "management", {}))

    if storage_units or storage_switches:
        net.segments.append(Segment(units=storage_units, switches=storage_switches, own_row=True))
    net.segments.append(Segment(units=mgmt_units, switches=mgmt_switches, own_row=True))
    return net


def _oob_endpoints(
    ports: _Ports, servers: list[str], units: list[Unit], switches: list[str]
) -> list[tuple[str, str]]:
    """The management ports (BMC, switch mgmt) the OOB network serves, in cabling order."""
    devices = servers + [u.members[0][0] for u in units] + switches
    return [
        (d, p)
        for d in devices
        for p in ports.free.get((d, "management"), [])
        if p.startswith(("bmc", "mgmt"))
    ]


def _management_port_count(catalog: Catalog, type_id: str) -> int:
    """Management ports of one ``type_id`` device the OOB network serves."""
    table = port_table(catalog.device_types[type_id])
    return sum(
        1 for n, i in table.items() if i.role == "management" and n.startswith(("bmc", "mgmt"))
    )


def _oob_switch_count(catalog: Catalog, endpoints: int, pdus: int) -> int:
    """OOB switches for ``endpoints`` management ports and the PDUs: n switches hold them all
    plus, when n > 1, each other's management port."""
    per_switch = sum(g.count for g in catalog.device_types[OOB_SWITCH].port_groups if g.name == "p")
    n = max(1, math.ceil((endpoints + pdus) / per_switch))
    if n > 1:
        n = math.ceil((endpoints + pdus) / (per_switch - 1))
    return n


PDU_TYPE = "pdu-1u-metered"


def cable_pdus(design, oob_switches: list[str]) -> tuple[list, list[PortLink], list[str]]:
    """One metered PDU per rack at its highest free U, its management port on an OOB switch.

    Returns (PDU devices, links, names of full racks): a rack without a free U gets no PDU.
    """
    from model.design.entities import Device

    free: list[tuple[str, str]] = [
        (s, p) for s in oob_switches for p in design.free_ports(s, "management") if p[0] == "p"
    ]
    devices, links, full = [], [], []
    for rack in design.racks.values():
        taken = set()
        for device in design.devices_in_rack(rack.id):
            height = design.device_type(device).u_height
            taken.update(range(device.u, device.u + height))
        u = next((u for u in range(rack.height_u, 0, -1) if u not in taken), None)
        if u is None:
            full.append(rack.name)
            continue
        if not free:
            raise GenerateError("the OOB switches have no port left for the racks' PDUs")
        pdu = f"pdu-{rack.id}"
        devices.append(
            Device(id=pdu, name=pdu, type=PDU_TYPE, rack=rack.id, u=u, role="management")
        )
        switch, port = free.pop(0)
        links.append((pdu, "mgmt1", switch, port))
    return devices, links, full


def _ethernet_storage_switch(
    catalog: Catalog, compute_switch: str, speed_gbps: float
) -> tuple[str, dict[str, int] | None]:
    """An Ethernet storage fabric on the compute switch type run at the storage ports' speed
    (broken out when that is how it gets there: an SN5610 as 128 x 400G for BlueField-3 ports),
    else the in-band switch of that speed."""
    dtype = catalog.device_types[compute_switch]
    group = next(g for g in dtype.port_groups if g.role != "management")
    if group.speed_gbps == speed_gbps:
        return compute_switch, None
    option = next((b for b in group.breakouts if b.speed_gbps == speed_gbps), None)
    if option is not None:
        return compute_switch, {group.name: option.fanout}
    if speed_gbps in INBAND_SWITCHES:
        return INBAND_SWITCHES[speed_gbps]
    raise GenerateError(f"no storage switch in the catalog for {speed_gbps:g}G storage ports")


def _port_speed(catalog: Catalog, ports: _Ports, device: str, port: str) -> float:
    return ports.tables[device][port].speed_gbps


def _compute_port_speed(catalog: Catalog, switches: list[tuple[str, str, str]]) -> float:
    """Port speed (Gb/s) of the compute fabric's switches (their compute group, as run)."""
    for _dev, type_id, role in switches:
        if role in ("leaf", "spine", "core"):
            group = next(
                g for g in catalog.device_types[type_id].port_groups if g.role == "compute"
            )
            return group.speed_gbps
    return 0.0


def _ufm_ports(ports: _Ports, ufm: str) -> list[str]:
    """A UFM appliance's free InfiniBand ports (its ``ib`` group; the BMC is management too)."""
    return [p for p in ports.free.get((ufm, "management"), []) if p.startswith("ib")]


def _ufm_links(ports: _Ports, ufms: list[str], tiers: list[list[str]]) -> list[PortLink]:
    """Each UFM appliance's fabric ports on free compute ports: leaves first (last leaves first,
    where a partial SU leaves ports free), then spines, then cores."""
    out: list[PortLink] = []
    candidates = [
        switch for tier in tiers for switch in reversed(tier) if ports.count(switch, "compute")
    ]
    for ufm in ufms:
        for port in _ufm_ports(ports, ufm):
            switch = next((x for x in candidates if ports.count(x, "compute")), None)
            if switch is None:
                raise GenerateError(
                    "the UFM appliances need a free compute fabric port and every port is used; "
                    "use --reserve-ports 1 or one node fewer per SU (the reference "
                    "architecture's SU is 31 DGX + UFM), or leave out the other networks"
                )
            ports.use(ufm, port)
            out.append((ufm, port, switch, ports.take(switch, "compute")[0]))
            candidates = candidates[1:] + candidates[:1]  # spread over switches
    return out
