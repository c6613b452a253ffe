"""Fabric topology inferred from the link graph: tiers, link classes, per-switch capacity.

Tiers come from graph distance, not from the role typed on a device, so that hand-built designs
work: a GPU server is level 0; a device reached from a GPU server's compute port is level 1
(leaf); the next is level 2 (spine), then 3 (core), 4+ (``tier4`` ...). Only links of the compute
fabric (:mod:`model.design.fabrics`) whose two ends are ``compute`` ports form the compute topology (so
a storage fabric built of the same switch type, or a UFM appliance's port on a leaf, adds no
tier); links with a ``scale-up`` port at either end are the scale-up tier; storage, in-band and
management links are left out. ``fabric`` gives every link's fabric code for per-fabric counts.

Capacity of a link = the slower of its two ports (Gb/s per direction). A switch's downlink
capacity is the capacity of its links to lower levels, its uplink capacity that of its links to
higher levels; links between two switches of one level ("peer" links) count as neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from model.common.arrays import unique_inverse, unique_sorted
from model.design.bulk_load import LoadedLinkCodes, loaded_link_codes
from model.design.design import Design
from model.design.fabrics import (
    COMPUTE,
    PORT_ROLE_CODE,
    device_fabric_code,
    explicit_codes,
    link_fabric_codes,
)

LINK_COMPUTE, LINK_SCALE_UP, LINK_OTHER = 0, 1, 2
UNREACHED = -1
ROLE_COMPUTE, ROLE_SCALE_UP, ROLE_OTHER = 0, 1, 2
ROLE_CODES = {"compute": ROLE_COMPUTE, "scale-up": ROLE_SCALE_UP}
CAGE_STRIDE = 1 << 20  # cage id = device index * CAGE_STRIDE + cage position on the device
TIER_NAMES = {1: "leaf", 2: "spine", 3: "core"}


def tier_name(level: int) -> str:
    """Name of a switch level: 1 leaf, 2 spine, 3 core, 4 and up ``tier4`` ..."""
    return TIER_NAMES.get(level, f"tier{level}")


def tier_order(name: str) -> int:
    """Sort key of a tier name (:func:`tier_name`'s): leaf, spine, core, tier4 ..."""
    return {"leaf": 1, "spine": 2, "core": 3}.get(
        name, 10 + int(name[4:]) if name[4:].isdigit() else 99
    )


def link_tier_name(lo: int, hi: int) -> str:
    """Name of the class of a compute link between levels ``lo`` <= ``hi``."""
    if lo == UNREACHED:
        return "unreached"
    if lo == hi:
        return "server-server" if lo == 0 else "peer"
    if hi == lo + 1:
        return f"{'server' if lo == 0 else tier_name(lo)}-{tier_name(hi)}"
    return f"{'server' if lo == 0 else tier_name(lo)}-{tier_name(hi)}"


@dataclass
class Topology:
    """Arrays over devices (index = position in ``device_ids``) and links (``link_ids``)."""

    device_ids: list[str]
    device_index: dict[str, int]
    is_gpu_server: np.ndarray  # bool per device
    gpus: np.ndarray  # GPU count per device
    level: np.ndarray  # int per device: 0 GPU server, 1 leaf, ..., -1 unreached
    link_ids: list[str]
    a: np.ndarray  # device index of each link's A end
    b: np.ndarray
    speed_a: np.ndarray  # port speeds, Gb/s
    speed_b: np.ndarray
    capacity: np.ndarray  # min of both ends, Gb/s
    kind: np.ndarray  # LINK_COMPUTE / LINK_SCALE_UP / LINK_OTHER
    link_tier: list[str]  # per link: "server-leaf", "leaf-spine", ..., "scale-up", "other"
    down_gbps: np.ndarray  # per device
    up_gbps: np.ndarray
    up_links: np.ndarray  # number of uplinks per device
    up_neighbours: np.ndarray  # number of distinct upper-level devices per device
    compute_ports: np.ndarray  # number of compute ports per device
    compute_ports_used: np.ndarray
    cage_a: np.ndarray  # global id of the transceiver cage holding each end's port
    cage_b: np.ndarray
    ppc_a: np.ndarray  # logical ports one module serves at each end (twin-port x breakout)
    ppc_b: np.ndarray
    fabric: np.ndarray | None = None  # fabric code per link (model.design.fabrics.FABRIC_CODE)
    device_fabric: np.ndarray | None = None  # fabric code per device, -1 for non-switches

    @property
    def max_level(self) -> int:
        return int(self.level.max()) if len(self.level) else 0

    def switches_of_level(self, level: int) -> np.ndarray:
        return np.flatnonzero(self.level == level)

    def top_level(self) -> int:
        """Highest switch level present (0 when there are no reachable switches)."""
        return max(self.max_level, 0)

    def compute_mask(self) -> np.ndarray:
        return self.kind == LINK_COMPUTE


def _coded_ends(codes: LoadedLinkCodes, dev_table: np.ndarray, port_row: dict) -> list:
    """[(device index, port row) of the A ends, the same of the B ends] from the loader's
    codes: devices are coded in ``design.devices`` order (the topology's device index), and
    each distinct (port table, port) pair is looked up once, not once per link end."""
    m, ports = codes.link_count, len(codes.port_names)
    out = []
    for half in (slice(0, m), slice(m, 2 * m)):
        dev = np.asarray(codes.device[half], dtype=np.int64)
        # (port table, port) codes span tables x ports: counted, not sorted (unique_inverse)
        pair, where = unique_inverse(dev_table[dev] * ports + codes.port[half])
        names = codes.port_names
        rows = np.array(
            [port_row[(int(k) // ports, names[int(k) % ports])] for k in pair.tolist()],
            dtype=np.int64,
        )
        out.append((dev, rows[where]))
    return out


def infer_topology(design: Design) -> Topology:
    """Classify every device and link of ``design`` (see the module docstring)."""
    device_ids = list(design.devices)
    device_index = {d: i for i, d in enumerate(device_ids)}
    n = len(device_ids)
    types = design.catalog.device_types
    gpus = np.zeros(n, dtype=np.int64)
    dev_fabric = np.empty(n, dtype=np.int8)
    # Port tables are shared per (type, breakout) (lru-cached): number them, and describe each
    # port once in flat arrays (speed, role, cage position, ports per cage).
    table_of: dict[int, int] = {}
    port_maps: list[dict[str, int]] = []
    offsets: list[int] = []
    rows: list[tuple[float, int, int, int, int]] = []
    dev_table = np.empty(n, dtype=np.int64)
    # A device that breaks out no port has its type's table: looked up once per type, not
    # once per device through the breakout-keyed cache (27k devices at XL: ~0.05 s).
    plain_tables: dict[str, dict] = {}
    for i, device in enumerate(design.devices.values()):
        gpus[i] = types[device.type].gpu_count
        dev_fabric[i] = device_fabric_code(design, device)
        if device.breakout:
            table = design.ports(device)
        elif device.type in plain_tables:
            table = plain_tables[device.type]
        else:
            table = plain_tables[device.type] = design.ports(device)
        t = table_of.get(id(table))
        if t is None:
            t = table_of[id(table)] = len(port_maps)
            offsets.append(len(rows))
            starts = _group_starts(table)
            port_maps.append({name: k for k, name in enumerate(table)})
            for info in table.values():
                # One module serves every logical port of its cage: the ports_per_cage physical
                # ports, each split ``fanout`` ways when the group is broken out (an SN5600
                # 800G port run as 2 x 400G is one 2 x 400G module, not two).
                start = starts[info.group]
                fanout = device.breakout.get(info.group, 1)
                rows.append(
                    (
                        info.speed_gbps,
                        ROLE_CODES.get(info.role, ROLE_OTHER),
                        start + (info.index - start) // fanout // info.ports_per_cage,
                        info.ports_per_cage * fanout,
                        PORT_ROLE_CODE[info.role],
                    )
                )
        dev_table[i] = t
    port_speed = np.array([r[0] for r in rows], dtype=float)
    port_role = np.array([r[1] for r in rows], dtype=np.int8)
    port_cage = np.array([r[2] for r in rows], dtype=np.int64)
    port_ppc = np.array([r[3] for r in rows], dtype=np.int64)
    port_full_role = np.array([r[4] for r in rows], dtype=np.int8)
    is_server = gpus > 0
    compute_ports = np.zeros(len(port_maps), dtype=np.int64)
    for t in range(len(port_maps)):
        span = slice(offsets[t], offsets[t + 1] if t + 1 < len(offsets) else len(rows))
        compute_ports[t] = int((port_role[span] == ROLE_COMPUTE).sum())
    compute_ports = compute_ports[dev_table] if n else np.zeros(0, dtype=np.int64)

    link_ids = list(design.links)
    m = len(link_ids)
    # The records as the table's view: read in C-level maps only, no 463k-long list made
    records = design.links.values()
    ends = []
    port_row = {
        (t, name): offsets[t] + k for t, names in enumerate(port_maps) for name, k in names.items()
    }
    codes = loaded_link_codes(design)
    if codes is not None:  # just loaded: the loader's end codes, no walk of 393k records
        ends = _coded_ends(codes, dev_table, port_row)
    else:
        for side in ("a", "b"):
            refs = list(map(attrgetter(side), records))  # C-level loops: 400k links at XL
            dev = np.fromiter(
                map(device_index.__getitem__, map(attrgetter("device"), refs)),
                dtype=np.int64,
                count=m,
            )
            keys = zip(dev_table[dev].tolist(), map(attrgetter("port"), refs), strict=True)
            end_rows = np.fromiter(map(port_row.__getitem__, keys), dtype=np.int64, count=m)
            ends.append((dev, end_rows))
    (a, row_a), (b, row_b) = ends
    speed_a, speed_b = port_speed[row_a], port_speed[row_b]
    role_a, role_b = port_role[row_a], port_role[row_b]
    cage_a = a * CAGE_STRIDE + port_cage[row_a]
    cage_b = b * CAGE_STRIDE + port_cage[row_b]
    ppc_a, ppc_b = port_ppc[row_a], port_ppc[row_b]
    fabric = link_fabric_codes(
        explicit_codes(records, m),
        port_full_role[row_a],
        port_full_role[row_b],
        dev_fabric[a],
        dev_fabric[b],
    )
    kind = np.full(m, LINK_OTHER, dtype=np.int8)
    kind[(role_a == ROLE_COMPUTE) & (role_b == ROLE_COMPUTE) & (fabric == COMPUTE)] = LINK_COMPUTE
    kind[(role_a == ROLE_SCALE_UP) | (role_b == ROLE_SCALE_UP)] = LINK_SCALE_UP
    capacity = np.minimum(speed_a, speed_b)

    level = _levels(n, is_server, a, b, kind == LINK_COMPUTE)
    compute = kind == LINK_COMPUTE
    la, lb = level[a], level[b]
    lo, hi = np.minimum(la, lb), np.maximum(la, lb)
    link_tier = _link_tiers(kind, lo, hi)

    reached = compute & (lo >= 0)
    a_up = reached & (la < lb)  # link goes up from a to b
    b_up = reached & (lb < la)
    down = np.zeros(n)
    up = np.zeros(n)
    np.add.at(up, a[a_up], capacity[a_up])
    np.add.at(down, b[a_up], capacity[a_up])
    np.add.at(up, b[b_up], capacity[b_up])
    np.add.at(down, a[b_up], capacity[b_up])
    up_links = np.bincount(np.concatenate([a[a_up], b[b_up]]), minlength=n)
    lower = np.concatenate([a[a_up], b[b_up]])
    upper = np.concatenate([b[a_up], a[b_up]])
    if len(lower):
        pairs = unique_sorted(lower * max(n, 1) + upper)
        up_neighbours = np.bincount(pairs // max(n, 1), minlength=n)
    else:
        up_neighbours = np.zeros(n, dtype=np.int64)
    used = np.zeros(n, dtype=np.int64)
    np.add.at(used, a[compute], 1)
    np.add.at(used, b[compute], 1)
    return Topology(
        device_ids,
        device_index,
        is_server,
        gpus,
        level,
        link_ids,
        a,
        b,
        speed_a,
        speed_b,
        capacity,
        kind,
        link_tier,
        down,
        up,
        up_links,
        up_neighbours,
        compute_ports,
        used,
        cage_a,
        cage_b,
        ppc_a,
        ppc_b,
        fabric,
        dev_fabric,
    )


def link_tiers(design: Design) -> dict[str, str]:
    """Tier of every link by id, as the analysis classifies it (graph distance, not typed roles):
    "server-leaf", "leaf-spine", "spine-core", ..., "scale-up", "other". The one rule the links
    table and the analysis share."""
    topo = infer_topology(design)
    return dict(zip(topo.link_ids, topo.link_tier, strict=True))


def tier_codes(
    link_tier: list[str], rows: np.ndarray, n_rows: int, first: Sequence[str] = ()
) -> tuple[list[str], np.ndarray]:
    """The tiers of ``link_tier`` (per topology link) as a code per cable-plant row.

    ``rows`` is the plant row of each topology link, ``n_rows`` the plant's row count. Returns
    (names, code per row): the names are ``first``, then every other tier in the order links
    first name it, then "?" (the code of a plant row with no topology link, as a link already
    gone from the design).
    """
    names = list(first)
    code = {name: i for i, name in enumerate(names)}
    for name in dict.fromkeys(link_tier):
        if name not in code:
            code[name] = len(names)
            names.append(name)
    names.append("?")
    out = np.full(n_rows, len(names) - 1, dtype=np.int16)
    out[np.asarray(rows, dtype=np.int64)] = np.fromiter(
        (code[t] for t in link_tier), dtype=np.int16, count=len(link_tier)
    )
    return names, out


def _link_tiers(kind: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> list[str]:
    """Per link: "scale-up", "other" or the class of a compute link ("server-leaf", ...)."""
    code = np.where(kind == LINK_COMPUTE, (lo + 1) * 64 + (hi + 1), -1 - kind.astype(np.int64))
    values, inverse = unique_inverse(code)  # a few codes over a small range: counted, not sorted
    names = []
    for value in values.tolist():
        if value == -1 - LINK_SCALE_UP:
            names.append("scale-up")
        elif value < 0:
            names.append("other")
        else:
            names.append(link_tier_name(value // 64 - 1, value % 64 - 1))
    # Gathered in C: the same list of the same name strings (463k links at XL: ~25 ms saved)
    return np.array(names, dtype=object)[inverse].tolist()


def _group_starts(table) -> dict[str, int]:
    starts: dict[str, int] = {}
    for info in table.values():
        starts.setdefault(info.group, info.index)
    return starts


def _levels(
    n: int, is_server: np.ndarray, a: np.ndarray, b: np.ndarray, compute: np.ndarray
) -> np.ndarray:
    """Breadth-first distance from the GPU servers over compute links, through non-servers."""
    level = np.full(n, UNREACHED, dtype=np.int64)
    level[is_server] = 0
    ca, cb = a[compute], b[compute]
    frontier = is_server.copy()
    depth = 0
    while frontier.any():
        depth += 1
        nxt = np.zeros(n, dtype=bool)
        nxt[cb[frontier[ca]]] = True
        nxt[ca[frontier[cb]]] = True
        nxt &= level == UNREACHED
        level[nxt] = depth
        frontier = nxt
    return level


def components(n: int, a: np.ndarray, b: np.ndarray, members: np.ndarray) -> np.ndarray:
    """Connected-component label (smallest member index) of each device; -1 outside ``members``.

    Label propagation over the given edges (both ends must be members); Clos fabrics have a
    small diameter, so it converges in a few numpy passes.
    """
    label = np.where(members, np.arange(n), -1)
    keep = members[a] & members[b]
    ea, eb = a[keep], b[keep]
    if not len(ea):
        return label
    while True:
        m = np.minimum(label[ea], label[eb])
        new = label.copy()
        np.minimum.at(new, ea, m)
        np.minimum.at(new, eb, m)
        new[members] = new[new[members]]  # pointer jumping speeds convergence
        if np.array_equal(new, label):
            return label
        label = new


def components_after(
    n: int,
    a: np.ndarray,
    b: np.ndarray,
    members: np.ndarray,
    base_label: np.ndarray,
    touched: np.ndarray,
) -> np.ndarray:
    """:func:`components` of a graph that is the labelled one (``base_label``) less some
    devices and edges, recomputed only inside the base components holding a ``touched`` device
    (device indices: the failed devices and both ends of every removed edge). A component
    nothing was taken from is whole and keeps its smallest index, so the labels are exactly
    a fresh :func:`components`'s; a failure of a spine recomputes its pod, not the hall."""
    hit = base_label[touched]
    hit = np.unique(hit[hit >= 0])
    if not len(hit):
        return np.where(members, base_label, -1)
    region = np.isin(base_label, hit)
    label = np.where(members, base_label, -1)
    inside = region[a] & region[b]  # only these edges join members of the region
    label[region] = components(n, a[inside], b[inside], members & region)[region]
    return label
