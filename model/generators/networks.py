"""The networks beside the compute fabric: storage, in-band and out-of-band management, UFM, head nodes.

After the NVIDIA DGX SuperPOD reference architecture (NV-SP-H100; domain-facts §8c):

* **Storage**: its own fabric of the compute switch type when that is InfiniBand (QM9700 class),
  else of the same Ethernet switch. GB200/GB300 and Vera Rubin NVL72 trays (BlueField-3/-4, no
  front-end ports) run storage and in-band on one converged Spectrum-4 fabric instead, as the
  GB200 SuperPOD and Vera Rubin reference architectures do (their in-band network then serves head nodes, UFMs and OOB). Storage appliances are attached 1:1 — a storage-appliance
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
  PDU (one 1U metered PDU per rack at its highest free U, cabled once the racks exist), from
  OOB switches in each run of racks (an SU, a spine block, the storage and management rows) to
  that run's ports, so every link is within UTP reach (:mod:`model.generators.oob`); each OOB
  switch sends two uplinks to the in-band spines (pinned to the OOB fabric). Where the servers'
  RA names the rack PDUs, every PDU is cabled; for the DGX H100 RA's own hall (4 SUs or fewer,
  every network) its racks and 8 hall-wide OOB switches instead (:mod:`model.generators.ra_layout`).
* **Management**: two UFM appliances (an HA pair) cabled into the compute fabric when it is
  InfiniBand, two more into the storage fabric, and four BCM management servers (head nodes;
  the DGX H100 SuperPOD RA's Table 7, NV-SP-H100-T7); all on in-band and OOB.
  The compute UFM pair takes free compute ports (leaves first, then spines, cores); when the
  compute fabric has none — every SU full — it is left out and ``notes`` says so and how to
  make room (the reference architecture's SU is 31 DGX for this reason).

Switches are spread evenly: spines are the smallest count whose ports hold every leaf uplink,
and leaf uplinks go round-robin over them (:mod:`model.generators.leaf_spine`). Everything comes
back as placement segments (a storage row, a management row) and link lists, plus the fabric of
every switch built here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from model.catalog.components import Catalog
from model.catalog.ports import port_table
from model.design.entities import Fabric
from model.generators import ra_layout
from model.generators.leaf_spine import (
    FreePorts,
    PortLink,
    add_leaves,
    add_spines,
    data_role,
    port_radix,
)
from model.generators.network_ports import (
    converged_servers,
    server_port_split,
    uncabled_notes,
)
from model.generators.oob import (
    hall_switch_count,
    management_port_count,
    place_oob,
    run_switch_count,
)
from model.generators.placement import Segment, Unit
from model.generators.plans import GenerateError
from model.generators.ufm import ufm_links, ufm_ports

ALL_FABRICS = ("compute", "storage", "inband", "oob")
INFINIBAND_SWITCHES = frozenset({"qm9700", "q3400"})  # Quantum-2 / Quantum-X800 (UFM-managed)
STORAGE_SWITCH = "qm9700"
INBAND_SWITCH = "sn4600c"
# In-band switch per server port speed: 100GbE on SN4600C; BlueField-3 400G in-band ports (DGX
# B200/B300, GB200/GB300 trays) on an SN5600 run as 128 x 400G.
INBAND_SWITCHES = {100.0: (INBAND_SWITCH, None), 400.0: ("sn5600", {"p": 2})}
STORAGE_APPLIANCE = "storage-appliance-4x400"
UFM_APPLIANCE = "ufm-appliance"
UFM_BY_SPEED_GBPS = {400.0: "ufm-appliance", 800.0: "ufm-appliance-xdr"}  # NDR / XDR fabrics
HEAD_NODE = "mgmt-node"
STORAGE_GBPS_PER_NODE = 320.0  # >= 40 GB/s per node (domain-facts 8c)
UFM_PER_FABRIC = 2
UFM_IB_PORTS = 2  # the ufm-appliance catalog entry's InfiniBand ports
HEAD_NODES = 4  # "BCM Management servers: 4" (NV-SP-H100-T7; an earlier version said 5)


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
    pinned: dict[tuple[str, str], Fabric] = field(default_factory=dict)  # (device, port) -> fabric
    notes: list[str] = field(default_factory=list)  # what was left out, and how to get it
    # Every rack PDU on the OOB network, where the servers' RA names them (model.generators.oob)
    every_pdu: bool = False
    # The compute runs' switch lists with their OOB switches in place (index -> switches).
    run_switches: dict[int, list[tuple[str, str, str, dict[str, int]]]] = field(
        default_factory=dict
    )
    # Compute runs whose switches stand in the management racks (ra_layout): not laid out alone.
    merged_runs: set[int] = field(default_factory=set)

    def placed(self, segments: list[Segment]) -> list[Segment]:
        """The compute runs with their OOB switches, then this module's rows, to lay out."""
        runs = [
            replace(seg, switches=self.run_switches[i]) if i in self.run_switches else seg
            for i, seg in enumerate(segments)
            if i not in self.merged_runs
        ]
        return runs + self.segments


