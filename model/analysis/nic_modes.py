"""NIC_MODE_UNSUPPORTED: a NIC port cabled to a switch in a mode the NIC does not have.

A server's port group names its NIC (``PortGroup.nic``, :mod:`model.catalog.nics`) and a switch
its protocol (``DeviceType.protocol``). A link between them runs at the slower end's port speed;
the NIC must have a mode of that speed in the switch's protocol. ConnectX-8 cabled at 800G to
an Ethernet switch is the case this exists for: it runs 800G only as XDR InfiniBand and is
2 x 400GbE on Ethernet (domain-facts §9), so the port must be broken out.

Read once per topology (the analyzer's structure stage): only links with a NIC end and a
switch end of declared protocol are looked at, one dictionary lookup per end.
"""

from __future__ import annotations

from model.catalog.nics import link_mode_problem
from model.common.findings import Finding

MAX_NAMED = 20  # link ids a finding carries (the sentence gives the count)


def nic_mode_findings(design) -> list[Finding]:
    """One warning per (NIC, switch type, speed) that no mode of the NIC runs, naming the
    links (the first :data:`MAX_NAMED`) and saying what to do."""
    catalog = design.catalog
    types = catalog.device_types
    nic_devices = set()
    protocol_of: dict[str, str] = {}
    has_nic: dict[str, bool] = {}  # per type, not per device: whether a port group has a NIC
    for device in design.devices.values():
        dtype = types[device.type]
        nic = has_nic.get(device.type)
        if nic is None:
            nic = has_nic[device.type] = any(g.nic for g in dtype.port_groups)
        if nic:
            nic_devices.add(device.id)
        if dtype.protocol:
            protocol_of[device.id] = dtype.protocol
    if not nic_devices or not protocol_of:
        return []
    bad: dict[tuple[str, str, float], list[str]] = {}
    for link in design.links.values():
        a, b = link.a, link.b
        if a.device in nic_devices and b.device in protocol_of:
            nic_end, switch_end = a, b
        elif b.device in nic_devices and a.device in protocol_of:
            nic_end, switch_end = b, a
        else:
            continue
        port = design.ports(nic_end.device).get(nic_end.port)
        far = design.ports(switch_end.device).get(switch_end.port)
        if port is None or far is None:
            continue
        device = design.devices[nic_end.device]
        group = types[device.type].port_group(port.group)
        if group is None or not group.nic:
            continue
        speed = min(port.speed_gbps, far.speed_gbps)
        nic = catalog.nic_types[group.nic]
        if link_mode_problem(nic, speed, protocol_of[switch_end.device]):
            switch_type = design.devices[switch_end.device].type
            bad.setdefault((nic.id, switch_type, speed), []).append(link.id)
    out = []
    for (nic_id, switch_type, speed), links in sorted(bad.items()):
        nic = catalog.nic_types[nic_id]
        dtype = types[switch_type]
        why = link_mode_problem(nic, speed, dtype.protocol)
        out.append(
            Finding(
                code="NIC_MODE_UNSUPPORTED",
                severity="error",
                message=f"{len(links)} link(s) from {nic.model} ports to {dtype.model} "
                f"({dtype.protocol}) at {speed:g}G: {why}",
                objects=tuple(sorted(links)[:MAX_NAMED]),
            )
        )
    return out
