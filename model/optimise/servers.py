"""Which server stands in which slot of its scalable unit: an exact assignment on cable price.

A scalable unit (SU) here is a set of servers joined by the compute leaves they share: a
rail-optimized SU's servers all reach its rail leaves, a leaf-spine pod's servers those of
their leaf. A server keeps every link (so the SU's rails stay as cabled) and only trades its
place (rack and U) with another server of its SU and device type; servers in locked racks stay.
With every other rack and device standing, a server's links cost the same wherever the others
go, so the price of a placement is a sum over (server, slot) pairs, and the best placement is a
linear assignment, solved exactly (networkx's network simplex on whole cents).

Cost of a server in a slot: the engine's indicative price of each of its links
(:func:`model.engine.media.link_price`: both ends and the cable at its ordered length, the
figure the media choice ranks by) on the medium the plant chose with the server there. The
matrix is read from the live plant with every server of a group moved at once, ``n`` cyclic
shifts of the group over its slots (each puts every server in a new slot): ``n`` refreshes
instead of ``n^2`` single moves. A link between two servers of one group is left out (its
length hangs on both places). Servers whose links reach the same devices the same way are
alike: a group of alike servers (a rail-optimized SU cabled by the generators) is skipped, as
every placement of it costs the same. The result is priced by the whole plant before it is kept
(:func:`model.optimise.optimise.optimise`), where cages shared by two servers and the limits count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from model.design.design import Design
from model.design.fabrics import device_fabric
from model.engine.media import link_price
from model.engine.routed_links import RoutedLinks

SERVER_ROLE = "gpu-server"
# A link without a medium or an orderable length in a slot: the slot is priced out of reach
# (more than any real placement), so it is chosen only when every slot leaves such a link.
UNREACHED_USD = 1e7

Place = tuple[str, int]  # (rack id, U)


@dataclass
class ServerPlan:
    """The placement the assignment chose: each moved server's place before and after, and
    the summed link price of the solved groups' servers before and after (USD)."""

    moved: dict[str, tuple[Place, Place]] = field(default_factory=dict)
    groups: int = 0  # groups of two or more unlike servers solved
    price_before_usd: float = 0.0
    price_after_usd: float = 0.0


