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
