"""The Cable Validation Tool 1.7+ point-to-point workbook (Nodes + Links sheets, Protocol per link) and the host port-mapping file.

CVT 1.7.1's documentation (docs.nvidia.com/networking, cablevalidationtool171, "P2P File")
describes a Links sheet with the columns A-Node, A-Port, Z-Node, Z-Port and Protocol
(``ib``/``ethernet``/``nvlink``), all mandatory, and optional ones among which A-Module-PN and
Z-Module-PN; "A-Node ... Must exist in the Nodes sheet"; column names are case-insensitive.
The Nodes sheet written here (Node, Type, Rack, U) follows the 1.5/1.6 vocabulary; its 1.7
column list was not in the documentation excerpt available when this was written, so check it
against the tool's own template before a first import.

Port names, as the tool reads them:

* a host port is the OS interface name ("the custom NIC name if available or the default NIC
  name", ``ip address show``), taken from the catalog's ``os_interfaces`` (DGX H100: nic1 is
  ``ibp24s0``, its InfiniBand-mode name) on an InfiniBand link, else the design's name;
* an InfiniBand switch port is its cage/port (``9/1``), as :func:`model.outputs.p2p.ib_port_name`;
* an Ethernet switch port is ``swp<n>`` (split ``swp<n>s<k-1>``), the tool's Ethernet naming;
* an NVLink port keeps the design's name.

Protocol: ``nvlink`` on the scale-up fabric; ``ib`` when either end is a Quantum switch (NVIDIA's
InfiniBand line); ``ethernet`` otherwise.

The port-mapping file (the tool's documented "HCA mapping" CSV, ``port,hca-name``) maps each host
port the P2P file names to its RDMA device, so that every DGX rail reaches its compute NIC: the
tool's default (port n -> ``mlx5_<n-1>``) sends DGX H100 rails 2, 3 and 8 to ``mlx5_1``,
``mlx5_2`` and ``mlx5_7``, which are not compute NICs (the compute ones are mlx5_0, 3, 4, 5, 6,
9, 10, 11: the user guide's network-modules table, source DGXH100-UG).
"""

from __future__ import annotations

from model.design.design import Design
from model.design.fabrics import link_fabric_map
from model.outputs.p2p import ib_port_name, node_type
from model.outputs.schedule import ScheduleTable

NODE_COLUMNS = ("Node", "Type", "Rack", "U")
LINK_COLUMNS = ("A-Node", "A-Port", "Z-Node", "Z-Port", "Protocol", "A-Module-PN", "Z-Module-PN")
MAPPING_HEADER = ("port", "hca-name")
SCHEDULE_NEEDS = ("link_id", "a_rack", "a_u", "a_device", "a_port", "b_rack", "b_u", "b_device",
                  "b_port", "a_module", "b_module")  # fmt: skip
IB_FAMILY_PREFIX = "Quantum"


class MappingError(ValueError):
    """No consistent port mapping can be written; ``str()`` is a sentence for the user."""


def host_port_names(design: Design, device_id: str, port: str) -> tuple[str | None, str | None]:
    """(OS interface, RDMA device) of a host port, from its port group's catalog lists."""
    info = design.ports(device_id).get(port)
    if info is None:
        return None, None
    group = design.device_type(device_id).port_group(info.group)
    number = port[len(info.group) :]
    if group is None or not number.isdigit():
        return None, None
    i = int(number) - 1
    os_name = group.os_interfaces[i] if i < len(group.os_interfaces) else None
    rdma = group.rdma_devices[i] if i < len(group.rdma_devices) else None
    return os_name, rdma


def link_protocol(design: Design, fabric: str, a: str, b: str) -> str:
    if fabric == "scale-up":
        return "nvlink"
    for device_id in (a, b):
        if design.device_type(device_id).family.startswith(IB_FAMILY_PREFIX):
            return "ib"
    return "ethernet"