def build_networks(
    catalog: Catalog,
    segments: list[Segment],
    tiers: list[list[PortLink]],
    fabrics: tuple[str, ...],
    compute_switch: str,
) -> Networks:
    """The storage, in-band, OOB and management networks for an already built compute fabric.

    Each run's OOB switches keep a port free for each of its racks' PDUs, cabled once the racks
    exist (:func:`model.generators.oob.cable_pdus`)."""
    if fabrics == ("compute",):
        return Networks()
    build = _NetworkBuild(catalog, fabrics, compute_switch)
    build.take_compute_fabric(segments, tiers)
    build.net.every_pdu = any(catalog.device_types[t].rack_pdus for _, t in build.servers)
    # The DGX H100 SuperPOD RA's own racks and OOB switches for the hall it describes.
    build.ra = ra_layout.applies(segments, build.net.every_pdu, set(fabrics) == set(ALL_FABRICS))
    build.converged = {"storage", "inband"} <= set(fabrics) and converged_servers(
        catalog, build.servers
    )
    ufm_compute, ufm_storage, heads = build.management_nodes()
    storage_ports, inband_ports = server_port_split(build.ports, build.servers, build.converged)
    if "storage" in fabrics and "inband" in fabrics:
        build.net.notes += uncabled_notes(catalog, build.servers, storage_ports, inband_ports)
    if "storage" in fabrics and any(storage_ports.values()):
        build.storage_fabric(storage_ports, ufm_storage)
    inband_spines: list[str] = []  # the 100GbE spines, where the OOB switches uplink
    inband_next = 0  # the spine the next uplink goes to (round-robin over leaves, then OOB)
    if "inband" in fabrics:
        inband_spines, inband_next = build.inband_fabric(
            inband_ports, heads + ufm_compute + ufm_storage
        )
    if "oob" in fabrics:
        build.oob_fabric(inband_spines, inband_next)
    return build.finish()


