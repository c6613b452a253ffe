"""Neighbour reports of a design's cabling in each format an installer has, written as the
tools document their output (see each reader's docstring in ``model.asbuilt.reports``).

``cables(design, swap, missing)`` is the hall as installed: every design link, except that the
switch ends of the two ``swap`` links are exchanged and the ``missing`` link is absent. Each
writer turns those cables into its tool's file(s) and names, so the check has to map the tool's
names (``mlx5_0``, IB port numbers, ``swp3``, ``9/1``) back to the design's.
"""

from __future__ import annotations

import csv
import json
import zlib
from pathlib import Path

from openpyxl import Workbook

from model.design.design import Design
from model.outputs.p2p import ib_port_name

Cable = tuple[str, str, str, str]  # host, host port, switch, switch port (design names)


def cables(design: Design, swap: tuple[str, str] | None = None, missing: str | None = None):
    """(host, port, switch, port) per link of ``design`` as installed (see module doc)."""
    ends = {}
    for link_id, link in sorted(design.links.items()):
        a, b = link.a, link.b
        if design.device_type(a.device).category == "switch":
            a, b = b, a
        ends[link_id] = [a.device, a.port, b.device, b.port]
    if swap:
        x, y = ends[swap[0]], ends[swap[1]]
        x[2:], y[2:] = y[2:], x[2:]
    return [tuple(e) for k, e in ends.items() if k != missing]


def _hca(port: str) -> str:
    return f"mlx5_{int(port.removeprefix('nic')) - 1}"


def _ibnum(port: str) -> int:
    return int(port.removeprefix("p"))


def _guid(name: str) -> str:
    return f"b83fd203{zlib.crc32(name.encode()):08x}"


