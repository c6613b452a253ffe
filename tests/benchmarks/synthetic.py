"""Synthetic benchmark halls built directly with the model API (until the generators exist).

A rail-optimised Clos of DGX H100 servers (8 x 400G NICs, 4 servers per rack) and NVIDIA SN5600
switches broken out to 128 x 400G. A *pod* is 64 servers (16 racks) with 8 leaves, one per rail,
in a leaf rack in the middle of the pod. Each leaf has 64 downlinks and 64 uplinks. Up to 8 pods
form a two-tier fabric (leaves to spines); beyond that, 3 tiers: groups of 8 pods (64 leaves)
are fully meshed to 64 spines, and spine j of every group goes up to the cores of plane j.

Floor: rows 3 m apart, racks at rotation 0 (fronts up the page), each row = two blocks of two pods
(34 racks each) with the spine/core racks in a central network zone. One overhead tray runs
along each row over the rack rears; three cross trays (left end, centre, right end) join them.

    S   1,024 GPUs    128 servers   2-tier
    L  16,384 GPUs  2,048 servers   3-tier
    XL 131,072 GPUs 16,384 servers  3-tier, ~4,500 racks, ~393k links
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from model.design.design import Design
from model.design.entities import Device, Hall, Link, PortRef, Rack, Settings, Tray

WORKLOADS = {"S": 128, "L": 2048, "XL": 16384}
POD_SERVERS = 64
RACK_W, RACK_D, ROW_PITCH = 0.6, 1.2, 3.0
SWITCHES_PER_RACK = 16


def _port(i: int) -> str:
    """Name of port i (0-based) of an SN5600 broken out 2 ways: p1/1, p1/2, p2/1, ..."""
    return f"p{i // 2 + 1}/{i % 2 + 1}"


@dataclass
class _Plan:
    """Counts and floor sizes of a synthetic hall of ``servers`` servers."""

    servers: int

    def __post_init__(self) -> None:
        """The counts, as the module docstring describes them."""
        self.pods = self.servers // POD_SERVERS
        self.leaves = self.pods * 8
        self.three_tier = self.pods > 8
        self.groups = math.ceil(self.pods / 8)
        self.spines = self.groups * 64 if self.three_tier else max(1, self.leaves * 64 // 128)
        self.cores = self.spines // 2 if self.three_tier else 0
        self.rows = math.ceil(self.pods / 4)
        self.net_racks = math.ceil((self.spines + self.cores) / SWITCHES_PER_RACK)
        self.per_row_net = math.ceil(self.net_racks / self.rows)
        self.block_b_x = 22.0 + RACK_W * max(self.per_row_net, 3) + 1.2
        self.width = self.block_b_x + 34 * RACK_W + 1.0
        self.depth = self.rows * ROW_PITCH + 3.0


def synthetic_hall(servers: int) -> Design:
    """A hall of ``servers`` DGX H100 (a multiple of 64) cabled as described above."""
    plan = _Plan(servers)
    design = Design(
        Hall(outline=[(0.0, 0.0), (plan.width, 0.0), (plan.width, plan.depth), (0.0, plan.depth)]),
        name=f"synthetic {servers * 8} GPUs",
        settings=Settings(),
    )
    racks: list[Rack] = []
    devices: list[Device] = []
    server_ids, leaf_ids = _pods(plan, racks, devices)
    _network_racks(plan, racks, devices)
    design.add_racks(racks)
    design.add_devices(devices)
    design.add_links(_links(plan, server_ids, leaf_ids))
    design.add_trays(_trays(plan))
    design.revision = 0
    return design


def _rack(rid: str, x: float, y: float) -> Rack:
    """A 48U rack ``rid`` at (x, y)."""
    return Rack(
        id=rid,
        name=rid.upper(),
        type="rack-48u-600x1200",
        x=x,
        y=y,
        width_m=RACK_W,
        depth_m=RACK_D,
        height_u=48,
        power_budget_kw=45.0,
    )


def _pods(
    plan: _Plan, racks: list[Rack], devices: list[Device]
) -> tuple[list[list[str]], list[list[str]]]:
    """The pods' racks, servers and leaves; returns (servers per pod, leaves per pod by rail)."""
    server_ids: list[list[str]] = []
    leaf_ids: list[list[str]] = []
    for pod in range(plan.pods):
        row, slot = divmod(pod, 4)
        block_x = 1.0 if slot < 2 else plan.block_b_x
        x0 = block_x + (slot % 2) * 17 * RACK_W
        y = 2.0 + row * ROW_PITCH
        pod_servers = []
        for k in range(17):
            rid = f"p{pod}-r{k}"
            racks.append(_rack(rid, x0 + k * RACK_W, y))
            if k == 8:
                ids = [f"p{pod}-leaf{rail}" for rail in range(8)]
                devices += [
                    Device(
                        id=d,
                        name=d,
                        type="sn5600",
                        rack=rid,
                        u=2 + 2 * i,
                        role="leaf",
                        breakout={"p": 2},
                    )
                    for i, d in enumerate(ids)
                ]
                leaf_ids.append(ids)
                continue
            for s in range(4):
                sid = f"p{pod}-s{len(pod_servers)}"
                devices.append(
                    Device(
                        id=sid, name=sid, type="dgx-h100", rack=rid, u=2 + 10 * s, role="gpu-server"
                    )
                )
                pod_servers.append(sid)
        server_ids.append(pod_servers)
    return server_ids, leaf_ids


