"""The names tools give a design's ports, mapped back to the design's own (``nic1``, ``p17``).

A report names ports as its tool does, not as the design does. Through the design's NIC and
port naming (``model.catalog.ports``: group name and number) and the InfiniBand names of
``model.outputs.p2p.ib_port_name``:

- every port: its design name, in any case;
- a switch port ``<group><n>``: its port number ``n`` (the IB port number ibnetdiscover and
  iblinkinfo print: cage k of a twin-port OSFP switch holds ports 2k-1 and 2k), its cage/port
  name (``9/1``, the switch CLI's and the Cable Validation Tool's), ``P<n>`` (ibdiagnet),
  ``swp<n>`` (Cumulus Linux), ``Eth1/<n>`` and ``Ethernet1/<n>`` (Onyx / NX-OS style), and a
  split port ``<group><n>/<k>`` as ``n/k`` and ``swp<n>s<k-1>``;
- a host's compute NIC port ``<group><n>``: HCA number ``n`` (the CVT's), ``mlx5_<n-1>`` (the
  RDMA device, the CVT's default HCA mapping), ``HCA-<n>`` and ``ib<n-1>`` (the Linux IPoIB
  interface, numbered in the same order), and the OS interface name the catalog lists for
  it (``ibp24s0`` on a DGX H100, as CVT 1.7 names host ports).

When two ports would share an alias the first in port order keeps it. A name that is no
port's alias is returned unchanged, and the check reports it as seen.
"""

from __future__ import annotations

from model.design.design import Design
from model.outputs.p2p import ib_port_name
from model.outputs.p2p_cvt17 import host_port_names

SWITCH_CATEGORIES = ("switch", "nvlink-switch")


def _aliases(design: Design, device_id: str) -> dict[str, str]:
    device_type = design.device_type(device_id)
    switch = device_type.category in SWITCH_CATEGORIES
    table: dict[str, str] = {}
    ports = design.ports(device_id)
    for port in ports:
        table.setdefault(port.casefold(), port)
    for port, info in ports.items():
        names = [ib_port_name(design, device_id, port)]
        base, _, split = port[len(info.group) :].partition("/")
        if base.isdigit():
            n = int(base)
            if switch and split.isdigit():
                names += [f"{n}/{split}", f"swp{n}s{int(split) - 1}"]
            elif switch:
                names += [str(n), f"P{n}", f"swp{n}", f"Eth1/{n}", f"Ethernet1/{n}"]
            elif info.role == "compute":
                names += [str(n), f"mlx5_{n - 1}", f"HCA-{n}", f"ib{n - 1}"]
        if not switch:  # the OS interface the catalog gives (ibp24s0): CVT 1.7's host ports
            names += [a for a in host_port_names(design, device_id, port)[:1] if a]
        for name in names:
            table.setdefault(name.casefold(), port)
    return table


class PortNames:
    """Maps a reported port name to the design's, per device (tables shared per type)."""

    def __init__(self, design: Design):
        self._design = design
        self._by_type: dict[tuple[str, tuple[tuple[str, int], ...]], dict[str, str]] = {}
        self._by_device: dict[str, dict[str, str]] = {}

    def resolve(self, device_id: str, port: str) -> str:
        table = self._by_device.get(device_id)
        if table is None:
            device = self._design.devices[device_id]
            key = (device.type, tuple(sorted(device.breakout.items())))
            table = self._by_type.get(key)
            if table is None:
                table = self._by_type[key] = _aliases(self._design, device_id)
            self._by_device[device_id] = table
        return table.get(port) or table.get(port.casefold(), port)
