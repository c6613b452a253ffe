"""External laser sources of co-packaged switches: ordered, powered and counted per switch.

A co-packaged (CPO) switch's ports have no modules: their optical engines sit beside the switch
ASIC and take their light from external laser source (ELS) modules plugged into the switch's
front panel (domain-facts §9: the Quantum-X Photonics Q3450-LD has 18 of them for 144 ports).
Those modules are parts like any other: bought (a BOM line), drawing power (in the switch's plug
power, so in its rack's) and failing (the reliability forecast counts their lasers).

Each laser source lights one block of consecutive co-packaged ports (144 / 18 = 8 on the
Q3450-LD; which ports a module feeds is not published, so blocks in port order are an
estimate): a switch takes the modules of the blocks that hold a cabled port, so a half-used
spine does not buy, power and fail the lasers of its empty half.
"""

from __future__ import annotations

from collections import Counter

from model.catalog.parts import part_number_for
from model.plant.parts_count import PartCount

CATEGORY = "laser-source"


def laser_source_items(design, by_fabric: bool = False) -> list[PartCount]:
    """One item per (laser source part, fabric) over every co-packaged switch of ``design``;
    ``by_fabric`` splits by the switch's network (:func:`model.design.fabrics.device_fabric`),
    as the plant's other items are when it is asked for fabrics."""
    catalog = design.catalog
    types = catalog.device_types
    wanted = {t for t, d in types.items() if d.laser_sources}
    if not wanted:
        return []
    counts: Counter[tuple[str, str]] = Counter()
    if by_fabric:
        # Imported here: only a design with co-packaged switches needs the fabric map.
        from model.design.fabrics import device_fabric

    for device in design.devices.values():
        if device.type not in wanted:
            continue
        dtype = types[device.type]
        fabric = (device_fabric(design, device) or "") if by_fabric else ""
        counts[(dtype.laser_source, fabric)] += lit_sources(design, device)
    out = []
    for (part_id, fabric), qty in sorted(counts.items()):
        part = catalog.laser_source_parts[part_id]
        out.append(
            PartCount(
                category=CATEGORY,
                part_id=part.id,
                part_number=part_number_for(part.part_number, None),
                vendor=part.vendor,
                description=part.description,
                length_m=None,
                quantity=qty,
                kind="laser-source",
                unit_power_w=part.power_w,
                unit_power_w_max=part.power_w_max,
                unit_price_usd=part.price_usd,
                source=part.source,
                fabric=fabric,
            )
        )
    return out


def lit_sources(design, device) -> int:
    """How many of a co-packaged switch's laser sources light a cabled port (0 for a switch of
    any other type): the blocks of ``ports / laser_sources`` co-packaged ports, in port order,
    that hold an end of one of its links."""
    dtype = design.catalog.device_types[device.type]
    if not dtype.laser_sources:
        return 0
    block_of: dict[str, int] = {}
    for group in dtype.port_groups:
        if group.form_factor.startswith("CPO"):
            per = -(-group.count // dtype.laser_sources)
            block_of.update({f"{group.name}{i + 1}": i // per for i in range(group.count)})
    blocks = set()
    for link_id in design.links_of_device(device.id):
        link = design.links[link_id]
        for end in (link.a, link.b):
            if end.device == device.id and end.port.split("/")[0] in block_of:
                blocks.add(block_of[end.port.split("/")[0]])
    return len(blocks)


def laser_source_power_w(design, device) -> tuple[float, float]:
    """(typical W, max W) of the lit laser sources of one switch (0 for none)."""
    dtype = design.catalog.device_types[device.type]
    lit = lit_sources(design, device)
    if not lit:
        return 0.0, 0.0
    part = design.catalog.laser_source_parts[dtype.laser_source]
    return lit * part.power_w, lit * part.power_w_max


def with_laser_source_power(
    design, typ: dict[str, float], mx: dict[str, float], devices=None
) -> tuple[dict[str, float], dict[str, float]]:
    """Copies of the plug power dicts (device id -> W) with each co-packaged switch's laser
    sources added (of ``devices`` only, when given): they are plugs in its front panel."""
    types = design.catalog.device_types
    typ, mx = dict(typ), dict(mx)
    # Only the devices asked for (a rack's, for the canvas after each edit), not the hall's.
    pool = design.devices.values() if devices is None else (design.devices[d] for d in devices)
    for device in pool:
        if not types[device.type].laser_sources:
            continue
        w, w_max = laser_source_power_w(design, device)
        typ[device.id] = typ.get(device.id, 0.0) + w
        mx[device.id] = mx.get(device.id, 0.0) + w_max
    return typ, mx