class _NetworkBuild:
    """One run of :func:`build_networks`: the free ports, the devices so far, what it adds."""

    def __init__(self, catalog: Catalog, fabrics: tuple[str, ...], compute: str):
        self.catalog, self.fabrics, self.compute_switch = catalog, fabrics, compute
        self.runs: list[Segment] = []  # the compute fabric's runs of racks
        self.infiniband = compute in INFINIBAND_SWITCHES
        self.converged = (
            False  # storage and in-band on one Ethernet fabric (network_ports.converged_servers)
        )
        self.net = Networks()
        self.ports = FreePorts(catalog)
        self.servers: list[tuple[str, str]] = []
        self.switches: list[tuple[str, str, str]] = []  # (id, type, role)
        self.mgmt_units: list[Unit] = []
        self.mgmt_switches: list[tuple[str, str, str, dict[str, int]]] = []
        self.storage_units: list[Unit] = []
        self.storage_switches: list[tuple[str, str, str, dict[str, int]]] = []
        # Storage systems racked with the compute runs (a Vera Rubin POD's BlueField-4 STX
        # nodes): they are the storage, and no generic appliance is added.
        self.run_storage: list[tuple[str, str]] = []
        self.ra = False  # the RA's rack arrangement (model.generators.ra_layout)

    def take_compute_fabric(self, segments: list[Segment], tiers: list[list[PortLink]]) -> None:
        """Registers the compute fabric's servers and switches and marks its cabled ports used."""
        ports = self.ports
        self.runs = list(segments)
        for seg in segments:
            for unit in seg.units:
                for dev_id, type_id, role, _, breakout in unit.members:
                    ports.add(dev_id, type_id, breakout)
                    category = self.catalog.device_types[type_id].category
                    # GPU servers, and a POD's CPU servers: both reach storage and in-band.
                    if role == "gpu-server" or category == "server":
                        self.servers.append((dev_id, type_id))
                    elif category == "storage":
                        self.run_storage.append((dev_id, type_id))
                    else:
                        self.switches.append((dev_id, type_id, role))
            for dev_id, type_id, role, breakout in seg.switches:
                ports.add(dev_id, type_id, breakout)
                self.switches.append((dev_id, type_id, role))
        for tier in tiers:
            for a_dev, a_port, b_dev, b_port in tier:
                ports.use(a_dev, a_port)
                ports.use(b_dev, b_port)

    def unit(self, dev_id: str, type_id: str, role: str, into: list[Unit]) -> None:
        """Adds one single-device unit (an appliance or a head node) to a new row's units."""
        dtype = self.catalog.device_types[type_id]
        into.append(Unit([(dev_id, type_id, role, 0, {})], dtype.u_height, dtype.power_max_w))
        self.ports.add(dev_id, type_id)

    def management_nodes(self) -> tuple[list[str], list[str], list[str]]:
        """The UFM pairs (InfiniBand only) and head nodes: (compute UFMs, storage UFMs, heads)."""
        ufm_type, ufm_compute = self._compute_ufms()
        with_storage = self.infiniband and "storage" in self.fabrics and not self.converged
        ufm_storage = [f"ufm-storage{i + 1}" for i in range(UFM_PER_FABRIC)] if with_storage else []
        heads = [f"head{i + 1}" for i in range(HEAD_NODES)]
        if ufm_type is not None:  # without one, _compute_ufms gave no compute UFMs
            for dev in ufm_compute:
                self.unit(dev, ufm_type, "management", self.mgmt_units)
        for dev in ufm_storage:
            self.unit(dev, UFM_APPLIANCE, "management", self.mgmt_units)
        for dev in heads:
            self.unit(dev, HEAD_NODE, "management", self.mgmt_units)
        if ufm_compute:
            tiers_in_order = [
                [s for s, _, r in self.switches if r == role] for role in ("leaf", "spine", "core")
            ]
            self.net.links.append(ufm_links(self.ports, ufm_compute, tiers_in_order))
        return ufm_compute, ufm_storage, heads

    def _compute_ufms(self) -> tuple[str | None, list[str]]:
        """(UFM type, compute UFM ids): none, with a note saying why, when they cannot be cabled."""
        ports = self.ports
        free_compute = sum(
            ports.count(s, "compute") for s, _, r in self.switches if r != "nvlink-switch"
        )
        compute_gbps = _compute_port_speed(self.catalog, self.switches)
        ufm_type = UFM_BY_SPEED_GBPS.get(compute_gbps)
        if not self.infiniband:
            return ufm_type, []
        if ufm_type is None:
            self.net.notes.append(
                f"no UFM appliances for the compute fabric: the catalog has none for "
                f"{compute_gbps:g}G InfiniBand ports"
            )
            return ufm_type, []
        if free_compute >= UFM_PER_FABRIC * UFM_IB_PORTS:
            return ufm_type, [f"ufm-compute{i + 1}" for i in range(UFM_PER_FABRIC)]
        self.net.notes.append(
            "no UFM appliances for the compute fabric: every compute switch port is used; leave "
            "a leaf port free (--reserve-ports 1, or 31 nodes per SU as the reference "
            "architecture does) to cable them"
        )
        return ufm_type, []

    def storage_fabric(self, storage_ports: dict[str, list[str]], ufm_storage: list[str]) -> None:
        """Node storage leaves, appliance leaves 1:1 and their spines, on the storage switch."""
        catalog, ports = self.catalog, self.ports
        endpoints = [(d, p) for d in storage_ports for p in storage_ports[d]]
        endpoints += [(u, p) for u in ufm_storage for p in ufm_ports(ports, u)]
        s_switch, s_breakout = STORAGE_SWITCH, None
        if self.converged:
            # Spectrum-4 at the BlueField-3 ports' speed (an SN5600 as 128 x 400G).
            speed = _port_speed(catalog, ports, *endpoints[0])
            if speed not in INBAND_SWITCHES:
                raise GenerateError(f"no converged Ethernet switch for {speed:g}G ports")
            s_switch, s_breakout = INBAND_SWITCHES[speed]
        elif not self.infiniband:
            s_switch, s_breakout = _ethernet_storage_switch(
                catalog, self.compute_switch, _port_speed(catalog, ports, *endpoints[0])
            )
        endpoints = across_leaves(endpoints)
        for d, p in endpoints:
            ports.use(d, p)
        node_leaves, node_links = add_leaves(
            catalog,
            ports,
            "stor-node",
            s_switch,
            endpoints,
            lambda d: math.ceil(3 * d / 4),
            s_breakout,
            # Converged: each tray's ports on two separate switches (NV-RA-VR; NV-SP-GB200's
            # parallel pathways), so two leaves even where one would hold every port (1-2 racks).
            min_leaves=2 if self.converged else 1,
        )
        a_endpoints = self._storage_appliances()
        for d, p in a_endpoints:
            ports.use(d, p)
        app_leaves, app_links = add_leaves(
            catalog, ports, "stor-app", s_switch, a_endpoints, lambda d: d, s_breakout
        )
        spines, spine_links = add_spines(
            catalog, ports, "stor", s_switch, node_leaves + app_leaves, s_breakout
        )
        self.net.links += [node_links, app_links, spine_links]
        for leaf, _ in node_leaves + app_leaves:
            self.net.fabric_of[leaf] = "storage"
            self.storage_switches.append((leaf, s_switch, "leaf", dict(s_breakout or {})))
        for spine in spines:
            self.net.fabric_of[spine] = "storage"
            self.storage_switches.append((spine, s_switch, "spine", dict(s_breakout or {})))

    def _storage_appliances(self) -> list[tuple[str, str]]:
        """Adds the storage appliances (>= 40 GB/s per GPU server); returns their storage ports.
        Storage systems already racked in the runs (a POD's STX nodes) are used instead."""
        if self.run_storage:
            return [
                (d, p)
                for d, t in self.run_storage
                for p, i in port_table(self.catalog.device_types[t]).items()
                if i.role == "storage"
            ]
        appliance = self.catalog.device_types[STORAGE_APPLIANCE]
        a_ports = [n for n, i in port_table(appliance).items() if i.role == "storage"]
        a_gbps = sum(port_table(appliance)[n].speed_gbps for n in a_ports)
        n_app = max(1, math.ceil(len(self.servers) * STORAGE_GBPS_PER_NODE / a_gbps))
        width = max(2, len(str(n_app)))
        apps = [f"storage{i + 1:0{width}d}" for i in range(n_app)]
        for dev in apps:
            self.unit(dev, STORAGE_APPLIANCE, "storage", self.storage_units)
        return [(d, p) for d in apps for p in a_ports]

    def inband_fabric(
        self, inband_ports: dict[str, list[str]], devices: list[str]
    ) -> tuple[list[str], int]:
        """In-band Ethernet for servers, head nodes and UFMs, one leaf-spine per port speed.

        Returns the 100GbE spines and the spine their round-robin reached (the OOB uplinks go
        on from there)."""
        ports = self.ports
        endpoints = [(d, p) for d in inband_ports for p in inband_ports[d]]
        for dev in devices:
            endpoints += [(dev, p) for p in ports.free.get((dev, "frontend"), [])]
        for d, p in endpoints:
            ports.use(d, p)
        by_speed: dict[float, list[tuple[str, str]]] = {}
        for d, p in endpoints:
            by_speed.setdefault(_port_speed(self.catalog, ports, d, p), []).append((d, p))
        inband_spines: list[str] = []
        inband_next = 0
        # The 100GbE group last: its spines take the OOB uplinks, so they are sized once every
        # other in-band switch (each with a management port on the OOB network) exists.
        for speed, group in sorted(by_speed.items(), key=lambda item: (item[0] == 100, item[0])):
            spines, k = self._inband_leaf_spine(speed, group)
            if speed == 100:
                inband_spines = spines
                inband_next = k  # the OOB uplinks go on round the spines from here
        return inband_spines, inband_next

    def _inband_leaf_spine(
        self, speed: float, group: list[tuple[str, str]]
    ) -> tuple[list[str], int]:
        """Leaves and spine pairs of one in-band port speed: (spines, uplinks cabled)."""
        catalog, ports = self.catalog, self.ports
        if speed not in INBAND_SWITCHES:
            raise GenerateError(f"no in-band switch in the catalog for {speed:g}G ports")
        switch, breakout = INBAND_SWITCHES[speed]
        prefix = "inband" if speed == 100 else f"inband{speed:g}g"
        leaves, leaf_links = add_leaves(
            catalog,
            ports,
            prefix,
            switch,
            across_leaves(group),
            lambda d: max(2, math.ceil(d / 4)),
            breakout,
        )
        role = data_role(catalog, switch)
        n_spines = self._inband_spine_count(speed, switch, breakout, leaves)
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
        self.net.links += [leaf_links, spine_links]
        for leaf, _ in leaves:
            self.net.fabric_of[leaf] = "inband"
            self.mgmt_switches.append((leaf, switch, "leaf", breakout or {}))
        for spine in spines:
            self.net.fabric_of[spine] = "inband"
            self.mgmt_switches.append((spine, switch, "spine", breakout or {}))
        return spines, k

    def _inband_spine_count(
        self,
        speed: float,
        switch: str,
        breakout: dict[str, int] | None,
        leaves: list[tuple[str, int]],
    ) -> int:
        """Spines (in pairs) for the leaves' uplinks and, at 100G, the OOB switches' uplinks."""
        radix = port_radix(self.catalog, switch, breakout)
        leaf_uplinks = sum(up for _, up in leaves)
        n_spines = max(2, 2 * math.ceil(leaf_uplinks / (2 * radix)))  # pairs
        if speed != 100 or "oob" not in self.fabrics:
            return n_spines
        # The OOB switches' two uplinks each land here too. Their count follows from every
        # management port the OOB network will serve, these spines' own included: grow the
        # spine pairs until they hold both (a few rounds at most).
        per_spine = management_port_count(self.catalog, switch)
        mgmt_row = Segment(
            units=self.mgmt_units,
            switches=self.mgmt_switches
            + [(leaf, switch, "leaf", breakout or {}) for leaf, _ in leaves],
        )
        every = self.net.every_pdu
        others = 0
        if not self.ra:  # the RA's OOB switches are counted for the whole hall below
            others = sum(
                run_switch_count(self.catalog, self.ports, r, every_pdu=every)
                for r in self._other_runs()
            )
        while True:
            spines = [(f"spine-{i}", switch, "spine", breakout or {}) for i in range(n_spines)]
            if self.ra:
                runs = self._ra_runs(mgmt_row.switches + spines)
                hosts = len(ra_layout.su_indices(self.runs))
                extra = n_spines * per_spine
                oob_switches = hall_switch_count(
                    self.catalog, self.ports, runs, hosts, every, extra_endpoints=extra
                )
                need = max(2, 2 * math.ceil((leaf_uplinks + 2 * oob_switches) / (2 * radix)))
                if need <= n_spines:
                    return n_spines
                n_spines = need
                continue
            in_mgmt = run_switch_count(
                self.catalog,
                self.ports,
                replace(mgmt_row, switches=mgmt_row.switches + spines),
                extra_endpoints=n_spines * per_spine + 1,
                every_pdu=every,
            )
            oob_switches = others + in_mgmt
            need = max(2, 2 * math.ceil((leaf_uplinks + 2 * oob_switches) / (2 * radix)))
            if need <= n_spines:
                return n_spines
            n_spines = need

    def _other_runs(self) -> list[Segment]:
        """The runs other than the management row: the compute runs and the storage row."""
        storage = [Segment(units=self.storage_units, switches=self.storage_switches)]
        return self.runs + (storage if self.storage_units or self.storage_switches else [])

    def _ra_runs(self, mgmt_switches: list[tuple[str, str, str, dict[str, int]]]) -> list[Segment]:
        """The RA's runs (:mod:`model.generators.ra_layout`): the SUs, the storage appliances'
        row, the management racks with the compute spines and ``mgmt_switches``."""
        sus = [self.runs[i] for i in ra_layout.su_indices(self.runs)]
        block = self.runs[ra_layout.spine_block_index(self.runs)]
        storage = [Segment(units=self.storage_units)] if self.storage_units else []
        mgmt = ra_layout.management_run(
            block, self.storage_switches, mgmt_switches, self.mgmt_units
        )
        return sus + storage + [mgmt]

    def _ra_oob_fabric(self, inband_spines: list[str], inband_next: int) -> None:
        """The RA's OOB: every OOB switch in an SU's network rack, serving the whole hall."""
        sus = ra_layout.su_indices(self.runs)
        runs = self._ra_runs(self.mgmt_switches)
        switch_lists, links, oob = place_oob(
            self.catalog, self.ports, runs, self.net.every_pdu, hosts=len(sus)
        )
        for k, i in enumerate(sus):
            self.net.run_switches[i] = switch_lists[k]
        self.net.merged_runs = {ra_layout.spine_block_index(self.runs)}
        self.net.links += [links, self._oob_uplinks(oob, inband_spines, inband_next)]
        for s in oob:
            self.net.fabric_of[s] = "oob"

    def oob_fabric(self, inband_spines: list[str], inband_next: int) -> None:
        """Out-of-band 1 GbE: OOB switches in every run, each serving the BMCs, switch
        management ports and PDUs of the racks around it (:mod:`model.generators.oob`)."""
        if self.ra:
            self._ra_oob_fabric(inband_spines, inband_next)
            return
        runs = self._other_runs() + [Segment(units=self.mgmt_units, switches=self.mgmt_switches)]
        switch_lists, links, oob = place_oob(self.catalog, self.ports, runs, self.net.every_pdu)
        for i in range(len(self.runs)):
            self.net.run_switches[i] = switch_lists[i]
        if self.storage_units or self.storage_switches:
            self.storage_switches[:] = switch_lists[len(self.runs)]
        self.mgmt_switches[:] = switch_lists[-1]
        self.net.links += [links, self._oob_uplinks(oob, inband_spines, inband_next)]
        for s in oob:
            self.net.fabric_of[s] = "oob"

    def _oob_uplinks(
        self, oob: list[str], inband_spines: list[str], inband_next: int
    ) -> list[PortLink]:
        """Two uplinks of each OOB switch to the 100GbE in-band spines (pinned to the OOB)."""
        up_links: list[PortLink] = []
        if not inband_spines or data_role(self.catalog, INBAND_SWITCH) != "frontend":
            return up_links
        role = data_role(self.catalog, INBAND_SWITCH)
        for i, s in enumerate(oob):
            for j, port in enumerate(self.ports.take(s, "frontend", 2)):
                # Continuing the leaves' round-robin keeps every spine within its ports:
                # starting again at spine 1 overfilled the first ones (XL, all fabrics).
                spine = inband_spines[(inband_next + 2 * i + j) % len(inband_spines)]
                sp = self.ports.take(spine, role)[0]
                up_links.append((s, port, spine, sp))
                self.net.pinned[(s, port)] = "oob"
        return up_links

    def finish(self) -> Networks:
        """The networks with their rows: storage (if any) and management."""
        net = self.net
        if self.ra:
            if self.storage_units:  # partner storage: a row of its own, outside Table 7
                net.segments.append(Segment(units=self.storage_units, own_row=True))
            net.segments.append(self._ra_runs(self.mgmt_switches)[-1])
            return net
        if self.storage_units or self.storage_switches:
            net.segments.append(
                Segment(units=self.storage_units, switches=self.storage_switches, own_row=True)
            )
        net.segments.append(
            Segment(units=self.mgmt_units, switches=self.mgmt_switches, own_row=True)
        )
        return net


def across_leaves(endpoints: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Every device's first port, then every device's second, ...: leaves take contiguous
    chunks, so a server's two storage (or in-band) ports land on two leaves, the "parallel
    pathways" the DGX SuperPOD RA gives each pair (NV-SP-H100). In device order, 123 of the
    Table 7 hall's 127 DGX had both storage ports on one leaf: a leaf's failure cut 16 off."""
    ordinal: dict[str, int] = {}
    keyed = []
    for device, port in endpoints:
        k = ordinal.get(device, 0)
        ordinal[device] = k + 1
        keyed.append((k, device, port))
    keyed.sort(key=lambda item: item[0])  # stable: device order kept within an ordinal
    return [(device, port) for _, device, port in keyed]


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


def _port_speed(catalog: Catalog, ports: FreePorts, device: str, port: str) -> float:
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