def port_name(design: Design, device_id: str, port: str, protocol: str) -> str:
    """The port as CVT 1.7 names it (see the module docstring)."""
    if protocol == "nvlink":
        return port
    if node_type(design, device_id) == "Host":
        # The catalog's interface names are the InfiniBand-mode ones (ibp24s0); a ConnectX in
        # Ethernet mode is named otherwise (enp...np0), so Ethernet hosts keep the design's.
        if protocol == "ib":
            return host_port_names(design, device_id, port)[0] or port
        return port
    if protocol == "ib":
        return ib_port_name(design, device_id, port)
    info = design.ports(device_id).get(port)
    base, _, split = port[len(info.group) :].partition("/") if info else (port, "", "")
    if not base.isdigit():
        return port
    return f"swp{base}s{int(split) - 1}" if split.isdigit() else f"swp{base}"


def _type_key(design: Design, device_id: str) -> tuple:
    device = design.devices[device_id]
    return (device.type, tuple(sorted(device.breakout.items())) if device.breakout else ())


def cvt17_sheets(design: Design, schedule: ScheduleTable) -> tuple[list[tuple], list[tuple]]:
    """(Nodes rows, Links rows) of the workbook: one node per device cabled, one link per
    cable of ``schedule`` (``schedule_table(segments=False, only=SCHEDULE_NEEDS)``)."""
    cols = schedule.columns
    fabric = link_fabric_map(design)
    nodes: dict[str, tuple] = {}
    links = []
    # Names and protocols depend on the device's type (and breakout), not on the device:
    # worked out once per distinct key (at XL ~786k ends name ~200 ports of a few types).
    kind_of = {d: _type_key(design, d) for d in dict.fromkeys(schedule.a_device_id)}
    kind_of.update({d: _type_key(design, d) for d in dict.fromkeys(schedule.b_device_id)})
    protocols: dict[tuple, str] = {}
    names: dict[tuple, str] = {}

    def named(device_id: str, port: str, protocol: str) -> str:
        key = (kind_of[device_id], port, protocol)
        if key not in names:
            names[key] = port_name(design, device_id, port, protocol)
        return names[key]

    for k, lid in enumerate(cols["link_id"]):
        a, b = schedule.a_device_id[k], schedule.b_device_id[k]
        pkey = (fabric[lid], kind_of[a], kind_of[b])
        if pkey not in protocols:
            protocols[pkey] = link_protocol(design, fabric[lid], a, b)
        protocol = protocols[pkey]
        for side, device_id in (("a", a), ("b", b)):
            name = cols[f"{side}_device"][k]
            if name not in nodes:
                kind = node_type(design, device_id)
                nodes[name] = (name, kind, cols[f"{side}_rack"][k], cols[f"{side}_u"][k])
        links.append(
            (
                cols["a_device"][k],
                named(a, cols["a_port"][k], protocol),
                cols["b_device"][k],
                named(b, cols["b_port"][k], protocol),
                protocol,
                cols["a_module"][k] or "",
                cols["b_module"][k] or "",
            )
        )
    return list(nodes.values()), links


def port_mapping(design: Design, version: str) -> list[tuple[str, str]]:
    """The ``port,hca-name`` rows for the hosts' compute ports: the port as the P2P file of
    ``version`` names it (1.5: the HCA number ``n`` of ``--ports ib``; 1.7: the OS interface)
    and its RDMA device. Raises :class:`MappingError` when two host types disagree on a port,
    or when no host type in the design publishes its RDMA names."""
    rows: dict[str, str] = {}
    for device_id, device in design.devices.items():
        if node_type(design, device_id) != "Host":
            continue
        for port, info in design.ports(device_id).items():
            if info.role != "compute":
                continue
            os_name, rdma = host_port_names(design, device_id, port)
            if rdma is None:
                continue
            key = os_name if version == "1.7" else ib_port_name(design, device_id, port)
            if key is None:
                continue
            if rows.setdefault(key, rdma) != rdma:
                raise MappingError(
                    f"host port {key!r} is {rows[key]} on one host type and {rdma} on "
                    f"{device.type}; one mapping file cannot serve both"
                )
    if not rows:
        raise MappingError(
            "no host type in the design lists its NICs' RDMA device names in the catalog, so "
            "no mapping can be written (the tool's default maps port n to mlx5_<n-1>)"
        )
    return sorted(rows.items(), key=lambda r: (len(r[0]), r[0]))
