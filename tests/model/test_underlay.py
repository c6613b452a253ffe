"""The drawing under the plan: reading a DXF, placing and calibrating it, snapping to its lines,
its record in the design (one UNDERLAY_CHANGED edit) and what is said when it goes missing."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from model.design.changes import ChangeKind
from model.design.design import DesignError
from model.design.entities import Underlay
from model.design.underlay import (
    DXF_UNIT_M,
    calibrated,
    placed_at,
    segments_on_plan,
    snap_to_segments,
)
from model.files.design_file import design_to_bytes, read_design_bytes
from model.files.underlay_file import (
    UnderlayError,
    UnderlayState,
    file_sha256,
    read_dxf,
    recorded_path,
    resolve_path,
    underlay_state,
)
from tests.builders import empty_hall

DXF = Path(__file__).resolve().parents[1] / "data" / "underlay-hall.dxf"


def _placed(drawing) -> Underlay:
    """The test DXF at its own unit (mm), its top-left corner on the plan's origin."""
    start = Underlay(
        path="underlay-hall.dxf",
        sha256=file_sha256(DXF),
        kind="dxf",
        scale_m=DXF_UNIT_M[drawing.units],
    )
    u0, _v0, _u1, v1 = drawing.extent
    return placed_at(start, (u0, v1), (0.0, 0.0))


def test_the_dxf_reads_as_segments_per_layer_blocks_exploded_and_arcs_flattened():
    drawing = read_dxf(DXF)
    assert drawing.units == 4  # millimetres
    assert set(drawing.layers) == {"WALLS", "COLUMNS", "TRAYS", "DOORS"}  # text draws no line
    assert drawing.extent == (0.0, 0.0, 20000.0, 12000.0)
    assert len(drawing.shown(("WALLS",))) == 4
    assert len(drawing.shown(("COLUMNS",))) == 16  # one 4-sided block inserted 4 times
    assert len(drawing.shown(("TRAYS",))) == 2
    door = drawing.shown(("DOORS",))
    assert len(door) > 4  # a quarter circle of r 900 mm, chords within 5 mm
    radii = np.hypot(door[:, 0] - 0.0, door[:, 1] - 5000.0)
    assert np.allclose(radii, 900.0, atol=1.0)  # vertices on the arc (Bezier flattening)


def test_a_placed_dxf_lands_on_the_plan_in_metres_with_y_down():
    drawing = read_dxf(DXF)
    walls = segments_on_plan(_placed(drawing), drawing.shown(("WALLS",)))
    xs, ys = walls[:, 0::2], walls[:, 1::2]
    assert (xs.min(), xs.max(), ys.min(), ys.max()) == (0.0, 20.0, 0.0, 12.0)
    # The first wall runs along the DXF's bottom (v = 0): on the plan that is y = 12 m.
    assert tuple(walls[0]) == (0.0, 12.0, 20.0, 12.0)


def test_calibrating_by_two_points_and_a_distance_rescales_about_the_first_point():
    drawing = read_dxf(DXF)
    wrong = _placed(drawing)
    wrong = calibrated(wrong, (0.0, 0.0), (20.0, 0.0), 10.0)  # a user typed half the length
    walls = segments_on_plan(wrong, drawing.shown(("WALLS",)))
    assert walls[:, 0::2].max() == pytest.approx(10.0)
    right = calibrated(wrong, (0.0, 0.0), (10.0, 0.0), 20.0)
    walls = segments_on_plan(right, drawing.shown(("WALLS",)))
    assert walls[:, 0::2].max() == pytest.approx(20.0) and walls[:, 1::2].max() == pytest.approx(
        12.0
    )
    assert right.scale_m == pytest.approx(0.001)
    with pytest.raises(DesignError, match="two different points"):
        calibrated(right, (1.0, 1.0), (1.0, 1.0), 5.0)
    with pytest.raises(DesignError, match="positive length"):
        calibrated(right, (0.0, 0.0), (1.0, 1.0), -5.0)
    with pytest.raises(DesignError, match="positive length"):
        calibrated(right, (0.0, 0.0), (1.0, 1.0), math.nan)


