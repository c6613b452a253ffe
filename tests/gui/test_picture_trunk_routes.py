"""A picture's trunk routes (gui/canvas/trunk_paths.picture_trunk_routes: the trunks-only layout,
no scene) are the routes the editor's trunk layer draws from the full layout,
route by route and in the same painting order, on halls with odd cases: zoned and
cross-connected, LC cassettes and SR8, a link of a typed length and one routed via panels by
hand, trunks to a zone's distribution rack, no trays, one rack, an empty hall, a direct one."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QUndoStack

from gui.canvas.scene import HallScene
from gui.canvas.trunk_paths import picture_trunk_routes
from model.design.design import Design
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from tests.builders import empty_hall, rack
from tests.model.test_structured_columns_oracle import HALLS, _hall


def _without_trays(design: Design) -> Design:
    design.remove_trays(list(design.trays))
    return design


def _one_rack() -> Design:
    design = apply_cabling(generate("nvl72", racks=1), "zones")
    keep = next(iter(design.racks))
    design.remove_racks([r for r in design.racks if r != keep])
    return design


def _empty_zoned() -> Design:
    design = empty_hall()
    rack(design, "r1", 1.0, 1.0)
    return apply_cabling(design, "zones")


def _half_the_panels_placed() -> Design:
    """Placed panels in some racks, virtual ones (the layout's own) in the others."""
    design = apply_cabling(generate("nvl72", racks=4), "zones")
    panels = [d.id for d in design.devices.values() if d.type.startswith("panel-")]
    assert panels
    design.remove_devices(panels[::2])
    return design


ODD = {
    "nvl72 zoned, no trays": lambda: _without_trays(
        apply_cabling(generate("nvl72", racks=4), "zones")
    ),
    "one rack zoned": _one_rack,
    "empty zoned": _empty_zoned,
    "nvl72 zoned, 8 racks": lambda: apply_cabling(generate("nvl72", racks=8), "zones"),
    "nvl72 zoned, half its panels placed": _half_the_panels_placed,
    "direct": lambda: generate("nvl72", racks=4),
}


def _editor_routes(design: Design) -> list[tuple]:
    """The routes the editor's layer draws (the full layout, the plant asked per changed route)."""
    scene = HallScene(design, QUndoStack(), RoutedLinks(design))
    try:
        scene.trunk_layer.refresh()
        return [(key, route.points) for key, route in scene.trunk_layer._drawn.items()]
    finally:
        scene.detach()


def _picture_layer_routes(design: Design) -> tuple[list, bool]:
    """A picture scene's routes (its field's, in painting order) and whether it shows trunks."""
    scene = HallScene(design, QUndoStack(), RoutedLinks(design), picture=True)
    try:
        layer = scene.trunk_layer
        return [r.points for r in layer.field.routes()], layer.shows_trunks()
    finally:
        scene.detach()


@pytest.mark.parametrize("name", [*sorted(HALLS), *ODD])
def test_a_picture_s_trunk_routes_are_the_editor_s(qapp, name):
    design = _hall(name) if name in HALLS else ODD[name]()
    want = _editor_routes(design)
    got = picture_trunk_routes(design, RoutedLinks(design))
    assert got == want
    if name in HALLS:
        assert len(got) > 2
    if name == "nvl72 zoned, 8 racks":  # trunks to the zone's distribution rack: no link runs them
        assert any(not isinstance(key, str) for key, _ in got)
    # The picture's scene draws those routes, once each, in their order
    points, shown = _picture_layer_routes(design)
    assert points == list(dict.fromkeys(p for _, p in want))
    assert shown == bool(want)


def test_a_picture_s_layer_draws_the_routes_of_the_current_revision(qapp):
    """Hidden, shown again, and after an edit: the routes found once per revision."""
    design = apply_cabling(generate("nvl72", racks=4), "zones")
    plant = RoutedLinks(design)
    scene = HallScene(design, QUndoStack(), plant, picture=True)
    try:
        layer = scene.trunk_layer
        drawn = [r.points for r in layer.field.routes()]
        assert drawn and layer.shows_trunks() and layer.trunks() == {}  # routes, not trunks
        layer.set_visible(False)
        assert layer.field.routes() == [] and not layer.shows_trunks()
        layer.set_visible(True)
        assert [r.points for r in layer.field.routes()] == drawn
        rack = next(iter(design.racks.values()))
        design.move_racks({rack.id: (rack.x, rack.y + 0.6)})
        layer.refresh()
        want = [p for _, p in picture_trunk_routes(design, plant)]
        # (in the field's order: the routes drawn already keep their places)
        assert {r.points for r in layer.field.routes()} == set(want) != set(drawn)
    finally:
        scene.detach()


def test_a_picture_scene_without_a_plant_draws_no_trunk(qapp):
    """A picture scene made with no cable plant (nothing routed) draws its racks and no trunk,
    as before the picture's routes had their own function."""
    design = apply_cabling(generate("nvl72", racks=4), "zones")
    scene = HallScene(design, QUndoStack(), None, picture=True)
    try:
        assert scene.trunk_layer.field.routes() == []
    finally:
        scene.detach()