def _network_racks(plan: _Plan, racks: list[Rack], devices: list[Device]) -> None:
    """The spine and core racks of the central network zone."""
    switch_ids = [f"spine{i}" for i in range(plan.spines)] + [f"core{i}" for i in range(plan.cores)]
    for n in range(plan.net_racks):
        row, k = divmod(n, plan.per_row_net)
        rid = f"net{n}"
        racks.append(_rack(rid, 22.0 + k * RACK_W, 2.0 + row * ROW_PITCH))
        for i, sid in enumerate(switch_ids[n * SWITCHES_PER_RACK : (n + 1) * SWITCHES_PER_RACK]):
            devices.append(
                Device(
                    id=sid,
                    name=sid,
                    type="sn5600",
                    rack=rid,
                    u=2 + 2 * i,
                    role="spine" if sid.startswith("spine") else "core",
                    breakout={"p": 2},
                )
            )


def _links(plan: _Plan, server_ids: list[list[str]], leaf_ids: list[list[str]]) -> list[Link]:
    """Servers to leaves rail by rail, then leaves to spines (and spines to cores)."""
    links: list[Link] = []

    def connect(a: str, pa: str, b: str, pb: str) -> None:
        links.append(Link(id=f"l{len(links)}", a=PortRef(a, pa), b=PortRef(b, pb)))

    for pod in range(plan.pods):
        for rail in range(8):
            for s, server in enumerate(server_ids[pod]):
                connect(server, f"nic{rail + 1}", leaf_ids[pod][rail], _port(s))
    all_leaves = [leaf for pod in leaf_ids for leaf in pod]
    if plan.three_tier:
        _three_tier_links(plan, all_leaves, connect)
    else:
        per_spine = 64 // plan.spines
        for li, leaf in enumerate(all_leaves):
            for j in range(plan.spines):
                for k in range(per_spine):
                    connect(
                        leaf, _port(64 + j * per_spine + k), f"spine{j}", _port(li * per_spine + k)
                    )
    return links


def _three_tier_links(plan: _Plan, all_leaves: list[str], connect) -> None:
    """Each group of 64 leaves meshed to its 64 spines; spine j of every group to plane j."""
    cores, groups = plan.cores, plan.groups
    for g in range(groups):
        group_leaves = all_leaves[g * 64 : (g + 1) * 64]
        for j in range(64):
            spine = f"spine{g * 64 + j}"
            for li, leaf in enumerate(group_leaves):
                connect(leaf, _port(64 + j), spine, _port(li))
    per_plane = cores // 64
    per_core = 64 // per_plane
    for g in range(groups):
        for j in range(64):
            spine = f"spine{g * 64 + j}"
            for c in range(per_plane):
                core = f"core{j * per_plane + c}"
                for k in range(per_core):
                    connect(spine, _port(64 + c * per_core + k), core, _port(g * per_core + k))


def _trays(plan: _Plan) -> list[Tray]:
    """An overhead tray along each row, joined by three cross trays."""
    rows, x_end = plan.rows, plan.width - 0.5
    trays = [
        Tray(id=f"t-row{r}", points=[(0.5, 2.6 + r * ROW_PITCH), (x_end, 2.6 + r * ROW_PITCH)])
        for r in range(rows)
    ]
    y_last = 2.6 + (rows - 1) * ROW_PITCH
    # Cross trays join the rows; a hall of one row has none (a 1 mm stub is refused as a slip).
    crosses = (("left", 0.5), ("centre", 22.0 + RACK_W * plan.per_row_net / 2), ("right", x_end))
    for name, x in crosses if rows > 1 else ():
        trays.append(Tray(id=f"t-{name}", points=[(x, 2.6), (x, y_last)]))
    return trays
