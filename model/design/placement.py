"""Records for new objects placed by the user: snapped rack positions, names, free U slots.

Pure helpers: the canvas interactions and the rack elevation call them, then push the
records in an ``AddObjectsCommand``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence, Set

from model.common.name_key import name_key
from model.design.design import Design
from model.design.entities import Device, Link, PortRef, Rack, Rotation
from model.design.entities import plan_size as footprint_size
from model.design.panel_names import PANEL_ROLE, unique_panel_name


def snap_rack_centre(
    x: float, y: float, width_m: float, depth_m: float, rotation: int, tile_m: float
) -> tuple[float, float]:
    """The centre that puts the footprint's corner on the nearest tile corner."""
    w, d = footprint_size(width_m, depth_m, rotation)
    left = round((x - w / 2) / tile_m) * tile_m
    top = round((y - d / 2) / tile_m) * tile_m
    return (round(left + w / 2, 6), round(top + d / 2, 6))


def snap_point(x: float, y: float, step_m: float) -> tuple[float, float]:
    return (round(round(x / step_m) * step_m, 6), round(round(y / step_m) * step_m, 6))


def next_rack_name(design: Design, prefix: str = "R", also_taken: Set[str] = frozenset()) -> str:
    """``{prefix}{n:02d}`` after the highest such name; names compare as the model compares
    them (:func:`model.common.name_key.name_key`)."""
    used = {name_key(n) for n in (*(r.name for r in design.racks.values()), *also_taken)}
    stem = prefix.casefold()
    numbers = [
        int(m.group(1)) for name in used if (m := re.fullmatch(re.escape(stem) + r"(\d+)", name))
    ]
    n = max(numbers, default=0) + 1
    while f"{stem}{n:02d}" in used:
        n += 1
    return f"{prefix}{n:02d}"


def new_rack(
    design: Design,
    type_id: str,
    x: float,
    y: float,
    rotation: Rotation = 0,
    name: str | None = None,
    rack_id: str | None = None,
    step_m: float | None = None,
) -> Rack:
    """A rack record of ``type_id`` centred near (x, y), its corner snapped to ``step_m``
    (the floor tile when None)."""
    rtype = design.catalog.rack_type(type_id)
    step = step_m if step_m is not None else design.hall.tile_m
    cx, cy = snap_rack_centre(x, y, rtype.width_m, rtype.depth_m, rotation, step)
    return Rack(
        id=rack_id or design.new_id("rack"),
        name=name or next_rack_name(design),
        type=type_id,
        x=cx,
        y=cy,
        width_m=rtype.width_m,
        depth_m=rtype.depth_m,
        height_u=rtype.height_u,
        power_budget_kw=rtype.power_budget_kw,
        rotation=rotation,
    )


def free_u(design: Design, rack_id: str, u_height: int, preferred: int | None = None) -> int | None:
    """The lowest U (or ``preferred`` when it fits) where ``u_height`` free slots start."""
    rack = design.racks[rack_id]
    used: set[int] = set()
    for dev in design.devices_in_rack(rack_id):
        h = design.device_type(dev).u_height
        used.update(range(dev.u, dev.u + h))
    candidates: Sequence[int] = range(1, rack.height_u - u_height + 2)
    if preferred is not None:
        candidates = [preferred, *candidates]
    for u in candidates:
        if 1 <= u <= rack.height_u - u_height + 1 and not used.intersection(range(u, u + u_height)):
            return u
    return None


_NAME_STEMS = {
    "gpu-server": "gpu",
    "leaf": "leaf",
    "spine": "spine",
    "core": "core",
    "nvlink-switch": "nvsw",
    "storage": "stor",
    "management": "mgmt",
    "patch-panel": "pp",
}


def device_name(design: Design, type_id: str) -> str:
    """A new device's name: its role's stem and the lowest number no device of ``design``
    has yet (``leaf7``)."""
    return DeviceNames(design).take(type_id)


class DeviceNames:
    """New devices' names, one after another, as :func:`device_name` gives them when each named
    device is added to the design before the next is named; the names in use are read once.

    Why: placing the panels of an XL zoned hall named 11,200 of them, each by a set of the
    names of every device (~20k): ~1 min of the generator's 1.5 min. The lowest free number of
    a stem only grows while names are only added, so each stem's search goes on from the last."""

    def __init__(self, design: Design) -> None:
        self._design = design
        self._used = {d.name for d in design.devices.values()}
        self._next: dict[str, int] = {}

    def take(self, type_id: str) -> str:
        dtype = self._design.catalog.device_type(type_id)
        stem = _NAME_STEMS.get(dtype.default_role, "dev")
        n = self._next.get(stem, 1)
        while f"{stem}{n}" in self._used:
            n += 1
        name = f"{stem}{n}"
        self._used.add(name)
        self._next[stem] = n + 1
        return name

    def take_at(self, type_id: str, rack_id: str, u: int) -> str:
        """The name of a new device of ``type_id`` at ``u`` of ``rack_id``: a patch panel is
        named by its rack and U (``C01-U42``, :mod:`model.design.panel_names`), any other
        device by :meth:`take`."""
        if self._design.catalog.device_type(type_id).default_role != PANEL_ROLE:
            return self.take(type_id)
        name = unique_panel_name(self._design.racks[rack_id].name, u, self._used.__contains__)
        self._used.add(name)
        return name


def new_device(design: Design, type_id: str, rack_id: str, u: int) -> Device:
    dtype = design.catalog.device_type(type_id)
    return Device(
        id=design.new_id("dev"),
        name=DeviceNames(design).take_at(type_id, rack_id, u),
        type=type_id,
        rack=rack_id,
        u=u,
        role=dtype.default_role,
    )


def port_groups_with_free_ports(
    design: Design, device_id: str
) -> list[tuple[str, str, int, float]]:
    """(group, role, free count, speed Gb/s) for each port group of a device with a free port."""
    out: dict[str, list] = {}
    for name, info in design.ports(device_id).items():
        if design.link_at_port(device_id, name) is None:
            entry = out.setdefault(info.group, [info.group, info.role, 0, info.speed_gbps])
            entry[2] += 1
    return [tuple(v) for v in out.values()]


def new_link(
    design: Design, a_device: str, a_group: str, b_device: str, b_group: str | None = None
) -> Link | None:
    """A link from the first free port of ``a_group`` to the best free port of ``b_device``.

    The far port is the first free one of ``b_group``, or else of the same role and speed, or
    else of the same role; None when the far device has no suitable free port.
    """
    a_ports = design.ports(a_device)
    a_port = next(
        (
            p
            for p, info in a_ports.items()
            if info.group == a_group and design.link_at_port(a_device, p) is None
        ),
        None,
    )
    if a_port is None:
        return None
    a_info = a_ports[a_port]
    b_ports = {
        p: i
        for p, i in design.ports(b_device).items()
        if design.link_at_port(b_device, p) is None and not (b_device == a_device and p == a_port)
    }

    def pick(pred):
        return next((p for p, info in b_ports.items() if pred(info)), None)

    if b_group is not None:
        b_port = pick(lambda i: i.group == b_group)
    else:
        b_port = pick(
            lambda i: i.role == a_info.role and i.speed_gbps == a_info.speed_gbps
        ) or pick(lambda i: i.role == a_info.role)
    if b_port is None:
        return None
    return Link(id=design.new_id("link"), a=PortRef(a_device, a_port), b=PortRef(b_device, b_port))


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
