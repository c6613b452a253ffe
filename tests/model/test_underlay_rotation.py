"""An underlay turned on the plan: calibrating by two points can also set the line's direction
(a scanned plan 3 degrees askew made square), or a rotation is typed; the angle is kept in the
file's underlay record, and a file saved before rotation existed reads and writes unchanged."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from model.design.design import DesignError
from model.design.entities import Underlay
from model.design.underlay import (
    DXF_UNIT_M,
    calibrated,
    line_angle_deg,
    placed_at,
    rotated,
    segments_on_plan,
    transform,
)
from model.files.design_file import design_to_bytes, read_design_bytes
from model.files.underlay_file import file_sha256, read_dxf
from tests.builders import empty_hall

DXF = Path(__file__).resolve().parents[1] / "data" / "underlay-hall.dxf"


def _placed() -> tuple[Underlay, object]:
    drawing = read_dxf(DXF)
    start = Underlay(
        path="underlay-hall.dxf", sha256=file_sha256(DXF), kind="dxf", scale_m=DXF_UNIT_M[4]
    )
    u0, _v0, _u1, v1 = drawing.extent
    return placed_at(start, (u0, v1), (0.0, 0.0)), drawing


def test_a_file_without_rotation_reads_and_writes_byte_identical():
    design = empty_hall()
    underlay, _drawing = _placed()
    design.set_underlay(underlay)
    saved = design_to_bytes(design)
    assert b"rotation_deg" not in saved  # 0 is the default: left out, as before
    assert design_to_bytes(read_design_bytes(saved)) == saved
    assert read_design_bytes(saved).hall.underlay.rotation_deg == 0.0


def test_a_turned_underlay_is_kept_by_the_file_and_the_loader_bounds_it():
    design = empty_hall()
    underlay, _drawing = _placed()
    design.set_underlay(rotated(underlay, 90.0, (10.0, 6.0)))
    again = read_design_bytes(design_to_bytes(design))
    assert again.hall.underlay.rotation_deg == 90.0
    assert again.hall.underlay == design.hall.underlay
    with pytest.raises(DesignError):
        design.set_underlay(Underlay(path="x.dxf", sha256="0" * 64, kind="dxf", rotation_deg=400))


def test_a_quarter_turn_about_the_hall_centre_keeps_that_point_and_the_grid():
    underlay, drawing = _placed()
    walls = segments_on_plan(underlay, drawing.shown(("WALLS",)))
    turned = rotated(underlay, 90.0, (10.0, 6.0))
    walls_turned = segments_on_plan(turned, drawing.shown(("WALLS",)))
    # The 20 x 12 m hall, turned clockwise about its centre: 12 m across, 20 m down
    xs, ys = walls_turned[:, 0::2], walls_turned[:, 1::2]
    assert (xs.min(), xs.max(), ys.min(), ys.max()) == (4.0, 16.0, -4.0, 16.0)
    # (x, y) -> centre + R(90)(p - centre) = (10 - (y - 6), 6 + (x - 10))
    expected = walls.copy()
    expected[:, 0::2] = 10 - (walls[:, 1::2] - 6)
    expected[:, 1::2] = 6 + (walls[:, 0::2] - 10)
    assert walls_turned == pytest.approx(expected)
    back = rotated(turned, 0.0, (10.0, 6.0))
    assert segments_on_plan(back, drawing.shown(("WALLS",))) == pytest.approx(walls)


def test_calibrating_with_a_direction_squares_an_askew_drawing_about_the_first_point():
    underlay, drawing = _placed()
    askew = rotated(underlay, 3.0, (0.0, 0.0))  # a scan 3 degrees off, and at half scale
    askew = calibrated(askew, (0.0, 0.0), (20.0, 0.0), 10.0)
    t = transform(askew)
    first, second = t.on_plan(0.0, 12000.0), t.on_plan(20000.0, 12000.0)  # the bottom wall
    assert line_angle_deg(first, second) == pytest.approx(3.0)
    square = calibrated(askew, first, second, 20.0, angle_deg=0.0)
    assert square.rotation_deg == pytest.approx(0.0, abs=1e-6)
    t = transform(square)
    # The first point stays (origins are kept to the micrometre)
    assert t.on_plan(0.0, 12000.0) == pytest.approx(first, abs=1e-5)
    assert t.on_plan(20000.0, 12000.0) == pytest.approx((first[0] + 20.0, first[1]), abs=1e-5)
    walls = segments_on_plan(square, drawing.shown(("WALLS",)))
    assert walls == pytest.approx(segments_on_plan(underlay, drawing.shown(("WALLS",))), abs=1e-5)
    with pytest.raises(DesignError, match="finite angle"):
        calibrated(square, first, second, 20.0, angle_deg=math.nan)
