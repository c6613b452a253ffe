"""The bom, schedule and export-netbox commands: files on success, exit 2 and a sentence on bad
input, and never a half-written file."""

from __future__ import annotations

import csv
import os

import openpyxl
import pytest

from cli import run_cli
from model.files.design_file import save_design


@pytest.fixture
def design_file(tmp_path, pod):
    path = tmp_path / "pod.hall.json"
    save_design(pod, path)
    return path


def test_bom_csv_and_xlsx(tmp_path, design_file, capsys):
    assert run_cli(["bom", str(design_file), "-o", str(tmp_path / "bom.csv")]) == 0
    with open(tmp_path / "bom.csv", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][0] == "category" and rows[-1][0] == "Total"
    assert run_cli(["bom", str(design_file), "-o", str(tmp_path / "bom.xlsx")]) == 0
    book = openpyxl.load_workbook(tmp_path / "bom.xlsx")
    assert book.sheetnames == ["Summary", "BOM", "Cabling schedule", "Warnings"]
    assert "BOM lines" in capsys.readouterr().out


def test_schedule_and_netbox(tmp_path, design_file, pod):
    assert run_cli(["schedule", str(design_file), "-o", str(tmp_path / "cut.csv")]) == 0
    with open(tmp_path / "cut.csv", newline="") as handle:
        assert len(list(csv.reader(handle))) == 1 + len(pod.links)
    assert run_cli(["export-netbox", str(design_file), "-o", str(tmp_path / "nb")]) == 0
    assert (tmp_path / "nb" / "site" / "08_cables.csv").exists()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["bom", "{missing}", "-o", "{out}/x.csv"], "cannot be read"),
        (["bom", "{design}", "-o", "{out}/x.pdf"], "must end in .csv or .xlsx"),
        (["bom", "{design}", "-o", "{out}/no/such/dir/x.xlsx"], "does not exist"),
        (["schedule", "{design}", "-o", "{out}/x.xlsx"], "must end in .csv"),
        (["schedule", "{bad}", "-o", "{out}/x.csv"], "not valid JSON"),
        (["export-netbox", "{design}", "-o", "{out}/no/such/dir"], "does not exist"),
        (["export-netbox", "{design}", "-o", "{design}"], "not a folder"),
    ],
)
def test_bad_input_exits_2_with_a_sentence_and_writes_nothing(
    tmp_path, design_file, capsys, argv, message
):
    bad = tmp_path / "bad.hall.json"
    bad.write_text("{not json")
    out = tmp_path / "out"
    out.mkdir()
    names = {
        "missing": tmp_path / "missing.hall.json",
        "design": design_file,
        "bad": bad,
        "out": out,
    }
    argv = [a.format(**names) for a in argv]
    before = sorted(os.listdir(tmp_path))
    assert run_cli(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert err.count("\n") == 1
    assert sorted(os.listdir(tmp_path)) == before
    assert os.listdir(out) == []
