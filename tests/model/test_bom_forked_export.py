"""``main.py bom -o OUT.xlsx`` runs the BOM half in a forked child (model/runtime/forked_call) and
writes the workbook an in-process export writes, sheet for sheet."""

from __future__ import annotations

import zipfile
from pathlib import Path

from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.outputs.bom_files import export_bom
from tests.forked_runs import main_py_forks, needs_two_cores

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "superpod-4su.hall.json"


def _members(path: Path) -> dict[str, bytes]:
    """Every member of the workbook but its creation time (docProps/core.xml)."""
    with zipfile.ZipFile(path) as book:
        return {n: book.read(n) for n in book.namelist() if n != "docProps/core.xml"}


@needs_two_cores
def test_main_py_s_forked_workbook_is_the_in_process_one(tmp_path):
    forked_out = tmp_path / "forked.xlsx"
    # The BOM half forked, and nothing else (the schedule's sheet is encoded in this process).
    assert main_py_forks(["bom", str(EXAMPLE), "-o", str(forked_out)]) == (
        "exit 0",
        "forked [True]",
    )

    design = load_design(EXAMPLE)
    plant = RoutedLinks(design)
    here_out = tmp_path / "here.xlsx"
    lines = export_bom(here_out, design, plant, fork=False)
    assert lines and _members(forked_out) == _members(here_out)
