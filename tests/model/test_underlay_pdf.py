"""A PDF page under the plan, without a window: the pages and their paper sizes, the page drawn
at a resolution its size sets (capped in pixels), the lines where the PDF draws them, bad files
and missing pages as sentences; the record's page in the design file, left out when it is the
first so files saved before read and write unchanged."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import msgspec
import numpy as np
import pytest

from model.design.entities import Underlay
from model.design.underlay import PDF_POINT_M, PDF_START_RATIO, page_edges, snap_to_segments
from model.files.design_file import load_design, save_design
from model.files.underlay_file import UnderlayError
from model.files.underlay_pdf import (
    MAX_PIXELS,
    RENDER_DPI,
    pdf_page_sizes,
    render_dpi,
    render_pdf_page,
)
from tests.pdf_pages import A3_LANDSCAPE, A4, plan_pdf, write_pdf, write_pdf_page

GOLDEN_V4 = Path(__file__).resolve().parents[1] / "data" / "golden-v4.hall.json"


def test_pages_and_their_paper_sizes(tmp_path):
    assert pdf_page_sizes(plan_pdf(tmp_path / "plan.pdf")) == [A4, A3_LANDSCAPE]


def test_the_page_is_drawn_with_its_lines_where_the_pdf_puts_them(tmp_path):
    raster = render_pdf_page(plan_pdf(tmp_path / "plan.pdf"), 2)
    assert (raster.page, raster.pages, raster.dpi) == (2, 2, RENDER_DPI)
    rows, columns, channels = raster.pixels.shape
    assert (columns, rows, channels) == (3309, 2339, 3)  # 1191 x 842 pt at 200 dpi
    px_per_pt = RENDER_DPI / 72
    grey = raster.pixels.mean(axis=2)
    wall = round(100 * px_per_pt)  # the left wall, 100 pt in from the page's left edge
    assert grey[rows // 3, wall - 2 : wall + 3].min() < 64  # the line, dark
    assert grey[rows // 3, wall + 30] == 255  # the paper inside the hall, white
    tray_row = round(rows / 2)  # the tray across the middle (PDF y up, rows down)
    assert grey[tray_row - 2 : tray_row + 3, columns // 2].min() < 64


def test_a_large_page_is_drawn_coarser_under_the_pixel_cap(tmp_path):
    two_m_by_one_m = (2.0 / 0.0254 * 72, 1.0 / 0.0254 * 72)
    dpi = render_dpi(two_m_by_one_m)
    assert dpi < RENDER_DPI
    pixels = (two_m_by_one_m[0] / 72 * dpi) * (two_m_by_one_m[1] / 72 * dpi)
    assert pixels == pytest.approx(MAX_PIXELS, rel=1e-3)  # ~96 MB RGB, not 200 dpi's ~0.5 GB
    assert render_dpi(A4) == RENDER_DPI  # a sheet within the cap keeps the full resolution
    # Rendered under a small cap (cheap to test): the pixels stay within it.
    big = write_pdf(tmp_path / "big.pdf", [(*two_m_by_one_m, [(0, 0, 100, 100)])])
    raster = render_pdf_page(big, 1, max_pixels=1_000_000)
    assert 0.99e6 < raster.pixels.shape[0] * raster.pixels.shape[1] <= 1_000_000
    assert raster.dpi == pytest.approx(math.sqrt(1e6 / (2 / 0.0254 * 1 / 0.0254)), rel=2e-3)


def test_bad_files_and_missing_pages_are_sentences(tmp_path):
    plan = plan_pdf(tmp_path / "plan.pdf")
    with pytest.raises(UnderlayError, match="plan.pdf has 2 pages; there is no page 3"):
        render_pdf_page(plan, 3)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\nnot a page at all\n")
    with pytest.raises(UnderlayError, match="broken.pdf is not a readable PDF"):
        render_pdf_page(broken, 1)
    with pytest.raises(UnderlayError, match="gone.pdf cannot be read"):
        pdf_page_sizes(tmp_path / "gone.pdf")


def test_a_page_snaps_to_its_edges_on_the_plan():
    underlay = Underlay(
        path="plan.pdf",
        sha256="0" * 64,
        kind="pdf",
        scale_m=PDF_POINT_M * PDF_START_RATIO,
        origin_x_m=2.0,
        origin_y_m=3.0,
        page=2,
    )
    edges = page_edges(underlay, *A3_LANDSCAPE)
    width_m, height_m = A3_LANDSCAPE[0] * underlay.scale_m, A3_LANDSCAPE[1] * underlay.scale_m
    assert width_m == pytest.approx(42.0158, abs=1e-4)  # 420 mm at 1:100
    corners = {(round(x, 6), round(y, 6)) for x, y in edges[:, :2]}
    assert corners == {
        (2.0, 3.0),
        (round(2.0 + width_m, 6), 3.0),
        (round(2.0 + width_m, 6), round(3.0 + height_m, 6)),
        (2.0, round(3.0 + height_m, 6)),
    }
    assert snap_to_segments(edges, 2.1, 2.95, 0.2) == pytest.approx((2.0, 3.0))  # a corner
    assert snap_to_segments(edges, 10.0, 3.1, 0.2) == pytest.approx((10.0, 3.0))  # an edge
    assert snap_to_segments(edges, 10.0, 8.0, 0.2) is None  # inside the page: no line there
    turned = msgspec.structs.replace(underlay, rotation_deg=90.0)
    assert page_edges(turned, *A3_LANDSCAPE)[0] == pytest.approx(
        np.array([2.0, 3.0, 2.0, 3.0 + width_m])  # the top edge now runs down the plan
    )


def test_the_page_is_recorded_and_older_files_read_and_write_unchanged(tmp_path):
    design_path = tmp_path / "hall.hall.json"
    shutil.copy(GOLDEN_V4, design_path)
    old_bytes = design_path.read_bytes()
    design = load_design(design_path)
    assert design.hall.underlay.kind == "dxf" and design.hall.underlay.page == 1
    save_design(design, tmp_path / "again.hall.json")
    again = (tmp_path / "again.hall.json").read_bytes()
    assert b'"page"' not in again and b'"underlay"' in again
    assert load_design(tmp_path / "again.hall.json").hall == design.hall
    assert b'"page"' not in old_bytes

    pdf = msgspec.structs.replace(
        design.hall.underlay, path="plan.pdf", kind="pdf", page=2, layers=()
    )
    design.set_underlay(pdf)
    save_design(design, design_path)
    assert b'"kind":"pdf"' in design_path.read_bytes()
    assert b'"page":2' in design_path.read_bytes()
    assert load_design(design_path).hall.underlay == pdf


def test_the_lines_a_page_draws_are_read_for_snapping(tmp_path):
    """Paths as a CAD program writes them: a line under a scaling ``cm``, a closed ``re``
    rectangle, a curve (cut into chords on the circle), a line inside a form XObject placed by
    its /Matrix; in the page's points with v down (the picture's axes)."""
    content = (
        "1 w q 0.5 0 0 0.5 100 50 cm 0 0 m 200 0 l S Q\n"
        "300 300 100 50 re S\n"
        "0 400 m 0 455.23 44.77 500 100 500 c S\n"
        "/F1 Do\n"
    )
    forms = {"F1": ((1, 0, 0, 1, 500, 0), "q 2 0 0 2 0 0 cm 10 10 m 20 10 l S Q\n")}
    page = write_pdf_page(tmp_path / "paths.pdf", (600.0, 600.0), content, forms)
    segments = render_pdf_page(page, 1).segments
    assert len(segments) == 1 + 4 + 8 + 1
    assert segments[0] == pytest.approx([100, 550, 200, 550])  # (100, 50) up the page
    rectangle = {tuple(s) for s in segments[1:5].round(6).tolist()}
    assert rectangle == {
        (300, 300, 400, 300),
        (400, 300, 400, 250),
        (400, 250, 300, 250),
        (300, 250, 300, 300),  # closed back to its start
    }
    arc = segments[5:13]
    ends = np.vstack([arc[:, :2], arc[-1:, 2:]])
    radius = np.hypot(ends[:, 0] - 100, ends[:, 1] - 200)  # the circle about (100, 400) up
    assert radius == pytest.approx(np.full(9, 100.0), rel=3e-4)
    assert segments[13] == pytest.approx([520, 580, 540, 580])  # the form's, placed twice over


def test_the_plan_sheets_walls_are_its_lines(tmp_path):
    segments = render_pdf_page(plan_pdf(tmp_path / "plan.pdf"), 2).segments
    w, h = A3_LANDSCAPE
    assert {tuple(s) for s in segments.round(6).tolist()} == {
        (100, h - 100, w - 100, h - 100),
        (w - 100, h - 100, w - 100, 100),
        (w - 100, 100, 100, 100),
        (100, 100, 100, h - 100),
        (200, h / 2, w - 200, h / 2),
    }


def test_lines_past_the_cap_are_not_read(tmp_path, monkeypatch):
    import model.files.pdf_lines

    monkeypatch.setattr(model.files.pdf_lines, "MAX_PDF_SEGMENTS", 3)
    assert len(render_pdf_page(plan_pdf(tmp_path / "plan.pdf"), 2).segments) == 3


@pytest.mark.parametrize("rotate", [90, 180, 270])
def test_a_page_turned_by_rotate_is_shown_upright_with_its_lines(tmp_path, rotate):
    """A sheet saved with /Rotate (a landscape plan kept on a portrait page, as a scanner or a
    CAD plot does) is drawn as a PDF viewer shows it: the page size as shown, the pixels turned,
    and the lines read for snapping turned with them, onto the drawn pixels."""
    w, h = A3_LANDSCAPE
    mark = [(100, h - 100, 400, h - 100)]  # a wall along the top-left of the unturned sheet
    flat = render_pdf_page(write_pdf(tmp_path / "flat.pdf", [(w, h, mark)]), 1)
    path = write_pdf(tmp_path / f"turned{rotate}.pdf", [(w, h, mark)], rotate=rotate)
    shown = (h, w) if rotate % 180 else (w, h)
    assert pdf_page_sizes(path) == [shown]
    raster = render_pdf_page(path, 1)
    assert raster.size_pt == shown
    assert raster.pixels.shape[:2] == np.rot90(flat.pixels, k=-rotate // 90).shape[:2]
    # The pixels are the unturned page's turned clockwise, as a viewer shows them (within one
    # level of the line's anti-aliasing).
    turned = np.rot90(flat.pixels, k=-rotate // 90).astype(np.int16)
    assert np.abs(raster.pixels.astype(np.int16) - turned).max() <= 1
    # The wall read for snapping lies on its dark pixels, and nowhere else is dark.
    (segment,) = raster.segments
    px_per_pt = raster.dpi / 72
    grey = raster.pixels.mean(axis=2)
    for t in np.linspace(0.05, 0.95, 7):
        u = segment[0] + (segment[2] - segment[0]) * t
        v = segment[1] + (segment[3] - segment[1]) * t
        row, col = round(v * px_per_pt), round(u * px_per_pt)
        assert grey[row - 2 : row + 3, col - 2 : col + 3].min() < 64
    # the wall as shown: 100 pt from the unturned top edge, 100-400 pt from its left edge
    expected = {
        90: (h - 100, 100, h - 100, 400),  # the top-left corner turned to the top-right
        180: (w - 100, h - 100, w - 400, h - 100),
        270: (100, w - 100, 100, w - 400),  # ... to the bottom-left
    }[rotate]
    assert segment == pytest.approx(expected)
