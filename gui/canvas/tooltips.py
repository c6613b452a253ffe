"""Hover texts for the plan: a rack's contents, U and power (typical / max against its budget),
a link's ends, routed length, medium and why. Built when the tooltip is asked for, from the
model and the cable plant, so nothing is kept up to date for 4,500 racks."""

from __future__ import annotations

from collections import Counter

from model.analysis.devices import rack_device_power_w
from model.wording import count


def rack_tooltip(design, rack_id: str) -> str:
    rack = design.racks[rack_id]
    types = design.catalog.device_types
    devices = design.devices_in_rack(rack_id)
    typical_w, max_w = rack_device_power_w(design, rack_id)
    used_u = sum(types[d.type].u_height for d in devices)
    models = Counter(types[d.type].model for d in devices)
    contents = ", ".join(f"{n} × {m}" for m, n in models.most_common(4))
    gpus = sum(types[d.type].gpu_count for d in devices)
    over = " — over budget at max" if max_w > rack.power_budget_kw * 1000 else ""
    lines = [
        f"<b>{rack.name}</b> · {design.catalog.rack_type(rack.type).model}",
        f"{count(len(devices), 'device')}" + (f": {contents}" if contents else ""),
        f"{count(gpus, 'GPU')} · {used_u} of {rack.height_u} U used · "
        f"{count(len(design.links_of_racks([rack_id])), 'link')}",
        f"Power {typical_w / 1000:.1f} / {max_w / 1000:.1f} kW (typical / max) "
        f"of {rack.power_budget_kw:g} kW{over}",
        "<i>Double-click for the elevation · right-click for more</i>",
    ]
    return "<br>".join(lines)


def link_tooltip(design, plant, link_id: str) -> str:
    link = design.links[link_id]
    a, b = design.devices[link.a.device], design.devices[link.b.device]
    racks = design.racks
    lines = [
        f"<b>{a.name}:{link.a.port}</b> ({racks[a.rack].name}) → "
        f"<b>{b.name}:{link.b.port}</b> ({racks[b.rack].name})",
        f"{design.ports(a.id)[link.a.port].speed_gbps:g} Gb/s"
        + (" · medium pinned" if link.medium != "auto" else ""),
    ]
    if plant is not None:
        try:
            route = plant.route(link_id)
            medium = plant.medium(link_id)
            lines.append(f"{route.total_m:.1f} m routed ({route.method})")
            lines.append(medium.name if medium is not None else "no medium reaches")
            lines.append(f"<i>{plant.reason(link_id)}</i>")
        except Exception as exc:  # noqa: BLE001 - the engine's refusal is the explanation
            lines.append(str(exc))
    return "<br>".join(lines)
