"""Nautobot Design Builder data: the design's sites, racks, devices, interfaces and planned cables, for NVIDIA's intended-cabling workflow.

NVIDIA's Config Manager keeps intended cabling in Nautobot. Nautobot's Design Builder app
(nautobot/nautobot-app-design-builder) creates objects from a YAML design: top-level keys are
the models' plural names (``location_types``, ``locations``, ``roles``, ``manufacturers``,
``device_types``, ``racks``, ``devices``), ``"!create_or_update:<field>"`` makes a re-run
update instead of duplicating, ``field__name`` looks a related object up, ``"!ref"`` names an
object for later use, and its ``CableConnectionExtension`` connects an interface with
``"!connect_cable": {status__name, to: {device, name}}`` (the app's Nautobot 2 test designs).
Two designs are written: the first creates everything, the second names the cables' A-end
devices again (a ``"!ref"`` lives within one design) and connects each cable on its B-end
interface, so every device a cable names already exists (the app's own cable test does so).

Statuses are ``Planned``. Interface types: Nautobot's InterfaceTypeChoices
(nautobot/dcim/choices.py) has only per-lane InfiniBand types ("NDR (100 Gbps)"), so a port is
typed by its cage and speed (``400gbase-x-osfp``), as the devicetype-library types the QM9700.
Cable type: the medium's (Nautobot and NetBox share those names), length the ordered length in
metres. A structured design (patch panels, trunks) is refused: its cords and trunks are not
written here yet; the NetBox export carries them.
"""

from __future__ import annotations

import json

from model.design.design import Design
from model.outputs.netbox.device_types import ETHERNET_TYPES
from model.outputs.schedule import schedule_table
from model.structured.layout import uses_structured

CABLE_EXTENSION = "nautobot_design_builder.contrib.ext.CableConnectionExtension"
STATUS = "Planned"
NEEDS = ("link_id", "a_device", "a_port", "b_device", "b_port", "ordered_length_m", "length_m",
         "label")  # fmt: skip


class NautobotExportError(ValueError):
    """The design cannot be written for Nautobot; ``str()`` is a sentence for the user."""


def _q(value) -> str:
    return json.dumps(value)


def _ref(kind: str, object_id: str) -> str:
    return f"{kind}_{object_id}"


