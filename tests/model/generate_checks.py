"""Checks shared by the generator tests: link validity, placement validity, tier counts."""

from __future__ import annotations

from collections import Counter

from shapely.geometry import LineString

from model.design.design import Design

TILE = 0.6


def assert_links_valid(design: Design) -> None:
    """Every link joins two existing ports of equal speed; no port is used twice."""
    used: Counter = Counter()
    for link in design.links.values():
        speeds = []
        for end in (link.a, link.b):
            ports = design.ports(end.device)
            assert end.port in ports, f"{link.id}: {end.device} has no port {end.port}"
            speeds.append(ports[end.port].speed_gbps)
            used[(end.device, end.port)] += 1
        assert speeds[0] == speeds[1], f"{link.id}: speeds {speeds} differ"
    assert max(used.values(), default=1) == 1


def assert_placement_valid(design: Design) -> None:
    """Racks tile aligned, inside the hall, not overlapping; devices fit U and power; trays join."""
    xs = [p[0] for p in design.hall.outline]
    ys = [p[1] for p in design.hall.outline]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    boxes = []
    for rack in design.racks.values():
        assert rack.rotation in (0, 180)
        left, top = rack.x - rack.width_m / 2, rack.y - rack.depth_m / 2
        right, bottom = rack.x + rack.width_m / 2, rack.y + rack.depth_m / 2
        assert x0 <= left and right <= x1 and y0 <= top and bottom <= y1, rack.name
        for edge in (left, top):
            assert abs(edge / TILE - round(edge / TILE)) < 1e-6, f"{rack.name} not tile aligned"
        boxes.append((top, left, bottom, right, rack.name))
    boxes.sort()
    # Sweep: racks of one row share top/bottom; compare each rack with the next ones that
    # could still overlap it.
    for i, (_top, left, bottom, right, name) in enumerate(boxes):
        for top2, left2, _bottom2, right2, name2 in boxes[i + 1 :]:
            if top2 >= bottom - 1e-9:
                break
            overlap = min(right, right2) - max(left, left2) > 1e-9
            assert not overlap, f"racks {name} and {name2} overlap"
    types = design.catalog.device_types
    load: Counter = Counter()
    for device in design.devices.values():
        rack = design.racks[device.rack]
        assert device.u + types[device.type].u_height - 1 <= rack.height_u, device.name
        load[rack.id] += types[device.type].power_max_w
    for rack_id, watts in load.items():
        assert watts <= design.racks[rack_id].power_budget_kw * 1000, rack_id
    assert set(load) == set(design.racks), "a rack holds no device"
    assert_trays_joined(design)


def assert_trays_joined(design: Design, tolerance_m: float = 0.3) -> None:
    trays = list(design.trays.values())
    lines = [LineString(t.points) for t in trays]
    parent = list(range(len(trays)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(lines)):
        for j in range(i + 1, len(lines)):
            if lines[i].distance(lines[j]) <= tolerance_m:
                parent[find(i)] = find(j)
    assert len({find(i) for i in range(len(trays))}) == 1, "the tray graph is not connected"
    # Every rack sits under a tray (its row's tray runs over its centre line).
    row_ys = {t.points[0][1] for t in trays if t.points[0][1] == t.points[-1][1]}
    for rack in design.racks.values():
        assert rack.y in row_ys, f"no tray over rack {rack.name}"


def tier_counts(design: Design) -> tuple[Counter, Counter]:
    """(devices per role, links per (role, role) pair in tier order)."""
    roles = Counter(d.role for d in design.devices.values())
    order = {"gpu-server": 0, "nvlink-switch": 1, "leaf": 2, "spine": 3, "core": 4}
    links: Counter = Counter()
    for link in design.links.values():
        a = design.devices[link.a.device].role
        b = design.devices[link.b.device].role
        pair = tuple(sorted((a, b), key=order.__getitem__))
        links[pair] += 1
    return roles, links
