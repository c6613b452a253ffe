"""FLOOR_ROUTE_BLOCKED: an obstacle across both L-shaped floor runs between two racks whose
links have no tray path is a warning naming it; one beside the runs, or a tray, is not."""

from __future__ import annotations

from model.design.entities import Obstacle, Tray
from model.engine.routed_links import RoutedLinks
from tests.builders import device, empty_hall, link, rack


def floor_pair():
    """Two switch racks 8 m apart in one row, no tray, one link between them."""
    design = empty_hall()
    rack(design, "r1", 2.0, 4.0)
    rack(design, "r2", 10.0, 6.0)
    device(design, "s1", "r1", 40, "qm9700", role="leaf")
    device(design, "s2", "r2", 40, "qm9700", role="spine")
    link(design, "l-1", ("s1", "p1"), ("s2", "p1"))
    return design


def blocked(design) -> list:
    plant = RoutedLinks(design)
    plant.refresh()
    return [f for f in plant.findings() if f.code == "FLOOR_ROUTE_BLOCKED"]


def square(x0, y0, x1, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def test_an_obstacle_across_both_floor_runs_is_named():
    design = floor_pair()
    assert blocked(design) == []
    # A keep-out band from wall to wall between x 5 and 6: both L runs cross it.
    design.set_obstacles(
        [Obstacle(id="ko-1", polygon=square(5.0, 0.0, 6.0, 8.4), kind="keep-out", name="KO1")]
    )
    (finding,) = blocked(design)
    assert finding.severity == "warning"
    assert finding.objects == ("ko-1", "r1", "r2", "l-1")
    assert "keep-out zone KO1 stands across the floor run between racks R1 and R2" in (
        finding.message
    )


def test_an_obstacle_on_one_run_only_leaves_the_other_way_round():
    design = floor_pair()
    # A column on the x-first run (y = 4 between x 2 and 10), not on the y-first one (y = 6).
    design.set_obstacles([Obstacle(id="c-1", polygon=square(5.0, 3.7, 5.6, 4.3))])
    assert blocked(design) == []


def test_a_tray_between_the_racks_takes_the_links_off_the_floor():
    design = floor_pair()
    design.set_obstacles([Obstacle(id="ko-1", polygon=square(5.0, 0.0, 6.0, 8.4), kind="keep-out")])
    design.add_trays([Tray(id="t-1", points=[(2.0, 3.0), (10.0, 3.0), (10.0, 6.0)])])
    assert blocked(design) == []
