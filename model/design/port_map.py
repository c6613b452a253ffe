"""A device's port map: every port with its group, role, speed, the face it is on and where it
goes (far device, port and rack, or free) — the table an installer checks a server against."""

from __future__ import annotations

from dataclasses import dataclass

from model.design.design import Design


@dataclass(frozen=True)
class PortRow:
    port: str
    group: str
    role: str
    speed_gbps: float
    form_factor: str
    face: str  # "front" or "rear" of the rack
    link_id: str | None  # None: free
    far_device: str = ""
    far_port: str = ""
    far_rack: str = ""


def port_rows(design: Design, device_id: str) -> list[PortRow]:
    device = design.devices[device_id]
    face = design.device_type(device).ports_face
    rows = []
    for name, info in design.ports(device_id).items():
        link_id = design.link_at_port(device_id, name)
        far = far_port = far_rack = ""
        if link_id is not None:
            link = design.links[link_id]
            end = link.b if (link.a.device, link.a.port) == (device_id, name) else link.a
            other = design.devices[end.device]
            far, far_port, far_rack = other.name, end.port, design.racks[other.rack].name
        rows.append(
            PortRow(
                name,
                info.group,
                info.role,
                info.speed_gbps,
                info.form_factor,
                face,
                link_id,
                far,
                far_port,
                far_rack,
            )
        )
    return rows
