"""Hover texts for the plan: a rack's contents, U and power (typical / max against its budget),
a link's ends, routed length, medium and why, a trunk's part, lengths, legs and channels. Built when the tooltip is asked for, from the
model and the cable plant, so nothing is kept up to date for 4,500 racks. Tooltips are rich text:
every string that comes from the file (names, ports, models) is escaped, never rendered."""

from __future__ import annotations

from collections import Counter
from html import escape

from model.common.wording import count
from model.plant.physical_plant import rack_power
from model.structured.channel_view import trunk_part_text


def rack_tooltip(design, plant, rack_id: str) -> str:
    rack = design.racks[rack_id]
    types = design.catalog.device_types
    devices = design.devices_in_rack(rack_id)
    # The model's rack power (devices plus the plugs in their cages), as the analysis reports it.
    typical_w, max_w, budget_w = rack_power(design, plant, [rack_id])[rack_id]
    used_u = sum(types[d.type].u_height for d in devices)
    models = Counter(types[d.type].model for d in devices)
    contents = ", ".join(f"{n} × {escape(m)}" for m, n in models.most_common(4))
    gpus = sum(types[d.type].gpu_count for d in devices)
    over = " — over budget at max" if max_w > budget_w else ""
    lines = [
        f"<b>{escape(rack.name)}</b> · {escape(design.catalog.rack_type(rack.type).model)}",
        f"{count(len(devices), 'device')}" + (f": {contents}" if contents else ""),
        f"{count(gpus, 'GPU')} · {used_u} of {rack.height_u} U used · "
        f"{count(len(design.links_of_racks([rack_id])), 'link')}",
        f"Power {typical_w / 1000:.1f} / {max_w / 1000:.1f} kW (typical / max) "
        f"of {budget_w / 1000:g} kW{over}",
        "<i>Double-click for the elevation · right-click for more</i>",
    ]
    return "<br>".join(lines)


def link_tooltip(design, plant, link_id: str) -> str:
    link = design.links[link_id]
    a, b = design.devices[link.a.device], design.devices[link.b.device]
    racks = design.racks
    lines = [
        f"<b>{escape(a.name)}:{escape(link.a.port)}</b> ({escape(racks[a.rack].name)}) → "
        f"<b>{escape(b.name)}:{escape(link.b.port)}</b> ({escape(racks[b.rack].name)})",
        f"{design.ports(a.id)[link.a.port].speed_gbps:g} Gb/s"
        + (" · medium pinned" if link.medium != "auto" else ""),
    ]
    if plant is not None:
        try:
            route = plant.route(link_id)
            medium = plant.medium(link_id)
            lines.append(f"{route.total_m:.1f} m routed ({route.method})")
            lines.append(escape(medium.name) if medium is not None else "no medium reaches")
            lines.append(f"<i>{escape(plant.reason(link_id))}</i>")
        except Exception as exc:  # noqa: BLE001 - the engine's refusal is the explanation
            lines.append(escape(str(exc)))
    return "<br>".join(lines)


def trunk_tooltip(trunk) -> str:
    """One line on a trunk (a model.structured.layout.Trunk). Plain text: Qt shows it as it is,
    so nothing in it is escaped (it holds no tag)."""
    return (
        f"{trunk.id}: {trunk_part_text(trunk)}, "
        f"{trunk.ordered_m:g} m ordered ({trunk.length_m:.1f} m needed), "
        f"{trunk.legs} MPO leg(s), {len(set(trunk.links))} channel(s)"
    )
