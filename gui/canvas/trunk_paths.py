"""What each MPO trunk of the plan is drawn along, and that way's plan points, without Qt.

The rules of :class:`gui.canvas.trunk_layer.TrunkLayer` (see its module docstring): a trunk is
drawn along the routed plan path of the link it follows (``Trunk.route_link``, or its only
link), else along the trays between its panels' faces (a zone's trunk to its distribution
rack), rack centre to rack centre when the trays do not join the two racks.

Pure (no Qt, no scene): what a picture draws its trunks along is a function of the design and
its plant alone (:func:`picture_trunk_routes`), which reads nothing Qt makes and can be
compared with the editor's drawing (tests/gui/test_picture_trunk_routes.py). A zoned XL
picture's trunks-only layout (~1.5 s CPU) and the paths of its ~7k routes (~0.3 s) are most
of its time; a cheaper source of the route keys (the trunks' rack pairs and panels, in layout
order) would go here.
"""

from __future__ import annotations

from model.structured.layout import Trunk, structured_layout, uses_structured
from model.structured.paths import panel_face

# What a trunk is drawn along (see route_key): a link id, or its racks and panels (A, B).
RouteKey = str | tuple[str, str, str, str]
Points = tuple[tuple[float, float], ...]


def route_key(trunk: Trunk) -> RouteKey:
    """What ``trunk`` is drawn along: the link it follows (``Trunk.route_link``, or its only
    link), else its two racks and panels (a trunk to a zone's distribution rack: no link runs
    it; it leaves each rack by its panel's face)."""
    return trunk.route_link or (
        trunk.links[0]
        if len(trunk.links) == 1
        else (trunk.rack_a, trunk.rack_b, trunk.panel_a, trunk.panel_b)
    )


def group_trunks(trunks, groups: dict | None = None) -> dict[RouteKey, list[Trunk]]:
    """The trunks by what they are drawn along (:func:`route_key`), each list in layout order:
    the only pass over every trunk of an adopted layout (~15 ms for a zoned XL hall's 100k,
    60-170 ms with the machine loaded). ``groups``: those of the trunks before, extended."""
    groups = {} if groups is None else groups
    for trunk in trunks:
        # route_key(trunk), inline: a call per trunk was a quarter of the pass.
        key = trunk.route_link or (
            trunk.links[0]
            if len(trunk.links) == 1
            else (trunk.rack_a, trunk.rack_b, trunk.panel_a, trunk.panel_b)
        )
        group = groups.get(key)
        if group is None:
            groups[key] = [trunk]
        else:
            group.append(trunk)
    return groups


def link_points(design, plant, link_ids: list[str]) -> dict[str, list[tuple[float, float]]]:
    """The plan path of each of ``link_ids``, the plant's paths asked all at once
    (:meth:`RoutedLinks.plan_points_of`: ~7k at zoned XL, ~1 s CPU one by one); a link the
    plant cannot draw that way is asked on its own (:func:`one_link_points`)."""
    if not link_ids:  # without the plant's index, asking for none scans every link id
        return {}
    try:
        found = dict(zip(link_ids, plant.plan_points_of(link_ids), strict=True))
    except Exception:  # noqa: BLE001 - a link the plant does not know (yet): asked on its own
        found = {}
    return {
        link_id: points
        if len(points := found.get(link_id, ())) >= 2
        else one_link_points(design, plant, link_id)
        for link_id in link_ids
    }


def one_link_points(design, plant, link_id: str) -> list[tuple[float, float]]:
    """One link's plan path (``plant.route``), else the line between its racks' centres."""
    try:
        points = list(plant.route(link_id).points)
        if len(points) >= 2:
            return points
    except Exception:  # noqa: BLE001 - a route the engine cannot draw falls back to a line
        pass
    link = design.links[link_id]
    racks = design.racks
    a = racks[design.devices[link.a.device].rack]
    b = racks[design.devices[link.b.device].rack]
    return [(a.x, a.y), (b.x, b.y)]


def rack_pair_points(design, plant, key: tuple[str, str, str, str]) -> list[tuple[float, float]]:
    """The way of a trunk no link runs (``key``: its racks and panels, both racks in the
    design): along the trays between its panels' faces, where the analysis counts its tray
    fill (``RoutedLinks.rack_points``), else rack centre to rack centre."""
    a, b = design.racks[key[0]], design.racks[key[1]]
    face_a, face_b = panel_face(design, key[2]), panel_face(design, key[3])
    points = plant.rack_points(key[0], face_a, key[1], face_b)
    return points if len(points) >= 2 else [(a.x, a.y), (b.x, b.y)]


def picture_trunk_routes(design, plant) -> list[tuple[RouteKey, Points]]:
    """What a picture of ``plant``'s design draws its trunks along: per route key, in the
    order of the trunks-only layout's trunks, the points of its way (none for a direct design).
    The trunks themselves are not kept: a picture selects and hits none."""
    if not uses_structured(design):
        return []
    keys = list(group_trunks(structured_layout(plant, trunks_only=True).trunks))
    links, racks = design.links, design.racks
    paths = link_points(design, plant, [k for k in keys if isinstance(k, str) and k in links])
    routes: list[tuple[RouteKey, Points]] = []
    for key in keys:
        if isinstance(key, str):
            points = paths.get(key)
        elif key[0] in racks and key[1] in racks:
            points = rack_pair_points(design, plant, key)
        else:
            points = None
        if points is not None and len(points) >= 2:
            routes.append((key, tuple(map(tuple, points))))
    return routes
