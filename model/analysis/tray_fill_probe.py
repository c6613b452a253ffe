"""A rack move's tray fill found from the kept levels without counting it (the optimiser's bound).

Most XL candidates fill a tray past 40 % even with the thinnest cables their links could take
(:meth:`model.optimise.objective.Pricer._over_bound`): counted and taken back
(:mod:`model.analysis.tray_fill_undo`), their fill cost a recount of the per-(route, medium)
counts and its undo. Found here from the same levels and the same cable spans, nothing written.
"""

from __future__ import annotations

import numpy as np

from model.analysis.tray_fill import TrayFill
from model.design.design import Design


def probe(
    fill: TrayFill,
    design: Design,
    plant,
    rows_hint: np.ndarray,
    limits: dict[str, float] | None = None,
) -> dict[str, float] | None:
    """The fill ratio of each tray whose cables would change if the plant's ``rows_hint`` rows
    (all a rack move can change) were counted now: the ratios a fill-only ``fill.update`` with
    ``rows_hint`` would give those trays, nothing counted. None when ``fill`` keeps no levels
    of this plant's counts (an update then counts them).

    ``limits`` (fill ratio per tray id): only the trays whose fill could pass their limit
    are measured and given (:meth:`TrayLevels.probe`'s ceilings); a tray left out provably
    stays at or below it."""
    state = fill._fill_state
    identity = getattr(plant, "plant_identity", id(plant))
    if (
        state is None
        or state[0].tray_ids != list(design.trays)
        or fill._structured is not None
        or (identity, plant.route_generation, tuple(m.id for m in plant.media)) != fill._plant_state
        or len(fill._row_route) != len(plant.link_ids)
    ):
        return None
    # The rows update() would recount: those whose route or medium differ from the counted.
    # Route ids of the hinted rows alone: a rack move routed none but those (the hint is its
    # racks' links grown to whole components), so naming them names every stale row.
    near = rows_hint
    routes = np.asarray(plant.route_keys_at(near), dtype=np.int64)
    media = np.asarray(plant.medium_index)[near]
    counted_route, counted_medium = fill._row_route[near], fill._row_medium[near]
    differ = (routes != counted_route) | (media != counted_medium)
    recounted = (counted_route[differ], counted_medium[differ], routes[differ], media[differ])
    levels = state[0]
    cables = fill._cables_moved(levels, plant, recounted)
    ceilings = None
    if limits is not None:
        trays = design.trays
        ceilings = np.array(
            [limits[t] * trays[t].width_m * trays[t].depth_m for t in levels.tray_ids]
        )
    tops = {}
    if cables is not None:
        tray, s0, s1, medium, net = cables
        tops = levels.probe(tray, s0, s1, medium, net, ceilings)
    ratios = {}
    for k, level in tops.items():
        tray_id = levels.tray_ids[k]
        t = design.trays[tray_id]
        ratios[tray_id] = level / (t.width_m * t.depth_m)
    return ratios