def write_ibnetdiscover(design: Design, hall: list[Cable], path: Path) -> Path:
    lines = ["#", "# Topology file: generated on Sun Dec  6 09:00:00 2026", "#", ""]
    switches: dict[str, list[Cable]] = {}
    for cable in hall:
        switches.setdefault(cable[2], []).append(cable)
    for switch, own in sorted(switches.items()):
        guid = _guid(switch)
        lines += ["vendid=0x2c9", "devid=0xd2f0", f"sysimgguid=0x{guid}"]
        lines += [f"switchguid=0x{guid}({guid})"]
        lines += [
            f'Switch\t65 "S-{guid}"\t\t# "MF0;{switch}:MQM9700/U1" enhanced port 0 lid 1 lmc 0'
        ]
        for host, port, _, sport in sorted(own, key=lambda c: _ibnum(c[3])):
            ca = _guid(f"{host} {_hca(port)}")
            lines.append(
                f'[{_ibnum(sport)}]\t"H-{ca}"[1]({ca}) \t\t# "{host} {_hca(port)}" lid 5 4xNDR'
            )
        lines.append("")
    for host, port, switch, sport in hall:
        ca, sw = _guid(f"{host} {_hca(port)}"), _guid(switch)
        lines += ["vendid=0x2c9", "devid=0x1021", f"sysimgguid=0x{ca}", f"caguid=0x{ca}"]
        lines += [f'Ca\t1 "H-{ca}"\t\t# "{host} {_hca(port)}"']
        lines += [
            f'[1]({ca}) \t"S-{sw}"[{_ibnum(sport)}]\t\t# lid 5 lmc 0 "MF0;{switch}:MQM9700/U1" lid 1 4xNDR',
            "",
        ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_iblinkinfo(
    design: Design, hall: list[Cable], path: Path, line_mode: bool = False
) -> Path:
    link = "==( 4X      106.25 Gbps Active/  LinkUp)==>"
    if line_mode:  # iblinkinfo --line: the node's GUID and description on every port line
        lines = []
        for host, port, switch, sport in hall:
            hca, sw = f"{host} {_hca(port)}", f"MF0;{switch}:MQM9700/U1"
            lines.append(
                f'0x{_guid(hca)} "{hca}"      5    1[  ] {link}  0x{_guid(switch)}      1   '
                f'{_ibnum(sport)}[  ] "{sw}" ( )'
            )
            lines.append(
                f'0x{_guid(switch)} "{sw}"      1   {_ibnum(sport)}[  ] {link}  0x{_guid(hca)}      5'
                f'    1[  ] "{hca}" ( )'
            )
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path
    lines = []
    for host, port, switch, sport in hall:
        lines.append(f"CA: {host} {_hca(port)}:")
        lines.append(
            f"      0x{_guid(host + port)}      5    1[  ] {link}       1   {_ibnum(sport)}[  ] "
            f'"MF0;{switch}:MQM9700/U1" ( )'
        )
    by_switch: dict[str, dict[int, Cable]] = {}
    for cable in hall:
        by_switch.setdefault(cable[2], {})[_ibnum(cable[3])] = cable
    for switch, ports in sorted(by_switch.items()):
        lines.append(f"Switch: 0x{_guid(switch)} MF0;{switch}:MQM9700/U1:")
        for n in range(1, 65):
            if n in ports:
                host, port = ports[n][:2]
                lines.append(
                    f'           1   {n:2d}[  ] {link}       5    1[  ] "{host} {_hca(port)}" ( )'
                )
            else:
                lines.append(
                    f'           1   {n:2d}[  ] ==(                Down/ Polling)==>             [  ] "" ( )'
                )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _by_host(hall: list[Cable]) -> dict[str, list[Cable]]:
    out: dict[str, list[Cable]] = {}
    for cable in hall:
        out.setdefault(cable[0], []).append(cable)
    return out


def write_lldp_json(design: Design, hall: list[Cable], folder: Path) -> list[Path]:
    """One ``lldpctl -f json`` file per host, its interfaces as the design names its NICs and
    the switch ports as Cumulus Linux names them (``swp<n>``)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for host, own in sorted(_by_host(hall).items()):
        interfaces = [
            {
                port: {
                    "via": "LLDP",
                    "rid": "1",
                    "age": "0 day, 00:10:00",
                    "chassis": {switch: {"id": {"type": "mac", "value": "b8:3f:d2:00:00:01"}}},
                    "port": {
                        "id": {"type": "ifname", "value": f"swp{_ibnum(sport)}"},
                        "ttl": "120",
                    },
                }
            }
            for _, port, switch, sport in own
        ]
        document = {"lldp": {"interface": interfaces if len(interfaces) > 1 else interfaces[0]}}
        paths.append(folder / f"{host}.json")
        paths[-1].write_text(json.dumps(document, indent=2), encoding="utf-8")
    return paths


def write_lldp_keyvalue(design: Design, hall: list[Cable], folder: Path) -> list[Path]:
    """One ``lldpctl -f keyvalue`` file per host (the first also with ``show chassis``)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, (host, own) in enumerate(sorted(_by_host(hall).items())):
        lines = [f"local-chassis.chassis.name={host}"] if i == 0 else []
        for _, port, switch, sport in own:
            lines += [
                f"lldp.{port}.via=LLDP",
                f"lldp.{port}.chassis.mac=b8:3f:d2:00:00:01",
                f"lldp.{port}.chassis.name={switch}",
                f"lldp.{port}.chassis.descr=Cumulus Linux version 5.9",
                "running on NVIDIA SN5600",
                f"lldp.{port}.port.ifname=swp{_ibnum(sport)}",
                f"lldp.{port}.port.ttl=120",
            ]
        name = "node-report.txt" if i == 0 else f"{host}.txt"
        paths.append(folder / name)
        paths[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


CVT_LINK_COLUMNS = (
    "A-Rack", "A-U", "A-Node Name", "A-Type", "A-Port",
    "Z-Rack", "Z-RU", "Z-Node Name", "Z-Type", "Z-Port", "Protocol",
)  # fmt: skip


def _cvt_rows(design: Design, hall: list[Cable]) -> list[list]:
    rows = []
    for host, port, switch, sport in hall:
        h, s = design.devices[host], design.devices[switch]
        rows.append([
            design.racks[h.rack].name, h.u, host, "Host", int(ib_port_name(design, host, port)),
            design.racks[s.rack].name, s.u, switch, "Switch", ib_port_name(design, switch, sport),
            "IB",
        ])  # fmt: skip
    return rows


def write_cvt_workbook(design: Design, hall: list[Cable], path: Path) -> Path:
    book = Workbook()
    nodes = book.active
    nodes.title = "Nodes"
    nodes.append(["Rack", "U", "Node Name", "Type"])
    for d in design.devices.values():
        nodes.append(
            [design.racks[d.rack].name, d.u, d.name, "Switch" if d.role != "compute" else "Host"]
        )
    links = book.create_sheet("Links")
    links.append(list(CVT_LINK_COLUMNS))
    for row in _cvt_rows(design, hall):
        links.append(row)
    book.save(path)
    return path


def write_cvt_csv(design: Design, hall: list[Cable], path: Path) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(CVT_LINK_COLUMNS)
        writer.writerows(_cvt_rows(design, hall))
    return path


def write_netbox(design: Design, hall: list[Cable], path: Path, export: bool = False) -> Path:
    """NetBox's cable bulk-import CSV, or (``export``) the cable list's CSV export."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        if export:
            writer.writerow(
                ["ID", "Label", "Device A", "Termination A", "Device B", "Termination B", "Status"]
            )
            for i, (host, port, switch, sport) in enumerate(hall, start=1):
                writer.writerow([i, "", host, port, switch, sport, "Connected"])
        else:
            writer.writerow(
                [
                    "side_a_device",
                    "side_a_type",
                    "side_a_name",
                    "side_b_device",
                    "side_b_type",
                    "side_b_name",
                    "status",
                ]
            )
            for host, port, switch, sport in hall:
                writer.writerow(
                    [host, "dcim.interface", port, switch, "dcim.interface", sport, "connected"]
                )
    return path


def write_hallwright(design: Design, hall: list[Cable], path: Path) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["local_device", "local_port", "remote_device", "remote_port"])
        for host, port, switch, sport in hall:
            writer.writerow([host, port, switch, sport])
            writer.writerow([switch, sport, host, port])
    return path


# format name -> writer returning the report path(s) to check
WRITERS = {
    "hallwright": lambda d, h, tmp: [write_hallwright(d, h, tmp / "neighbours.csv")],
    "ibnetdiscover": lambda d, h, tmp: [write_ibnetdiscover(d, h, tmp / "fabric.topo")],
    "iblinkinfo": lambda d, h, tmp: [write_iblinkinfo(d, h, tmp / "links.txt")],
    "lldp-json": lambda d, h, tmp: write_lldp_json(d, h, tmp / "lldp"),
    "lldp-keyvalue": lambda d, h, tmp: write_lldp_keyvalue(d, h, tmp / "lldp"),
    "cvt": lambda d, h, tmp: [write_cvt_workbook(d, h, tmp / "cvt.xlsx")],
    "netbox": lambda d, h, tmp: [write_netbox(d, h, tmp / "cables.csv")],
}
