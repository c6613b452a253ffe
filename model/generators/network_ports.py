"""Which ports of the GPU servers each network beside the compute fabric takes.

Storage and in-band share the servers' storage-role ports (BlueField-3 cards) when a server has
no front-end ports; on GB200/GB300 (BlueField-3) and Vera Rubin (BlueField-4) NVL72 trays the
two networks are one converged Spectrum-4 fabric (the GB200 SuperPOD and Vera Rubin reference
architectures), which takes every such port.
"""

from __future__ import annotations

from model.catalog.components import Catalog
from model.generators.leaf_spine import FreePorts

STORAGE_PORTS = 2  # per GPU server
INBAND_PORTS = 2  # per GPU server (domain-facts 8c)
# The DPUs whose ports carry storage and in-band on one converged fabric: BlueField-3 on GB200
# and GB300 trays (NV-SP-GB200), BlueField-4 on Vera Rubin NVL72 trays, whose RA names three
# physical fabrics, the converged one joining each node by two 400G ports (NV-RA-VR).
CONVERGED_DPUS = frozenset({"bluefield-3", "bluefield-4"})
# Both RAs describe NVL72 trays. Rubin Ultra / Kyber (144-package domain) carries BlueField-4
# too, but no source read gives its storage or in-band networks (TOMS-KYBER, SEMI-GTC26 give
# the rack): it keeps the DGX SuperPOD RA's separate storage and in-band fabrics.
CONVERGED_DOMAIN_GPUS = 72


def converged_servers(catalog: Catalog, servers: list[tuple[str, str]]) -> bool:
    """Whether storage and in-band share one Ethernet fabric: the GB200 SuperPOD reference
    architecture runs both on Spectrum-4 (NV-SP-GB200, domain-facts §9), its NVL72 compute
    trays carrying them on BlueField-3 with no front-end ports; so does every server here of
    that build (an NVL72 tray whose storage ports are a DPU's of :data:`CONVERGED_DPUS`).

    A server with no GPUs (a Vera Rubin POD's Vera CPU tray) does not decide it: choice, as
    NV-RA-VR joins each node of the POD to the converged fabric by two 400G ports and the CPU
    tray's ports are the same BlueField-4's, it joins the GPU trays' converged fabric (both
    ports, on two switches) when its ports are all such a DPU's; with front-end ports it does
    not, and the fabrics stay apart."""
    types = {t for _, t in servers}
    gpu_types = 0
    for type_id in types:
        dtype = catalog.device_types[type_id]
        stor = dtype.ports_of_role("storage")
        if dtype.ports_of_role("frontend") or not stor:
            return False
        if any(g.nic not in CONVERGED_DPUS for g in stor):
            return False
        if dtype.gpus is None:
            continue
        if (
            dtype.gpus.scale_up_domain != "links"
            or dtype.gpus.scale_up_domain_gpus != CONVERGED_DOMAIN_GPUS
        ):
            return False
        gpu_types += 1
    return gpu_types > 0


def server_port_split(
    ports: FreePorts, servers: list[tuple[str, str]], converged: bool = False
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Each GPU server's (storage ports, in-band ports): front-end ports carry in-band when the
    server has them, else the storage/in-band cards' other ports do (BlueField-3); on a
    converged fabric every storage-role port is on it and none on a separate in-band one."""
    storage_ports: dict[str, list[str]] = {}
    inband_ports: dict[str, list[str]] = {}
    for dev, _type_id in servers:
        stor = list(ports.free.get((dev, "storage"), []))
        fe = list(ports.free.get((dev, "frontend"), []))
        if converged:
            storage_ports[dev] = stor[: STORAGE_PORTS + INBAND_PORTS]
            inband_ports[dev] = []
        elif fe:
            storage_ports[dev] = stor[:STORAGE_PORTS]
            inband_ports[dev] = fe[:INBAND_PORTS]
        else:
            half = min(STORAGE_PORTS, (len(stor) + 1) // 2)
            storage_ports[dev] = stor[:half]
            inband_ports[dev] = stor[half : half + INBAND_PORTS]
    return storage_ports, inband_ports


def uncabled_notes(
    catalog: Catalog,
    servers: list[tuple[str, str]],
    storage_ports: dict[str, list[str]],
    inband_ports: dict[str, list[str]],
) -> list[str]:
    """A sentence per server type whose storage-role ports are not all cabled: the networks
    take the reference architecture's two storage and two in-band ports a node (domain-facts
    8c) and no source read says what the others carry (a Kyber canister's 36 BlueField-4 ports)."""
    used: dict[str, tuple[int, int]] = {}
    for dev, type_id in servers:
        n = len(storage_ports.get(dev, ())) + len(inband_ports.get(dev, ()))
        seen = used.get(type_id)
        used[type_id] = (min(n, seen[0]) if seen else n, (seen[1] if seen else 0) + 1)
    notes = []
    for type_id, (n, count) in sorted(used.items()):
        total = sum(g.count for g in catalog.device_types[type_id].ports_of_role("storage"))
        if 0 < n < total:
            notes.append(
                f"{count} {type_id}: {n} of each one's {total} storage/in-band ports cabled "
                f"(the reference architecture's two storage and two in-band a node); no source "
                f"read says what the other {total - n} carry, so they are left free"
            )
    return notes
