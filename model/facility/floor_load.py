"""Rack weights and floor load per tile and per m2, checked against the hall's floor rating.

Rules (choices, written down):

* A rack weighs its type's ``empty_weight_kg`` plus its devices' ``weight_kg`` (catalog); a
  rack type the catalog lacks counts as empty mass 0.
* A rack's mass rests evenly on its footprint (width x depth, turned as on the plan): its load
  is mass / footprint area, kg/m2. Casters and levelling feet concentrate it further; a hall's
  rating is stated for a distributed load, so that is what is compared.
* Tiles are the hall's ``tile_m`` grid from the plan origin, named ``column,row`` (0-based,
  x then y). A tile's load is the mass of the footprints over it, each rack's mass shared in
  proportion to the area it covers, over the tile's area: the heat map's figure.
* A rack whose load is over ``Hall.floor_rating_kg_m2`` is a warning naming the tiles it
  stands on; no rating stated, nothing is checked.
"""

from __future__ import annotations

import math

from model.common.findings import Finding
from model.design.design import Design
from model.design.entities import Rack, plan_size


def rack_weights_kg(design: Design, rack_ids: list[str] | None = None) -> dict[str, float]:
    """Mass (kg) of every rack (or of ``rack_ids``): empty rack plus its devices."""
    types = design.catalog.device_types
    rack_types = design.catalog.rack_types
    racks = design.racks if rack_ids is None else {r: design.racks[r] for r in rack_ids}
    out = {}
    for rack in racks.values():
        rtype = rack_types.get(rack.type)
        out[rack.id] = rtype.empty_weight_kg if rtype is not None else 0.0
    devices = (
        design.devices.values()
        if rack_ids is None
        else [d for r in rack_ids for d in design.devices_in_rack(r)]
    )
    for device in devices:
        out[device.rack] += types[device.type].weight_kg
    return out


def footprint_area_m2(rack: Rack) -> float:
    """Plan area of the rack's footprint (m2)."""
    return rack.width_m * rack.depth_m


def _tiles_under(rack: Rack, tile_m: float) -> list[tuple[tuple[int, int], float]]:
    """(tile (column, row), m2 of the footprint over it) for the tiles the rack stands on."""
    w, d = plan_size(rack.width_m, rack.depth_m, rack.rotation)
    x0, x1, y0, y1 = rack.x - w / 2, rack.x + w / 2, rack.y - d / 2, rack.y + d / 2
    eps = 1e-9  # a footprint edge on a tile edge does not touch the next tile
    out = []
    for col in range(math.floor(x0 / tile_m + eps), math.ceil(x1 / tile_m - eps)):
        dx = min(x1, (col + 1) * tile_m) - max(x0, col * tile_m)
        for row in range(math.floor(y0 / tile_m + eps), math.ceil(y1 / tile_m - eps)):
            dy = min(y1, (row + 1) * tile_m) - max(y0, row * tile_m)
            if dx > eps and dy > eps:
                out.append(((col, row), dx * dy))
    return out


def tile_name(tile: tuple[int, int]) -> str:
    """A tile's name: ``column,row`` of the hall's tile grid."""
    return f"{tile[0]},{tile[1]}"


def tile_loads_kg_m2(design: Design, weights: dict[str, float] | None = None) -> dict:
    """Load (kg/m2) on every tile under a rack: the heat map's figures, tile -> kg/m2."""
    weights = rack_weights_kg(design) if weights is None else weights
    tile_m = design.hall.tile_m
    mass: dict[tuple[int, int], float] = {}
    for rack in design.racks.values():
        area = footprint_area_m2(rack)
        for tile, covered in _tiles_under(rack, tile_m):
            mass[tile] = mass.get(tile, 0.0) + weights[rack.id] * covered / area
    return {tile: kg / (tile_m * tile_m) for tile, kg in mass.items()}


def floor_findings(design: Design) -> list[Finding]:
    """One warning per rack whose load is over the hall's floor rating (none unstated)."""
    rating = design.hall.floor_rating_kg_m2
    if rating is None:
        return []
    weights = rack_weights_kg(design)
    out = []
    for rack in sorted(design.racks.values(), key=lambda r: r.name):
        load = weights[rack.id] / footprint_area_m2(rack)
        if load <= rating + 1e-9:
            continue
        tiles = " ".join(tile_name(t) for t, _ in _tiles_under(rack, design.hall.tile_m))
        out.append(
            Finding(
                code="FLOOR_OVERLOAD",
                severity="warning",
                message=f"Rack {rack.name} puts {weights[rack.id]:,.0f} kg on "
                f"{footprint_area_m2(rack):.2f} m2 ({load:,.0f} kg/m2), over the floor's "
                f"{rating:,.0f} kg/m2, on tiles {tiles}.",
                objects=(rack.id,),
            )
        )
    return out


def floor_load(design: Design) -> dict:
    """The floor's figures for ``analyze --json`` "floor_load": rating, heaviest rack and
    tile, total mass, racks over the rating (empty when the hall states no rating or has no
    racks: the report shows none then, and an XL hall's tiles are ~20 ms a refresh)."""
    rating = design.hall.floor_rating_kg_m2
    if not design.racks or rating is None:
        return {}
    weights = rack_weights_kg(design)
    loads = {r: weights[r] / footprint_area_m2(design.racks[r]) for r in design.racks}
    tiles = tile_loads_kg_m2(design, weights)
    heaviest = max(loads, key=lambda r: (loads[r], r))
    worst_tile = max(tiles, key=lambda t: (tiles[t], t))
    return {
        "rating_kg_m2": rating,
        "total_rack_mass_kg": round(sum(weights.values()), 1),
        "max_rack_kg": round(max(weights.values()), 1),
        "max_rack_load_kg_m2": round(loads[heaviest], 1),
        "heaviest_rack": heaviest,
        "max_tile_load_kg_m2": round(tiles[worst_tile], 1),
        "heaviest_tile": tile_name(worst_tile),
        "racks_over_rating": sorted(r for r, v in loads.items() if v > rating + 1e-9),
    }
