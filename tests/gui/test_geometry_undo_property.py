"""Property: random geometry edits (tray corners dragged, inserted, deleted, trays split, joined and moved, outline
corners dragged, obstacles drawn, reshaped, moved, deleted, their heights set, dimension lines
drawn and deleted, the underlay placed and calibrated) made through the undo commands the plan
uses, undone completely, restore the file byte for byte; the scene follows all along."""

from __future__ import annotations

import msgspec
import shiboken6
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QUndoStack

from gui.canvas.scene import HallScene
from gui.document.document import make_plant
from gui.edit.commands import (
    DeleteCommand,
    DimensionsCommand,
    JoinTraysCommand,
    MoveObstaclesCommand,
    MoveTraysCommand,
    ObstaclesCommand,
    OutlineCommand,
    SplitTrayCommand,
    TrayPointsCommand,
    UnderlayCommand,
    push,
)
from model.design.entities import Dimension, Obstacle, Underlay
from model.design.underlay import calibrated
from model.files.design_file import design_to_bytes
from tests.builders import small_pod

EDITS = (
    "split",
    "join",
    "corner",
    "insert",
    "remove",
    "move_tray",
    "outline",
    "obstacle",
    "reshape",
    "move",
    "delete",
    "height",
    "dimension",
    "undimension",
    "underlay",
)
UNDERLAY = Underlay(path="plans/hall.dxf", sha256="0" * 64, kind="dxf", scale_m=0.001)


def apply_edit(design, stack, kind: str, pick: int, dx: int, dy: int) -> None:
    """One edit; some are refused by the model (a zero-length segment, a crossing outline):
    the stack drops those, as the plan does."""
    trays = sorted(design.trays)
    tray = design.trays[trays[pick % len(trays)]] if trays else None
    if kind in TRAY_EDITS:
        _tray_edit(design, stack, kind, trays, tray, pick, dx, dy)
    else:
        _hall_edit(design, stack, kind, tray, pick, dx, dy)


# The edits of one tray's shape (the others edit the hall: outline, obstacles, dimensions).
TRAY_EDITS = ("corner", "insert", "remove", "split", "join", "move_tray")


def _tray_edit(design, stack, kind: str, trays, tray, pick: int, dx: int, dy: int) -> None:
    if kind == "corner" and tray:
        points = list(tray.points)
        i = pick % len(points)
        points[i] = (points[i][0] + 0.3 * dx, points[i][1] + 0.3 * dy)
        push(stack, TrayPointsCommand(design, tray.id, points, "corner"))
    elif kind == "insert" and tray:
        (ax, ay), (bx, by) = tray.points[0], tray.points[1]
        points = [tray.points[0], ((ax + bx) / 2, (ay + by) / 2 + 0.3 * dy), *tray.points[1:]]
        push(stack, TrayPointsCommand(design, tray.id, points, "insert"))
    elif kind == "remove" and tray and len(tray.points) > 2:
        i = pick % len(tray.points)
        points = tray.points[:i] + tray.points[i + 1 :]
        push(stack, TrayPointsCommand(design, tray.id, points, "remove"))
    elif kind == "split" and tray and len(tray.points) > 2:
        push(stack, SplitTrayCommand(design, tray.id, 1 + pick % (len(tray.points) - 2)))
    elif kind == "join" and len(trays) >= 2:
        other = trays[(pick + 1 + abs(dx)) % len(trays)]
        if other != tray.id:
            push(stack, JoinTraysCommand(design, tray.id, other))
    elif kind == "move_tray" and tray:
        push(stack, MoveTraysCommand(design, [tray.id], 0.3 * dx, 0.3 * dy))


