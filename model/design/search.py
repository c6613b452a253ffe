"""Find by name: racks, devices and links whose name, type, label or ports match a text."""

from __future__ import annotations

from dataclasses import dataclass

from model.design.design import Design

MAX_HITS = 200


@dataclass(frozen=True)
class Hit:
    kind: str  # "rack", "device" or "link"
    object_id: str
    label: str  # what the result list shows, e.g. "Device a3 · NVIDIA DGX H100 in R01"


def find_objects(design: Design, text: str, limit: int = MAX_HITS) -> list[Hit]:
    """Objects matching ``text`` (case-insensitive substring; every word must match), racks
    first, then devices, then links; at most ``limit``. An exact name comes first in its kind."""
    words = text.lower().split()
    if not words:
        return []
    types = design.catalog.device_types
    hits: list[tuple[int, int, Hit]] = []

    def add(order: int, name: str, haystack: str, hit: Hit) -> None:
        hay = haystack.lower()
        if all(w in hay for w in words):
            hits.append((order, 0 if name.lower() == text.lower().strip() else 1, hit))

    for rack in design.racks.values():
        add(
            0,
            rack.name,
            f"{rack.name} {rack.id} {rack.type}",
            Hit("rack", rack.id, f"Rack {rack.name}"),
        )
    for device in design.devices.values():
        dtype = types[device.type]
        rack_name = design.racks[device.rack].name
        add(
            1,
            device.name,
            f"{device.name} {device.id} {dtype.vendor} {dtype.model} {device.role}",
            Hit(
                "device",
                device.id,
                f"Device {device.name} · {dtype.model} in {rack_name} U{device.u}",
            ),
        )
    devices = design.devices
    for link in design.links.values():
        a, b = devices[link.a.device].name, devices[link.b.device].name
        ends = f"{a}:{link.a.port} → {b}:{link.b.port}"
        add(
            2,
            link.label or link.id,
            f"{link.label} {link.id} {a}:{link.a.port} {b}:{link.b.port}",
            Hit("link", link.id, f"Link {link.label or link.id} · {ends}"),
        )
        if len(hits) > limit * 4:
            break
    hits.sort(key=lambda h: (h[0], h[1]))
    return [h for _o, _e, h in hits[:limit]]
