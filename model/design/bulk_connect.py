"""Bulk connect: every free port of a port group on some devices to free ports of some switches,
with the rails kept — the mapping is planned here, previewed by the GUI, applied as one edit.

Rule (written down because a network architect will check it): the ports of the source group
are numbered by their place in the group (nic1 = rail 0, nic2 = rail 1, ...), whether free or
not, so a rail means the same port on every server. With ``S`` target switches and ``N`` ports
in the group, rail ``k`` goes to switch ``k * S // N`` — eight rails on eight leaves is one rail
per leaf (rail-optimized); eight rails on two leaves is rails 0-3 on the first, 4-7 on the
second; eight rails on one leaf puts all eight there. On each switch the far port is the first
free one of the same role and speed as the source port, else of the same role (as a single
connect picks it). A source port that finds no free far port is reported, never dropped
silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from model.design.design import Design
from model.design.entities import Link, PortRef


@dataclass(frozen=True)
class PlannedLink:
    a_device: str
    a_port: str
    b_device: str
    b_port: str
    rail: int  # the source port's place in its group (0-based)
    speed_gbps: float


@dataclass
class BulkPlan:
    """The links a bulk connect would add, and the source ports left without a far port."""

    links: list[PlannedLink] = field(default_factory=list)
    unmatched: list[tuple[str, str, str]] = field(default_factory=list)  # device, port, why

    def records(self, design: Design) -> list[Link]:
        """Link records with fresh ids, ready for the edit API (one undo step)."""
        return [
            Link(
                id=design.new_id("link"),
                a=PortRef(p.a_device, p.a_port),
                b=PortRef(p.b_device, p.b_port),
            )
            for p in self.links
        ]


def groups_with_free_ports(design: Design, device_ids: list[str]) -> dict[str, int]:
    """Port group -> free ports over these devices (the choices of a bulk connect)."""
    out: dict[str, int] = {}
    for device_id in device_ids:
        for name, info in design.ports(device_id).items():
            if design.link_at_port(device_id, name) is None:
                out[info.group] = out.get(info.group, 0) + 1
    return out


def plan_bulk_connect(
    design: Design, sources: list[str], group: str, targets: list[str]
) -> BulkPlan:
    """Plan links from every free ``group`` port of ``sources`` to ``targets`` (switch ids, in
    the order rails are dealt to them). Nothing in ``design`` changes."""
    plan = BulkPlan()
    targets = [t for t in targets if t not in sources]
    if not targets:
        for device_id in sources:
            for port in _group_ports(design, device_id, group):
                if design.link_at_port(device_id, port) is None:
                    plan.unmatched.append((device_id, port, "no target switch chosen"))
        return plan
    taken: set[tuple[str, str]] = set()
    for device_id in sources:
        ports = _group_ports(design, device_id, group)
        infos = design.ports(device_id)
        for rail, port in enumerate(ports):
            if design.link_at_port(device_id, port) is not None:
                continue
            target = targets[rail * len(targets) // len(ports)]
            info = infos[port]
            far = _far_port(design, target, info.role, info.speed_gbps, taken)
            if far is None:
                name = design.devices[target].name
                plan.unmatched.append(
                    (device_id, port, f"{name} has no free {info.role} port left")
                )
                continue
            taken.add((target, far))
            plan.links.append(PlannedLink(device_id, port, target, far, rail, info.speed_gbps))
    return plan


def _group_ports(design: Design, device_id: str, group: str) -> list[str]:
    return [name for name, info in design.ports(device_id).items() if info.group == group]


def _far_port(
    design: Design, device_id: str, role: str, speed_gbps: float, taken: set[tuple[str, str]]
) -> str | None:
    free = [
        (name, info)
        for name, info in design.ports(device_id).items()
        if design.link_at_port(device_id, name) is None and (device_id, name) not in taken
    ]
    for name, info in free:
        if info.role == role and info.speed_gbps == speed_gbps:
            return name
    return next((name for name, info in free if info.role == role), None)
