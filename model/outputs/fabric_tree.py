"""The compute fabric as a scheduler sees it: a tree of logical switches over the GPU servers, and blocks (NVLink domains, else leaf groups).

Schedulers (Slurm's topology/tree and topology/block, NVIDIA Topograph, Kubernetes labels) want
a *tree*: each node under one switch, each switch under at most one parent. A rail-optimized or
fat-tree fabric is not a tree: a DGX node plugs into eight rail leaves, a leaf into every spine
of its plane. The standard reduction, applied level by level here, groups nodes that reach the
*same set* of switches one tier up into one logical switch: the eight rail leaves of a scalable
unit become one logical leaf (every node of the SU is one leaf hop from every other), the SUs
that reach the same spines hang under one logical spine, and so on to the top. A logical switch
made of one physical switch keeps that switch's name; a group of several is named after its tier
(``leaf-g01``) and lists its members. Only compute-fabric links count (storage, management and
NVLink are other networks). Tiers come from the device roles: leaf < spine < core.

Blocks (Slurm topology/block, Topograph's accelerator domain) are the multi-node NVLink domains
(servers joined through NVLink switch trays, e.g. the 18 compute trays of a GB200 NVL72); in a
design without any, the logical leaves: the nodes one switch hop apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from model.common.natural_sort import natural_key
from model.design.fabrics import link_fabric_map

TIER_RANK = {"leaf": 1, "spine": 2, "core": 3}
TIER_OF_RANK = {1: "leaf", 2: "spine", 3: "core"}
NODE_ROLE = "gpu-server"


@dataclass
class LogicalSwitch:
    """One switch of the scheduler's tree: physical ``members`` (device names) and children,
    either logical switches (``switches``) or node names (``nodes``)."""

    name: str
    tier: str
    members: list[str]
    switches: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    parent: str | None = None


@dataclass
class FabricTree:
    """The tree, the blocks and the servers left out (no compute-fabric link)."""

    nodes: list[str]
    switches: dict[str, LogicalSwitch]  # by name, leaves first, then up the tiers
    blocks: dict[str, list[str]]  # block name -> node names, in scheduling order
    block_kind: str  # "nvlink" or "leaf"
    unconnected: list[str]

    def path(self, node: str) -> list[LogicalSwitch]:
        """The logical switches above ``node``, its leaf first."""
        out = []
        name = self.node_leaf.get(node)
        while name is not None:
            out.append(self.switches[name])
            name = self.switches[name].parent
        return out

    @property
    def node_leaf(self) -> dict[str, str]:
        return {n: s.name for s in self.switches.values() for n in s.nodes}

    def block_of(self) -> dict[str, str]:
        return {n: b for b, members in self.blocks.items() for n in members}

    def tops(self) -> list[str]:
        return [s.name for s in self.switches.values() if s.parent is None]


def _neighbours(design) -> dict[str, set[str]]:
    """Device id -> device ids it shares a compute-fabric link with."""
    fabric = link_fabric_map(design)
    adj: dict[str, set[str]] = {}
    for lid, link in design.links.items():
        if fabric[lid] != "compute":
            continue
        a, b = link.a.device, link.b.device
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    return adj


def _rank(design, device_id: str) -> int:
    return TIER_RANK.get(design.devices[device_id].role, 0)


def _nvlink_domains(design, nodes: set[str]) -> list[list[str]]:
    """Groups of two or more servers joined through scale-up (NVLink) links and switches."""
    fabric = link_fabric_map(design)
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for lid, link in design.links.items():
        if fabric[lid] == "scale-up":
            parent[find(link.a.device)] = find(link.b.device)
    groups: dict[str, list[str]] = {}
    for node in nodes:
        groups.setdefault(find(node), []).append(node)
    return [sorted(g, key=natural_key) for g in groups.values() if len(g) > 1]


def fabric_tree(design) -> FabricTree:
    """The scheduler's view of ``design``'s compute fabric (see the module docstring)."""
    adj = _neighbours(design)
    name = {did: d.name for did, d in design.devices.items()}
    servers = sorted(
        (d for d, dev in design.devices.items() if dev.role == NODE_ROLE), key=natural_key
    )
    connected = [s for s in servers if any(_rank(design, n) > 0 for n in adj.get(s, ()))]
    unconnected = [name[s] for s in servers if s not in set(connected)]
    switches: dict[str, LogicalSwitch] = {}
    counters: dict[str, int] = {}
    # level: (physical members (device ids), tier rank, logical switch name or node name)
    level: list[tuple[frozenset[str], int, str]] = [(frozenset([s]), 0, name[s]) for s in connected]
    while True:
        by_up: dict[frozenset, list[tuple[int, str]]] = {}
        for members, rank, child in level:
            up = frozenset(n for m in members for n in adj.get(m, ()) if _rank(design, n) > rank)
            if up:
                by_up.setdefault(up, []).append((rank, child))
        if not by_up:
            break
        next_level: list[tuple[frozenset[str], int, str]] = []
        for up, children in sorted(
            by_up.items(), key=lambda kv: natural_key(min(name[m] for m in kv[0]))
        ):
            rank = max(_rank(design, m) for m in up)
            tier = TIER_OF_RANK[rank]
            names = sorted((name[m] for m in up), key=natural_key)
            if len(names) == 1 and names[0] not in switches:
                label = names[0]
            else:
                counters[tier] = counters.get(tier, 0) + 1
                label = f"{tier}-g{counters[tier]:02d}"
            switch = LogicalSwitch(label, tier, names)
            for child_rank, child in children:
                if child_rank == 0:
                    switch.nodes.append(child)
                else:
                    switch.switches.append(child)
                    switches[child].parent = label
            switches[label] = switch
            next_level.append((up, rank, label))
        level = next_level
    node_names = [name[s] for s in connected]
    domains = _nvlink_domains(design, set(connected))
    if domains:
        kind = "nvlink"
        raw_blocks = [
            (_domain_name(design, d, i), [name[n] for n in d]) for i, d in enumerate(domains)
        ]
    else:
        kind = "leaf"
        raw_blocks = [(s.name, s.nodes) for s in switches.values() if s.nodes]
    return FabricTree(
        node_names, switches, _ordered_blocks(raw_blocks, switches), kind, unconnected
    )


def _domain_name(design, domain: list[str], index: int) -> str:
    """An NVLink domain is named after its rack (``nvl-A01``) when it fills one, as an NVL72 does."""
    racks = {design.devices[d].rack for d in domain}
    if len(racks) == 1:
        return f"nvl-{design.racks[racks.pop()].name}"
    return f"nvl{index + 1:02d}"


def _ordered_blocks(
    raw: list[tuple[str, list[str]]], switches: dict[str, LogicalSwitch]
) -> dict[str, list[str]]:
    """The blocks in tree order: Slurm pairs *contiguous* blocks into larger ones, so blocks
    under the same logical spine are listed next to each other."""
    order: dict[str, tuple] = {}

    def walk(name: str, prefix: tuple) -> None:
        switch = switches[name]
        for i, node in enumerate(switch.nodes):
            order[node] = (*prefix, i)
        for i, child in enumerate(switch.switches):
            walk(child, (*prefix, i))

    for i, top in enumerate(s.name for s in switches.values() if s.parent is None):
        walk(top, (i,))
    far = (1 << 30,)
    ranked = sorted(raw, key=lambda b: (min(order.get(n, far) for n in b[1]), natural_key(b[0])))
    out: dict[str, list[str]] = {}
    for block, nodes in ranked:
        label, k = block, 1
        while label in out:  # two domains in racks of the same name
            k += 1
            label = f"{block}-{k}"
        out[label] = sorted(nodes, key=natural_key)
    return out
