"""Structured cabling in the trays: the trunks that replace the links' fibres (TrunkLoad)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from model.catalog.structured import structured_catalog
from model.structured.channels import kept_plant_rows, rows_in_plant
from model.structured.paths import panel_face


@dataclass(frozen=True)
class TrunkLoad:
    """What structured cabling changes in the trays: the links whose fibres became trunks
    (``minus``: (route id, medium index) -> links) and the trunks, each on the route of a link
    between its two racks (``plus``: route id, cross-section m^2, kg/m, bend radius mm)."""

    minus: dict[tuple[int, int], int] = field(default_factory=dict)
    plus: tuple[tuple[int, float, float, float], ...] = ()
    # Trunks between racks no link joins (a zone's trunk to its HDA rack): their own tray
    # intervals (plant.rack_tray_spans), cross-section m^2, kg/m, bend radius mm.
    own: tuple[tuple[tuple[tuple[str, float, float], ...], float, float, float], ...] = ()


def trunk_load(plant, layout, channel_rows: np.ndarray | None = None) -> TrunkLoad:
    """The :class:`TrunkLoad` of a structured layout (:mod:`model.structured.layout`).

    Patch cords run inside their racks and are not in the trays. A trunk between racks that no
    link joins directly (a zone's HDA trunk) follows the trays between the two racks' drop
    points on its panels' faces (:meth:`~model.engine.routed_links.RoutedLinks.rack_tray_spans`, the way a
    link between them would take; ``own``). ``channel_rows``: the layout's channels' rows in
    ``plant``, when the caller has them (``PhysicalPlant.structured_rows`` of this layout)."""
    sc = structured_catalog()
    routes = np.asarray(plant.route_keys(), dtype=np.int64)
    media = np.asarray(plant.medium_index, dtype=np.int64)
    # Per (route, medium), the links through panels, counted as arrays (a numpy scalar read
    # per link was ~1 s of a zoned XL analysis).
    # The channels' plant rows as the layout kept them (no index of every link; see
    # rows_in_plant); a trunk's route link is one of those channels' links but by hand.
    table = layout.channels
    if channel_rows is None:
        kept = kept_plant_rows(plant, table.fibres)
        channel_rows = rows_in_plant(plant, table.link_ids, table.fibre_rows, kept)
    rows = channel_rows[(routes[channel_rows] >= 0) & (media[channel_rows] >= 0)]
    # One integer per (route, medium), counted by a sort of 393k int64: the same pairs in the
    # same (route, medium) order as a unique over row pairs, which was ~0.5 s at XL.
    span = int(media[rows].max()) + 1 if len(rows) else 1
    keys, counts = np.unique(routes[rows] * span + media[rows], return_counts=True)
    minus = {divmod(k, span): n for k, n in zip(keys.tolist(), counts.tolist(), strict=True)}
    route_of = routes.tolist()
    channel_of, channel_plant_rows = table.row_of, channel_rows.tolist()
    plus, own = [], []
    figures_of: dict[tuple[str, int], tuple[float, float, float]] = {}  # per part and quantity
    spans_of: dict[tuple[str, str, str, str], tuple] = {}  # per (rack, face, rack, face)
    for trunk in layout.trunks:
        figures = figures_of.get((trunk.part, trunk.quantity))
        if figures is None:
            part = sc.trunks.get(trunk.part)
            if part is None:
                continue
            d_mm = part.diameter_mm
            figures = figures_of[(trunk.part, trunk.quantity)] = (
                math.pi * (d_mm / 1000) ** 2 / 4 * trunk.quantity,
                part.weight_kg_per_m * trunk.quantity,
                sc.bend_radius_mm("trunk", d_mm),
            )
        if trunk.route_link:
            row = channel_of.get(trunk.route_link)
            route = route_of[
                channel_plant_rows[row] if row is not None else plant.index[trunk.route_link]
            ]
            if route >= 0:
                plus.append((route, *figures))
            continue
        ends = (
            trunk.rack_a,
            panel_face(plant.design, trunk.panel_a),
            trunk.rack_b,
            panel_face(plant.design, trunk.panel_b),
        )
        # A rack's trunks to its zone rack mostly leave and reach the same faces: one tray
        # search per pair of drop points, not per trunk.
        spans = spans_of.get(ends)
        if spans is None:
            spans = spans_of[ends] = plant.rack_tray_spans(*ends)
        if spans:
            own.append((spans, *figures))
    return TrunkLoad(minus, tuple(plus), tuple(own))
