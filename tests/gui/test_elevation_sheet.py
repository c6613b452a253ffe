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
