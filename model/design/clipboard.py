"""Copy and paste of racks with their devices and the links between them.

The clipboard holds plain model records as JSON (mime type below, plus a text summary); a paste
gives every record a fresh id and name and offsets the racks so that they land beside the
originals, on free floor.

Choice: the copy moves sideways (along x) by whole block widths, the first step that lands it
inside the hall on no rack or obstacle (right first, then left); if none within
``FREE_STEPS`` blocks, the plain offset, and the placement check names the clash.
"""

from __future__ import annotations

import msgspec

from model.common.wording import count
from model.design.design import Design
from model.design.entities import Device, Link, PortRef, Rack, plan_size
from model.design.placement import next_rack_name
from model.design.rack_clashes import rack_clashes

MIME_RACKS = "application/x-hallwright-racks"
FREE_STEPS = 40  # block widths tried each way for free floor


class Clip(msgspec.Struct):
    racks: list[Rack]
    devices: list[Device]
    links: list[Link]


def copy_racks(design: Design, rack_ids: list[str]) -> bytes:
    racks = [design.racks[r] for r in rack_ids if r in design.racks]
    rack_set = {r.id for r in racks}
    devices = [d for r in racks for d in design.devices_in_rack(r.id)]
    device_set = {d.id for d in devices}
    links = [
        design.links[lk]
        for lk in sorted(design.links_of_racks(rack_set))
        if design.links[lk].a.device in device_set and design.links[lk].b.device in device_set
    ]
    return msgspec.json.encode(Clip(racks, devices, links))


def paste_records(design: Design, data: bytes, offset_index: int = 1) -> Clip:
    """New records from clipboard bytes: fresh ids and names, racks shifted sideways by
    ``offset_index`` times the width of the copied block (snapped to tiles)."""
    clip = msgspec.json.decode(data, type=Clip)
    if not clip.racks:
        return clip
    tile = design.hall.tile_m
    xs = [r.x for r in clip.racks]
    widths = [plan_size(r.width_m, r.depth_m, r.rotation)[0] for r in clip.racks]
    span = max(x + w / 2 for x, w in zip(xs, widths, strict=False)) - min(
        x - w / 2 for x, w in zip(xs, widths, strict=False)
    )
    dx = _free_offset(design, clip.racks, -(-span // tile) * tile, offset_index)
    rack_map: dict[str, str] = {}
    racks = []
    taken_names = {r.name for r in design.racks.values()}
    for rack in clip.racks:
        new_id = design.new_id("rack")
        rack_map[rack.id] = new_id
        name = next_rack_name(design, also_taken=taken_names)
        taken_names.add(name)
        racks.append(msgspec.structs.replace(rack, id=new_id, name=name, x=round(rack.x + dx, 6)))
    device_map: dict[str, str] = {}
    devices = []
    used_names = {d.name for d in design.devices.values()}
    for device in clip.devices:
        new_id = design.new_id("dev")
        device_map[device.id] = new_id
        name = device.name
        n = 2
        while name in used_names:
            name = f"{device.name}-{n}"
            n += 1
        used_names.add(name)
        devices.append(
            msgspec.structs.replace(device, id=new_id, name=name, rack=rack_map[device.rack])
        )
    links = [
        msgspec.structs.replace(
            lk,
            id=design.new_id("link"),
            a=PortRef(device_map[lk.a.device], lk.a.port),
            b=PortRef(device_map[lk.b.device], lk.b.port),
        )
        for lk in clip.links
    ]
    return Clip(racks, devices, links)


def _free_offset(design: Design, racks: list[Rack], step_m: float, offset_index: int) -> float:
    """The sideways shift, in metres, that puts the copied racks on free floor (module
    docstring); ``offset_index`` steps when nothing is free."""
    tries = [offset_index + i for i in range(FREE_STEPS)] + [-i for i in range(1, FREE_STEPS)]
    for steps in tries:
        dx = round(step_m * steps, 6)
        places = {
            f"copy-{i}": (r.x + dx, r.y, r.width_m, r.depth_m, r.rotation)
            for i, r in enumerate(racks)
        }
        if not rack_clashes(design, places, only=places):
            return dx
    return round(step_m * offset_index, 6)


def summary(data: bytes) -> str:
    clip = msgspec.json.decode(data, type=Clip)
    return (
        f"{count(len(clip.racks), 'rack')}, {count(len(clip.devices), 'device')}, "
        f"{count(len(clip.links), 'link')}: " + ", ".join(r.name for r in clip.racks)
    )
