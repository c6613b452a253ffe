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

from collections.abc import Sequence

from model.design import Design
from model.schedule import ScheduleRow

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


def _node_type(design: Design, device_id: str) -> str:
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
    if _node_type(design, device_id) == "Host":
        return str(n) if info.role == "compute" else port
    if split:
        return f"{n}/{split}"
    if group.ports_per_cage > 1:
        cage, sub = divmod(n - 1, group.ports_per_cage)
        return f"{cage + 1}/{sub + 1}"
    return str(n)


def p2p_rows(
    design: Design, schedule: Sequence[ScheduleRow], port_style: str = "hallwright"
) -> list[tuple]:
    """One P2P row per cable of the schedule, in its order."""
    by_name: dict[tuple[str, int, str], str] = {}
    for d in design.devices.values():
        by_name[(design.racks[d.rack].name, d.u, d.name)] = d.id
    rows = []
    for row in schedule:
        a = by_name[(row.a_rack, row.a_u, row.a_device)]
        b = by_name[(row.b_rack, row.b_u, row.b_device)]
        a_port, b_port = row.a_port, row.b_port
        if port_style == "ib":
            a_port, b_port = ib_port_name(design, a, a_port), ib_port_name(design, b, b_port)
        rows.append(
            (
                row.a_rack,
                row.a_u,
                row.a_device,
                _node_type(design, a),
                a_port,
                row.b_rack,
                row.b_u,
                row.b_device,
                _node_type(design, b),
                b_port,
            )
        )
    return rows
