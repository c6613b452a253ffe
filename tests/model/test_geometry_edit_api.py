"""The edit API's geometry methods (trays reshaped and moved, the outline reshaped, obstacles
replaced and moved): one change event each, refusals that change nothing, in the loader's words."""

from __future__ import annotations

import pytest

from model.design.changes import ChangeKind
from model.design.design import DesignError
from model.design.entities import Obstacle
from model.files.design_file import design_to_bytes, read_design_bytes
from tests.builders import small_pod

COLUMN = Obstacle(id="c1", polygon=[(6.6, 4.8), (7.2, 4.8), (7.2, 5.4), (6.6, 5.4)])


def events(design) -> list:
    seen: list = []
    design.subscribe(seen.append)
    return seen


def test_set_tray_points_reshapes_one_tray_in_one_event():
    design = small_pod()
    seen = events(design)
    design.set_tray_points("t-row", [(0.6, 3.0), (6.0, 3.0), (6.0, 1.2)])
    assert design.trays["t-row"].points == [(0.6, 3.0), (6.0, 3.0), (6.0, 1.2)]
    assert len(seen) == 1 and seen[0].ids(ChangeKind.TRAYS_CHANGED) == ("t-row",)
    design.set_tray_points("t-row", [(0.6, 3.0), (6.0, 3.0), (6.0, 1.2)])
    assert len(seen) == 1  # the same points: no edit, no event


@pytest.mark.parametrize(
    ("points", "words"),
    [
        ([(0.6, 3.0)], "at least 2 points"),
        ([(0.6, 3.0), (0.6, 3.0)], "repeats the previous point"),
        ([(0.6, 3.0), ("a", 3.0)], "every corner is two numbers"),
    ],
)
def test_set_tray_points_refuses_what_the_loader_refuses(points, words):
    design = small_pod()
    before = design_to_bytes(design)
    with pytest.raises(DesignError, match=words):
        design.set_tray_points("t-row", points)
    assert design_to_bytes(design) == before
    with pytest.raises(DesignError, match="no tray 'nope'"):
        design.set_tray_points("nope", [(0, 0), (1, 1)])


def test_move_trays_shifts_every_point_rounded():
    design = small_pod()
    design.move_trays(["t-cross"], 0.1 + 0.2, -0.3)
    assert design.trays["t-cross"].points == [(6.3, 2.7), (6.3, 5.7)]
    with pytest.raises(DesignError):
        design.move_trays(["nope"], 1, 0)


def test_set_outline_checks_the_polygon():
    design = small_pod()
    before = design_to_bytes(design)
    with pytest.raises(DesignError, match="not a simple polygon"):
        design.set_outline([(0, 0), (12, 0), (-3, 4.2), (0, 8.4)])
    assert design_to_bytes(design) == before
    design.set_outline([(0, 0), (12, 0), (12.6, 9.0), (0, 8.4)])
    assert design.hall.outline[2] == (12.6, 9.0)


def test_obstacles_replaced_and_moved_survive_a_save_and_load():
    design = small_pod()
    seen = events(design)
    design.set_obstacles([COLUMN])
    design.move_obstacles(["c1"], 0.6, 0.0)
    assert [k for c in seen for k in c.kinds] == [ChangeKind.HALL_CHANGED] * 2
    assert design.hall.obstacles[0].polygon[0] == (7.2, 4.8)
    again = read_design_bytes(design_to_bytes(design))
    assert again.hall.obstacles == design.hall.obstacles


def test_obstacle_refusals():
    design = small_pod()
    with pytest.raises(DesignError, match="already used"):
        design.set_obstacles([Obstacle(id="r1", polygon=COLUMN.polygon)])
    with pytest.raises(DesignError, match="share one id"):
        design.set_obstacles([COLUMN, COLUMN])
    with pytest.raises(DesignError, match="no obstacle 'c9'"):
        design.move_obstacles(["c9"], 1, 1)
    flat = Obstacle(id="c2", polygon=[(1, 1), (2, 1), (3, 1)])
    with pytest.raises(DesignError, match="obstacle 'c2'"):
        design.set_obstacles([flat])
    assert design.hall.obstacles == []


def test_split_then_join_gives_the_tray_back():
    design = small_pod()
    design.set_tray_points("t-row", [(0.6, 3.0), (6.0, 3.0), (11.4, 3.0)])
    before = design_to_bytes(design)
    seen = events(design)
    design.split_tray("t-row", 1, "t-east")
    assert design.trays["t-row"].points == [(0.6, 3.0), (6.0, 3.0)]
    assert design.trays["t-east"].points == [(6.0, 3.0), (11.4, 3.0)]
    assert len(seen) == 1  # one edit, one event
    design.join_trays("t-row", "t-east")
    assert design_to_bytes(design) == before


def test_split_and_join_refusals():
    design = small_pod()
    with pytest.raises(DesignError, match="inner corner"):
        design.split_tray("t-row", 0, "t-x")
    with pytest.raises(DesignError, match="do not meet"):
        design.join_trays("t-row", "t-cross")  # t-cross starts mid-row, not at an end
    with pytest.raises(DesignError, match="different trays"):
        design.join_trays("t-row", "t-row")
    # Ends within the join tolerance (0.3 m) meet: the second tray, reversed, follows on.
    design.set_tray_points("t-cross", [(6.0, 6.0), (11.6, 3.1)])
    design.join_trays("t-row", "t-cross")
    assert design.trays["t-row"].points == [(0.6, 3.0), (11.4, 3.0), (6.0, 6.0)]
    assert "t-cross" not in design.trays
