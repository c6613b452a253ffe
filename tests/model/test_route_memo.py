"""The plant remembers plan paths per drop pair and reasons per choice (``routes`` on 400k
links): what it remembers is forgotten by the next edit, so a route and a reason always match
a plant built fresh from the design."""

from __future__ import annotations

from model.engine.routed_links import RoutedLinks
from tests.model.test_snapshot_pipeline import fabric


def test_remembered_routes_and_reasons_follow_edits():
    design = fabric()
    plant = RoutedLinks(design)
    links = sorted(design.links)
    before = {lk: (plant.route(lk).points, plant.reason(lk)) for lk in links}
    assert before == {lk: (plant.route(lk).points, plant.reason(lk)) for lk in links}  # memo
    rack = next(iter(design.racks))
    design.move_racks({rack: (3.5, 20.0)})
    plant.refresh()
    fresh = RoutedLinks(design)
    for lk in links:
        assert plant.route(lk) == fresh.route(lk)
        assert plant.reason(lk) == fresh.reason(lk)
    moved = design.links_of_racks([rack])
    assert any(plant.route(lk).points != before[lk][0] for lk in moved)