def server_groups(design: Design, locked: Collection[str] = ()) -> list[list[str]]:
    """Servers that may trade places: per SU (servers sharing a compute leaf) and device type,
    outside ``locked`` racks; each group sorted by id, groups in order of their first server."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    devices = design.devices
    leaf = {
        d.id for d in devices.values() if d.role == "leaf" and device_fabric(design, d) == "compute"
    }
    servers = sorted(d.id for d in devices.values() if d.role == SERVER_ROLE)
    for server in servers:
        find(server)
        for lid in design.links_of_device(server):
            link = design.links[lid]
            other = link.b.device if link.a.device == server else link.a.device
            if other in leaf:
                parent[find(server)] = find(other)
    groups: dict[tuple[str, str], list[str]] = {}
    for server in servers:
        device = devices[server]
        if device.rack not in locked:
            groups.setdefault((find(server), device.type), []).append(server)
    return [g for g in groups.values() if len(g) > 1]


def _far_ends(design: Design, server: str, group: set[str]) -> Counter:
    """The server's links as (far device, far port, own port) counts, links inside its group
    left out: servers with equal counts up to their own identity are alike."""
    out: Counter = Counter()
    for lid in design.links_of_device(server):
        link = design.links[lid]
        mine, far = (link.a, link.b) if link.a.device == server else (link.b, link.a)
        if far.device not in group:
            out[(far.device, mine.port)] += 1
    return out


def _rows(design: Design, plant: RoutedLinks, server: str, group: set[str]) -> np.ndarray:
    index = plant.index
    rows = []
    for lid in sorted(design.links_of_device(server)):
        link = design.links[lid]
        far = link.b.device if link.a.device == server else link.a.device
        if far not in group and lid in index:
            rows.append(index[lid])
    return np.array(rows, dtype=np.int64)


def _links_price(plant: RoutedLinks, rows: np.ndarray) -> float:
    """The summed :func:`link_price` of ``rows`` on their chosen media and ordered lengths."""
    medium = np.asarray(plant.medium_index)[rows]
    ordered = np.asarray(plant.ordered_m)[rows]
    total = 0.0
    for m, length_m in zip(medium.tolist(), ordered.tolist(), strict=True):
        if m < 0 or not np.isfinite(length_m):
            total += UNREACHED_USD
        else:
            total += float(link_price(plant.media[m], length_m))
    return total


def price_matrix(
    design: Design, plant: RoutedLinks, group: list[str]
) -> tuple[np.ndarray, list[Place]]:
    """``price[i, j]``: the link price of server ``group[i]`` in slot ``j`` (the places the group
    stands in, in ``group`` order), read through ``n`` cyclic shifts; leaves the group where it
    stood and the plant refreshed."""
    devices = design.devices
    slots = [(devices[s].rack, devices[s].u) for s in group]
    members = set(group)
    rows = [_rows(design, plant, s, members) for s in group]
    n = len(group)
    price = np.zeros((n, n))
    plant.refresh()
    for k in range(n):
        if k:
            design.move_devices({s: slots[(i + k) % n] for i, s in enumerate(group)})
            plant.refresh()
        for i in range(n):
            price[i, (i + k) % n] = _links_price(plant, rows[i])
    design.move_devices(dict(zip(group, slots, strict=True)))
    plant.refresh()
    return price, slots


def best_assignment(price: np.ndarray, move_usd: float = 0.0) -> list[int]:
    """The slot of each server (row) at the lowest summed price, exactly, to the cent, with
    ``move_usd`` added for each server not in its own slot (row i stands in slot i); among
    equal prices the one that moves the fewest servers (each stays where it can)."""
    n = len(price)
    cents = np.rint((price + move_usd * (1 - np.eye(n))) * 100).astype(np.int64)
    graph = nx.DiGraph()
    graph.add_node("src", demand=-n)
    graph.add_node("dst", demand=n)
    for i in range(n):
        graph.add_edge("src", ("s", i), capacity=1, weight=0)
        graph.add_edge(("t", i), "dst", capacity=1, weight=0)
        for j in range(n):
            # Whole cents scaled past n, plus one per server moved: the cents decide first,
            # the moves only between placements of equal price.
            weight = int(cents[i, j]) * (n + 1) + (i != j)
            graph.add_edge(("s", i), ("t", j), capacity=1, weight=weight)
    flow = nx.min_cost_flow(graph)
    return [next(j for j in range(n) if flow[("s", i)].get(("t", j))) for i in range(n)]


def assign_servers(
    design: Design, plant: RoutedLinks, locked: Collection[str] = (), move_usd: float = 0.0
) -> ServerPlan:
    """Place every group's servers at their lowest link price (one ``move_devices`` edit for
    all of them) and say what moved; the plant is left refreshed. ``move_usd``: what moving
    one server must save at least (the optimiser's floor: no reshuffle of an SU for dollars)."""
    plan = ServerPlan()
    places: dict[str, Place] = {}
    for group in server_groups(design, locked):
        members = set(group)
        ends = [_far_ends(design, s, members) for s in group]
        if all(e == ends[0] for e in ends[1:]):
            continue  # alike servers: every placement costs the same
        price, slots = price_matrix(design, plant, group)
        choice = best_assignment(price, move_usd)
        plan.groups += 1
        plan.price_before_usd += float(np.trace(price))
        plan.price_after_usd += float(sum(price[i, j] for i, j in enumerate(choice)))
        for i, j in enumerate(choice):
            if i != j:
                places[group[i]] = slots[j]
                plan.moved[group[i]] = (slots[i], slots[j])
    if places:
        design.move_devices(places)
        plant.refresh()
    return plan


def servers_report(design: Design, plan: ServerPlan) -> dict:
    """The plan as the optimiser's report says it: each moved server (rack names and U), the
    groups solved and their summed link price before and after (USD)."""
    racks = design.racks

    def where(place: Place) -> list:
        return [racks[place[0]].name, place[1]]

    return {
        "groups": plan.groups,
        "link_price_usd": {"before": plan.price_before_usd, "after": plan.price_after_usd},
        "moved": [
            {
                "server": s,
                "name": design.devices[s].name,
                "from": where(old),
                "to": where(new),
            }
            for s, (old, new) in sorted(plan.moved.items())
        ],
    }
