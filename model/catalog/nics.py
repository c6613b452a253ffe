"""NIC and DPU types: the port-carrying parts a server type is built from, and their port modes.

A ``NicType`` (ConnectX-7, ConnectX-8, ConnectX-9, BlueField-3, BlueField-4) says which port
modes its silicon runs, per protocol: ConnectX-8 is one 800G XDR InfiniBand port **or**
2 x 400GbE, never one 800GbE port (domain-facts §9, NVIDIA's firmware notes). A server type's
port group names the NIC behind it (``PortGroup.nic``); the catalog checks the group is a mode
the NIC has (:func:`group_problem`), and the analysis checks each link runs its NIC port in a
mode of the protocol of the switch at its far end (:func:`link_mode_problem`): a ConnectX-8
port cabled at 800G to an Ethernet switch is reported with the sentence that says to split it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

_Id = Annotated[str, Meta(min_length=1, max_length=200)]
_Count = Annotated[int, Meta(ge=1, le=64)]
_Gbps = Annotated[float, Meta(gt=0, le=1e6)]
Protocol = Literal["infiniband", "ethernet"]


class NicMode(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One way the NIC's lanes are run: ``ports`` ports of ``speed_gbps`` each (the lanes per
    port are the port group's: a 400G port of a 200G-SerDes NIC may run 2 x 200G or 4 x 100G
    to match the far end, which the media choice sees)."""

    protocol: Protocol
    ports: _Count
    speed_gbps: _Gbps


class NicType(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: _Id
    vendor: str
    model: str
    family: _Id  # the family the plug rules check parts against (ModulePart.hosts)
    kind: Literal["nic", "dpu"] = "nic"
    form_factors: tuple[_Id, ...]  # the cages boards of this NIC carry
    modes: tuple[NicMode, ...]
    pcie: str = ""
    power_w: Annotated[float, Meta(ge=0, le=1e4)] = 0.0
    source: _Id
    notes: str = ""

    def speeds(self, protocol: str) -> list[float]:
        """Port speeds (Gb/s) this NIC runs under ``protocol``, fastest first."""
        return sorted({m.speed_gbps for m in self.modes if m.protocol == protocol}, reverse=True)


def group_problem(nic: NicType, group) -> str:
    """Why a server's port group cannot be ports of ``nic`` ("" when it can): its form factor
    is not a cage of the NIC's boards, or its speed (or a breakout's) is no mode's."""
    if group.form_factor not in nic.form_factors:
        return (
            f"port group {group.name!r} is {group.form_factor}, and {nic.model} boards carry "
            + ", ".join(nic.form_factors)
        )
    speeds = {m.speed_gbps for m in nic.modes}
    wanted = [group.speed_gbps, *(b.speed_gbps for b in group.breakouts)]
    missing = [w for w in wanted if w not in speeds]
    if missing:
        return (
            f"port group {group.name!r} runs {missing[0]:g}G ports, which is no mode "
            f"of {nic.model} ("
            + "; ".join(f"{m.ports} x {m.speed_gbps:g}G {m.protocol}" for m in nic.modes)
            + ")"
        )
    return ""


def link_mode_problem(nic: NicType, speed_gbps: float, protocol: str) -> str:
    """Why a port of ``nic`` cannot run at ``speed_gbps`` on a ``protocol`` network ("" when
    it can), in words that say what to do instead."""
    speeds = nic.speeds(protocol)
    if not speeds:
        return f"{nic.model} has no {protocol} mode"
    if speed_gbps in speeds:
        return ""
    others = [m for m in nic.modes if m.protocol == protocol]
    best = max(others, key=lambda m: m.speed_gbps)
    return (
        f"{nic.model} runs no {speed_gbps:g}G {protocol} port: on {protocol} it is "
        f"{best.ports} x {best.speed_gbps:g}G (break the port out)"
    )
