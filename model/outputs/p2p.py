"""Point-to-point (P2P) file for NVIDIA's UFM Cable Validation Tool: one row per cable.

Columns are the tool's documented header (v1.5/1.6 "P2P File": A-Rack, A-U, A-Node Name,
A-Type, A-Port, Z-Rack, Z-RU, Z-Node Name, Z-Type, Z-Port; the tool finds its columns by these
names). A-Type / Z-Type are ``Host`` or ``Switch``. Rows are the cabling schedule's cables (A/B
ends as the cut sheet has them); backplane links are not cables and are left out.

Port names: ``hallwright`` (default) writes the design's names (``nic1``, ``p17``). ``ib`` writes
the InfiniBand names the tool's page shows: a switch port as its cage and port number
(``9/1`` for the first port of cage 9 of a twin-port OSFP switch, the plain number for one port
per cage, ``n/k`` for split port k), and a host's compute NIC port as its number (``1`` is
``mlx5_0``, the tool's default HCA mapping); other host ports keep their design names.
"""

from __future__ import annotations

from model.design.design import Design
from model.outputs.schedule import ScheduleTable

P2P_COLUMNS = (
    "A-Rack",
    "A-U",
    "A-Node Name",
    "A-Type",
    "A-Port",
    "Z-Rack",
    "Z-RU",
    "Z-Node Name",
    "Z-Type",
    "Z-Port",
)
PORT_STYLES = ("hallwright", "ib")


def node_type(design: Design, device_id: str) -> str:
    """``Switch`` for a switch or NVLink switch tray, else ``Host`` (the tool's A-Type / Z-Type)."""
    category = design.device_type(device_id).category
    return "Switch" if category in ("switch", "nvlink-switch") else "Host"


def ib_port_name(design: Design, device_id: str, port: str) -> str:
    """The port as the Cable Validation Tool's InfiniBand examples name it (see module doc)."""
    info = design.ports(device_id).get(port)
    if info is None:
        return port
    group = design.device_type(device_id).port_group(info.group)
    base, _, split = port[len(info.group) :].partition("/")
    if not base.isdigit() or group is None:
        return port
    n = int(base)
    if node_type(design, device_id) == "Host":
        return str(n) if info.role == "compute" else port
    if split:
        return f"{n}/{split}"
    if group.ports_per_cage > 1:
        cage, sub = divmod(n - 1, group.ports_per_cage)
        return f"{cage + 1}/{sub + 1}"
    return str(n)


# The schedule's columns the file is made from: its two ends (the table brings their device ids).
END_COLUMNS = ("a_rack", "a_u", "a_device", "a_port", "b_rack", "b_u", "b_device", "b_port")


def p2p_columns(
    design: Design, schedule: ScheduleTable, port_style: str = "hallwright"
) -> list[list]:
    """The P2P file column by column (``P2P_COLUMNS`` order), one row per cable of ``schedule``
    (a table of one row per link, with the device ids: ``schedule_table(segments=False)``).

    A node's type is looked up once per device and an InfiniBand port name once per (device
    type, breakout, port): at XL the file's 786k ends name ~21k devices and ~200 port names,
    and the columns are then gathered (no row object is made)."""
    cols = schedule.columns
    out: list[list] = []
    for side in ("a", "b"):
        devices = getattr(schedule, f"{side}_device_id")
        kind_of = {d: node_type(design, d) for d in dict.fromkeys(devices)}
        ports = cols[f"{side}_port"]
        if port_style == "ib":
            ports = _ib_ports(design, devices, ports)
        out += [
            cols[f"{side}_rack"],
            cols[f"{side}_u"],
            cols[f"{side}_device"],
            list(map(kind_of.__getitem__, devices)),
            ports,
        ]
    return out


def _ib_ports(design: Design, devices: list[str], ports: list[str]) -> list[str]:
    """:func:`ib_port_name` of each (device, port), made once per (type, breakout, port)."""
    group_of = {}
    for d in dict.fromkeys(devices):
        device = design.devices[d]
        breakout = tuple(sorted(device.breakout.items())) if device.breakout else ()
        group_of[d] = (device.type, breakout)
    named: dict[tuple, str] = {}
    out = []
    for d, port in zip(devices, ports, strict=True):
        key = (group_of[d], port)
        name = named.get(key)
        if name is None:
            name = named[key] = ib_port_name(design, d, port)
        out.append(name)
    return out


def p2p_rows(design: Design, schedule: ScheduleTable, port_style: str = "hallwright") -> list:
    """The P2P rows (:func:`p2p_columns`) as tuples, in the schedule's order."""
    return list(zip(*p2p_columns(design, schedule, port_style), strict=True))
