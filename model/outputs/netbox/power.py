"""NetBox power of a design with a facility: power panels, power feeds, PDUs and their cables.

NetBox's power model is panel -> feed -> power port: a *power panel* (our busway or panel), a
*power feed* (one circuit from the panel to a rack, primary or redundant) and the *power port*
of the device the circuit plugs into. So:

* every ``Hall.power`` panel is a NetBox power panel (its upstream feed, side and rating in its
  description: NetBox has no object above a panel);
* every entry of ``Rack.pdus`` is a NetBox power feed named ``<rack> PDU<n>`` (``PS<n>`` for a
  rack's built-in power shelves) on its panel, in its rack, ``primary`` on side A and
  ``redundant`` on side B, with the panel's supply, phases and voltage;
* each feed plugs into the power port ``input`` of a PDU (or power shelf) device of that name,
  in the rack without a U position (NetBox's non-racked devices), through a cable of type
  power. The device types of those PDUs are written beside the others.

The feed's amperage is the circuit each cord needs when its side carries the whole rack (the
rack's devices at maximum draw over the cords of one side, at the panel's voltage), rounded up
to a standard breaker size; the plugs' few per cent are within the step.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from model.design.design import Design
from model.design.entities import PowerPanel
from model.outputs.netbox.names import DESCRIPTION_MAX, MODEL_NAME_MAX, fit_name, slugify

POWER_PANEL_HEADER = ("site", "location", "name", "description")
POWER_FEED_HEADER = (
    "site",
    "power_panel",
    "location",
    "rack",
    "name",
    "status",
    "type",
    "supply",
    "phase",
    "voltage",
    "amperage",
    "max_utilization",
    "description",
)
POWER_CABLE_HEADER = (
    "side_a_site",
    "side_a_power_panel",
    "side_a_type",
    "side_a_name",
    "side_b_site",
    "side_b_device",
    "side_b_type",
    "side_b_name",
    "type",
    "status",
    "label",
    "description",
)
PDU_ROLE = "pdu"
PDU_PORT = "input"
BREAKER_A = (16, 20, 32, 40, 63, 80, 100, 125, 160, 200, 250, 400)  # IEC sizes, estimate
MAX_UTILIZATION_PCT = 80  # NetBox's default: the continuous-load margin


@dataclass
class PowerExport:
    """The NetBox power objects of one design (empty lists: the design has no power paths)."""

    panels: list[tuple] = field(default_factory=list)
    feeds: list[tuple] = field(default_factory=list)
    devices: list[dict[str, object]] = field(default_factory=list)  # DEVICE_HEADER keys
    cables: list[tuple] = field(default_factory=list)
    device_types: list[tuple[str, dict[str, object]]] = field(default_factory=list)
    manufacturers: set[str] = field(default_factory=set)


def _power_type(design: Design, rtype, shelf: bool) -> tuple[str, str, int]:
    """(manufacturer, model, U) of the devices a rack's ``Rack.pdus`` entries stand for: the
    part the BOM counts for them (model.facility.parts: the rack type's own ``power_part``,
    else the catalog's first part of the kind), named by its catalog ``model`` (``netbox_model``). A NetBox user
    sees which shelf, PDU or DC feed each rack holds, as the BOM lists it. A catalog without
    facility parts gets generic types."""
    kind = "power-shelf" if shelf else "rack-pdu"
    parts = design.catalog.facility_parts
    part = parts.get(getattr(rtype, "power_part", "") or "") or next(
        (p for p in parts.values() if p.kind == kind), None
    )
    u_height = 1 if shelf else 0  # a PDU is 0U (zero-U, on the rack's side rails)
    if part is None:
        return ("Generic", "Power shelf" if shelf else "Rack PDU", u_height)
    maker = "NVIDIA" if part.vendor.startswith("NVIDIA") else "Generic"
    return (maker, part.netbox_model, u_height)


def _type_slug(manufacturer: str, model: str) -> str:
    return slugify(f"{manufacturer} {model}")


def _yielded_type(
    device_type: tuple[str, str, int], taken: set[tuple[str, str]], slugs: set[str]
) -> tuple[str, str, int]:
    """``device_type`` as exported: renamed ``<model> (facility)`` (then ``(facility 2)``...)
    when a type already written has its (manufacturer, model), compared ignoring case as
    NetBox does, or its slug. The design's own types keep their names: a custom type
    ``Generic Rack PDU`` and the generated PDU type shared a YAML path (one was lost) and
    NetBox would have matched the custom type's devices to the PDU type."""
    manufacturer, model, u_height = device_type
    name, n = model, 1
    while (manufacturer.casefold(), name.casefold()) in taken or _type_slug(
        manufacturer, name
    ) in slugs:
        tag = " (facility)" if n == 1 else f" (facility {n})"
        name = fit_name(model, MODEL_NAME_MAX - len(tag)) + tag
        n += 1
    taken.add((manufacturer.casefold(), name.casefold()))
    slugs.add(_type_slug(manufacturer, name))
    return (manufacturer, name, u_height)


def _phase(panel: PowerPanel) -> str:
    return "three-phase" if panel.current == "ac" and panel.phases == 3 else "single-phase"


def _circuit_amps(watts: float, panel: PowerPanel) -> int:
    volts = panel.voltage_v * (math.sqrt(3) if _phase(panel) == "three-phase" else 1.0)
    need = watts / volts
    return next((a for a in BREAKER_A if a >= need), BREAKER_A[-1])


def _type_doc(manufacturer: str, model: str, u_height: int) -> dict[str, object]:
    return {
        "manufacturer": manufacturer,
        "model": model,
        "slug": _type_slug(manufacturer, model),
        "u_height": u_height,
        "is_full_depth": False,
        "airflow": "passive",
        "description": "Hallwright facility part",
        "power-ports": [{"name": PDU_PORT, "description": "Cord to the busway or panel"}],
    }


def power_export(
    design: Design,
    site: str,
    location: str,
    rack_names: dict[str, str],
    taken: set[str],
    type_names: Iterable[tuple[str, str, str]] = (),
) -> PowerExport:
    """The power panels, feeds, PDU devices and power cables of ``design`` (``taken``: device
    names already used in the site, compared ignoring case; ``type_names``: (manufacturer,
    model, slug) of the device types already exported, which the PDU types yield to)."""
    out = PowerExport()
    power = design.hall.power
    panels = {p.id: p for p in power.panels}
    if not power.feeds or not panels:
        return out
    feeds = {f.id: f for f in power.feeds}
    panel_names = {p.id: fit_name(p.name or p.id, 100) for p in power.panels}
    for panel in power.panels:
        feed = feeds[panel.feed]
        out.panels.append(
            (
                site,
                location,
                panel_names[panel.id],
                fit_name(
                    f"Hallwright {panel.kind} {panel.id}, fed from {feed.name or feed.id} "
                    f"(side {feed.side}, {feed.source}), {panel.voltage_v:g} V "
                    f"{panel.current.upper()} {panel.current_a:g} A",
                    DESCRIPTION_MAX,
                ),
            )
        )
    types = design.catalog.device_types
    rack_types = design.catalog.rack_types
    rack_max = dict.fromkeys(design.racks, 0.0)
    for device in design.devices.values():
        rack_max[device.rack] += types[device.type].power_max_w
    # (manufacturer, model) as generated -> (manufacturer, model, u) as exported
    kinds: dict[tuple[str, str], tuple[str, str, int]] = {}
    taken_types = {(m.casefold(), n.casefold()) for m, n, _ in type_names}
    taken_slugs = {slug for _, _, slug in type_names}
    used = {n.lower() for n in taken}
    for rack in sorted(design.racks.values(), key=lambda r: rack_names[r.id]):
        entries = [p for p in rack.pdus if p in panels]
        if not entries:
            continue
        rtype = rack_types.get(rack.type)
        shelf = bool(rtype and rtype.power_shelves)
        kind = "PS" if shelf else "PDU"
        device_type = _power_type(design, rtype, shelf)
        key = device_type[:2]
        if key not in kinds:
            kinds[key] = _yielded_type(device_type, taken_types, taken_slugs)
        manufacturer, model, _u = kinds[key]
        sides = [feeds[panels[p].feed].side for p in entries]
        for n, (panel_id, side) in enumerate(zip(entries, sides, strict=True), 1):
            panel = panels[panel_id]
            name = fit_name(f"{rack_names[rack.id]} {kind}{n}", 64)
            while name.lower() in used:
                name = fit_name(f"{name}-{rack.id}", 64)
            used.add(name.lower())
            share_w = rack_max[rack.id] / max(1, sides.count(side))
            out.feeds.append(
                (
                    site,
                    panel_names[panel_id],
                    location,
                    rack_names[rack.id],
                    name,
                    "planned",
                    "primary" if side == "A" else "redundant",
                    panel.current,
                    _phase(panel),
                    round(panel.voltage_v),
                    _circuit_amps(share_w, panel),
                    MAX_UTILIZATION_PCT,
                    fit_name(f"Hallwright {rack.id} pdu-{n}", DESCRIPTION_MAX),
                )
            )
            out.devices.append(
                {
                    "name": name,
                    "role": PDU_ROLE,
                    "manufacturer": manufacturer,
                    "device_type": model,
                    "status": "planned",
                    "site": site,
                    "location": location,
                    "rack": rack_names[rack.id],
                    "airflow": "passive",
                    "description": fit_name(f"Hallwright {rack.id} pdu-{n}", DESCRIPTION_MAX),
                }
            )
            out.cables.append(
                (
                    site,
                    panel_names[panel_id],
                    "dcim.powerfeed",
                    name,
                    site,
                    name,
                    "dcim.powerport",
                    PDU_PORT,
                    "power",
                    "planned",
                    fit_name(f"{name} feed", 100),
                    fit_name(f"{panel_names[panel_id]} to {name}", DESCRIPTION_MAX),
                )
            )
    for manufacturer, model, u in kinds.values():
        doc = _type_doc(manufacturer, model, u)
        out.device_types.append((str(doc["slug"]), doc))
        out.manufacturers.add(manufacturer)
    return out
