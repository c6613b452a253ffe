"""After a tray edit the routes are named on the snapshot (the analysis worker), not the live plant, and the live plant adopts those names."""

from __future__ import annotations

import numpy as np

from model.engine.routed_links import RoutedLinks
from model.engine.snapshot import Snapshotter
from tests.benchmarks.synthetic import synthetic_hall


def _move_a_used_corner(design, plant) -> None:
    plant.route_keys()
    tray_id = sorted({t for k in range(plant.route_count) for t, _, _ in plant.tray_spans(k)})[0]
    points = list(design.trays[tray_id].points)
    x, y = points[0]
    points[0] = (x + 0.9, y + 0.4)
    design.set_tray_points(tray_id, points)
    assert plant.refresh()


def _names(plant: RoutedLinks):
    keys = np.array(plant.route_keys())
    return keys, [plant.tray_spans(k) for k in range(plant.route_count)]


def test_a_tray_edit_names_routes_on_the_snapshot_and_the_live_plant_adopts_them():
    design = synthetic_hall(256)
    plant = RoutedLinks(design)
    snapshots = Snapshotter(design, plant)
    snapshots.take()
    _move_a_used_corner(design, plant)
    assert plant.routes_unnamed()
    _design, snap = snapshots.take()
    assert plant.routes_unnamed()  # the GUI thread named nothing
    named = snap.route_names()  # on the worker
    assert not snap.route_keys().flags.writeable  # what a job reads stays read-only
    fresh = RoutedLinks(design)
    keys, spans = _names(fresh)
    np.testing.assert_array_equal(named[1], keys)
    assert [snap.tray_spans(k) for k in range(snap.route_count)] == spans
    assert plant.adopt_routes(named)
    assert plant.route_generation == snap.route_generation and not plant.routes_unnamed()
    np.testing.assert_array_equal(plant.route_keys(), keys)
    assert [plant.tray_spans(k) for k in range(plant.route_count)] == spans
    snapshots.adopted()
    # named already: the next snapshot takes the live names and its generation, and shares
    # the row tables (adopting renamed the routes, it did not renumber the rows)
    _design, again = snapshots.take()
    assert again.route_generation == plant.route_generation
    assert again.link_ids is snap.link_ids
    np.testing.assert_array_equal(again.route_keys(), keys)


def test_names_are_not_adopted_once_the_live_plant_named_its_own():
    design = synthetic_hall(256)
    plant = RoutedLinks(design)
    snapshots = Snapshotter(design, plant)
    _move_a_used_corner(design, plant)
    _design, snap = snapshots.take()
    named = snap.route_names()
    plant.route_keys()  # a tooltip read them first, on the GUI thread
    assert not plant.adopt_routes(named)
    # two namings made apart never share a generation, so no count kept by route id mixes them
    assert plant.route_generation != snap.route_generation


def test_adopted_names_are_restored_by_the_next_tray_edit():
    """The snapshot's names come with each route's first row: the live plant's next tray edit
    (taking no row on or off the trays) names the routes from them, without a pass over every
    row, as a fresh plant names them."""
    design = synthetic_hall(256)
    plant = RoutedLinks(design)
    snapshots = Snapshotter(design, plant)
    snapshots.take()
    _move_a_used_corner(design, plant)
    _design, snap = snapshots.take()
    assert plant.adopt_routes(snap.route_names())
    named: list[int] = []
    original = plant._name_routes

    def counted(rows):
        named.append(len(rows))
        original(rows)

    plant._name_routes = counted
    tray_id = sorted({t for k in range(plant.route_count) for t, _, _ in plant.tray_spans(k)})[0]
    (x, y), *rest = design.trays[tray_id].points
    design.set_tray_points(tray_id, [(x + 0.05, y), *rest])  # 5 cm: every rack keeps its tray
    assert plant.refresh()
    keys, spans = _names(RoutedLinks(design))
    np.testing.assert_array_equal(plant.route_keys(), keys)
    assert [plant.tray_spans(k) for k in range(plant.route_count)] == spans
    assert named == []
