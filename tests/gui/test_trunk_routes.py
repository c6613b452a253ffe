"""The plan draws a zone's trunks along the trays (#43 item 3): a trunk no link runs alongside
(rack to its zone's distribution rack) follows the way its tray fill is counted, between its
panels' faces, not a straight line from rack centre to rack centre; and it follows a moved rack."""

from __future__ import annotations

from PySide6.QtGui import QUndoStack

from gui.canvas.scene import HallScene
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.structured.paths import panel_face


def _on_a_tray(design, point, tolerance_m: float = 1e-6) -> bool:
    from shapely.geometry import LineString, Point

    return any(
        LineString(t.points).distance(Point(point)) <= tolerance_m for t in design.trays.values()
    )


def _zone_trunk_routes(scene):
    layer = scene.trunk_layer
    layer.refresh()
    trunks = [t for t in layer.layout().trunks if not t.route_link and len(t.links) != 1]
    routes = {r.points for r in layer.field.routes()}
    return trunks, routes


def _way(plant, design, trunk) -> tuple:
    return tuple(
        plant.rack_points(
            trunk.rack_a,
            panel_face(design, trunk.panel_a),
            trunk.rack_b,
            panel_face(design, trunk.panel_b),
        )
    )


def _assert_drawn_along_the_trays(design, plant, trunks, routes) -> None:
    for trunk in trunks:
        want = _way(plant, design, trunk)
        a, b = design.racks[trunk.rack_a], design.racks[trunk.rack_b]
        assert want in routes, trunk.id
        assert ((a.x, a.y), (b.x, b.y)) not in routes  # no rack-centre line for it
        # Off the rack at each end, the inner points run on the trays.
        assert len(want) >= 3
        assert all(_on_a_tray(design, p) for p in want[1:-1]), want


def test_a_zone_trunk_is_drawn_along_the_trays_between_its_panels_faces(qapp):
    design = apply_cabling(generate("nvl72", racks=8), "zones")
    plant = RoutedLinks(design)
    scene = HallScene(design, QUndoStack(), plant, picture=True)
    try:
        trunks, routes = _zone_trunk_routes(scene)
        assert trunks  # one GB200 SU zoned has trunks to its zone's distribution rack
        _assert_drawn_along_the_trays(design, plant, trunks, routes)
        # A rack of such a trunk moved: the trunks to it follow (asked again, not the old way kept).
        rack = design.racks[trunks[0].rack_a]
        before = _way(plant, design, trunks[0])
        design.move_racks({rack.id: (rack.x, rack.y + 0.6)})
        plant.refresh()
        assert _way(plant, design, trunks[0]) != before
        trunks, routes = _zone_trunk_routes(scene)
        touching = [t for t in trunks if rack.id in (t.rack_a, t.rack_b)]
        assert touching
        _assert_drawn_along_the_trays(design, plant, touching, routes)
    finally:
        scene.detach()
        scene.clear()


def _draw_all(layer) -> int:
    """Refresh ``layer`` until every path is asked, as its timer would: the turns it took."""
    layer.refresh()
    turns = 1
    while layer.drawing:
        assert layer._timer.isActive()  # the next turn is due
        layer._timer.stop()
        layer.refresh()
        turns += 1
    return turns


def _drawn(layer) -> dict:
    return {key: route.points for key, route in layer._drawn.items()}


def test_routes_asked_a_few_per_turn_end_as_those_asked_at_once(qapp):
    """The layer groups GROUPS_PER_TURN trunks and asks the plant for ASKS_PER_TURN route keys
    per event-loop turn (a zoned XL hall asked ~7k in one ~1.2 s turn): once done, it draws
    what a layer grouping and asking them all at once draws, zone trunks (rack pairs) and link routes alike; after a rack moved, the routes
    it drew are asked again, a few per turn, and end the same too."""
    design = apply_cabling(generate("nvl72", racks=8), "zones")
    plant = RoutedLinks(design)
    whole = HallScene(design, QUndoStack(), plant)
    sliced = HallScene(design, QUndoStack(), plant)
    try:
        whole.trunk_layer.ASKS_PER_TURN = whole.trunk_layer.GROUPS_PER_TURN = 10**9
        sliced.trunk_layer.ASKS_PER_TURN = 3
        sliced.trunk_layer.GROUPS_PER_TURN = 2
        for step in range(2):
            assert _draw_all(whole.trunk_layer) == 1
            turns = _draw_all(sliced.trunk_layer)
            keys = _drawn(whole.trunk_layer)
            assert any(isinstance(k, tuple) for k in keys) and any(isinstance(k, str) for k in keys)
            assert _drawn(sliced.trunk_layer) == keys
            if step == 0:  # the trunks grouped 2 a turn, the last turn asks the first keys
                trunks = len(sliced.trunk_layer.layout().trunks)
                assert turns == -(-trunks // 2) - 1 + -(-len(keys) // 3)
                before = dict(keys)
                rack = design.racks[next(k for k in keys if isinstance(k, tuple))[0]]
                design.move_racks({rack.id: (rack.x, rack.y + 0.6)})
                plant.refresh()
            else:
                assert keys != before  # the moved rack's routes were asked again
    finally:
        for scene in (whole, sliced):
            scene.detach()
            scene.clear()
