"""UFM appliances on the InfiniBand fabrics: their free fabric ports and the links that put them on
free compute-fabric switch ports (NVIDIA's SuperPOD RAs: a UFM pair per InfiniBand fabric).

The DGX H100 RA's Table 8 also lists "2 x 1 Gbps Cat5e, UFM Back-to-Back" (NV-SP-H100-T8), one
HA cable per pair. It is not built: no UFM appliance datasheet in the sources gives the port it
takes, and the catalog's appliance (2 InfiniBand, 1 in-band, 1 BMC port, an estimate) has every
port cabled. Table 8's 4 QSFP-to-SFP+ adapters and 1G BaseT modules "for the UFM connections"
hint at a QSFP port run at 1 GbE, which is an inference, not a datasheet's port.
"""

from __future__ import annotations

from model.generators.leaf_spine import FreePorts, PortLink
from model.generators.plans import GenerateError


def ufm_ports(ports: FreePorts, ufm: str) -> list[str]:
    """A UFM appliance's free InfiniBand ports (its ``ib`` group; the BMC is management too)."""
    return [p for p in ports.free.get((ufm, "management"), []) if p.startswith("ib")]


def ufm_links(ports: FreePorts, ufms: list[str], tiers: list[list[str]]) -> list[PortLink]:
    """Each UFM appliance's fabric ports on free compute ports: leaves first (last leaves first,
    where a partial SU leaves ports free), then spines, then cores."""
    out: list[PortLink] = []
    candidates = [
        switch for tier in tiers for switch in reversed(tier) if ports.count(switch, "compute")
    ]
    for ufm in ufms:
        for port in ufm_ports(ports, ufm):
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