def test_a_point_snaps_to_a_line_end_first_then_onto_a_line():
    drawing = read_dxf(DXF)
    lines = segments_on_plan(_placed(drawing), drawing.segments)
    assert snap_to_segments(lines, 20.08, 11.95, 0.2) == (20.0, 12.0)  # the hall's corner
    assert snap_to_segments(lines, 7.0, 6.07, 0.2) == (7.0, 6.0)  # onto the tray line
    assert snap_to_segments(lines, 10.08, 5.9, 0.2) == (10.0, 6.0)  # where the trays cross
    assert snap_to_segments(lines, 7.0, 7.5, 0.2) is None  # nothing near
    column = snap_to_segments(lines, 4.75, 9.28, 0.1)  # a column's corner (12 - 2.7 m)
    assert column == pytest.approx((4.7, 9.3))


def test_the_design_records_the_underlay_in_one_change_and_the_file_keeps_it(tmp_path):
    design = empty_hall()
    changes = []
    design.subscribe(changes.append)
    underlay = _placed(read_dxf(DXF))
    design.set_underlay(underlay)
    assert [c.kinds for c in changes] == [frozenset({ChangeKind.UNDERLAY_CHANGED})]
    design.set_underlay(underlay)  # unchanged: no event
    assert len(changes) == 1
    again = read_design_bytes(design_to_bytes(design))
    assert again.hall.underlay == underlay
    design.set_underlay(None)
    assert design.hall.underlay is None and len(changes) == 2


def test_the_edit_api_refuses_what_the_loader_refuses():
    design = empty_hall()
    with pytest.raises(DesignError):
        design.set_underlay(Underlay(path="x.dxf", sha256="not a hash", kind="dxf"))
    with pytest.raises(DesignError):
        design.set_underlay(Underlay(path="x.dxf", sha256="0" * 64, kind="dxf", scale_m=-1.0))
    assert design.hall.underlay is None and design.revision == 0


def test_the_path_is_recorded_beside_the_design_and_a_missing_or_changed_drawing_is_said(
    tmp_path,
):
    folder = tmp_path / "project"
    (folder / "plans").mkdir(parents=True)
    drawing = folder / "plans" / "hall.dxf"
    shutil.copy(DXF, drawing)
    assert recorded_path(drawing, folder) == "plans/hall.dxf"
    underlay = Underlay(path="plans/hall.dxf", sha256=file_sha256(drawing), kind="dxf")
    assert resolve_path(underlay, folder) == folder / "plans" / "hall.dxf"
    assert underlay_state(underlay, folder)[0] is UnderlayState.OK
    drawing.write_bytes(DXF.read_bytes() + b"999\nedited\n")
    state, sentence = underlay_state(underlay, folder)
    assert state is UnderlayState.CHANGED and "has changed since it was placed" in sentence
    drawing.unlink()
    state, sentence = underlay_state(underlay, folder)
    assert state is UnderlayState.MISSING and "plans/hall.dxf is missing" in sentence
    too_long = Underlay(path="x" * 4000 + ".dxf", sha256=underlay.sha256, kind="dxf")
    assert underlay_state(too_long, folder)[0] is UnderlayState.MISSING  # not an OSError


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "not a readable DXF|cannot be read"),
        (b"0\nSECTION\n2\nENTITIES\n0\nLINE\n8\n0\n10\nabc\n", "DXF"),
        (b"\x00\xff\xfe garbage", "DXF"),
        (b"0\nSECTION\n2\nENTITIES\n0\nENDSEC\n0\nEOF\n", "no lines|DXF"),
    ],
)
def test_a_bad_dxf_is_a_sentence_not_a_traceback(tmp_path, content, words):
    bad = tmp_path / "bad.dxf"
    bad.write_bytes(content)
    with pytest.raises(UnderlayError, match=words) as info:
        read_dxf(bad)
    assert str(info.value).startswith("bad.dxf")