def nautobot_design(design: Design, plant) -> str:
    """The Design Builder YAML of ``design`` (``plant``: its routed links, for cable lengths)."""
    if uses_structured(design):
        raise NautobotExportError(
            "the design is cabled through patch panels, which the Nautobot export does not "
            "write yet; export the NetBox folder (export-netbox) for its cords and trunks"
        )
    site = design.name or "Hallwright design"
    types = {d.type for d in design.devices.values()}
    roles = sorted({d.role for d in design.devices.values()})
    lines = ["---", "extensions:", f"  - {_q(CABLE_EXTENSION)}", "designs:"]
    lines += [
        "  - location_types:",
        '      - "!create_or_update:name": "Site"',
        "        content_types:",
        '          - {"!get:app_label": "dcim", "!get:model": "device"}',
        '          - {"!get:app_label": "dcim", "!get:model": "rack"}',
        "    locations:",
        f'      - {{location_type__name: "Site", "!create_or_update:name": {_q(site)}, '
        f"status__name: {_q(STATUS)}}}",
        "    roles:",
    ]
    for role in roles:
        lines.append(f'      - "!create_or_update:name": {_q(role)}')
        lines.append('        content_types: [{"!get:app_label": "dcim", "!get:model": "device"}]')
    lines.append("    manufacturers:")
    vendors = sorted({design.catalog.device_type(t).vendor for t in types})
    lines += [f'      - {{"!create_or_update:name": {_q(v)}}}' for v in vendors]
    lines.append("    device_types:")
    for type_id in sorted(types):
        dtype = design.catalog.device_type(type_id)
        lines.append(
            f"      - {{manufacturer__name: {_q(dtype.vendor)}, "
            f'"!create_or_update:model": {_q(dtype.model)}, u_height: {dtype.u_height}}}'
        )
    lines.append("    racks:")
    for rack in sorted(design.racks.values(), key=lambda r: r.name):
        lines.append(
            f'      - {{"!create_or_update:name": {_q(rack.name)}, "!ref": {_q(_ref("rack", rack.id))}, '
            f"location__name: {_q(site)}, status__name: {_q(STATUS)}, u_height: {rack.height_u}}}"
        )
    lines.append("    devices:")
    used = _used_ports(design)
    for device in sorted(design.devices.values(), key=lambda d: d.name):
        dtype = design.device_type(device.id)
        lines += [
            f'      - "!create_or_update:name": {_q(device.name)}',
            f'        "!ref": {_q(_ref("device", device.id))}',
            f"        location__name: {_q(site)}",
            f"        rack: {_q('!ref:' + _ref('rack', device.rack))}",
            f"        position: {device.u}",
            '        face: "front"',
            f"        status__name: {_q(STATUS)}",
            f"        role__name: {_q(device.role)}",
            f"        device_type__model: {_q(dtype.model)}",
        ]
        ports = [p for p in design.ports(device.id) if (device.id, p) in used]
        if ports:
            lines.append("        interfaces:")
        for port in ports:
            info = design.ports(device.id)[port]
            kind = ETHERNET_TYPES.get((round(info.speed_gbps), info.form_factor), "other")
            lines.append(
                f'          - {{"!create_or_update:name": {_q(port)}, type: {_q(kind)}, '
                f"status__name: {_q(STATUS)}}}"
            )
    lines += _cable_design(design, plant)
    return "\n".join(lines) + "\n"


def _used_ports(design: Design) -> set[tuple[str, str]]:
    return {(end.device, end.port) for link in design.links.values() for end in (link.a, link.b)}


def _cable_design(design: Design, plant) -> list[str]:
    """The second design: each cable on its B end's interface, to its A end."""
    table = schedule_table(design, plant, segments=False, only=NEEDS)
    cols = table.columns
    by_device: dict[str, list[str]] = {}
    for k, lid in enumerate(cols["link_id"]):
        link = design.links[lid]
        medium = plant.medium(lid) if plant is not None else None
        length = cols["ordered_length_m"][k]
        if length is None or length != length:
            length = cols["length_m"][k]
        attrs = [f"status__name: {_q(STATUS)}", f"label: {_q(cols['label'][k])}"]
        if medium is not None and medium.netbox_type:
            attrs.append(f"type: {_q(medium.netbox_type)}")
        if length is not None and length == length:
            attrs += [f"length: {round(float(length), 2)}", 'length_unit: "m"']
        to = f"to: {{device: {_q('!ref:' + _ref('device', link.a.device))}, name: {_q(link.a.port)}}}"
        by_device.setdefault(link.b.device, []).append(
            f'          - {{"!create_or_update:name": {_q(link.b.port)}, '
            f'"!connect_cable": {{{", ".join(attrs)}, {to}}}}}'
        )
    # A "!ref" names an object within one design (the app's cable test names Device 1 again in
    # its second design): the A ends are named first, then the B ends carry the cables.
    lines = ["  - devices:"]
    a_ends = {design.links[lid].a.device for lid in cols["link_id"]}
    for device_id in sorted(a_ends, key=lambda d: design.devices[d].name):
        name = _q(design.devices[device_id].name)
        ref = _q(_ref("device", device_id))
        lines.append(f'      - {{"!create_or_update:name": {name}, "!ref": {ref}}}')
    for device_id in sorted(by_device, key=lambda d: design.devices[d].name):
        lines += [
            f'      - "!create_or_update:name": {_q(design.devices[device_id].name)}',
            "        interfaces:",
            *by_device[device_id],
        ]
    return lines
