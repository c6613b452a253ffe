"""Rack elevation sheets: one PDF page per row of racks, through ``main.py render --elevations``."""

from __future__ import annotations

import re

from cli import run_cli
from cli.gui_command import EXAMPLE
from model.design.rack_rows import rack_rows
from model.files.design_file import load_design
from tests.gui.test_render import OUTPUT


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def test_rows_group_racks_by_the_letters_of_their_names():
    rows = rack_rows(load_design(EXAMPLE))
    assert [label for label, _ in rows] == ["A", "B"]
    assert [r.name for r in rows[0][1]] == [f"A0{i}" for i in range(1, 10)]


def test_rows_fall_back_to_the_floor_when_names_have_no_letters():
    design = load_design(EXAMPLE)
    for rack in list(design.racks.values()):
        rack.name = rack.name[1:]  # "01", "02", ...: no row letters left
    rows = rack_rows(design)
    assert len(rows) == 2 and sum(len(racks) for _, racks in rows) == len(design.racks)


def test_elevations_pdf_has_one_page_per_row(qapp, capsys):
    OUTPUT.mkdir(exist_ok=True)
    out = OUTPUT / "small-pod-elevations.pdf"
    out.unlink(missing_ok=True)
    assert run_cli(["render", str(EXAMPLE), "-o", str(out), "--elevations"]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert pdf_pages(data) == len(rack_rows(load_design(EXAMPLE))) == 2
    assert "2 pages" in capsys.readouterr().out


def test_elevations_refuse_a_bad_file_or_format_with_a_sentence(qapp, tmp_path, capsys):
    bad = tmp_path / "bad.hall.json"
    bad.write_text("{ not json")
    assert run_cli(["render", str(bad), "-o", str(tmp_path / "e.pdf"), "--elevations"]) == 2
    err = capsys.readouterr().err
    assert "bad.hall.json" in err and "Traceback" not in err
    assert run_cli(["render", str(EXAMPLE), "-o", str(tmp_path / "e.png"), "--elevations"]) == 2
    assert "use .pdf" in capsys.readouterr().err


def test_power_labels_fit_their_rack_column_at_24_racks_a_row(qapp, tmp_path):
    """One figure a line, in a font that fits the column (issue 38: at 24 racks a row the
    one-line labels ran into each other). The sheet of such a row is written too."""
    from PySide6.QtGui import QFontMetricsF

    from gui.pictures.elevation_sheet import (
        LABEL_SPAN,
        MAX_COLUMN,
        PAGE_W,
        U_LABEL,
        label_font,
        power_lines,
        write_elevations_pdf,
    )
    from tests.builders import empty_hall, rack

    column = min(MAX_COLUMN, (PAGE_W - U_LABEL) / 24)
    frame_w = column * 0.88
    lines = power_lines(131_900.0, 140_900.0, 132_000.0)  # an NVL72 rack over its budget
    assert lines == ["typ 131.9 kW", "max 140.9 kW", "of 132 kW", "OVER"]
    font = label_font(lines, frame_w * LABEL_SPAN, min(30.0, frame_w / 7), bold=True)
    widest = max(QFontMetricsF(font).horizontalAdvance(line) for line in lines)
    assert widest <= frame_w * LABEL_SPAN < column  # inside its own column: no overlap
    assert font.pixelSize() >= 14  # and still a legible size on an A3 sheet
    one_line = "typ 131.9 / max 140.9 of 132 kW"  # the old label, in the same font
    assert QFontMetricsF(font).horizontalAdvance(one_line) > column  # it did overlap
    design = empty_hall(20.0, 8.4)
    for i in range(24):
        rack(design, f"r{i}", 0.9 + i * 0.6, 3.0, name=f"A{i + 1:02d}")
    out = tmp_path / "row.pdf"
    assert write_elevations_pdf(design, out) == 1
    assert out.read_bytes().startswith(b"%PDF")
