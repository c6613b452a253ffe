"""Port names of a device type, with the speed, lanes and form factor of each port.

A port group ``nic`` of 8 ports gives ``nic1`` ... ``nic8``; broken out 2 ways it gives
``nic1/1``, ``nic1/2``, ... at the breakout's speed. Tables are cached per (type, breakout):
a 400k-link design validates every link end against them.
"""

from __future__ import annotations

from functools import lru_cache

from msgspec import Struct

from model.catalog.components import DeviceType


class PortInfo(Struct, frozen=True):
    group: str
    index: int  # 0-based position in the device's full port list
    role: str
    speed_gbps: float
    lanes: int
    form_factor: str
    ports_per_cage: int

    @property
    def lane_rate_gbps(self) -> float:
        return self.speed_gbps / self.lanes


def port_table(
    device_type: DeviceType, breakout: dict[str, int] | None = None
) -> dict[str, PortInfo]:
    """All ports of a device of ``device_type`` with the given breakout, by name, in order."""
    key = tuple(sorted((breakout or {}).items()))
    return _port_table(device_type, key)


@lru_cache(maxsize=512)
def _port_table(
    device_type: DeviceType, breakout_key: tuple[tuple[str, int], ...]
) -> dict[str, PortInfo]:
    fanouts = dict(breakout_key)
    table: dict[str, PortInfo] = {}
    index = 0
    for group in device_type.port_groups:
        fanout = fanouts.get(group.name, 1)
        option = group.breakout(fanout) if fanout > 1 else None
        speed, lanes = (
            (option.speed_gbps, option.lanes) if option else (group.speed_gbps, group.lanes)
        )
        for i in range(1, group.count + 1):
            names = (
                [f"{group.name}{i}/{j}" for j in range(1, fanout + 1)]
                if option
                else [f"{group.name}{i}"]
            )
            for name in names:
                table[name] = PortInfo(
                    group.name,
                    index,
                    group.role,
                    speed,
                    lanes,
                    group.form_factor,
                    group.ports_per_cage,
                )
                index += 1
    return table


def ports_of_role(device_type: DeviceType, breakout: dict[str, int] | None, role: str) -> list[str]:
    """Names of the ports with ``role`` (compute, storage, ...), in order."""
    return [name for name, info in port_table(device_type, breakout).items() if info.role == role]


def validate_breakout(device_type: DeviceType, breakout: dict[str, int]) -> str | None:
    """None when every breakout names a group that offers that fan-out, else why not."""
    for group_name, fanout in breakout.items():
        group = device_type.port_group(group_name)
        if group is None:
            return f"device type {device_type.id!r} has no port group {group_name!r}"
        if group.breakout(fanout) is None:
            offered = ", ".join(str(b.fanout) for b in group.breakouts) or "none"
            return (
                f"port group {group_name!r} of {device_type.id!r} cannot break out "
                f"{fanout} ways (offered: {offered})"
            )
    return None
