"""``validate`` of a design with an underlay says whether its drawing is found, changed or
missing (the design is valid either way: exit 0)."""

from __future__ import annotations

import shutil
from pathlib import Path

from cli import run_cli

DATA = Path(__file__).resolve().parents[1] / "data"


def test_validate_says_where_the_underlay_stands(tmp_path, capsys):
    design = tmp_path / "hall.hall.json"
    shutil.copy(DATA / "golden-v4.hall.json", design)
    drawing = tmp_path / "underlay-hall.dxf"
    shutil.copy(DATA / "underlay-hall.dxf", drawing)
    assert run_cli(["validate", str(design)]) == 0
    assert "underlay underlay-hall.dxf: found" in capsys.readouterr().out
    drawing.write_bytes(drawing.read_bytes() + b"999\nedited\n")
    assert run_cli(["validate", str(design)]) == 0
    assert "has changed since it was placed" in capsys.readouterr().out
    drawing.unlink()
    assert run_cli(["validate", str(design)]) == 0
    assert "underlay-hall.dxf is missing" in capsys.readouterr().out


def test_validate_says_when_the_pdf_underlay_cannot_be_read(tmp_path, capsys):
    import msgspec

    from model.files.design_file import load_design, save_design
    from model.files.underlay_file import file_sha256
    from tests.pdf_pages import A4, plan_pdf, write_pdf

    design_path = tmp_path / "hall.hall.json"
    shutil.copy(DATA / "golden-v4.hall.json", design_path)
    plan = plan_pdf(tmp_path / "plan.pdf")
    design = load_design(design_path)
    design.set_underlay(
        msgspec.structs.replace(
            design.hall.underlay, path="plan.pdf", sha256=file_sha256(plan), kind="pdf", page=2
        )
    )
    save_design(design, design_path)
    assert run_cli(["validate", str(design_path)]) == 0
    assert "underlay plan.pdf: found" in capsys.readouterr().out
    write_pdf(plan, [(*A4, [])])  # replaced by a one-page PDF: page 2 is gone
    assert run_cli(["validate", str(design_path)]) == 0
    out = capsys.readouterr().out
    assert "has changed since it was placed" in out
    assert "plan.pdf has 1 page; there is no page 2" in out
    plan.write_bytes(b"%PDF-1.4\ncut short")
    assert run_cli(["validate", str(design_path)]) == 0
    assert "plan.pdf is not a readable PDF" in capsys.readouterr().out