def _hall_edit(design, stack, kind: str, tray, pick: int, dx: int, dy: int) -> None:
    obstacles = design.hall.obstacles
    obstacle = obstacles[pick % len(obstacles)] if obstacles else None
    if kind == "outline":
        outline = list(design.hall.outline)
        i = pick % len(outline)
        outline[i] = (outline[i][0] + 0.6 * dx, outline[i][1] + 0.6 * dy)
        push(stack, OutlineCommand(design, outline, "outline"))
    elif kind == "obstacle":
        x, y = 7.2 + 0.6 * dx, 5.4 + 0.6 * dy
        new = Obstacle(
            id=design.new_id("obstacle"),
            polygon=[(x, y), (x + 0.6, y), (x + 0.6, y + 0.6 + 0.3 * (pick % 3)), (x, y + 0.6)],
            kind=("column", "crac", "keep-out", "other")[pick % 4],
        )
        push(stack, ObstaclesCommand(design, [*obstacles, new], "draw"))
    elif kind == "reshape" and obstacle:
        polygon = list(obstacle.polygon)
        i = pick % len(polygon)
        polygon[i] = (polygon[i][0] + 0.3 * dx, polygon[i][1] + 0.3 * dy)
        reshaped = msgspec.structs.replace(obstacle, polygon=polygon)
        push(
            stack,
            ObstaclesCommand(design, [reshaped if o is obstacle else o for o in obstacles], "r"),
        )
    elif kind == "move" and obstacle:
        push(stack, MoveObstaclesCommand(design, [obstacle.id], 0.3 * dx, 0.3 * dy))
    elif kind == "delete" and (obstacle or tray):
        # An obstacle when there is one and dx says so, or when no tray is left to delete.
        target = obstacle if obstacle and (dx >= 0 or tray is None) else tray
        push(stack, DeleteCommand(design, [target.id]))
    elif kind == "height" and obstacle:
        height = None if dx == 0 else 0.5 * abs(dx) + 0.1 * pick
        changed = msgspec.structs.replace(obstacle, height_m=height)
        push(
            stack,
            ObstaclesCommand(design, [changed if o is obstacle else o for o in obstacles], "h"),
        )
    elif kind == "dimension":
        a = (0.6 * abs(dx), 0.6 * abs(dy))
        line = Dimension(id=design.new_id("dim"), a=a, b=(a[0] + 0.1 * (pick + 1), a[1] + 0.3 * dy))
        push(stack, DimensionsCommand(design, [*design.hall.dimensions, line], "dim"))
    elif kind == "undimension" and design.hall.dimensions:
        dims = design.hall.dimensions
        push(stack, DeleteCommand(design, [dims[pick % len(dims)].id]))
    elif kind == "underlay":
        current = design.hall.underlay
        if current is None or dx == 0:
            push(stack, UnderlayCommand(design, None if current else UNDERLAY, "place"))
        else:
            rescaled = calibrated(current, (0.0, 0.0), (1.0 + abs(dy), 0.0), 0.5 * abs(dx) + 1)
            push(stack, UnderlayCommand(design, rescaled, "calibrate"))


edit = st.tuples(st.sampled_from(EDITS), st.integers(0, 50), st.integers(-3, 3), st.integers(-3, 3))


@settings(
    max_examples=40,
    deadline=None,
    # too_slow as in the "ci" profile (tests/conftest.py): naming a list here replaces its list
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(edits=st.lists(edit, min_size=1, max_size=15))
def test_random_geometry_edits_undone_completely_restore_the_file(qapp, edits):
    design = small_pod()
    plant = make_plant(design)
    stack = QUndoStack()
    scene = HallScene(design, stack, plant)
    try:
        original = design_to_bytes(design)
        for kind, pick, dx, dy in edits:
            apply_edit(design, stack, kind, pick, dx, dy)
            assert set(scene.trays) == set(design.trays)
            assert set(scene.obstacles) == {o.id for o in design.hall.obstacles}
            assert set(scene.dimension_layer.items) == {d.id for d in design.hall.dimensions}
        while stack.canUndo():
            stack.undo()
        assert design_to_bytes(design) == original
        assert set(scene.obstacles) == set()
        assert scene.dimension_layer.items == {} and scene.underlay.state is None
        for tray_id, item in scene.trays.items():
            start = design.trays[tray_id].points[0]
            assert item.boundingRect().adjusted(-1, -1, 1, 1).contains(*start)
        plant.refresh()  # the cable plant followed every step and its undo
        assert set(plant.index) == set(design.links)
        plant.close()
    finally:  # as tests/gui/test_undo_property.py: the stack first, then the scene
        stack.clear()
        scene.detach()
        scene.clear()
        shiboken6.delete(scene)
