"""``main.py bom -o OUT.xlsx`` runs the BOM half in a forked child (model/runtime/forked_call) and
writes the workbook an in-process export writes, sheet for sheet."""

from __future__ import annotations

import zipfile
from pathlib import Path

from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.outputs.bom_files import export_bom
from tests.forked_runs import main_py_forks, needs_two_cores, run_recording_forks

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "superpod-4su.hall.json"


def _members(path: Path) -> dict[str, bytes]:
    """Every member of the workbook but its creation time (docProps/core.xml)."""
    with zipfile.ZipFile(path) as book:
        return {n: book.read(n) for n in book.namelist() if n != "docProps/core.xml"}


@needs_two_cores
def test_main_py_s_forked_workbook_is_the_in_process_one(tmp_path):
    forked_out = tmp_path / "forked.xlsx"
    # The BOM half forked; a schedule sheet under two chunks a half (40,000 rows) is not split.
    assert main_py_forks(["bom", str(EXAMPLE), "-o", str(forked_out)]) == (
        "exit 0",
        "forked [True, False]",
    )

    design = load_design(EXAMPLE)
    plant = RoutedLinks(design)
    here_out = tmp_path / "here.xlsx"
    lines = export_bom(here_out, design, plant, fork=False)
    assert lines and _members(forked_out) == _members(here_out)


@needs_two_cores
def test_a_plain_sheet_half_encoded_in_a_child_is_the_sheet_encoded_here():
    """The schedule's sheet split at a chunk boundary, its second half encoded and deflated in
    a forked child: the same XML and shared strings, and a valid archive."""
    code = (
        "import hashlib, io, zipfile\n"
        "from model.outputs.writers import xlsx_writer\n"
        "from model.outputs.writers.csv_writer import CodedColumns\n"
        "from model.outputs.writers.xlsx_writer import Sheet, workbook_bytes\n"
        "import numpy as np\n"
        "xlsx_writer._CHUNK_ROWS = 7\n"
        "n = 100\n"
        "coded = CodedColumns([('a', 1.5), ('b', None)], np.arange(n) % 2, 2)\n"
        "columns = [[f'id{i}' for i in range(n)], [f'rack {i % 3}' for i in range(n)], coded]\n"
        "sheet = Sheet('Plain', ('id', 'rack', 'x', 'y'), (), plain=True, columns=columns)\n"
        "def members(data):\n"
        "    book = zipfile.ZipFile(io.BytesIO(data))\n"
        "    assert book.testzip() is None\n"
        "    return {m: hashlib.md5(book.read(m)).hexdigest() for m in book.namelist()\n"
        "            if m != 'docProps/core.xml'}\n"
        "here, there = workbook_bytes([sheet]), workbook_bytes([sheet], fork=True)\n"
        "print(made, members(here) == members(there), len(members(here)))\n"
    )
    made, same, count = run_recording_forks(code)[-1].rsplit(None, 2)
    assert (made, same) == ("[False, True]", "True") and int(count) > 5