def test_a_missing_dxf_is_a_sentence(tmp_path):
    with pytest.raises(UnderlayError, match="nowhere.dxf cannot be read"):
        read_dxf(tmp_path / "nowhere.dxf")


def test_dimension_lines_are_one_annotations_change_and_kept_by_the_file():
    from model.design.entities import Dimension

    design = empty_hall()
    changes = []
    design.subscribe(changes.append)
    dims = [Dimension(id="dim-1", a=(0.0, 0.0), b=(12.0, 0.0))]
    design.set_dimensions(dims)
    assert [c.kinds for c in changes] == [frozenset({ChangeKind.ANNOTATIONS_CHANGED})]
    assert design.new_id("dim") == "dim-2"  # the drawn line's id is taken
    assert read_design_bytes(design_to_bytes(design)).hall.dimensions == dims
    with pytest.raises(DesignError, match="share one id"):
        design.set_dimensions(dims + dims)
    with pytest.raises(DesignError):
        design.set_dimensions([Dimension(id="dim-3", a=(0.0, 0.0), b=(1e9, 0.0))])
    assert design.hall.dimensions == dims and len(changes) == 1


def test_a_design_saved_elsewhere_records_the_drawing_from_its_new_folder(tmp_path):
    from model.files.underlay_file import rebased

    (tmp_path / "a" / "plans").mkdir(parents=True)
    (tmp_path / "b").mkdir()
    underlay = Underlay(path="plans/hall.dxf", sha256="0" * 64, kind="dxf")
    moved = rebased(underlay, tmp_path / "a", tmp_path / "b")
    assert moved.path == "../a/plans/hall.dxf"
    assert resolve_path(moved, tmp_path / "b").resolve() == (tmp_path / "a/plans/hall.dxf")
    assert rebased(underlay, tmp_path / "a", tmp_path / "a") is underlay  # same folder
    unsaved = Underlay(path=(tmp_path / "a/plans/hall.dxf").as_posix(), sha256="0" * 64, kind="dxf")
    assert rebased(unsaved, None, tmp_path / "a").path == "plans/hall.dxf"  # first save


def test_damaged_drawings_are_sentences_whatever_the_damage(tmp_path):
    """Truncated, byte-flipped and number-overflowing copies of the test DXF (150, seeded):
    each reads or is refused with an UnderlayError naming the file, nothing else escapes."""
    import random

    data = DXF.read_bytes()
    rng = random.Random(0)
    for k in range(150):
        if k % 3 == 0:
            blob = data[: rng.randrange(len(data))]
        elif k % 3 == 1:
            flipped = bytearray(data)
            for _ in range(20):
                flipped[rng.randrange(len(flipped))] = rng.randrange(256)
            blob = bytes(flipped)
        else:
            lines = data.split(b"\n")
            lines[rng.randrange(len(lines))] = b"-1e400"
            blob = b"\n".join(lines)
        damaged = tmp_path / f"damaged-{k}.dxf"
        damaged.write_bytes(blob)
        try:
            read_dxf(damaged)
        except UnderlayError as exc:
            assert str(exc).startswith(f"damaged-{k}.dxf")


def test_a_file_whose_underlay_path_holds_a_control_character_is_refused():
    from model.files.design_file import DesignFileError

    design = empty_hall()
    design.set_underlay(Underlay(path="plan.dxf", sha256="0" * 64, kind="dxf"))
    data = design_to_bytes(design).replace(b'"plan.dxf"', b'"plan\\u0000.dxf"')
    with pytest.raises(DesignFileError, match=r"\$\.hall\.underlay\.path"):
        read_design_bytes(data, "nul.hall.json")
    with pytest.raises(DesignError):
        design.set_underlay(Underlay(path="plan\n.dxf", sha256="0" * 64, kind="dxf"))
